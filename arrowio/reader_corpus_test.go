package arrowio

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
)

// readWithPqarrow reads path with arrow-go's pqarrow, recovering from its
// panics (it has some on corrupt files).
func readWithPqarrow(path string, mem memory.Allocator) (tbl arrow.Table, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("pqarrow panicked: %v", r)
		}
	}()
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, err
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: 1 << 16}, mem)
	if err != nil {
		return nil, err
	}
	return fr.ReadTable(context.Background())
}

// flatColumns lists the top-level primitive columns of path's schema: the
// ones the flat reader handles.
func flatColumns(t *testing.T, path string) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	ft, err := footer.ReadFooter(f, st.Size())
	if err != nil {
		return nil
	}
	var cols []string
	for _, c := range ft.Schema.Root.Children {
		if c.IsLeaf() && c.Repetition != footer.RepetitionRepeated {
			cols = append(cols, c.Name)
		}
	}
	return cols
}

// knownDifferences lists corpus columns where quiver deliberately reads
// differently from pqarrow, and why; they are compared by the tests that
// cover that behaviour instead.
var knownDifferences = map[string]string{}

// TestCorpusFlatMatchesPqarrow reads the flat columns of every corpus file
// with quiver and compares them with pqarrow's ReadTable of the same file.
func TestCorpusFlatMatchesPqarrow(t *testing.T) {
	root := corpus.Dir(t)
	var compared, columns int
	for _, rel := range corpus.Files(t) {
		if strings.HasPrefix(rel, "bad_data") {
			continue
		}
		path := filepath.Join(root, rel)
		t.Run(rel, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			want, werr := readWithPqarrow(path, memory.DefaultAllocator)
			if werr != nil {
				t.Skipf("pqarrow cannot read it: %v", werr)
			}
			defer want.Release()
			cols := flatColumns(t, path)
			if len(cols) == 0 {
				t.Skip("no flat top-level columns")
			}
			rd, err := OpenFile(path, ReadOptions{Columns: cols, Allocator: mem})
			if err != nil {
				if errors.Is(err, footer.ErrEncryptedFooter) {
					t.Skip("encrypted footer")
				}
				t.Fatalf("open: %v", err)
			}
			defer rd.Close()
			got, err := rd.ReadTable(context.Background())
			if err != nil {
				if errors.Is(err, ErrUnsupported) {
					t.Skipf("not supported yet: %v", err)
				}
				t.Fatalf("read: %v", err)
			}
			defer got.Release()
			if got.NumRows() != want.NumRows() {
				t.Fatalf("%d rows, pqarrow %d", got.NumRows(), want.NumRows())
			}
			for i := 0; i < int(got.NumCols()); i++ {
				name := got.Schema().Field(i).Name
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
					t.Errorf("column %s: type %s, pqarrow %s", name, g.DataType(), w.DataType())
					continue
				}
				if !array.ChunkedApproxEqual(g, w, array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
					t.Errorf("column %s: values differ from pqarrow", name)
				}
				columns++
			}
			compared++
		})
	}
	t.Logf("compared %d columns of %d files with pqarrow", columns, compared)
}
