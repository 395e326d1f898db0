package schema

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/quiverio/quiver/footer"
)

// jsonExt is arrow-go's JSON extension type over string.
var jsonExt = func() arrow.DataType {
	t, err := extensions.NewJSONType(arrow.BinaryTypes.String)
	if err != nil {
		panic(err)
	}
	return t
}()

// roundTripField is an Arrow field the writer maps to Parquet and the
// reader maps back: want is what comes back, in is what went in (nil: the
// same as want).
type roundTripField struct {
	want arrow.Field
	in   *arrow.Field
}

// elem names a list element the way the Parquet schema does, so that the
// field comes back as it went in.
func elem(t arrow.DataType, nullable bool) arrow.Field {
	return arrow.Field{Name: "element", Type: t, Nullable: nullable}
}

// roundTripFields covers every Arrow type the writer maps: the values the
// Parquet file holds in another unit (seconds as milliseconds, date64 as
// days) come back in that unit, with the time zone restored.
func roundTripFields() []roundTripField {
	f := func(name string, t arrow.DataType, nullable bool) arrow.Field {
		return arrow.Field{Name: name, Type: t, Nullable: nullable}
	}
	same := func(name string, t arrow.DataType, nullable bool) roundTripField {
		return roundTripField{want: f(name, t, nullable)}
	}
	coerced := func(name string, in, out arrow.DataType) roundTripField {
		i := f(name, in, true)
		return roundTripField{want: f(name, out, true), in: &i}
	}
	ts := func(u arrow.TimeUnit, tz string) arrow.DataType { return &arrow.TimestampType{Unit: u, TimeZone: tz} }
	sorted := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32)
	sorted.KeysSorted = true
	nestedMap := arrow.MapOfFields(f("key", arrow.PrimitiveTypes.Int32, false), f("value", arrow.ListOfField(elem(arrow.BinaryTypes.String, true)), true))
	withMeta := f("with_meta", arrow.PrimitiveTypes.Int64, true)
	withMeta.Metadata = arrow.NewMetadata([]string{"origin", FieldIDKey}, []string{"sensor", "42"})
	return []roundTripField{
		same("null", arrow.Null, true),
		same("bool", arrow.FixedWidthTypes.Boolean, false),
		same("int8", arrow.PrimitiveTypes.Int8, true),
		same("uint8", arrow.PrimitiveTypes.Uint8, true),
		same("int16", arrow.PrimitiveTypes.Int16, false),
		same("uint16", arrow.PrimitiveTypes.Uint16, true),
		same("int32", arrow.PrimitiveTypes.Int32, true),
		same("uint32", arrow.PrimitiveTypes.Uint32, true),
		same("int64", arrow.PrimitiveTypes.Int64, false),
		same("uint64", arrow.PrimitiveTypes.Uint64, true),
		same("float16", arrow.FixedWidthTypes.Float16, true),
		same("float32", arrow.PrimitiveTypes.Float32, true),
		same("float64", arrow.PrimitiveTypes.Float64, true),
		same("decimal32", &arrow.Decimal32Type{Precision: 9, Scale: 2}, true),
		same("decimal64", &arrow.Decimal64Type{Precision: 18, Scale: 3}, true),
		same("decimal128", &arrow.Decimal128Type{Precision: 38, Scale: 10}, true),
		same("decimal128_small", &arrow.Decimal128Type{Precision: 5, Scale: 0}, false),
		same("decimal256", &arrow.Decimal256Type{Precision: 76, Scale: 5}, true),
		same("decimal256_narrow", &arrow.Decimal256Type{Precision: 20, Scale: 5}, true),
		same("string", arrow.BinaryTypes.String, true),
		same("large_string", arrow.BinaryTypes.LargeString, true),
		same("string_view", arrow.BinaryTypes.StringView, true),
		same("binary", arrow.BinaryTypes.Binary, true),
		same("large_binary", arrow.BinaryTypes.LargeBinary, false),
		same("binary_view", arrow.BinaryTypes.BinaryView, true),
		same("fixed_size_binary", &arrow.FixedSizeBinaryType{ByteWidth: 7}, true),
		same("date32", arrow.FixedWidthTypes.Date32, true),
		coerced("date64", arrow.FixedWidthTypes.Date64, arrow.FixedWidthTypes.Date32),
		same("time32ms", arrow.FixedWidthTypes.Time32ms, true),
		coerced("time32s", arrow.FixedWidthTypes.Time32s, arrow.FixedWidthTypes.Time32ms),
		same("time64us", arrow.FixedWidthTypes.Time64us, true),
		same("time64ns", arrow.FixedWidthTypes.Time64ns, true),
		coerced("ts_s", ts(arrow.Second, ""), ts(arrow.Millisecond, "")),
		coerced("ts_s_tz", ts(arrow.Second, "Asia/Tokyo"), ts(arrow.Millisecond, "Asia/Tokyo")),
		same("ts_ms", ts(arrow.Millisecond, ""), true),
		same("ts_ms_utc", ts(arrow.Millisecond, "UTC"), true),
		same("ts_us_tz", ts(arrow.Microsecond, "America/New_York"), true),
		same("ts_ns", ts(arrow.Nanosecond, ""), true),
		same("ts_ns_offset", ts(arrow.Nanosecond, "+02:00"), false),
		same("duration_s", arrow.FixedWidthTypes.Duration_s, true),
		same("duration_ms", arrow.FixedWidthTypes.Duration_ms, true),
		same("duration_us", arrow.FixedWidthTypes.Duration_us, true),
		same("duration_ns", arrow.FixedWidthTypes.Duration_ns, false),
		same("interval", arrow.FixedWidthTypes.MonthDayNanoInterval, true),
		same("dict_string", &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}, true),
		same("dict_binary", &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.Binary, Ordered: true}, true),
		same("dict_large", &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.LargeString}, true),
		same("struct", arrow.StructOf(f("a", arrow.PrimitiveTypes.Int32, false), f("b", arrow.StructOf(f("c", arrow.BinaryTypes.String, true)), true)), true),
		same("list", arrow.ListOfField(elem(arrow.PrimitiveTypes.Int32, true)), true),
		same("list_required", arrow.ListOfField(elem(arrow.PrimitiveTypes.Int32, false)), false),
		same("large_list", arrow.LargeListOfField(elem(arrow.BinaryTypes.String, true)), true),
		same("fixed_size_list", arrow.FixedSizeListOfField(3, elem(arrow.PrimitiveTypes.Float64, false)), true),
		same("list_view", arrow.ListViewOfField(elem(arrow.PrimitiveTypes.Int16, true)), true),
		same("large_list_view", arrow.LargeListViewOfField(elem(arrow.PrimitiveTypes.Int16, true)), true),
		same("map", arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), true),
		same("map_sorted", sorted, false),
		same("map_nested", nestedMap, true),
		same("list_of_struct", arrow.ListOfField(elem(arrow.StructOf(f("x", nestedMap, true), f("y", arrow.BinaryTypes.LargeBinary, false)), true)), true),
		same("uuid", extensions.NewUUIDType(), true),
		same("json", jsonExt, true),
		same("bool8", extensions.NewBool8Type(), true),
		{want: withMeta},
	}
}

