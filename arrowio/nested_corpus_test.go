package arrowio_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/internal/corpus"
)

// nestedDifferences lists the corpus columns (file:column) where quiver
// reads nested data into a different shape from pqarrow on purpose, and
// why; the tests named there check quiver's result instead. Columns whose
// types differ only in field names, nullability or an extension type
// pqarrow puts over the same storage are compared by value (see
// asTypeOf).
var nestedDifferences = map[string]string{
	"data/old_list_structure.parquet:a": "LogicalTypes.md list rule 3: a repeated group whose only field is repeated is the element, " +
		"so quiver reads list<list<int32>> where pqarrow reads list<struct<array: list<int32>>> (TestNestedLegacyShapes)",
}

// asTypeOf returns the chunks of c retyped as dt when the two types have
// the same physical layout and differ only in field names, nullability
// or an extension type over the storage; ok is false otherwise.
func asTypeOf(c *arrow.Chunked, dt arrow.DataType) (*arrow.Chunked, bool) {
	out := make([]arrow.Array, 0, len(c.Chunks()))
	defer func() {
		for _, a := range out {
			a.Release()
		}
	}()
	for _, a := range c.Chunks() {
		d, ok := retype(a.Data(), dt)
		if !ok {
			return nil, false
		}
		out = append(out, array.MakeFromData(d))
		d.Release()
	}
	return arrow.NewChunked(dt, out), true
}

// retype rebuilds d, whose type may be an extension type, as type dt.
func retype(d arrow.ArrayData, dt arrow.DataType) (arrow.ArrayData, bool) {
	from := d.DataType()
	if ext, ok := from.(arrow.ExtensionType); ok {
		from = ext.StorageType()
	}
	shape := dt
	if ext, ok := dt.(arrow.ExtensionType); ok {
		shape = ext.StorageType()
	}
	if from.ID() != shape.ID() {
		return nil, false
	}
	var kids []arrow.Field
	switch t := shape.(type) {
	case *arrow.StructType:
		kids = t.Fields()
	case *arrow.MapType:
		kids = []arrow.Field{t.ElemField()}
	case arrow.ListLikeType:
		kids = []arrow.Field{t.ElemField()}
	default:
		if !arrow.TypeEqual(from, shape) {
			return nil, false
		}
	}
	if len(kids) != len(d.Children()) {
		return nil, false
	}
	children := make([]arrow.ArrayData, len(kids))
	for i, k := range kids {
		c, ok := retype(d.Children()[i], k.Type)
		if !ok {
			for _, c := range children[:i] {
				c.Release()
			}
			return nil, false
		}
		children[i] = c
	}
	out := array.NewData(dt, d.Len(), d.Buffers(), children, d.NullN(), d.Offset())
	for _, c := range children {
		c.Release()
	}
	return out, true
}

// TestNestedLegacyShapes reads the corpus files whose nested columns
// arrow-go reads differently or not at all, and states the values
// LogicalTypes.md's backward-compatibility rules give.
func TestNestedLegacyShapes(t *testing.T) {
	root := corpus.Dir(t)
	strMap := arrow.MapOf(arrow.BinaryTypes.String, arrow.BinaryTypes.String)
	cases := []struct {
		file, column, why string
		typ               arrow.DataType
		json              string
	}{{
		file: "data/old_list_structure.parquet", column: "a",
		why: "LIST rule 3: the repeated group `array` has one field, itself repeated, so it is the element: " +
			"a list of lists (pqarrow reads a list of structs holding a list)",
		typ:  arrow.ListOfNonNullable(arrow.ListOfField(arrow.Field{Name: "array", Type: arrow.PrimitiveTypes.Int32})),
		json: `[[[1, 2], [3, 4]]]`,
	}, {
		file: "data/incorrect_map_schema.parquet", column: "my_map",
		why: "MAP with an optional key (Presto/Trino): the key field is read non-nullable and a null key is " +
			"corrupt (TestNestedOptionalMapKeyNull); pqarrow refuses the file",
		typ:  strMap,
		json: `[[{"key": "parent", "value": "another"}, {"key": "name", "value": "report"}]]`,
	}}
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			want, _, err := array.FromJSON(mem, c.typ, strings.NewReader(c.json))
			if err != nil {
				t.Fatal(err)
			}
			defer want.Release()
			for _, batch := range []int{0, 1} {
				rd, err := arrowio.OpenFile(filepath.Join(root, c.file), arrowio.ReadOptions{Allocator: mem, BatchSize: batch, Parallelism: 1})
				if err != nil {
					t.Fatalf("open: %v", err)
				}
				got, err := arrowiotest.ReadBatches(rd)
				rd.Close()
				if err != nil {
					t.Fatalf("read (batch %d): %v", batch, err)
				}
				idx := got.Schema().FieldIndices(c.column)
				if len(idx) != 1 {
					got.Release()
					t.Fatalf("no column %s in %s", c.column, got.Schema())
				}
				g := got.Column(idx[0]).Data()
				wc := arrow.NewChunked(c.typ, []arrow.Array{want})
				w, ok := asTypeOf(wc, g.DataType())
				wc.Release()
				// asTypeOf takes over the file's field names ("array").
				if !ok {
					t.Errorf("column %s: type %s, want the shape of %s (%s)", c.column, g.DataType(), c.typ, c.why)
				} else {
					if !array.ChunkedEqual(g, w) {
						t.Errorf("column %s (batch %d): %v, want %v (%s)", c.column, batch, g.Chunks(), w.Chunks(), c.why)
					}
					w.Release()
				}
				got.Release()
			}
		})
	}
}

