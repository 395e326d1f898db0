package arrowio_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/variant"
	"github.com/google/uuid"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/footer"
)

// variantRows is the JSON the round-trip variants hold: objects (with
// and without the shredded fields, and with others), arrays, primitives,
// a Variant null, and JSON null for a null row.
const variantRows = `[
	{"a": 1, "b": ["x", "y"], "c": 3.5},
	null,
	42,
	{"a": "not an int", "b": [1, "two", null, {"k": [true]}]},
	[1, 2, {"a": 3}],
	{},
	{"b": []},
	"text",
	{"a": -9223372036854775808, "nested": {"deep": [{"x": null}]}}
]`

// buildVariants returns a variant array of type vt holding values, which
// are JSON (a JSON null is a null row) or variant.Values.
func buildVariants(t *testing.T, vt *extensions.VariantType, json string, values ...variant.Value) *extensions.VariantArray {
	t.Helper()
	b := extensions.NewVariantBuilder(memory.DefaultAllocator, vt)
	defer b.Release()
	if json != "" {
		if err := b.UnmarshalJSON([]byte(json)); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range values {
		b.Append(v)
	}
	return b.NewArray().(*extensions.VariantArray)
}

// encodeVariant encodes Go value v as a Variant.
func encodeVariant(t *testing.T, v any, opts ...variant.AppendOpt) variant.Value {
	t.Helper()
	var b variant.Builder
	if err := b.Append(v, opts...); err != nil {
		t.Fatalf("encoding %v: %v", v, err)
	}
	out, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// primitiveVariants holds one Variant of every primitive type a
// typed_value column can hold, each twice (for the typed and the untyped
// value column) in different values.
func primitiveVariants(t *testing.T) map[string][]variant.Value {
	u := uuid.MustParse("f24f9b64-81fa-49d1-b74e-8c09a6e31c56")
	return map[string][]variant.Value{
		"bool":      {encodeVariant(t, true), encodeVariant(t, false)},
		"int8":      {encodeVariant(t, int8(-7)), encodeVariant(t, int8(100))},
		"int16":     {encodeVariant(t, int16(-3000)), encodeVariant(t, int16(3000))},
		"int32":     {encodeVariant(t, int32(-70000)), encodeVariant(t, int32(1<<30))},
		"int64":     {encodeVariant(t, int64(-1<<40)), encodeVariant(t, int64(1<<62))},
		"float":     {encodeVariant(t, float32(1.5)), encodeVariant(t, float32(-0.0))},
		"double":    {encodeVariant(t, 2.25), encodeVariant(t, -1e300)},
		"decimal4":  {encodeVariant(t, variant.DecimalValue[decimal.Decimal32]{Value: decimal.Decimal32(12345), Scale: 2}), encodeVariant(t, variant.DecimalValue[decimal.Decimal32]{Value: decimal.Decimal32(-1), Scale: 2})},
		"decimal8":  {encodeVariant(t, variant.DecimalValue[decimal.Decimal64]{Value: decimal.Decimal64(123456789012), Scale: 4}), encodeVariant(t, variant.DecimalValue[decimal.Decimal64]{Value: decimal.Decimal64(-5), Scale: 4})},
		"decimal16": {encodeVariant(t, variant.DecimalValue[decimal.Decimal128]{Value: decimal128.FromI64(-123456789), Scale: 10}), encodeVariant(t, variant.DecimalValue[decimal.Decimal128]{Value: decimal128.FromI64(7), Scale: 10})},
		"date":      {encodeVariant(t, arrow.Date32(19000)), encodeVariant(t, arrow.Date32(-5))},
		"time":      {encodeVariant(t, arrow.Time64(3723000000)), encodeVariant(t, arrow.Time64(0))},
		"timestamp": {encodeVariant(t, arrow.Timestamp(1700000000000000), variant.OptTimestampUTC), encodeVariant(t, arrow.Timestamp(-1), variant.OptTimestampUTC)},
		"timestamp_ntz_nanos": {encodeVariant(t, arrow.Timestamp(1700000000000000123), variant.OptTimestampNano),
			encodeVariant(t, arrow.Timestamp(5), variant.OptTimestampNano)},
		"string": {encodeVariant(t, "short"), encodeVariant(t, strings.Repeat("long ", 20))},
		"binary": {encodeVariant(t, []byte{0, 1, 2}), encodeVariant(t, []byte{})},
		"uuid":   {encodeVariant(t, u), encodeVariant(t, uuid.Nil)},
	}
}

// shreddedTypes gives, for each name of primitiveVariants, the Arrow type
// that shreds it.
var shreddedTypes = map[string]arrow.DataType{
	"bool": arrow.FixedWidthTypes.Boolean, "int8": arrow.PrimitiveTypes.Int8, "int16": arrow.PrimitiveTypes.Int16,
	"int32": arrow.PrimitiveTypes.Int32, "int64": arrow.PrimitiveTypes.Int64, "float": arrow.PrimitiveTypes.Float32,
	"double": arrow.PrimitiveTypes.Float64, "decimal4": &arrow.Decimal32Type{Precision: 9, Scale: 2},
	"decimal8": &arrow.Decimal64Type{Precision: 18, Scale: 4}, "decimal16": &arrow.Decimal128Type{Precision: 38, Scale: 10},
	"date": arrow.FixedWidthTypes.Date32, "time": arrow.FixedWidthTypes.Time64us,
	"timestamp": &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, "timestamp_ntz_nanos": &arrow.TimestampType{Unit: arrow.Nanosecond},
	"string": arrow.BinaryTypes.String, "binary": arrow.BinaryTypes.Binary, "uuid": extensions.NewUUIDType(),
}

// variantWriteCases returns the columns the round-trip tests write: name,
// and the array.
func variantWriteCases(t *testing.T) []arrow.Array {
	t.Helper()
	var out []arrow.Array
	add := func(vt *extensions.VariantType, json string, values ...variant.Value) {
		out = append(out, buildVariants(t, vt, json, values...))
	}
	add(extensions.NewDefaultVariantType(), variantRows)
	add(extensions.NewShreddedVariantType(arrow.PrimitiveTypes.Int64), variantRows)
	add(extensions.NewShreddedVariantType(arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: "b", Type: arrow.ListOf(arrow.BinaryTypes.String)},
		arrow.Field{Name: "nested", Type: arrow.StructOf(arrow.Field{Name: "deep", Type: arrow.ListOf(arrow.StructOf(
			arrow.Field{Name: "x", Type: arrow.FixedWidthTypes.Boolean}))})})), variantRows)
	add(extensions.NewShreddedVariantType(arrow.ListOf(arrow.PrimitiveTypes.Int64)), variantRows)
	// Every primitive, shredded as itself, with a value of another type in
	// the untyped column beside it.
	prims := primitiveVariants(t)
	for name, vals := range prims {
		other := prims["string"][0]
		if name == "string" {
			other = prims["int8"][0]
		}
		add(extensions.NewShreddedVariantType(shreddedTypes[name]), "", vals[0], other, vals[1], variant.NullValue)
	}
	// A storage of other binary layouts, which ARROW:schema brings back.
	large, err := extensions.NewVariantType(arrow.StructOf(
		arrow.Field{Name: "metadata", Type: arrow.BinaryTypes.LargeBinary},
		arrow.Field{Name: "value", Type: arrow.BinaryTypes.LargeBinary}))
	if err != nil {
		t.Fatal(err)
	}
	add(large, variantRows)
	return out
}