// wideSchema returns the input and expected output schemas of the round
// trip.
func wideSchema() (in, want *arrow.Schema) {
	var ins, wants []arrow.Field
	for _, rf := range roundTripFields() {
		wants = append(wants, rf.want)
		if rf.in != nil {
			ins = append(ins, *rf.in)
		} else {
			ins = append(ins, rf.want)
		}
	}
	meta := arrow.NewMetadata([]string{"pandas", "k"}, []string{"{}", "v"})
	return arrow.NewSchema(ins, &meta), arrow.NewSchema(wants, &meta)
}

// readBack maps Arrow schema s to Parquet elements and back, as a file
// written with them reads.
func readBack(t *testing.T, s *arrow.Schema) *Plan {
	t.Helper()
	ws, err := FromArrow(s)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := footer.NewSchema(ws.Elements, nil)
	if err != nil {
		t.Fatalf("the written elements do not form a schema: %v", err)
	}
	return NewPlan(ps, []footer.KeyValue{{Key: ArrowSchemaKey, Value: footer.Some(ws.ArrowSchema)}}, Options{})
}

func TestWriteSchemaRoundTrip(t *testing.T) {
	in, want := wideSchema()
	p := readBack(t, in)
	if !p.Schema.Equal(want) || !p.Schema.Metadata().Equal(want.Metadata()) {
		for i := range want.NumFields() {
			if i >= p.Schema.NumFields() || !p.Schema.Field(i).Equal(want.Field(i)) {
				t.Errorf("field %d: got  %v\nwant %v", i, p.Schema.Field(i), want.Field(i))
			}
		}
		t.Errorf("schema metadata %v, want %v", p.Schema.Metadata(), want.Metadata())
	}
	checkPlanInvariants(t, p)
}