// optionalKeyMapFile writes, with arrow-go's column writers, a file whose
// MAP column my_map has an optional key, as some engines write: row 0 is
// {"a": "x"}, row 1 holds one entry with a null key, row 2 is null.
func optionalKeyMapFile(t *testing.T) []byte {
	t.Helper()
	must := func(n schema.Node, err error) schema.Node {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	key := must(schema.NewPrimitiveNodeLogical("key", parquet.Repetitions.Optional, schema.StringLogicalType{}, parquet.Types.ByteArray, -1, -1))
	value := must(schema.NewPrimitiveNodeLogical("value", parquet.Repetitions.Optional, schema.StringLogicalType{}, parquet.Types.ByteArray, -1, -1))
	kv := must(schema.NewGroupNode("key_value", parquet.Repetitions.Repeated, schema.FieldList{key, value}, -1))
	m := must(schema.NewGroupNodeLogical("my_map", parquet.Repetitions.Optional, schema.FieldList{kv}, schema.MapLogicalType{}, -1))
	root := must(schema.NewGroupNode("schema", parquet.Repetitions.Required, schema.FieldList{m}, -1)).(*schema.GroupNode)
	var buf bytes.Buffer
	w := file.NewParquetWriter(&buf, root)
	rg := w.AppendRowGroup()
	// Levels: my_map defined at 1, an entry at 2, a key or value at 3.
	for _, col := range []struct {
		vals     []parquet.ByteArray
		def, rep []int16
	}{
		{[]parquet.ByteArray{[]byte("a")}, []int16{3, 2, 0}, []int16{0, 0, 0}},
		{[]parquet.ByteArray{[]byte("x"), []byte("y")}, []int16{3, 3, 0}, []int16{0, 0, 0}},
	} {
		cw, err := rg.NextColumn()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(col.vals, col.def, col.rep); err != nil {
			t.Fatal(err)
		}
		if err := cw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := rg.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestNestedOptionalMapKeyNull states the policy for optional map keys on
// a null key: Arrow map keys cannot be null, so the row holding one is
// corrupt (ErrCorrupt); the rows before it read, batch by batch.
func TestNestedOptionalMapKeyNull(t *testing.T) {
	b := optionalKeyMapFile(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	rd, err := arrowio.Open(bytes.NewReader(b), int64(len(b)), arrowio.ReadOptions{Allocator: mem, Parallelism: 1})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	if f := rd.Schema().Field(0); !arrow.TypeEqual(f.Type, arrow.MapOf(arrow.BinaryTypes.String, arrow.BinaryTypes.String)) {
		t.Errorf("my_map is %s, want map<utf8, utf8> with a non-nullable key", f.Type)
	}
	tbl, err := rd.ReadTable(context.Background())
	if err == nil {
		tbl.Release()
		t.Errorf("ReadTable read a null map key without error")
	} else if !errors.Is(err, arrowio.ErrCorrupt) {
		t.Errorf("null map key: error does not wrap ErrCorrupt: %v", err)
	}
	rd.Close()

	rd, err = arrowio.Open(bytes.NewReader(b), int64(len(b)), arrowio.ReadOptions{Allocator: mem, Parallelism: 1, BatchSize: 1})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer rd.Close()
	rr, err := rd.RecordReader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	if !rr.Next() {
		t.Fatalf("no first batch: %v", rr.Err())
	}
	if got := rr.RecordBatch().Column(0); got.String() != `[{["a"] ["x"]}]` {
		t.Errorf("row 0 is %v, want {a: x}", got)
	}
	if rr.Next() {
		t.Errorf("row 1, with a null key, read as %v", rr.RecordBatch().Column(0))
	}
	if err := rr.Err(); !errors.Is(err, arrowio.ErrCorrupt) {
		t.Errorf("row 1: error %v does not wrap ErrCorrupt", err)
	}
}