// variantRecord makes a record batch of column v (nullable) and an int32
// id.
func variantRecord(v arrow.Array) arrow.RecordBatch {
	ids := make([]int32, v.Len())
	for i := range ids {
		ids[i] = int32(i)
	}
	b := array.NewInt32Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues(ids, nil)
	id := b.NewArray()
	defer id.Release()
	sc := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}, {Name: "v", Type: v.DataType(), Nullable: true}}, nil)
	return array.NewRecordBatch(sc, []arrow.Array{id, v}, int64(v.Len()))
}

// sameVariantArrays fails t unless got holds want's variants: the same
// type (or, unless exact, a variant type over another storage), the same
// null rows, and equal reconstructed values.
func sameVariantArrays(t *testing.T, who string, want arrow.Array, got arrow.Array, exact bool) {
	t.Helper()
	if exact && !arrow.TypeEqual(got.DataType(), want.DataType()) {
		t.Fatalf("%s: type %s (storage %s), want %s", who, got.DataType(), storageType(got.DataType()), storageType(want.DataType()))
	}
	g, ok := got.(*extensions.VariantArray)
	if !ok {
		t.Fatalf("%s: type %s, want the variant extension type", who, got.DataType())
	}
	w := want.(*extensions.VariantArray)
	if g.Len() != w.Len() {
		t.Fatalf("%s: %d rows, want %d", who, g.Len(), w.Len())
	}
	for i := range w.Len() {
		if wn, gn := w.Storage().IsNull(i), g.Storage().IsNull(i); wn || gn {
			if wn != gn {
				t.Errorf("%s: row %d: null %v, want %v", who, i, gn, wn)
			}
			continue
		}
		wv, err := w.Value(i)
		if err != nil {
			t.Fatalf("%s: row %d of what was written: %v", who, i, err)
		}
		gv, err := g.Value(i)
		if err != nil {
			t.Errorf("%s: row %d: %v", who, i, err)
			continue
		}
		if err := sameVariant(gv, wv); err != nil {
			t.Errorf("%s: row %d: %v", who, i, err)
		}
	}
}

