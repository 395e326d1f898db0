package footer

import "strconv"

// enumName returns names[v] when v indexes a non-empty name and otherwise
// typ(v), so values this package does not know still print usefully.
func enumName[E ~int8 | ~int16 | ~int32](v E, names []string, typ string) string {
	if v >= 0 && int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(int(v)) + ")"
}

// Type is the physical type of a column (thrift Type).
type Type int32

// Physical types.
const (
	TypeBoolean           Type = 0
	TypeInt32             Type = 1
	TypeInt64             Type = 2
	TypeInt96             Type = 3
	TypeFloat             Type = 4
	TypeDouble            Type = 5
	TypeByteArray         Type = 6
	TypeFixedLenByteArray Type = 7
)

var typeNames = []string{"BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"}

// String returns the thrift name of t, or Type(n) for an unknown value.
func (t Type) String() string { return enumName(t, typeNames, "Type") }

// ConvertedType is the legacy logical annotation of a schema element (thrift
// ConvertedType); LogicalType supersedes it.
type ConvertedType int32

// Converted types.
const (
	ConvertedUTF8            ConvertedType = 0
	ConvertedMap             ConvertedType = 1
	ConvertedMapKeyValue     ConvertedType = 2
	ConvertedList            ConvertedType = 3
	ConvertedEnum            ConvertedType = 4
	ConvertedDecimal         ConvertedType = 5
	ConvertedDate            ConvertedType = 6
	ConvertedTimeMillis      ConvertedType = 7
	ConvertedTimeMicros      ConvertedType = 8
	ConvertedTimestampMillis ConvertedType = 9
	ConvertedTimestampMicros ConvertedType = 10
	ConvertedUint8           ConvertedType = 11
	ConvertedUint16          ConvertedType = 12
	ConvertedUint32          ConvertedType = 13
	ConvertedUint64          ConvertedType = 14
	ConvertedInt8            ConvertedType = 15
	ConvertedInt16           ConvertedType = 16
	ConvertedInt32           ConvertedType = 17
	ConvertedInt64           ConvertedType = 18
	ConvertedJSON            ConvertedType = 19
	ConvertedBSON            ConvertedType = 20
	ConvertedInterval        ConvertedType = 21
)

var convertedNames = []string{
	"UTF8", "MAP", "MAP_KEY_VALUE", "LIST", "ENUM", "DECIMAL", "DATE",
	"TIME_MILLIS", "TIME_MICROS", "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS",
	"UINT_8", "UINT_16", "UINT_32", "UINT_64", "INT_8", "INT_16", "INT_32", "INT_64",
	"JSON", "BSON", "INTERVAL",
}

// String returns the thrift name of c, or ConvertedType(n) for an unknown value.
func (c ConvertedType) String() string { return enumName(c, convertedNames, "ConvertedType") }

// FieldRepetitionType says whether a schema field is required, optional or
// repeated (thrift FieldRepetitionType).
//
// The constants carry a Repetition prefix because the package's generic
// [Optional] type takes the bare name.
type FieldRepetitionType int32

// Repetition types.
const (
	RepetitionRequired FieldRepetitionType = 0
	RepetitionOptional FieldRepetitionType = 1
	RepetitionRepeated FieldRepetitionType = 2
)

var repetitionNames = []string{"REQUIRED", "OPTIONAL", "REPEATED"}

// String returns the thrift name of r, or FieldRepetitionType(n) for an unknown value.
func (r FieldRepetitionType) String() string {
	return enumName(r, repetitionNames, "FieldRepetitionType")
}

// Encoding is a page or level encoding (thrift Encoding).
type Encoding int32

// Encodings. Value 1 (the long-removed GROUP_VAR_INT) has no constant.
const (
	EncodingPlain                Encoding = 0
	EncodingPlainDictionary      Encoding = 2
	EncodingRLE                  Encoding = 3
	EncodingBitPacked            Encoding = 4
	EncodingDeltaBinaryPacked    Encoding = 5
	EncodingDeltaLengthByteArray Encoding = 6
	EncodingDeltaByteArray       Encoding = 7
	EncodingRLEDictionary        Encoding = 8
	EncodingByteStreamSplit      Encoding = 9
	EncodingALP                  Encoding = 10
)

var encodingNames = []string{
	"PLAIN", "", "PLAIN_DICTIONARY", "RLE", "BIT_PACKED", "DELTA_BINARY_PACKED",
	"DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY", "RLE_DICTIONARY", "BYTE_STREAM_SPLIT", "ALP",
}

// String returns the thrift name of e, or Encoding(n) for an unknown value.
func (e Encoding) String() string { return enumName(e, encodingNames, "Encoding") }

// CompressionCodec is the codec that compresses a column chunk's pages
// (thrift CompressionCodec).
type CompressionCodec int32

// Compression codecs.
const (
	CodecUncompressed CompressionCodec = 0
	CodecSnappy       CompressionCodec = 1
	CodecGzip         CompressionCodec = 2
	CodecLZO          CompressionCodec = 3
	CodecBrotli       CompressionCodec = 4
	CodecLZ4          CompressionCodec = 5
	CodecZstd         CompressionCodec = 6
	CodecLZ4Raw       CompressionCodec = 7
)

var codecNames = []string{"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"}

// String returns the thrift name of c, or CompressionCodec(n) for an unknown value.
func (c CompressionCodec) String() string { return enumName(c, codecNames, "CompressionCodec") }

// PageType is the kind of a page (thrift PageType).
type PageType int32

// Page types.
const (
	PageTypeData       PageType = 0
	PageTypeIndex      PageType = 1
	PageTypeDictionary PageType = 2
	PageTypeDataV2     PageType = 3
)

var pageTypeNames = []string{"DATA_PAGE", "INDEX_PAGE", "DICTIONARY_PAGE", "DATA_PAGE_V2"}

// String returns the thrift name of p, or PageType(n) for an unknown value.
func (p PageType) String() string { return enumName(p, pageTypeNames, "PageType") }

// BoundaryOrder says how a ColumnIndex's per-page min and max values are
// ordered (thrift BoundaryOrder).
type BoundaryOrder int32

// Boundary orders.
const (
	BoundaryUnordered  BoundaryOrder = 0
	BoundaryAscending  BoundaryOrder = 1
	BoundaryDescending BoundaryOrder = 2
)

var boundaryNames = []string{"UNORDERED", "ASCENDING", "DESCENDING"}

// String returns the thrift name of b, or BoundaryOrder(n) for an unknown value.
func (b BoundaryOrder) String() string { return enumName(b, boundaryNames, "BoundaryOrder") }

// EdgeInterpolationAlgorithm is how a GEOGRAPHY column interpolates the edges
// between its vertices (thrift EdgeInterpolationAlgorithm).
type EdgeInterpolationAlgorithm int32

// Edge interpolation algorithms.
const (
	EdgeSpherical EdgeInterpolationAlgorithm = 0
	EdgeVincenty  EdgeInterpolationAlgorithm = 1
	EdgeThomas    EdgeInterpolationAlgorithm = 2
	EdgeAndoyer   EdgeInterpolationAlgorithm = 3
	EdgeKarney    EdgeInterpolationAlgorithm = 4
)

var edgeNames = []string{"SPHERICAL", "VINCENTY", "THOMAS", "ANDOYER", "KARNEY"}

// String returns the thrift name of e, or EdgeInterpolationAlgorithm(n) for an unknown value.
func (e EdgeInterpolationAlgorithm) String() string {
	return enumName(e, edgeNames, "EdgeInterpolationAlgorithm")
}