func TestWriteSchemaRenamesListElements(t *testing.T) {
	in := arrow.NewSchema([]arrow.Field{
		{Name: "l", Type: arrow.ListOf(arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int8)), Nullable: true},
		{Name: "m", Type: arrow.MapOfFields(arrow.Field{Name: "k", Type: arrow.BinaryTypes.String}, arrow.Field{Name: "v", Type: arrow.PrimitiveTypes.Int8, Nullable: true})},
	}, nil)
	want := arrow.NewSchema([]arrow.Field{
		{Name: "l", Type: arrow.ListOfField(elem(arrow.FixedSizeListOfField(2, elem(arrow.PrimitiveTypes.Int8, true)), true)), Nullable: true},
		{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int8)},
	}, nil)
	if got := readBack(t, in).Schema; !got.Equal(want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestWriteSchemaElements(t *testing.T) {
	s := arrow.NewSchema([]arrow.Field{
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Nanosecond}, Nullable: true},
		{Name: "iv", Type: arrow.FixedWidthTypes.MonthDayNanoInterval, Metadata: arrow.NewMetadata([]string{FieldIDKey}, []string{"5"})},
		{Name: "d", Type: &arrow.Decimal128Type{Precision: 12, Scale: 4}, Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Uint16)},
	}, nil)
	ws, err := FromArrow(s)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(ws.Elements))
	for i, e := range ws.Elements {
		got[i] = describeElement(e)
	}
	want := []string{
		"schema group(4)",
		"ts OPTIONAL INT64 TIMESTAMP(NANOS,local)",
		"iv REQUIRED FIXED_LEN_BYTE_ARRAY(12) INTERVAL id=5",
		"d OPTIONAL FIXED_LEN_BYTE_ARRAY(6) DECIMAL(12,4) DECIMAL p=12 s=4",
		"l REQUIRED group(1) LIST LIST",
		"list REPEATED group(1)",
		"element OPTIONAL INT32 INT(16,unsigned) UINT_16",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("elements:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// describeElement renders e for comparisons: name, repetition, type or
// child count, logical and converted types, field id, decimal parameters.
func describeElement(e footer.SchemaElement) string {
	var b strings.Builder
	b.WriteString(e.Name)
	if r, ok := e.RepetitionType.Get(); ok {
		b.WriteString(" " + r.String())
	}
	if n, ok := e.NumChildren.Get(); ok {
		b.WriteString(" group(" + strconv.Itoa(int(n)) + ")")
	}
	if ty, ok := e.Type.Get(); ok {
		b.WriteString(" " + ty.String())
		if ty == footer.TypeFixedLenByteArray {
			b.WriteString("(" + strconv.Itoa(int(e.TypeLength.Value)) + ")")
		}
	}
	if s := e.LogicalType.String(); s != "" {
		b.WriteString(" " + s)
	}
	if c, ok := e.ConvertedType.Get(); ok {
		b.WriteString(" " + c.String())
	}
	if id, ok := e.FieldID.Get(); ok {
		b.WriteString(" id=" + strconv.Itoa(int(id)))
	}
	if p, ok := e.Precision.Get(); ok {
		b.WriteString(" p=" + strconv.Itoa(int(p)) + " s=" + strconv.Itoa(int(e.Scale.Value)))
	}
	return b.String()
}

func TestWriteSchemaErrors(t *testing.T) {
	tests := []struct {
		name  string
		field arrow.Field
		path  string
	}{
		{"union", arrow.Field{Name: "u", Type: arrow.SparseUnionOf([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int8}}, []arrow.UnionTypeCode{0})}, "u"},
		{"run-end encoded", arrow.Field{Name: "r", Type: arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int8)}, "r"},
		{"month interval", arrow.Field{Name: "m", Type: arrow.FixedWidthTypes.MonthInterval}, "m"},
		{"day_time interval", arrow.Field{Name: "dt", Type: arrow.FixedWidthTypes.DayTimeInterval}, "dt"},
		{"empty struct", arrow.Field{Name: "s", Type: arrow.StructOf()}, "s"},
		{"required null", arrow.Field{Name: "n", Type: arrow.Null}, "n"},
		{"negative scale", arrow.Field{Name: "d", Type: &arrow.Decimal128Type{Precision: 5, Scale: -2}}, "d"},
		{"zero-width binary", arrow.Field{Name: "z", Type: &arrow.FixedSizeBinaryType{ByteWidth: 0}}, "z"},
		{"nested path", arrow.Field{Name: "a", Type: arrow.StructOf(arrow.Field{Name: "b", Type: arrow.ListOf(arrow.FixedWidthTypes.DayTimeInterval)})}, "a.b.element"},
		{"map value path", arrow.Field{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.FixedWidthTypes.MonthInterval)}, "m.value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromArrow(arrow.NewSchema([]arrow.Field{tt.field}, nil))
			if !errors.Is(err, errs.ErrUnsupported) || !strings.Contains(err.Error(), `"`+tt.path+`"`) {
				t.Errorf("err = %v, want ErrUnsupported naming %q", err, tt.path)
			}
		})
	}
}