func storageType(dt arrow.DataType) arrow.DataType {
	if ext, ok := dt.(arrow.ExtensionType); ok {
		return ext.StorageType()
	}
	return dt
}

// tableColumn returns column i of tbl as one array.
func tableColumn(t *testing.T, tbl arrow.Table, i int) arrow.Array {
	t.Helper()
	a, err := array.Concatenate(tbl.Column(i).Data().Chunks(), memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestVariantWriteRoundTrip writes variant columns, unshredded and
// shredded every way, and reads them back with Quiver and with pqarrow:
// the same variant type, the same values. The file's group carries the
// VARIANT annotation.
func TestVariantWriteRoundTrip(t *testing.T) {
	for _, arr := range variantWriteCases(t) {
		defer arr.Release()
		name := storageType(arr.DataType()).String()
		if len(name) > 80 {
			name = name[:80]
		}
		t.Run(name, func(t *testing.T) {
			rec := variantRecord(arr)
			defer rec.Release()
			for _, opts := range []arrowio.WriteOptions{{}, {PageVersion: arrowio.PageV2, MaxRowGroupRows: 4}} {
				buf := writeVariantFile(t, rec, opts)
				rd, err := arrowio.Open(bytes.NewReader(buf), int64(len(buf)), arrowio.ReadOptions{BatchSize: 3})
				if err != nil {
					t.Fatal(err)
				}
				if lt := rd.Metadata().Schema[2].LogicalType; lt.Kind != footer.LogicalVariant {
					t.Errorf("the Parquet group of v is annotated %v, want VARIANT", lt)
				}
				tbl, err := arrowiotest.ReadBatches(rd)
				rd.Close()
				if err != nil {
					t.Fatal(err)
				}
				got := tableColumn(t, tbl, 1)
				tbl.Release()
				sameVariantArrays(t, "quiver", arr, got, true)
				got.Release()

				ptbl := pqarrowTable(t, buf)
				pgot := tableColumn(t, ptbl, 1)
				ptbl.Release()
				// pqarrow restores neither decimal32 nor decimal64 (ArrowSchema).
				sameVariantArrays(t, "pqarrow", arr, pgot, false)
				pgot.Release()
			}
		})
	}
}

// writeVariantFile writes rec with Quiver.
func writeVariantFile(t *testing.T, rec arrow.RecordBatch, opts arrowio.WriteOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, rec.Schema(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestVariantReadsPqarrowFiles reads with Quiver the variant columns
// pqarrow writes. pqarrow refuses some (lists under null slots, which
// arrow-go's VariantBuilder leaves for shredded arrays inside objects).
func TestVariantReadsPqarrowFiles(t *testing.T) {
	var read, refused int
	for _, arr := range variantWriteCases(t) {
		defer arr.Release()
		rec := variantRecord(arr)
		var buf bytes.Buffer
		props := parquet.NewWriterProperties(parquet.WithStats(true))
		if err := pqarrow.WriteTable(array.NewTableFromRecords(rec.Schema(), []arrow.RecordBatch{rec}), &buf, 4, props,
			pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema())); err != nil {
			rec.Release()
			t.Logf("pqarrow cannot write %s: %v", storageType(arr.DataType()), err)
			refused++
			continue
		}
		rec.Release()
		read++
		rd, err := arrowio.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()), arrowio.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := rd.ReadTable(context.Background())
		rd.Close()
		if err != nil {
			t.Fatal(err)
		}
		got := tableColumn(t, tbl, 1)
		tbl.Release()
		sameVariantArrays(t, fmt.Sprintf("quiver reading pqarrow's %s", storageType(arr.DataType())), arr, got, true)
		got.Release()
	}
	if read < refused {
		t.Errorf("pqarrow wrote %d of the %d columns", read, read+refused)
	}
	t.Logf("read the %d columns pqarrow wrote (it refused %d)", read, refused)
}

// TestVariantNestedWriteRoundTrip writes variants inside a list and a
// struct.
func TestVariantNestedWriteRoundTrip(t *testing.T) {
	vs := buildVariants(t, extensions.NewShreddedVariantType(arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64})), variantRows)
	defer vs.Release()
	offsets := []int32{0, 3, 3, 9}
	valid := []byte{0b101}
	list := array.NewListData(array.NewData(arrow.ListOf(vs.DataType()), 3,
		[]*memory.Buffer{memory.NewBufferBytes(valid), memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets))}, []arrow.ArrayData{vs.Data()}, 1, 0))
	defer list.Release()
	st, err := array.NewStructArray([]arrow.Array{vs}, []string{"v"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Release()
	sl := array.NewSlice(st, 0, 3)
	defer sl.Release()
	sc := arrow.NewSchema([]arrow.Field{{Name: "l", Type: list.DataType(), Nullable: true}, {Name: "s", Type: sl.DataType(), Nullable: true}}, nil)
	rec := array.NewRecordBatch(sc, []arrow.Array{list, sl}, 3)
	defer rec.Release()
	buf := writeVariantFile(t, rec, arrowio.WriteOptions{})
	for who, tbl := range map[string]arrow.Table{"quiver": quiverTable(t, buf), "pqarrow": pqarrowTable(t, buf)} {
		gl, gs := tableColumn(t, tbl, 0).(*array.List), tableColumn(t, tbl, 1).(*array.Struct)
		tbl.Release()
		if !arrow.TypeEqual(gl.DataType(), list.DataType()) || !arrow.TypeEqual(gs.DataType(), sl.DataType()) {
			t.Fatalf("%s: types %s, %s; want %s, %s", who, gl.DataType(), gs.DataType(), list.DataType(), sl.DataType())
		}
		for i := range 3 {
			if gl.IsNull(i) != list.IsNull(i) {
				t.Errorf("%s: list row %d: null %v", who, i, gl.IsNull(i))
			}
		}
		sameVariantArrays(t, who+" list elements", vs, gl.ListValues(), true)
		ws := sl.(*array.Struct).Field(0)
		sameVariantArrays(t, who+" struct field", ws, gs.Field(0), true)
		gl.Release()
		gs.Release()
	}
}

// pqarrowTable reads a file with arrow-go's pqarrow.
func pqarrowTable(t *testing.T, buf []byte) arrow.Table {
	t.Helper()
	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(buf), parquet.NewReaderProperties(memory.DefaultAllocator),
		pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatalf("pqarrow cannot read the file: %v", err)
	}
	return tbl
}

