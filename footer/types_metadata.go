package footer

// FileMetaData is the file footer (thrift FileMetaData).
type FileMetaData struct {
	Version int32
	// Schema is the depth-first list of schema elements; element 0 is the root.
	Schema           []SchemaElement
	NumRows          int64
	RowGroups        []RowGroup
	KeyValueMetadata []KeyValue
	CreatedBy        Optional[string]
	// ColumnOrders has one entry per leaf column when present.
	ColumnOrders []ColumnOrder
	// EncryptionAlgorithm is set in plaintext footers of encrypted files.
	EncryptionAlgorithm      *EncryptionAlgorithm
	FooterSigningKeyMetadata []byte
}

// SchemaElement is one node of the flattened schema (thrift SchemaElement).
type SchemaElement struct {
	// Type is set for leaves only.
	Type           Optional[Type]
	TypeLength     Optional[int32]
	RepetitionType Optional[FieldRepetitionType]
	Name           string
	// NumChildren is set for groups only.
	NumChildren   Optional[int32]
	ConvertedType Optional[ConvertedType]
	Scale         Optional[int32]
	Precision     Optional[int32]
	FieldID       Optional[int32]
	// LogicalType has Kind LogicalNone when the field is absent.
	LogicalType LogicalType
}

// RowGroup is one horizontal partition of the file (thrift RowGroup).
type RowGroup struct {
	// Columns has one chunk per leaf column, in schema order.
	Columns             []ColumnChunk
	TotalByteSize       int64
	NumRows             int64
	SortingColumns      []SortingColumn
	FileOffset          Optional[int64]
	TotalCompressedSize Optional[int64]
	Ordinal             Optional[int16]
}

// ColumnChunk locates one column of one row group (thrift ColumnChunk).
type ColumnChunk struct {
	FilePath   Optional[string]
	FileOffset int64
	// MetaData is nil when the column's metadata is encrypted (see
	// EncryptedColumnMetadata) or, in malformed files, missing.
	MetaData          *ColumnMetaData
	OffsetIndexOffset Optional[int64]
	OffsetIndexLength Optional[int32]
	ColumnIndexOffset Optional[int64]
	ColumnIndexLength Optional[int32]
	CryptoMetadata    *ColumnCryptoMetaData
	// EncryptedColumnMetadata is an encrypted, serialized ColumnMetaData.
	EncryptedColumnMetadata []byte
}

// ColumnMetaData describes one column chunk's pages (thrift ColumnMetaData).
type ColumnMetaData struct {
	Type                  Type
	Encodings             []Encoding
	PathInSchema          []string
	Codec                 CompressionCodec
	NumValues             int64
	TotalUncompressedSize int64
	TotalCompressedSize   int64
	KeyValueMetadata      []KeyValue
	DataPageOffset        int64
	IndexPageOffset       Optional[int64]
	DictionaryPageOffset  Optional[int64]
	Statistics            *Statistics
	EncodingStats         []PageEncodingStats
	BloomFilterOffset     Optional[int64]
	BloomFilterLength     Optional[int32]
	SizeStatistics        *SizeStatistics
	GeospatialStatistics  *GeospatialStatistics
}

// KeyValue is one application-defined metadata entry (thrift KeyValue).
type KeyValue struct {
	Key   string
	Value Optional[string]
}

// SortingColumn says a row group is sorted by one column (thrift SortingColumn).
type SortingColumn struct {
	// ColumnIdx is the leaf column index.
	ColumnIdx  int32
	Descending bool
	NullsFirst bool
}

// PageEncodingStats counts the pages of one type and encoding in a column
// chunk (thrift PageEncodingStats).
type PageEncodingStats struct {
	PageType PageType
	Encoding Encoding
	Count    int32
}

// Statistics are the statistics of a page or column chunk (thrift
// Statistics). Max and Min are the deprecated signed-order fields;
// MaxValue and MinValue follow the column order.
type Statistics struct {
	Max             []byte
	Min             []byte
	NullCount       Optional[int64]
	DistinctCount   Optional[int64]
	MaxValue        []byte
	MinValue        []byte
	IsMaxValueExact Optional[bool]
	IsMinValueExact Optional[bool]
	NanCount        Optional[int64]
}

// SizeStatistics help estimate decoded sizes (thrift SizeStatistics).
type SizeStatistics struct {
	UnencodedByteArrayDataBytes Optional[int64]
	RepetitionLevelHistogram    []int64
	DefinitionLevelHistogram    []int64
}

// BoundingBox bounds the coordinates of a geospatial column (thrift
// BoundingBox).
type BoundingBox struct {
	Xmin float64
	Xmax float64
	Ymin float64
	Ymax float64
	Zmin Optional[float64]
	Zmax Optional[float64]
	Mmin Optional[float64]
	Mmax Optional[float64]
}

// GeospatialStatistics are the statistics of a GEOMETRY or GEOGRAPHY column
// (thrift GeospatialStatistics).
type GeospatialStatistics struct {
	Bbox *BoundingBox
	// GeospatialTypes lists WKB geometry type codes.
	GeospatialTypes []int32
}