// pqarrowFields returns the Arrow fields pqarrow supports from the round
// trip set (it cannot write views, decimal32/64, list views, durations or
// month_day_nano intervals).
func pqarrowFields() []arrow.Field {
	var out []arrow.Field
	for _, rf := range roundTripFields() {
		f := rf.want
		if rf.in != nil {
			f = *rf.in
		}
		switch f.Type.ID() {
		case arrow.STRING_VIEW, arrow.BINARY_VIEW, arrow.DECIMAL32, arrow.DECIMAL64, arrow.LIST_VIEW,
			arrow.LARGE_LIST_VIEW, arrow.DURATION, arrow.INTERVAL_MONTH_DAY_NANO:
			continue
		}
		out = append(out, f)
	}
	return out
}

// pqarrowFile writes an empty file of schema s with pqarrow, storing the
// Arrow schema, and returns its bytes.
func pqarrowFile(t *testing.T, s *arrow.Schema) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(s, &buf, parquet.NewWriterProperties(), pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readFooterBytes parses the footer of the Parquet file b.
func readFooterBytes(t *testing.T, b []byte) *footer.Footer {
	t.Helper()
	ft, err := footer.ReadFooter(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return ft
}

// pqarrowRead returns the schema pqarrow reads for the Parquet file b, and
// checks it reads the (empty) table too.
func pqarrowRead(t *testing.T, b []byte) *arrow.Schema {
	t.Helper()
	rd, err := file.NewParquetReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	fr, err := pqarrow.NewFileReader(rd, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	s, err := fr.Schema()
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(t.Context())
	if err != nil {
		t.Fatalf("pqarrow cannot read the table: %v", err)
	}
	tbl.Release()
	return s
}

// pqarrowElementDiffs lists the elements (by name) where the writer
// deliberately departs from pqarrow, with the reason.
var pqarrowElementDiffs = map[string]string{
	"time32ms": "local TIME(MILLIS) also gets TIME_MILLIS: LogicalTypes.md says writers must annotate local times with the legacy type; pqarrow leaves it out",
	"time32s":  "as time32ms",
	"time64us": "local TIME(MICROS) also gets TIME_MICROS, as time32ms",
}

// TestWriteSchemaMatchesPqarrow compares the elements with those pqarrow
// writes for the same Arrow schema.
func TestWriteSchemaMatchesPqarrow(t *testing.T) {
	s := arrow.NewSchema(pqarrowFields(), nil)
	theirs := readFooterBytes(t, pqarrowFile(t, s)).Meta.Schema
	ws, err := FromArrow(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(theirs) != len(ws.Elements) {
		t.Fatalf("%d elements, pqarrow writes %d", len(ws.Elements), len(theirs))
	}
	for i := 1; i < len(theirs); i++ { // the roots differ only in repetition
		got, want := describeElement(ws.Elements[i]), describeElement(theirs[i])
		if _, listed := pqarrowElementDiffs[ws.Elements[i].Name]; (got != want) != listed {
			t.Errorf("element %d (listed as different: %v): %s\n      pqarrow: %s", i, listed, got, want)
		}
	}
}

// TestWriteSchemaReadByPqarrow writes a footer-only file with the elements
// and ARROW:schema entry, and checks pqarrow reads it as the schema went in.
func TestWriteSchemaReadByPqarrow(t *testing.T) {
	s := arrow.NewSchema(pqarrowFields(), nil)
	ws, err := FromArrow(s)
	if err != nil {
		t.Fatal(err)
	}
	meta := footer.FileMetaData{
		Version: 2, Schema: ws.Elements,
		KeyValueMetadata: []footer.KeyValue{{Key: ArrowSchemaKey, Value: footer.Some(ws.ArrowSchema)}},
		CreatedBy:        footer.Some("quiver test"),
	}
	body := footer.Marshal([]byte(footer.MagicPlain), &meta)
	body = binary.LittleEndian.AppendUint32(body, uint32(len(body)-len(footer.MagicPlain)))
	body = append(body, footer.MagicPlain...)
	got := pqarrowRead(t, body)
	if want := pqarrowRead(t, pqarrowFile(t, s)); !got.Equal(want) {
		t.Errorf("pqarrow reads our file as\n%v\nand its own as\n%v", got, want)
	}
}