// quiverTable reads a file with Quiver.
func quiverTable(t *testing.T, buf []byte) arrow.Table {
	t.Helper()
	rd, err := arrowio.Open(bytes.NewReader(buf), int64(len(buf)), arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	tbl, err := rd.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// TestVariantWriteRejects checks that Quiver writes no file another reader
// would reconstruct wrongly: a typed_value type outside
// VariantShredding.md's table fails arrowio.NewWriter, and rows that contradict
// the shredding fail Write, which writes nothing.
func TestVariantWriteRejects(t *testing.T) {
	for _, dt := range []arrow.DataType{
		arrow.PrimitiveTypes.Uint32, &arrow.FixedSizeBinaryType{ByteWidth: 4}, arrow.FixedWidthTypes.Float16,
		&arrow.TimestampType{Unit: arrow.Millisecond}, arrow.FixedWidthTypes.Time32ms, arrow.FixedWidthTypes.Duration_us,
		&arrow.Decimal256Type{Precision: 40, Scale: 2}, extensions.NewBool8Type(),
		arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Uint8}),
		arrow.ListOf(arrow.FixedWidthTypes.Date64), // allowed: written as DATE
	} {
		vt := extensions.NewShreddedVariantType(dt)
		sc := arrow.NewSchema([]arrow.Field{{Name: "v", Type: vt, Nullable: true}}, nil)
		_, err := arrowio.NewWriter(&bytes.Buffer{}, sc, arrowio.WriteOptions{})
		if dt.ID() == arrow.LIST {
			if err != nil {
				t.Errorf("%s: %v", dt, err)
			}
			continue
		}
		if !errors.Is(err, arrowio.ErrUnsupported) || !strings.Contains(err.Error(), "VariantShredding.md") {
			t.Errorf("typed_value %s: arrowio.NewWriter = %v, want an arrowio.ErrUnsupported naming VariantShredding.md", dt, err)
		}
	}

	// value and typed_value both set.
	vt := extensions.NewShreddedVariantType(arrow.PrimitiveTypes.Int64)
	good := buildVariants(t, vt, `[1, "x"]`)
	defer good.Release()
	st := good.Storage().(*array.Struct)
	conflicting := buildBinary(t, []byte{3 << 2, 9}, nil)
	defer conflicting.Release()
	storage, err := array.NewStructArrayWithFields([]arrow.Array{st.Field(0), conflicting, st.Field(2)}, storageType(vt).(*arrow.StructType).Fields())
	if err != nil {
		t.Fatal(err)
	}
	defer storage.Release()
	bad := array.NewExtensionArrayWithStorage(vt, storage)
	defer bad.Release()
	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, variantRecord(bad).Schema(), arrowio.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rec := variantRecord(bad)
	defer rec.Release()
	if err := w.Write(rec); !errors.Is(err, arrowio.ErrUnsupported) || !strings.Contains(err.Error(), "conflicting value and typed_value") {
		t.Errorf("Write of conflicting rows = %v, want arrowio.ErrUnsupported naming the conflict", err)
	}
	okRec := variantRecord(good)
	defer okRec.Release()
	if err := w.Write(okRec); err != nil {
		t.Fatalf("Write after the rejected batch: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tbl := quiverTable(t, buf.Bytes())
	defer tbl.Release()
	if tbl.NumRows() != int64(good.Len()) {
		t.Errorf("%d rows, want the %d of the accepted batch", tbl.NumRows(), good.Len())
	}
}

// buildBinary returns a binary array of the values (nil entries null).
func buildBinary(t *testing.T, vals ...[]byte) arrow.Array {
	t.Helper()
	b := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	defer b.Release()
	for _, v := range vals {
		if v == nil {
			b.AppendNull()
		} else {
			b.Append(v)
		}
	}
	return b.NewArray()
}

// TestVariantStorageOptionReadsWrittenFile reads a written shredded
// variant with arrowio.SchemaOptions.VariantStorage: the storage struct, with the
// annotation in PARQUET:logical_type; and a projection of the variant's
// metadata and value alone gives the struct of those.
func TestVariantStorageOptionReadsWrittenFile(t *testing.T) {
	arr := buildVariants(t, extensions.NewShreddedVariantType(arrow.PrimitiveTypes.Int64), variantRows)
	defer arr.Release()
	rec := variantRecord(arr)
	defer rec.Release()
	buf := writeVariantFile(t, rec, arrowio.WriteOptions{})
	for _, ro := range []arrowio.ReadOptions{
		{Mapping: arrowio.SchemaOptions{VariantStorage: true}},
		{Mapping: arrowio.SchemaOptions{VariantStorage: true, IgnoreArrowSchema: true}},
		{Columns: []string{"v.metadata", "v.value"}},
	} {
		rd, err := arrowio.Open(bytes.NewReader(buf), int64(len(buf)), ro)
		if err != nil {
			t.Fatal(err)
		}
		f := rd.Schema().Field(rd.Schema().FieldIndices("v")[0])
		if lt, _ := f.Metadata.GetValue("PARQUET:logical_type"); f.Type.ID() != arrow.STRUCT || lt != "VARIANT(1)" {
			t.Errorf("%+v: v is %s %v, want a struct with PARQUET:logical_type=VARIANT(1)", ro, f.Type, f.Metadata)
		}
		tbl, err := rd.ReadTable(context.Background())
		rd.Close()
		if err != nil {
			t.Fatal(err)
		}
		tbl.Release()
	}
}
