package schema

import (
	"math/big"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/quiverio/quiver/footer"
)

// Field metadata keys the schema mapping reads and writes.
const (
	// FieldIDKey holds a Parquet field_id in Arrow field metadata, as
	// arrow-go and Arrow C++ spell it.
	FieldIDKey = "PARQUET:field_id"
	// LogicalTypeKey keeps a Parquet annotation that no Arrow type expresses
	// (VARIANT, FILE, a GEOGRAPHY of an unknown algorithm) in the field
	// metadata, rendered as footer.LogicalType.String does: "VARIANT(1)",
	// "GEOGRAPHY(EdgeInterpolationAlgorithm(9))", ...
	LogicalTypeKey = "PARQUET:logical_type"
)

// uuidExtensionName is the name arrow-go and Arrow C++ register their UUID
// extension type under; jsonExtensionName likewise for JSON.
const (
	uuidExtensionName = "arrow.uuid"
	jsonExtensionName = "arrow.json"
)

// MaxDecimalPrecision is the widest precision an Arrow decimal (decimal256)
// holds; maxDecimal128Precision the widest decimal128 holds.
const (
	MaxDecimalPrecision    = 76
	maxDecimal128Precision = 38
)

// leafType returns the Arrow type of leaf n's values and the metadata its
// annotation adds to the field (nil for most types); kv is the file's
// key-value metadata, where a GEOMETRY's "projjson:" CRS points.
//
// The annotation is resolved as LogicalTypes.md asks: the LogicalType first,
// the legacy ConvertedType when the LogicalType is absent, unrecognized or
// does not apply to the physical type (STRING on an INT32, INT(64) on an
// INT32, a DECIMAL whose precision the storage cannot hold, ...), and the
// physical type last. A file is never rejected for its annotations.
//
// The column reader derives its conversion from the leaf's final Arrow type
// (after ARROW:schema) and its physical type; the pairs that are not a
// plain copy of the stored values are:
//   - INT32 to int8/uint8/int16/uint16 (narrowing), INT32 and INT64 to
//     decimal32/64/128/256 (sign extension), FIXED_LEN_BYTE_ARRAY and
//     BYTE_ARRAY to decimals (big-endian two's complement, sign-extended),
//   - INT96 (nanoseconds of the day, Julian day) to the timestamp unit of
//     Options.Int96,
//   - FIXED_LEN_BYTE_ARRAY(12) INTERVAL (months, days, milliseconds as
//     uint32) to month_day_nano_interval (milliseconds times 1e6),
//   - BYTE_ARRAY to the large and view layouts and to dictionaries.
//
// date32, time32/64, timestamps, durations, uint32/uint64 (the INT32 and
// INT64 bits), float16, fixed_size_binary and the UUID extension hold the
// stored values as they are.
func leafType(n *footer.Node, opts *Options, kv []footer.KeyValue) (arrow.DataType, []string) {
	lt := n.Logical()
	switch lt.Kind {
	case footer.LogicalNone, footer.LogicalUnrecognized:
	case footer.LogicalGeometry, footer.LogicalGeography:
		if n.Physical == footer.TypeByteArray {
			if dt := geoLeafType(lt, binaryType(opts), kv); dt != nil {
				return dt, nil
			}
			return binaryType(opts), []string{LogicalTypeKey, lt.String()}
		}
	default:
		if dt := logicalLeafType(n, lt, opts); dt != nil {
			return dt, nil
		}
	}
	if ct, ok := n.Converted().Get(); ok {
		if dt := convertedLeafType(n, ct, opts); dt != nil {
			return dt, nil
		}
	}
	return physicalLeafType(n, opts), nil
}

// logicalLeafType maps a LogicalType annotation on leaf n, or returns nil
// when the annotation does not apply to n's physical type.
func logicalLeafType(n *footer.Node, lt footer.LogicalType, opts *Options) arrow.DataType {
	switch lt.Kind {
	case footer.LogicalUnknown:
		return arrow.Null
	case footer.LogicalString, footer.LogicalEnum, footer.LogicalJSON:
		if n.Physical == footer.TypeByteArray {
			return stringType(opts)
		}
	case footer.LogicalBSON:
		if n.Physical == footer.TypeByteArray {
			return binaryType(opts)
		}
	case footer.LogicalUUID:
		if n.Physical == footer.TypeFixedLenByteArray && n.TypeLength == 16 {
			return uuidType()
		}
	case footer.LogicalFloat16:
		if n.Physical == footer.TypeFixedLenByteArray && n.TypeLength == 2 {
			return arrow.FixedWidthTypes.Float16
		}
	case footer.LogicalInteger:
		return intType(n.Physical, int(lt.Integer.BitWidth), lt.Integer.IsSigned)
	case footer.LogicalDecimal:
		return decimalType(n, lt.Decimal.Precision, lt.Decimal.Scale)
	case footer.LogicalDate:
		if n.Physical == footer.TypeInt32 {
			return arrow.FixedWidthTypes.Date32
		}
	case footer.LogicalTime:
		return timeType(n.Physical, lt.Time.Unit)
	case footer.LogicalTimestamp:
		if n.Physical == footer.TypeInt64 {
			return timestampType(lt.Timestamp.Unit, lt.Timestamp.IsAdjustedToUTC)
		}
	}
	return nil
}

