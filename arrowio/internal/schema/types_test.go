package schema

import (
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/geoarrow"
)

// The test binary links arrow-go's extensions package (directly here, and
// through pqarrow in the corpus tests), so arrow.uuid is registered and a
// UUID column maps to it, as in pqarrow.
var uuidExt = extensions.NewUUIDType()

func TestLeafTypes(t *testing.T) {
	const (
		i32  = footer.TypeInt32
		i64  = footer.TypeInt64
		i96  = footer.TypeInt96
		ba   = footer.TypeByteArray
		flba = footer.TypeFixedLenByteArray
	)
	ms, us, ns := footer.TimeUnitMillis, footer.TimeUnitMicros, footer.TimeUnitNanos
	fsb := func(n int) arrow.DataType { return &arrow.FixedSizeBinaryType{ByteWidth: n} }
	ts := func(u arrow.TimeUnit, tz string) arrow.DataType { return &arrow.TimestampType{Unit: u, TimeZone: tz} }
	d128 := func(p, s int32) arrow.DataType { return &arrow.Decimal128Type{Precision: p, Scale: s} }
	d256 := func(p, s int32) arrow.DataType { return &arrow.Decimal256Type{Precision: p, Scale: s} }
	geometry := footer.LogicalType{Kind: footer.LogicalGeometry, Geometry: footer.GeometryType{CRS: footer.Some("srid:5070")}}
	geography := footer.LogicalType{Kind: footer.LogicalGeography}
	karney := footer.LogicalType{Kind: footer.LogicalGeography, Geography: footer.GeographyType{CRS: footer.Some("OGC:CRS27"), Algorithm: footer.Some(footer.EdgeKarney)}}
	oddEdges := footer.LogicalType{Kind: footer.LogicalGeography, Geography: footer.GeographyType{Algorithm: footer.Some(footer.EdgeInterpolationAlgorithm(9))}}
	wkb := func(storage arrow.DataType, md string) arrow.DataType {
		t, err := (&geoarrow.WKBType{}).Deserialize(storage, md)
		if err != nil {
			panic(err)
		}
		return t
	}
	srid5070 := `{"crs":"5070","crs_type":"srid"}`
	crs84 := `{"crs":"OGC:CRS84","crs_type":"authority_code"`
	unrecognized := footer.LogicalType{Kind: footer.LogicalUnrecognized, UnknownField: 2555}

	tests := []struct {
		name string
		phys footer.Type
		mods []elMod
		opts Options
		want arrow.DataType
		meta string // expected PARQUET:logical_type value, if any
	}{
		// Physical types alone.
		{name: "boolean", phys: footer.TypeBoolean, want: arrow.FixedWidthTypes.Boolean},
		{name: "int32", phys: i32, want: arrow.PrimitiveTypes.Int32},
		{name: "int64", phys: i64, want: arrow.PrimitiveTypes.Int64},
		{name: "int96", phys: i96, want: ts(arrow.Nanosecond, "UTC")},
		{name: "int96 option", phys: i96, opts: Options{Int96: &arrow.TimestampType{Unit: arrow.Microsecond}}, want: ts(arrow.Microsecond, "")},
		{name: "float", phys: footer.TypeFloat, want: arrow.PrimitiveTypes.Float32},
		{name: "double", phys: footer.TypeDouble, want: arrow.PrimitiveTypes.Float64},
		{name: "byte_array", phys: ba, want: arrow.BinaryTypes.Binary},
		{name: "byte_array large", phys: ba, opts: Options{Strings: StringsLarge}, want: arrow.BinaryTypes.LargeBinary},
		{name: "byte_array view", phys: ba, opts: Options{Strings: StringsView}, want: arrow.BinaryTypes.BinaryView},
		{name: "flba", phys: flba, mods: []elMod{length(7)}, want: fsb(7)},

		// INT logical type and INT_/UINT_ converted types.
		{name: "INT(8,s)", phys: i32, mods: []elMod{intLT(8, true)}, want: arrow.PrimitiveTypes.Int8},
		{name: "INT(8,u)", phys: i32, mods: []elMod{intLT(8, false)}, want: arrow.PrimitiveTypes.Uint8},
		{name: "INT(16,s)", phys: i32, mods: []elMod{intLT(16, true)}, want: arrow.PrimitiveTypes.Int16},
		{name: "INT(16,u)", phys: i32, mods: []elMod{intLT(16, false)}, want: arrow.PrimitiveTypes.Uint16},
		{name: "INT(32,s)", phys: i32, mods: []elMod{intLT(32, true)}, want: arrow.PrimitiveTypes.Int32},
		{name: "INT(32,u)", phys: i32, mods: []elMod{intLT(32, false)}, want: arrow.PrimitiveTypes.Uint32},
		{name: "INT(64,s)", phys: i64, mods: []elMod{intLT(64, true)}, want: arrow.PrimitiveTypes.Int64},
		{name: "INT(64,u)", phys: i64, mods: []elMod{intLT(64, false)}, want: arrow.PrimitiveTypes.Uint64},
		{name: "INT(64) on INT32 falls back", phys: i32, mods: []elMod{intLT(64, false)}, want: arrow.PrimitiveTypes.Int32},
		{name: "INT(8) on INT64 falls back", phys: i64, mods: []elMod{intLT(8, false)}, want: arrow.PrimitiveTypes.Int64},
		{name: "INT(7) falls back", phys: i32, mods: []elMod{intLT(7, true)}, want: arrow.PrimitiveTypes.Int32},
		{name: "INT_8", phys: i32, mods: []elMod{converted(footer.ConvertedInt8)}, want: arrow.PrimitiveTypes.Int8},
		{name: "INT_16", phys: i32, mods: []elMod{converted(footer.ConvertedInt16)}, want: arrow.PrimitiveTypes.Int16},
		{name: "INT_32", phys: i32, mods: []elMod{converted(footer.ConvertedInt32)}, want: arrow.PrimitiveTypes.Int32},
		{name: "INT_64", phys: i64, mods: []elMod{converted(footer.ConvertedInt64)}, want: arrow.PrimitiveTypes.Int64},
		{name: "UINT_8", phys: i32, mods: []elMod{converted(footer.ConvertedUint8)}, want: arrow.PrimitiveTypes.Uint8},
		{name: "UINT_16", phys: i32, mods: []elMod{converted(footer.ConvertedUint16)}, want: arrow.PrimitiveTypes.Uint16},
		{name: "UINT_32", phys: i32, mods: []elMod{converted(footer.ConvertedUint32)}, want: arrow.PrimitiveTypes.Uint32},
		{name: "UINT_64", phys: i64, mods: []elMod{converted(footer.ConvertedUint64)}, want: arrow.PrimitiveTypes.Uint64},
		{name: "UINT_64 on INT32 falls back", phys: i32, mods: []elMod{converted(footer.ConvertedUint64)}, want: arrow.PrimitiveTypes.Int32},
		{name: "logical wins over converted", phys: i32, mods: []elMod{intLT(16, false), converted(footer.ConvertedInt8)}, want: arrow.PrimitiveTypes.Uint16},

		// Fallbacks for annotations that do not apply.
		{name: "unrecognized logical", phys: ba, mods: []elMod{logical(unrecognized)}, want: arrow.BinaryTypes.Binary},
		{name: "unrecognized logical uses converted", phys: ba, mods: []elMod{logical(unrecognized), converted(footer.ConvertedUTF8)}, want: arrow.BinaryTypes.String},
		{name: "STRING on INT32", phys: i32, mods: []elMod{kind(footer.LogicalString)}, want: arrow.PrimitiveTypes.Int32},
		{name: "STRING on INT32 uses converted", phys: i32, mods: []elMod{kind(footer.LogicalString), converted(footer.ConvertedDate)}, want: arrow.FixedWidthTypes.Date32},
		{name: "UTF8 on INT32", phys: i32, mods: []elMod{converted(footer.ConvertedUTF8)}, want: arrow.PrimitiveTypes.Int32},
		{name: "LIST on a leaf", phys: i32, mods: []elMod{kind(footer.LogicalList)}, want: arrow.PrimitiveTypes.Int32},
		{name: "MAP converted on a leaf", phys: ba, mods: []elMod{converted(footer.ConvertedMap)}, want: arrow.BinaryTypes.Binary},
		{name: "VARIANT on a leaf", phys: ba, mods: []elMod{kind(footer.LogicalVariant)}, want: arrow.BinaryTypes.Binary},

		// Decimals.
		{name: "DECIMAL INT32", phys: i32, mods: []elMod{decimalLT(9, 2)}, want: d128(9, 2)},
		{name: "DECIMAL INT32 too wide", phys: i32, mods: []elMod{decimalLT(10, 2)}, want: arrow.PrimitiveTypes.Int32},
		{name: "DECIMAL INT64", phys: i64, mods: []elMod{decimalLT(18, 0)}, want: d128(18, 0)},
		{name: "DECIMAL INT64 too wide", phys: i64, mods: []elMod{decimalLT(19, 0)}, want: arrow.PrimitiveTypes.Int64},
		{name: "DECIMAL FLBA 16", phys: flba, mods: []elMod{decimalLT(38, 10)}, want: d128(38, 10)},
		{name: "DECIMAL FLBA 16 too wide", phys: flba, mods: []elMod{decimalLT(39, 10)}, want: fsb(16)},
		{name: "DECIMAL FLBA 5", phys: flba, mods: []elMod{length(5), decimalLT(11, 1)}, want: d128(11, 1)},
		{name: "DECIMAL FLBA 5 too wide", phys: flba, mods: []elMod{length(5), decimalLT(12, 1)}, want: fsb(5)},
		{name: "DECIMAL FLBA 32 decimal256", phys: flba, mods: []elMod{length(32), decimalLT(76, 3)}, want: d256(76, 3)},
		{name: "DECIMAL BYTE_ARRAY", phys: ba, mods: []elMod{decimalLT(4, 2)}, want: d128(4, 2)},
		{name: "DECIMAL BYTE_ARRAY decimal256", phys: ba, mods: []elMod{decimalLT(40, 2)}, want: d256(40, 2)},
		{name: "DECIMAL beyond 76 digits", phys: ba, mods: []elMod{decimalLT(77, 2)}, want: arrow.BinaryTypes.Binary},
		{name: "DECIMAL scale above precision", phys: i32, mods: []elMod{decimalLT(4, 5)}, want: arrow.PrimitiveTypes.Int32},
		{name: "DECIMAL negative scale", phys: i64, mods: []elMod{decimalLT(4, -1)}, want: arrow.PrimitiveTypes.Int64},
		{name: "DECIMAL precision 0", phys: i32, mods: []elMod{decimalLT(0, 0)}, want: arrow.PrimitiveTypes.Int32},
		{name: "DECIMAL on DOUBLE", phys: footer.TypeDouble, mods: []elMod{decimalLT(4, 0)}, want: arrow.PrimitiveTypes.Float64},
		{name: "DECIMAL converted", phys: i64, mods: []elMod{converted(footer.ConvertedDecimal), precision(10, 2)}, want: d128(10, 2)},
		{name: "DECIMAL converted without precision", phys: i64, mods: []elMod{converted(footer.ConvertedDecimal)}, want: arrow.PrimitiveTypes.Int64},

		// Dates and times.
		{name: "DATE", phys: i32, mods: []elMod{kind(footer.LogicalDate)}, want: arrow.FixedWidthTypes.Date32},
		{name: "DATE converted", phys: i32, mods: []elMod{converted(footer.ConvertedDate)}, want: arrow.FixedWidthTypes.Date32},
		{name: "DATE on INT64", phys: i64, mods: []elMod{kind(footer.LogicalDate)}, want: arrow.PrimitiveTypes.Int64},
		{name: "TIME MILLIS", phys: i32, mods: []elMod{timeLT(ms, true)}, want: arrow.FixedWidthTypes.Time32ms},
		{name: "TIME MICROS", phys: i64, mods: []elMod{timeLT(us, false)}, want: arrow.FixedWidthTypes.Time64us},
		{name: "TIME NANOS", phys: i64, mods: []elMod{timeLT(ns, true)}, want: arrow.FixedWidthTypes.Time64ns},
		{name: "TIME MILLIS on INT64", phys: i64, mods: []elMod{timeLT(ms, true)}, want: arrow.PrimitiveTypes.Int64},
		{name: "TIME MICROS on INT32", phys: i32, mods: []elMod{timeLT(us, true)}, want: arrow.PrimitiveTypes.Int32},
		{name: "TIME_MILLIS", phys: i32, mods: []elMod{converted(footer.ConvertedTimeMillis)}, want: arrow.FixedWidthTypes.Time32ms},
		{name: "TIME_MICROS", phys: i64, mods: []elMod{converted(footer.ConvertedTimeMicros)}, want: arrow.FixedWidthTypes.Time64us},
		{name: "TIMESTAMP MILLIS UTC", phys: i64, mods: []elMod{timestampLT(ms, true)}, want: ts(arrow.Millisecond, "UTC")},
		{name: "TIMESTAMP MICROS local", phys: i64, mods: []elMod{timestampLT(us, false)}, want: ts(arrow.Microsecond, "")},
		{name: "TIMESTAMP NANOS UTC", phys: i64, mods: []elMod{timestampLT(ns, true)}, want: ts(arrow.Nanosecond, "UTC")},
		{name: "TIMESTAMP local wins over converted", phys: i64, mods: []elMod{timestampLT(ms, false), converted(footer.ConvertedTimestampMillis)}, want: ts(arrow.Millisecond, "")},
		{name: "TIMESTAMP unknown unit", phys: i64, mods: []elMod{timestampLT(footer.TimeUnitUnrecognized, true)}, want: arrow.PrimitiveTypes.Int64},
		{name: "TIMESTAMP on INT32", phys: i32, mods: []elMod{timestampLT(ms, true)}, want: arrow.PrimitiveTypes.Int32},
		{name: "TIMESTAMP_MILLIS", phys: i64, mods: []elMod{converted(footer.ConvertedTimestampMillis)}, want: ts(arrow.Millisecond, "UTC")},
		{name: "TIMESTAMP_MICROS", phys: i64, mods: []elMod{converted(footer.ConvertedTimestampMicros)}, want: ts(arrow.Microsecond, "UTC")},
		{name: "TIMESTAMP_MICROS on INT96", phys: i96, mods: []elMod{converted(footer.ConvertedTimestampMicros)}, want: ts(arrow.Nanosecond, "UTC")},

		// Strings and binary.
		{name: "STRING", phys: ba, mods: []elMod{kind(footer.LogicalString)}, want: arrow.BinaryTypes.String},
		{name: "STRING large", phys: ba, mods: []elMod{kind(footer.LogicalString)}, opts: Options{Strings: StringsLarge}, want: arrow.BinaryTypes.LargeString},
		{name: "STRING view", phys: ba, mods: []elMod{kind(footer.LogicalString)}, opts: Options{Strings: StringsView}, want: arrow.BinaryTypes.StringView},
		{name: "ENUM", phys: ba, mods: []elMod{kind(footer.LogicalEnum)}, want: arrow.BinaryTypes.String},
		{name: "JSON", phys: ba, mods: []elMod{kind(footer.LogicalJSON)}, want: arrow.BinaryTypes.String},
		{name: "BSON", phys: ba, mods: []elMod{kind(footer.LogicalBSON)}, want: arrow.BinaryTypes.Binary},
		{name: "UTF8", phys: ba, mods: []elMod{converted(footer.ConvertedUTF8)}, want: arrow.BinaryTypes.String},
		{name: "ENUM converted", phys: ba, mods: []elMod{converted(footer.ConvertedEnum)}, want: arrow.BinaryTypes.String},
		{name: "JSON converted", phys: ba, mods: []elMod{converted(footer.ConvertedJSON)}, want: arrow.BinaryTypes.String},
		{name: "BSON converted", phys: ba, mods: []elMod{converted(footer.ConvertedBSON)}, want: arrow.BinaryTypes.Binary},
		{name: "STRING on FLBA", phys: flba, mods: []elMod{kind(footer.LogicalString)}, want: fsb(16)},

		// Fixed-width annotations.
		{name: "UUID", phys: flba, mods: []elMod{kind(footer.LogicalUUID)}, want: uuidExt},
		{name: "UUID on FLBA 8", phys: flba, mods: []elMod{length(8), kind(footer.LogicalUUID)}, want: fsb(8)},
		{name: "FLOAT16", phys: flba, mods: []elMod{length(2), kind(footer.LogicalFloat16)}, want: arrow.FixedWidthTypes.Float16},
		{name: "FLOAT16 on FLBA 4", phys: flba, mods: []elMod{length(4), kind(footer.LogicalFloat16)}, want: fsb(4)},
		{name: "INTERVAL", phys: flba, mods: []elMod{length(12), converted(footer.ConvertedInterval)}, want: arrow.FixedWidthTypes.MonthDayNanoInterval},
		{name: "INTERVAL on FLBA 8", phys: flba, mods: []elMod{length(8), converted(footer.ConvertedInterval)}, want: fsb(8)},

		// UNKNOWN and the annotations kept as metadata.
		{name: "UNKNOWN int32", phys: i32, mods: []elMod{kind(footer.LogicalUnknown)}, want: arrow.Null},
		{name: "UNKNOWN byte_array", phys: ba, mods: []elMod{kind(footer.LogicalUnknown)}, want: arrow.Null},
		{name: "GEOMETRY", phys: ba, mods: []elMod{logical(geometry)}, want: wkb(arrow.BinaryTypes.Binary, srid5070)},
		{name: "GEOGRAPHY", phys: ba, mods: []elMod{logical(geography)}, want: wkb(arrow.BinaryTypes.Binary, crs84+`,"edges":"spherical"}`)},
		{name: "GEOGRAPHY karney", phys: ba, mods: []elMod{logical(karney)}, opts: Options{Strings: StringsLarge}, want: wkb(arrow.BinaryTypes.LargeBinary, `{"crs":"OGC:CRS27","edges":"karney"}`)},
		{name: "GEOGRAPHY unknown edges", phys: ba, mods: []elMod{logical(oddEdges)}, want: arrow.BinaryTypes.Binary, meta: "GEOGRAPHY(EdgeInterpolationAlgorithm(9))"},
		{name: "GEOMETRY view", phys: ba, mods: []elMod{logical(geometry)}, opts: Options{Strings: StringsView}, want: wkb(arrow.BinaryTypes.BinaryView, srid5070)},
		{name: "GEOMETRY on INT32", phys: i32, mods: []elMod{logical(geometry)}, want: arrow.PrimitiveTypes.Int32},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := testPlan(t, tt.opts, nil, rootEl(1), leafEl("x", req, tt.phys, tt.mods...))
			f := p.Schema.Field(0)
			if !arrow.TypeEqual(f.Type, tt.want) {
				t.Errorf("type %s, want %s", f.Type, tt.want)
			}
			got, _ := f.Metadata.GetValue(LogicalTypeKey)
			if got != tt.meta {
				t.Errorf("%s metadata %q, want %q", LogicalTypeKey, got, tt.meta)
			}
		})
	}
}

