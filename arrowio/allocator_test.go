package arrowio_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
)

// keptRows is the length of both columns of keptFile: more than one
// batch, so that the streamed read returns a batch as large as the next
// read's.
const keptRows = 100_000

// keptFile returns a file of two required int64 columns of keptRows rows
// in one row group: "a" holds 0, 1, 2, ... and "b" -1, -2, -3, ..., so
// that a value of one can never pass for a value of the other.
func keptFile(t *testing.T) []byte {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		{Name: "b", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	a, b := array.NewInt64Builder(memory.DefaultAllocator), array.NewInt64Builder(memory.DefaultAllocator)
	defer a.Release()
	defer b.Release()
	for i := range int64(keptRows) {
		a.Append(i)
		b.Append(-1 - i)
	}
	cols := []arrow.Array{a.NewArray(), b.NewArray()}
	rec := array.NewRecordBatch(schema, cols, keptRows)
	defer rec.Release()
	for _, c := range cols {
		c.Release()
	}
	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, schema, arrowio.WriteOptions{})
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

// readWays are the ways the Reader returns arrays, each of which reads
// column col of file with opts, passes the int64 values of the first
// array it returns to keep, and releases everything, as the arrow-go
// documentation asks, before it returns.
var readWays = []struct {
	name string
	read func(t *testing.T, file []byte, col string, opts arrowio.ReadOptions, keep func([]int64))
}{
	{"ReadTable", func(t *testing.T, file []byte, col string, opts arrowio.ReadOptions, keep func([]int64)) {
		rd := openCol(t, file, col, opts)
		defer rd.Close()
		tbl, err := rd.ReadTable(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer tbl.Release()
		keep(tbl.Column(0).Data().Chunk(0).(*array.Int64).Int64Values())
	}},
	{"ReadRowGroup", func(t *testing.T, file []byte, col string, opts arrowio.ReadOptions, keep func([]int64)) {
		rd := openCol(t, file, col, opts)
		defer rd.Close()
		rec, err := rd.ReadRowGroup(context.Background(), 0)
		if err != nil {
			t.Fatal(err)
		}
		defer rec.Release()
		keep(rec.Column(0).(*array.Int64).Int64Values())
	}},
	{"RecordReader", func(t *testing.T, file []byte, col string, opts arrowio.ReadOptions, keep func([]int64)) {
		rd := openCol(t, file, col, opts)
		defer rd.Close()
		rr, err := rd.RecordReader(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer rr.Release()
		for i := 0; rr.Next(); i++ {
			if i == 0 {
				keep(rr.RecordBatch().Column(0).(*array.Int64).Int64Values())
			}
		}
		if err := rr.Err(); err != nil {
			t.Fatal(err)
		}
	}},
}

// openCol opens file with opts, selecting column col.
func openCol(t *testing.T, file []byte, col string, opts arrowio.ReadOptions) *arrowio.Reader {
	t.Helper()
	opts.Columns = []string{col}
	rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), opts)
	if err != nil {
		t.Fatal(err)
	}
	return rd
}

// keptSliceChanged reads column "a" of keptFile with opts through read,
// keeping a Go slice of its values past the release, then reads column
// "b" (which has as many values) rounds times the same way, and returns
// where the kept slice first stopped holding a's values, or "" when it
// never did.
func keptSliceChanged(t *testing.T, file []byte, opts arrowio.ReadOptions, rounds int, read func(*testing.T, []byte, string, arrowio.ReadOptions, func([]int64))) string {
	t.Helper()
	var kept, want []int64
	read(t, file, "a", opts, func(v []int64) { kept, want = v, slices.Clone(v) })
	if len(kept) == 0 || kept[0] != 0 {
		t.Fatalf("read %d values of a, first %v", len(kept), kept[:min(len(kept), 1)])
	}
	for round := range rounds {
		read(t, file, "b", opts, func([]int64) {})
		for i := range want {
			if kept[i] != want[i] {
				return fmt.Sprintf("after %d reads of b, kept value %d is %d, was %d", round+1, i, kept[i], want[i])
			}
		}
	}
	return ""
}

// TestDefaultAllocatorKeepsReleasedMemory does what a user of arrow-go's
// pqarrow may do without knowing it is wrong: read a column with the
// default ReadOptions, keep a Go slice of its values
// (array.Int64.Int64Values), release the table, batch or record reader as
// documented, and read another column of the same size. With
// ReadOptions.Allocator nil the slice must still hold the first column's
// values, as it does with pqarrow, whose Go allocator leaves released
// memory to the garbage collector: memory is never handed out again while
// Go code can reach it.
func TestDefaultAllocatorKeepsReleasedMemory(t *testing.T) {
	file := keptFile(t)
	for _, way := range readWays {
		for _, parallelism := range []int{0, 1} {
			opts := arrowio.ReadOptions{Parallelism: parallelism}
			if where := keptSliceChanged(t, file, opts, 4, way.read); where != "" {
				t.Errorf("%s, Parallelism %d: a slice kept past Release shows another read's values: %s", way.name, parallelism, where)
			}
		}
	}
}

// TestRecyclingAllocatorReusesReleasedMemory shows the hazard
// NewRecyclingAllocator accepts, so that it is known not to be a plain Go
// allocator under another name: with it, the slice kept past Release in
// TestDefaultAllocatorKeepsReleasedMemory comes to show the values of the
// next read, whose arrays took the released memory. sync.Pool may drop
// what it is given (a quarter of it under the race detector), so the
// whole sequence is given several tries.
func TestRecyclingAllocatorReusesReleasedMemory(t *testing.T) {
	file := keptFile(t)
	for _, way := range readWays {
		opts := arrowio.ReadOptions{Parallelism: 1, Allocator: arrowio.NewRecyclingAllocator()}
		where := ""
		for try := 0; try < 16 && where == ""; try++ {
			where = keptSliceChanged(t, file, opts, 1, way.read)
		}
		if where == "" {
			t.Errorf("%s: no read of b took the memory of a's released array", way.name)
		} else {
			t.Logf("%s: %s", way.name, where)
		}
	}
}
