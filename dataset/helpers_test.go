package dataset

import (
	"context"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/internal/duckdb"
)

// countingSource counts the files opened through it.
type countingSource struct {
	Source
	opens atomic.Int64
	mu    sync.Mutex
	paths []string
}

func (c *countingSource) Open(ctx context.Context, p string) (File, error) {
	c.opens.Add(1)
	c.mu.Lock()
	c.paths = append(c.paths, p)
	c.mu.Unlock()
	return c.Source.Open(ctx, p)
}

func (c *countingSource) List(ctx context.Context, prefix string) iter.Seq2[FileInfo, error] {
	return c.Source.List(ctx, prefix)
}

// writeParquet writes batches to path with arrowio.
func writeParquet(t testing.TB, path string, opts arrowio.WriteOptions, recs ...arrow.RecordBatch) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := arrowio.NewWriter(f, recs[0].Schema(), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// cell formats element i of a, looking through dictionaries and run-end
// encoding.
func cell(a arrow.Array, i int) string {
	switch a := a.(type) {
	case *array.Dictionary:
		if a.IsNull(i) {
			return "null"
		}
		return cell(a.Dictionary(), a.GetValueIndex(i))
	case *array.RunEndEncoded:
		return cell(a.Values(), a.GetPhysicalIndex(i))
	}
	if a.IsNull(i) || a.DataType().ID() == arrow.NULL {
		return "null"
	}
	return a.ValueStr(i)
}

// readRows drains rr into rows of "name=value" cells, columns sorted by
// name, and returns them sorted.
func readRows(t testing.TB, rr array.RecordReader) []string {
	t.Helper()
	defer rr.Release()
	var rows []string
	for rr.Next() {
		b := rr.RecordBatch()
		names := make([]int, b.NumCols())
		for i := range names {
			names[i] = i
		}
		sort.Slice(names, func(x, y int) bool { return b.ColumnName(names[x]) < b.ColumnName(names[y]) })
		for r := 0; r < int(b.NumRows()); r++ {
			var sb strings.Builder
			for _, c := range names {
				fmt.Fprintf(&sb, "%s=%s;", b.ColumnName(c), cell(b.Column(c), r))
			}
			rows = append(rows, sb.String())
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	sort.Strings(rows)
	return rows
}

var _ = duckdb.Quote

// openFiles wraps a Source and tracks how many of its files are open at
// once.
type openFiles struct {
	Source
	mu         sync.Mutex
	open, peak int
}

func (o *openFiles) Open(ctx context.Context, p string) (File, error) {
	f, err := o.Source.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	o.mu.Lock()
	o.open++
	o.peak = max(o.peak, o.open)
	o.mu.Unlock()
	return &trackedFile{File: f, o: o}, nil
}

type trackedFile struct {
	File
	o    *openFiles
	once sync.Once
}

func (f *trackedFile) Close() error {
	f.once.Do(func() {
		f.o.mu.Lock()
		f.o.open--
		f.o.mu.Unlock()
	})
	return f.File.Close()
}
