package dataset

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
)

// Ordered scans give files in order, unordered ones the same rows; both
// keep within their bounds of open files and buffered bytes, and leak
// neither memory nor goroutines.
func TestScanOrderAndBounds(t *testing.T) {
	dir := t.TempDir()
	makePartitioned(t, dir, 12, 3000, arrowio.WriteOptions{MaxRowGroupRows: 500})
	ctx := context.Background()
	var want []string
	for _, unordered := range []bool{false, true} {
		for _, maxOpen := range []int{1, 3, 8} {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			src := &openFiles{Source: Local}
			before := runtime.NumGoroutine()
			ds, err := Open(ctx, src, []string{dir}, Options{
				Unordered: unordered, MaxOpenFiles: maxOpen, MaxBufferedBytes: 64 << 10,
				Read: arrowio.ReadOptions{BatchSize: 400, Allocator: mem},
			})
			if err != nil {
				t.Fatal(err)
			}
			rr, _ := ds.RecordReader(ctx)
			sc := rr.(*scanner)
			var xs []int64
			var rows []string
			for rr.Next() {
				b := rr.RecordBatch()
				x := b.Column(0).(*array.Int64)
				xs = append(xs, x.Int64Values()...)
				for i := range int(b.NumRows()) {
					rows = append(rows, cell(b.Column(0), i)+cell(b.Column(1), i)+cell(b.Column(2), i)+cell(b.Column(3), i))
				}
			}
			if err := rr.Err(); err != nil {
				t.Fatal(err)
			}
			peak := sc.peak
			rr.Release()
			if len(xs) != 36000 {
				t.Fatalf("%d rows", len(xs))
			}
			if !unordered {
				// File by file in the order of Files (p=0, p=1, p=10, ...).
				var order []int64
				for _, f := range ds.Files() {
					p, _ := strconv.Atoi(f.Partitions[0].Value)
					for r := range 3000 {
						order = append(order, int64(p*3000+r))
					}
				}
				if !slices.Equal(xs, order) {
					t.Errorf("maxOpen=%d: ordered scan out of order", maxOpen)
				}
			}
			slices.Sort(rows)
			if want == nil {
				want = rows
			} else if !slices.Equal(rows, want) {
				t.Errorf("unordered=%v maxOpen=%d: rows differ", unordered, maxOpen)
			}
			// A batch of 400 rows is about 6 KB here: the bound holds
			// with at most one batch over it.
			if peak > 64<<10+16<<10 {
				t.Errorf("unordered=%v maxOpen=%d: %d bytes buffered", unordered, maxOpen, peak)
			}
			if src.peak > maxOpen {
				t.Errorf("unordered=%v maxOpen=%d: %d files open at once", unordered, maxOpen, src.peak)
			}
			mem.AssertSize(t, 0)
			waitGoroutines(t, before)
		}
	}
}

// waitGoroutines fails t when more than n goroutines remain after a
// moment.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines, want %d:\n%s", runtime.NumGoroutine(), n, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Releasing a scan early, or cancelling its context, stops its workers
// and frees what they queued.
func TestScanStopEarly(t *testing.T) {
	dir := t.TempDir()
	makePartitioned(t, dir, 8, 2000, arrowio.WriteOptions{MaxRowGroupRows: 100})
	for _, cancel := range []bool{false, true} {
		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		before := runtime.NumGoroutine()
		ctx, stop := context.WithCancel(context.Background())
		ds, err := Open(ctx, nil, []string{dir}, Options{MaxOpenFiles: 4, Read: arrowio.ReadOptions{BatchSize: 100, Allocator: mem}})
		if err != nil {
			t.Fatal(err)
		}
		rr, _ := ds.RecordReader(ctx)
		for range 3 {
			if !rr.Next() {
				t.Fatal(rr.Err())
			}
		}
		if cancel {
			stop()
			for rr.Next() {
			}
			if !errors.Is(rr.Err(), context.Canceled) {
				t.Errorf("after cancel: %v", rr.Err())
			}
		}
		rr.Release()
		stop()
		mem.AssertSize(t, 0)
		waitGoroutines(t, before)
	}
}

// Read options reach every file: string columns read as dictionaries,
// and large strings, in the dataset's schema as in its batches.
func TestScanReadOptions(t *testing.T) {
	dir := t.TempDir()
	makePartitioned(t, dir, 3, 50, arrowio.WriteOptions{})
	for _, ro := range []arrowio.ReadOptions{{Dictionary: []string{"y"}}, {Mapping: arrowio.SchemaOptions{Strings: arrowio.StringsLarge}}} {
		ds, err := Open(context.Background(), nil, []string{dir}, Options{Read: ro, SchemaMode: SchemaUnify})
		if err != nil {
			t.Fatal(err)
		}
		rr, _ := ds.RecordReader(context.Background())
		n := 0
		for rr.Next() {
			if !rr.RecordBatch().Schema().Equal(ds.Schema()) {
				t.Errorf("batch schema %s, dataset %s", rr.RecordBatch().Schema(), ds.Schema())
			}
			n += int(rr.RecordBatch().NumRows())
		}
		if rr.Err() != nil || n != 150 {
			t.Errorf("%d rows, %v", n, rr.Err())
		}
		rr.Release()
		t.Log(ds.Schema().Field(1).Type)
	}
}

// A glob that matches nothing is an empty dataset, not an error; a scan,
// a count and the splits of it are empty.
func TestEmptyDataset(t *testing.T) {
	dir := t.TempDir()
	ds, err := Open(context.Background(), nil, []string{dir + "/**/*.parquet"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rr, _ := ds.RecordReader(context.Background())
	if rows := readRows(t, rr); len(rows) != 0 || ds.Schema().NumFields() != 0 {
		t.Errorf("rows %q, schema %s", rows, ds.Schema())
	}
	if n, err := ds.CountRows(context.Background()); n != 0 || err != nil {
		t.Errorf("CountRows %d, %v", n, err)
	}
	if s, err := ds.Splits(context.Background()); len(s) != 0 || err != nil {
		t.Errorf("Splits %v, %v", s, err)
	}
}

// An unordered scan stops at a failing file with its error.
func TestScanUnorderedError(t *testing.T) {
	dir := t.TempDir()
	makePartitioned(t, dir, 6, 300, arrowio.WriteOptions{MaxRowGroupRows: 50})
	touch(t, dir, "p=9/q=1/bad.parquet")
	ds, err := Open(context.Background(), nil, []string{dir}, Options{Unordered: true, Schema: benchLikeSchema()})
	if err != nil {
		t.Fatal(err)
	}
	rr, _ := ds.RecordReader(context.Background())
	for rr.Next() {
	}
	if err := rr.Err(); err == nil || !strings.Contains(err.Error(), "bad.parquet") {
		t.Errorf("error %v", err)
	}
	rr.Release()
}

func benchLikeSchema() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}, {Name: "y", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
}