// convertedLeafType maps a legacy ConvertedType annotation on leaf n, or
// returns nil when it does not apply to n's physical type.
func convertedLeafType(n *footer.Node, ct footer.ConvertedType, opts *Options) arrow.DataType {
	switch ct {
	case footer.ConvertedUTF8, footer.ConvertedEnum, footer.ConvertedJSON:
		if n.Physical == footer.TypeByteArray {
			return stringType(opts)
		}
	case footer.ConvertedBSON:
		if n.Physical == footer.TypeByteArray {
			return binaryType(opts)
		}
	case footer.ConvertedDecimal:
		p, pok := n.Element.Precision.Get()
		if pok {
			return decimalType(n, p, n.Element.Scale.Or(0))
		}
	case footer.ConvertedDate:
		if n.Physical == footer.TypeInt32 {
			return arrow.FixedWidthTypes.Date32
		}
	case footer.ConvertedTimeMillis:
		return timeType(n.Physical, footer.TimeUnitMillis)
	case footer.ConvertedTimeMicros:
		return timeType(n.Physical, footer.TimeUnitMicros)
	case footer.ConvertedTimestampMillis, footer.ConvertedTimestampMicros:
		// The converted timestamps are UTC-normalized (LogicalTypes.md,
		// backward compatibility), so they carry the "UTC" zone as in
		// arrow-go and Arrow C++.
		if n.Physical == footer.TypeInt64 {
			unit := footer.TimeUnitMillis
			if ct == footer.ConvertedTimestampMicros {
				unit = footer.TimeUnitMicros
			}
			return timestampType(unit, true)
		}
	case footer.ConvertedInt8, footer.ConvertedInt16, footer.ConvertedInt32, footer.ConvertedInt64,
		footer.ConvertedUint8, footer.ConvertedUint16, footer.ConvertedUint32, footer.ConvertedUint64:
		return intType(n.Physical, convertedIntWidth(ct), ct >= footer.ConvertedInt8)
	case footer.ConvertedInterval:
		// months, days and milliseconds as three little-endian uint32; the
		// reader widens milliseconds to the nanoseconds of month_day_nano.
		if n.Physical == footer.TypeFixedLenByteArray && n.TypeLength == 12 {
			return arrow.FixedWidthTypes.MonthDayNanoInterval
		}
	}
	return nil
}

// convertedIntWidth returns the bit width of an INT_n or UINT_n converted type.
func convertedIntWidth(ct footer.ConvertedType) int {
	switch ct {
	case footer.ConvertedInt8, footer.ConvertedUint8:
		return 8
	case footer.ConvertedInt16, footer.ConvertedUint16:
		return 16
	case footer.ConvertedInt32, footer.ConvertedUint32:
		return 32
	}
	return 64
}

// physicalLeafType maps a leaf without a usable annotation by its physical
// type alone.
func physicalLeafType(n *footer.Node, opts *Options) arrow.DataType {
	switch n.Physical {
	case footer.TypeBoolean:
		return arrow.FixedWidthTypes.Boolean
	case footer.TypeInt32:
		return arrow.PrimitiveTypes.Int32
	case footer.TypeInt64:
		return arrow.PrimitiveTypes.Int64
	case footer.TypeInt96:
		if opts.Int96 != nil {
			return opts.Int96
		}
		return &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}
	case footer.TypeFloat:
		return arrow.PrimitiveTypes.Float32
	case footer.TypeDouble:
		return arrow.PrimitiveTypes.Float64
	case footer.TypeByteArray:
		return binaryType(opts)
	}
	// FIXED_LEN_BYTE_ARRAY: footer.NewSchema rejects every other value.
	return &arrow.FixedSizeBinaryType{ByteWidth: int(n.TypeLength)}
}

// stringType returns the Arrow string type of the chosen layout.
func stringType(opts *Options) arrow.DataType {
	switch opts.Strings {
	case StringsLarge:
		return arrow.BinaryTypes.LargeString
	case StringsView:
		return arrow.BinaryTypes.StringView
	}
	return arrow.BinaryTypes.String
}

// binaryType returns the Arrow binary type of the chosen layout.
func binaryType(opts *Options) arrow.DataType {
	switch opts.Strings {
	case StringsLarge:
		return arrow.BinaryTypes.LargeBinary
	case StringsView:
		return arrow.BinaryTypes.BinaryView
	}
	return arrow.BinaryTypes.Binary
}

// uuidType returns arrow-go's registered UUID extension type, as pqarrow
// does (this package imports arrow-go's extensions package for the variant
// type, which registers it), and fixed_size_binary(16) should a program
// unregister it.
func uuidType() arrow.DataType {
	if ext := arrow.GetExtensionType(uuidExtensionName); ext != nil {
		if fsb, ok := ext.StorageType().(*arrow.FixedSizeBinaryType); ok && fsb.ByteWidth == 16 {
			return ext
		}
	}
	return &arrow.FixedSizeBinaryType{ByteWidth: 16}
}

