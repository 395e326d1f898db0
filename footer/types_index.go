package footer

// ColumnIndex holds per-page statistics of one column chunk (thrift
// ColumnIndex). All lists have one entry per page.
type ColumnIndex struct {
	NullPages []bool
	// MinValues and MaxValues are empty byte slices for null pages.
	MinValues                 [][]byte
	MaxValues                 [][]byte
	BoundaryOrder             BoundaryOrder
	NullCounts                []int64
	RepetitionLevelHistograms []int64
	DefinitionLevelHistograms []int64
	NanCounts                 []int64
}

// OffsetIndex locates the pages of one column chunk (thrift OffsetIndex).
type OffsetIndex struct {
	PageLocations               []PageLocation
	UnencodedByteArrayDataBytes []int64
}

// PageLocation is where one page starts and which row it starts with (thrift
// PageLocation).
type PageLocation struct {
	Offset             int64
	CompressedPageSize int32
	FirstRowIndex      int64
}
