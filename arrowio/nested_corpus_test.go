package arrowio_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/quiverio/quiver/arrowio"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/footer"
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

// TestCorpusAllColumnsMatchPqarrow reads every column of every valid
// corpus file, nested ones included, and compares each with pqarrow's
// ReadTable of the same file, in small batches (so that batches end inside
// pages and rows) and whole.
func TestCorpusAllColumnsMatchPqarrow(t *testing.T) {
	root := corpus.Dir(t)
	var files, columns int
	for _, rel := range corpus.Files(t) {
		if strings.HasPrefix(rel, "bad_data") {
			continue
		}
		path := filepath.Join(root, rel)
		t.Run(rel, func(t *testing.T) {
			want, werr := readWithPqarrow(path, memory.DefaultAllocator)
			if werr != nil {
				t.Skipf("pqarrow cannot read it: %v", werr)
			}
			defer want.Release()
			for _, batch := range []int{0, 3} {
				n := compareWithPqarrow(t, path, rel, want, batch)
				if batch == 0 {
					columns += n
				}
			}
			files++
		})
	}
	t.Logf("compared %d columns of %d files with pqarrow", columns, files)
}

// compareWithPqarrow reads path with quiver in batches of batch rows (0:
// the default) and compares every column with want, returning how many
// it compared.
func compareWithPqarrow(t *testing.T, path, rel string, want arrow.Table, batch int) int {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{Allocator: mem, BatchSize: batch, Parallelism: 1})
	if err != nil {
		if errors.Is(err, footer.ErrEncryptedFooter) {
			t.Skip("encrypted footer")
		}
		t.Fatalf("open: %v", err)
	}
	defer rd.Close()
	got, err := arrowiotest.ReadBatches(rd)
	if err != nil {
		if errors.Is(err, arrowio.ErrUnsupported) {
			t.Skipf("not supported: %v", err)
		}
		t.Fatalf("read (batch %d): %v", batch, err)
	}
	defer got.Release()
	if got.NumRows() != want.NumRows() {
		t.Fatalf("batch %d: %d rows, pqarrow %d", batch, got.NumRows(), want.NumRows())
	}
	compared := 0
	for i := 0; i < int(got.NumCols()); i++ {
		name := got.Schema().Field(i).Name
		if why, ok := nestedDifferences[rel+":"+name]; ok {
			t.Logf("column %s not compared: %s", name, why)
			continue
		}
		if why, ok := knownDifferences[rel+":"+name]; ok {
			t.Logf("column %s not compared: %s", name, why)
			continue
		}
		idx := want.Schema().FieldIndices(name)
		if len(idx) != 1 {
			t.Errorf("column %s: pqarrow has %d columns of that name", name, len(idx))
			continue
		}
		g, w := got.Column(i).Data(), want.Column(idx[0]).Data()
		if !arrow.TypeEqual(g.DataType(), w.DataType()) {
			re, ok := asTypeOf(w, g.DataType())
			if !ok {
				t.Errorf("column %s: type %s, pqarrow %s", name, g.DataType(), w.DataType())
				continue
			}
			t.Logf("column %s: type %s, pqarrow %s (compared by value: ArrowSchema documents the difference)", name, g.DataType(), w.DataType())
			defer re.Release()
			w = re
		}
		if !array.ChunkedApproxEqual(g, w, array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
			t.Errorf("batch %d: column %s: values differ from pqarrow\nquiver: %v\npqarrow: %v", batch, name, g, w)
		}
		compared++
	}
	return compared
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