func TestFieldIDMetadata(t *testing.T) {
	p := testPlan(t, Options{}, nil, rootEl(3),
		leafEl("a", opt, footer.TypeInt32, fieldID(7)),
		leafEl("b", opt, footer.TypeInt32),
		leafEl("c", opt, footer.TypeInt32, fieldID(-3)))
	if v, ok := p.Schema.Field(0).Metadata.GetValue(FieldIDKey); !ok || v != "7" {
		t.Errorf("field id 7: metadata %v", p.Schema.Field(0).Metadata)
	}
	for i := 1; i < 3; i++ {
		if m := p.Schema.Field(i).Metadata; m.Len() != 0 {
			t.Errorf("field %d without a usable id has metadata %v", i, m)
		}
	}
}

func TestDecimalBytes(t *testing.T) {
	// n bytes hold p digits when 10^p - 1 <= 2^(8n-1) - 1.
	for n := int32(1); n <= 32; n++ {
		limit := new(big.Int).Lsh(big.NewInt(1), uint(8*n-1))
		for p := int32(1); p <= MaxDecimalPrecision; p++ {
			pow := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
			want := pow.Cmp(limit) <= 0
			if got := DecimalBytes(p) <= n; got != want {
				t.Fatalf("precision %d in %d bytes: fits %v, want %v", p, n, got, want)
			}
		}
	}
}