// intType maps an INT(width, signed) annotation on physical type phys, or
// returns nil when the width does not fit it: 8, 16 and 32 annotate INT32,
// 64 annotates INT64.
func intType(phys footer.Type, width int, signed bool) arrow.DataType {
	switch {
	case phys == footer.TypeInt32 && width == 8 && signed:
		return arrow.PrimitiveTypes.Int8
	case phys == footer.TypeInt32 && width == 8:
		return arrow.PrimitiveTypes.Uint8
	case phys == footer.TypeInt32 && width == 16 && signed:
		return arrow.PrimitiveTypes.Int16
	case phys == footer.TypeInt32 && width == 16:
		return arrow.PrimitiveTypes.Uint16
	case phys == footer.TypeInt32 && width == 32 && signed:
		return arrow.PrimitiveTypes.Int32
	case phys == footer.TypeInt32 && width == 32:
		return arrow.PrimitiveTypes.Uint32
	case phys == footer.TypeInt64 && width == 64 && signed:
		return arrow.PrimitiveTypes.Int64
	case phys == footer.TypeInt64 && width == 64:
		return arrow.PrimitiveTypes.Uint64
	}
	return nil
}

// timeType maps a TIME annotation of the given unit on physical type phys,
// or returns nil: MILLIS annotates INT32, MICROS and NANOS annotate INT64.
// The UTC-adjustment flag has no Arrow counterpart and is dropped, as in
// arrow-go and Arrow C++.
func timeType(phys footer.Type, unit footer.TimeUnit) arrow.DataType {
	switch {
	case phys == footer.TypeInt32 && unit == footer.TimeUnitMillis:
		return arrow.FixedWidthTypes.Time32ms
	case phys == footer.TypeInt64 && unit == footer.TimeUnitMicros:
		return arrow.FixedWidthTypes.Time64us
	case phys == footer.TypeInt64 && unit == footer.TimeUnitNanos:
		return arrow.FixedWidthTypes.Time64ns
	}
	return nil
}

// timestampType maps a TIMESTAMP annotation on an INT64, or returns nil for
// a unit this package does not know. Instants (isAdjustedToUTC) carry the
// "UTC" zone; local timestamps carry none.
func timestampType(unit footer.TimeUnit, utc bool) arrow.DataType {
	tz := ""
	if utc {
		tz = "UTC"
	}
	switch unit {
	case footer.TimeUnitMillis:
		return &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: tz}
	case footer.TimeUnitMicros:
		return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: tz}
	case footer.TimeUnitNanos:
		return &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: tz}
	}
	return nil
}

// decimalType maps DECIMAL(precision, scale) on leaf n to decimal128, or to
// decimal256 above 38 digits, or returns nil when the parameters break
// LogicalTypes.md: precision below 1 or beyond what the storage holds (9
// digits in INT32, 18 in INT64, floor(log10(2^(8n-1)-1)) in an n-byte
// FIXED_LEN_BYTE_ARRAY, 76 in Arrow), or a scale outside [0, precision].
func decimalType(n *footer.Node, precision, scale int32) arrow.DataType {
	if precision < 1 || precision > MaxDecimalPrecision || scale < 0 || scale > precision {
		return nil
	}
	switch n.Physical {
	case footer.TypeInt32:
		if precision > 9 {
			return nil
		}
	case footer.TypeInt64:
		if precision > 18 {
			return nil
		}
	case footer.TypeFixedLenByteArray:
		if DecimalBytes(precision) > n.TypeLength {
			return nil
		}
	case footer.TypeByteArray:
	default:
		return nil
	}
	if precision > maxDecimal128Precision {
		return &arrow.Decimal256Type{Precision: precision, Scale: scale}
	}
	return &arrow.Decimal128Type{Precision: precision, Scale: scale}
}

// DecimalBytes returns the fewest bytes whose two's complement holds every
// integer of precision decimal digits: the smallest n with
// 10^precision <= 2^(8n-1). precision is at least 1.
func DecimalBytes(precision int32) int32 {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(precision)), nil)
	// 10^p is not a power of two, so 2^(8n-1) >= 10^p needs 8n-1 >= bitlen.
	return int32(p.BitLen()+1+7) / 8
}

// fieldIDMeta returns n's field id as metadata keys and values, or nil when
// the element has none. A negative id is treated as absent, as Arrow C++
// does.
func fieldIDMeta(n *footer.Node) []string {
	if id, ok := n.Element.FieldID.Get(); ok && id >= 0 {
		return []string{FieldIDKey, strconv.Itoa(int(id))}
	}
	return nil
}

// metadataOf builds field metadata from alternating keys and values.
func metadataOf(kv ...string) arrow.Metadata {
	if len(kv) == 0 {
		return arrow.Metadata{}
	}
	keys := make([]string, 0, len(kv)/2)
	vals := make([]string, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		keys = append(keys, kv[i])
		vals = append(vals, kv[i+1])
	}
	return arrow.NewMetadata(keys, vals)
}
