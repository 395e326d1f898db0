package footer

// LogicalKind names the member of the thrift LogicalType union that a
// [LogicalType] holds.
type LogicalKind int8

// Logical kinds. LogicalNone means the schema element has no logicalType
// field; LogicalUnrecognized means a union member this package does not know
// (its field id is in LogicalType.UnknownField).
const (
	LogicalNone LogicalKind = iota
	LogicalString
	LogicalMap
	LogicalList
	LogicalEnum
	LogicalDecimal
	LogicalDate
	LogicalTime
	LogicalTimestamp
	LogicalInteger
	LogicalUnknown // thrift UNKNOWN (NullType): only null values
	LogicalJSON
	LogicalBSON
	LogicalUUID
	LogicalFloat16
	LogicalVariant
	LogicalGeometry
	LogicalGeography
	LogicalFile
	LogicalUnrecognized
)

var logicalKindNames = []string{
	"NONE", "STRING", "MAP", "LIST", "ENUM", "DECIMAL", "DATE", "TIME", "TIMESTAMP",
	"INTEGER", "UNKNOWN", "JSON", "BSON", "UUID", "FLOAT16", "VARIANT", "GEOMETRY",
	"GEOGRAPHY", "FILE", "UNRECOGNIZED",
}

// String returns the thrift member name of k (NONE and UNRECOGNIZED for the
// two kinds that are not members), or LogicalKind(n) for other values.
func (k LogicalKind) String() string { return enumName(k, logicalKindNames, "LogicalKind") }

// LogicalType is the thrift LogicalType union as a flat value: Kind names the
// member, and only the field for that member is meaningful (the empty members
// STRING, MAP, LIST, ... carry nothing beyond Kind).
type LogicalType struct {
	Kind      LogicalKind
	Decimal   DecimalType
	Time      TimeType
	Timestamp TimestampType
	Integer   IntType
	Variant   VariantType
	Geometry  GeometryType
	Geography GeographyType
	// UnknownField is the union field id when Kind is LogicalUnrecognized.
	UnknownField int16
}

// DecimalType is the DECIMAL logical type (thrift DecimalType).
type DecimalType struct {
	Scale     int32
	Precision int32
}

// TimeUnit is the member of the thrift TimeUnit union.
type TimeUnit int8

// Time units. TimeUnitUnrecognized stands for a union member this package
// does not know (or an empty union); it encodes as an empty union.
const (
	TimeUnitUnrecognized TimeUnit = 0
	TimeUnitMillis       TimeUnit = 1
	TimeUnitMicros       TimeUnit = 2
	TimeUnitNanos        TimeUnit = 3
)

var timeUnitNames = []string{"UNRECOGNIZED", "MILLIS", "MICROS", "NANOS"}

// String returns the thrift member name of u, or TimeUnit(n) for other values.
func (u TimeUnit) String() string { return enumName(u, timeUnitNames, "TimeUnit") }

// TimeType is the TIME logical type (thrift TimeType).
type TimeType struct {
	IsAdjustedToUTC bool
	Unit            TimeUnit
}

// TimestampType is the TIMESTAMP logical type (thrift TimestampType).
type TimestampType struct {
	IsAdjustedToUTC bool
	Unit            TimeUnit
}

// IntType is the INTEGER logical type (thrift IntType).
type IntType struct {
	BitWidth int8
	IsSigned bool
}

// VariantType is the VARIANT logical type (thrift VariantType).
type VariantType struct {
	SpecificationVersion Optional[int8]
}

// GeometryType is the GEOMETRY logical type (thrift GeometryType).
type GeometryType struct {
	CRS Optional[string]
}

// GeographyType is the GEOGRAPHY logical type (thrift GeographyType).
type GeographyType struct {
	CRS       Optional[string]
	Algorithm Optional[EdgeInterpolationAlgorithm]
}

// ColumnOrderKind names the member of the thrift ColumnOrder union.
type ColumnOrderKind int8

// Column order kinds. The zero value means no member was given;
// ColumnOrderUnrecognized means a member this package does not know (its
// field id is in ColumnOrder.UnknownField).
const (
	ColumnOrderTypeDefined    ColumnOrderKind = 1
	ColumnOrderIEEE754Total   ColumnOrderKind = 2
	ColumnOrderInt96Timestamp ColumnOrderKind = 3
	ColumnOrderUnrecognized   ColumnOrderKind = 4
)

var columnOrderNames = []string{"", "TYPE_ORDER", "IEEE_754_TOTAL_ORDER", "INT96_TIMESTAMP_ORDER", "UNRECOGNIZED"}

// String returns the thrift member name of k, or ColumnOrderKind(n) for other values.
func (k ColumnOrderKind) String() string {
	return enumName(k, columnOrderNames, "ColumnOrderKind")
}

// ColumnOrder is the sort order used for a column's statistics (the thrift
// ColumnOrder union).
type ColumnOrder struct {
	Kind ColumnOrderKind
	// UnknownField is the union field id when Kind is ColumnOrderUnrecognized.
	UnknownField int16
}
