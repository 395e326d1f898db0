package footer

// PageHeader precedes every page in a column chunk (thrift PageHeader).
// Exactly one of the per-type headers is normally set, matching Type.
type PageHeader struct {
	Type                 PageType
	UncompressedPageSize int32
	CompressedPageSize   int32
	// CRC is the CRC-32 of the page's compressed bytes, when written.
	CRC                  Optional[int32]
	DataPageHeader       *DataPageHeader
	IndexPageHeader      *IndexPageHeader
	DictionaryPageHeader *DictionaryPageHeader
	DataPageHeaderV2     *DataPageHeaderV2
}

// DataPageHeader is the header of a version 1 data page (thrift DataPageHeader).
type DataPageHeader struct {
	NumValues               int32
	Encoding                Encoding
	DefinitionLevelEncoding Encoding
	RepetitionLevelEncoding Encoding
	Statistics              *Statistics
}

// IndexPageHeader is the (empty) header of an index page (thrift IndexPageHeader).
type IndexPageHeader struct{}

// DictionaryPageHeader is the header of a dictionary page (thrift
// DictionaryPageHeader).
type DictionaryPageHeader struct {
	NumValues int32
	Encoding  Encoding
	IsSorted  Optional[bool]
}

// DataPageHeaderV2 is the header of a version 2 data page (thrift
// DataPageHeaderV2).
type DataPageHeaderV2 struct {
	NumValues                  int32
	NumNulls                   int32
	NumRows                    int32
	Encoding                   Encoding
	DefinitionLevelsByteLength int32
	RepetitionLevelsByteLength int32
	// IsCompressed is absent in most files, which means true; use
	// [DataPageHeaderV2.IsCompressedOrDefault].
	IsCompressed Optional[bool]
	Statistics   *Statistics
}

// IsCompressedOrDefault reports whether the page's values section is
// compressed, applying the thrift default (true) when the field is absent.
func (h *DataPageHeaderV2) IsCompressedOrDefault() bool { return h.IsCompressed.Or(true) }
