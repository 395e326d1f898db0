package arrowio_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/geoarrow"
)

// wkbPoint returns a little-endian WKB point of code (1, 1001, 2001 or
// 3001) with coordinates c.
func wkbPoint(code uint32, c ...float64) []byte {
	b := binary.LittleEndian.AppendUint32([]byte{1}, code)
	for _, v := range c {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// geoArray builds a geoarrow.wkb array of type t from values (nil for
// null).
func geoArray(t *testing.T, mem memory.Allocator, typ *geoarrow.WKBType, values [][]byte) arrow.Array {
	t.Helper()
	b := array.NewBuilder(mem, typ.StorageType())
	defer b.Release()
	for _, v := range values {
		if v == nil {
			b.AppendNull()
			continue
		}
		switch bb := b.(type) {
		case *array.BinaryBuilder:
			bb.Append(v)
		case *array.BinaryViewBuilder:
			bb.Append(v)
		}
	}
	s := b.NewArray()
	defer s.Release()
	return array.NewExtensionArrayWithStorage(typ, s)
}

func wkbType(t *testing.T, storage arrow.DataType, md string) *geoarrow.WKBType {
	t.Helper()
	typ, err := (&geoarrow.WKBType{}).Deserialize(storage, md)
	if err != nil {
		t.Fatal(err)
	}
	return typ.(*geoarrow.WKBType)
}

// TestGeoWriteRoundTrip writes geoarrow.wkb columns of every storage with
// each CRS form and edges, and checks the Parquet annotations, the
// geospatial statistics, the types read back (with and without the
// ARROW:schema entry) and the values pqarrow reads.
func TestGeoWriteRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	projjson4326 := `{"type":"GeographicCRS","name":"WGS 84","id":{"authority":"EPSG","code":4326}}`
	cols := []struct {
		name, md, logical, bareMD string
		storage                   arrow.DataType
	}{
		{"g", `{"crs":"EPSG:5070"}`, "GEOMETRY(EPSG:5070)", `{"crs":"EPSG:5070"}`, arrow.BinaryTypes.LargeBinary},
		{"srid", `{"crs":"3857","crs_type":"srid"}`, "GEOMETRY(srid:3857)", `{"crs":"3857","crs_type":"srid"}`, arrow.BinaryTypes.Binary},
		{"lonlat", `{"crs":` + projjson4326 + `,"crs_type":"projjson"}`, "GEOMETRY", `{"crs":"OGC:CRS84","crs_type":"authority_code"}`, arrow.BinaryTypes.Binary},
		{"geo", `{"edges":"karney"}`, "GEOGRAPHY(KARNEY)", `{"crs":"OGC:CRS84","crs_type":"authority_code","edges":"karney"}`, arrow.BinaryTypes.BinaryView},
	}
	nan := math.NaN()
	values := [][]byte{wkbPoint(1001, 1, 2, 3), nil, wkbPoint(1, nan, nan), wkbPoint(1001, -4, 8, nan), wkbPoint(1, 5, -6)}
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	for i, c := range cols {
		typ := wkbType(t, c.storage, c.md)
		fields[i] = arrow.Field{Name: c.name, Type: typ, Nullable: true}
		arrs[i] = geoArray(t, mem, typ, values)
	}
	schema := arrow.NewSchema(fields, nil)
	rec := array.NewRecordBatch(schema, arrs, int64(len(values)))
	for _, a := range arrs {
		a.Release()
	}
	defer rec.Release()

	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, schema, arrowio.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	bad := geoArray(t, mem, fields[0].Type.(*geoarrow.WKBType), [][]byte{wkbPoint(1, 0, 0), nil, {1, 1, 0, 0}})
	badRec := array.NewRecordBatch(arrow.NewSchema(fields[:1], nil), []arrow.Array{bad}, 3)
	bad.Release()
	w2, err := arrowio.NewWriter(new(bytes.Buffer), badRec.Schema(), arrowio.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w2.Write(badRec); !errors.Is(err, geoarrow.ErrInvalid) || !strings.Contains(err.Error(), `column "g": row 2:`) {
		t.Errorf("writing invalid WKB: %v, want geoarrow.ErrInvalid naming column g and row 2", err)
	}
	badRec.Release()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	rd, err := arrowio.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()), arrowio.ReadOptions{Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	leaves := fileSchema(t, rd).Leaves
	wantStats := []string{"types [1 1001] x -4..5 y -6..8 z 3..3", "types [1 1001] x -4..5 y -6..8 z 3..3", "types [1 1001] x -4..5 y -6..8 z 3..3", "types [1 1001]"}
	for i, c := range cols {
		if got := leaves[i].Logical().String(); got != c.logical {
			t.Errorf("%s: annotation %s, want %s", c.name, got, c.logical)
		}
		if got := geoText(rd.Metadata().RowGroups[0].Columns[i].MetaData.GeospatialStatistics); got != wantStats[i] {
			t.Errorf("%s: statistics %s, want %s", c.name, got, wantStats[i])
		}
	}
	if !rd.Schema().Equal(schema) {
		t.Errorf("read back as %s, want %s", rd.Schema(), schema)
	}
	got, err := rd.ReadRowGroup(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range cols {
		if !array.Equal(got.Column(i), rec.Column(i)) {
			t.Errorf("%s: values differ", cols[i].name)
		}
	}
	got.Release()

	bare, err := arrowio.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()), arrowio.ReadOptions{Mapping: arrowio.SchemaOptions{IgnoreArrowSchema: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	for i, c := range cols {
		want := wkbType(t, arrow.BinaryTypes.Binary, c.bareMD)
		if got := bare.Schema().Field(i).Type; !arrow.TypeEqual(got, want) {
			t.Errorf("%s without ARROW:schema: %s, want %s", c.name, got, want)
		}
	}

	// pqarrow (v18.8.0) tries to restore geoarrow.wkb from ARROW:schema
	// when the storage is large_binary or binary_view, and panics ("storage
	// type binary for extension type geoarrow.wkb, does not match expected
	// type large_binary"), so it reads a file of the binary columns.
	binCols := []int{1, 2}
	var binFields []arrow.Field
	var binArrs []arrow.Array
	for _, i := range binCols {
		binFields = append(binFields, fields[i])
		binArrs = append(binArrs, rec.Column(i))
	}
	binRec := array.NewRecordBatch(arrow.NewSchema(binFields, nil), binArrs, rec.NumRows())
	defer binRec.Release()
	var binBuf bytes.Buffer
	bw, err := arrowio.NewWriter(&binBuf, binRec.Schema(), arrowio.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := bw.Write(binRec); err != nil {
		t.Fatal(err)
	}
	if err := bw.Close(); err != nil {
		t.Fatal(err)
	}
	theirs := pqRead(t, mem, binBuf.Bytes())
	defer theirs.Release()
	for j, i := range binCols {
		col := columnOf(t, mem, theirs, j) // binary: pqarrow does not restore the extension type
		if want := rec.Column(i).(array.ExtensionArray).Storage(); !array.Equal(col, want) {
			t.Errorf("%s: pqarrow reads %s, want %s", cols[i].name, col, want)
		}
		col.Release()
	}
}

// TestGeoNestedRoundTrip writes geoarrow.wkb inside a list and a struct:
// the leaves are GEOMETRY with statistics, and the values read back.
func TestGeoNestedRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	typ := wkbType(t, arrow.BinaryTypes.Binary, `{"crs":"EPSG:3857"}`)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "l", Type: arrow.ListOf(typ), Nullable: true},
		{Name: "s", Type: arrow.StructOf(arrow.Field{Name: "g", Type: typ, Nullable: true}), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	lb := b.Field(0).(*array.ListBuilder)
	eb := lb.ValueBuilder().(*array.ExtensionBuilder).StorageBuilder().(*array.BinaryBuilder)
	sb := b.Field(1).(*array.StructBuilder)
	gb := sb.FieldBuilder(0).(*array.ExtensionBuilder).StorageBuilder().(*array.BinaryBuilder)
	lb.Append(true)
	eb.Append(wkbPoint(1, 1, 2))
	eb.Append(wkbPoint(1, -3, 4))
	lb.AppendNull()
	sb.Append(true)
	gb.Append(wkbPoint(2001, 7, 8, 9))
	sb.Append(true)
	gb.AppendNull()
	rec := b.NewRecordBatch()
	defer rec.Release()
	file := arrowiotest.WriteFile(t, schema, arrowio.WriteOptions{}, rec)
	rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	want := []string{"types [1] x -3..1 y 2..4", "types [2001] x 7..7 y 8..8 m 9..9"}
	for i, l := range fileSchema(t, rd).Leaves {
		if l.Logical().String() != "GEOMETRY(EPSG:3857)" {
			t.Errorf("leaf %s: %s", l.DottedPath(), l.Logical())
		}
		if got := geoText(rd.Metadata().RowGroups[0].Columns[i].MetaData.GeospatialStatistics); got != want[i] {
			t.Errorf("leaf %s: statistics %s, want %s", l.DottedPath(), got, want[i])
		}
	}
	got, err := rd.ReadRowGroup(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	for i := range 2 {
		if !array.Equal(got.Column(i), rec.Column(i)) {
			t.Errorf("column %d: %s, want %s", i, got.Column(i), rec.Column(i))
		}
	}
}
