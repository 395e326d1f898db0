package arrowio_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverio/quiver/arrowio"
)

// recycleFile writes a file of three row groups of nullable int64, float64,
// string and binary columns, and returns it with its columns as written.
func recycleFile(t *testing.T) ([]byte, []arrow.Array) {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 11))
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "b", Type: arrow.BinaryTypes.Binary, Nullable: true},
	}, nil)
	var recs []arrow.RecordBatch
	for range 3 {
		cols := make([]arrow.Array, schema.NumFields())
		for c, f := range schema.Fields() {
			cols[c] = arrowiotest.RandomArray(t, memory.DefaultAllocator, f.Type, arrowiotest.Rows(20000), 0.1, c == 3, rng)
		}
		recs = append(recs, array.NewRecordBatch(schema, cols, -1))
	}
	file := arrowiotest.WriteFile(t, schema, arrowio.WriteOptions{}, recs...)
	want := make([]arrow.Array, schema.NumFields())
	for c := range want {
		want[c] = concatColumn(t, recs, c)
	}
	return file, want
}

// TestAllocatorsKeepRetainedBatches reads a file in batches with the
// default allocator and with NewRecyclingAllocator, which hands released
// buffers out again, keeping every other batch (Retain) and reading the
// whole file again after each batch with the table released at once, so
// that buffers go back and forth through the pools (the reader's scratch
// pool, and the recycling allocator's): the batches kept hold what was
// written, and the batches and tables let go of lend their memory to later
// reads.
func TestAllocatorsKeepRetainedBatches(t *testing.T) {
	file, want := recycleFile(t)
	ctx := context.Background()
	for _, tc := range []struct {
		parallelism int
		mem         memory.Allocator
	}{{1, nil}, {2, nil}, {1, arrowio.NewRecyclingAllocator()}, {2, arrowio.NewRecyclingAllocator()}} {
		parallelism := tc.parallelism
		rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{BatchSize: 3000, Parallelism: parallelism, Allocator: tc.mem})
		if err != nil {
			t.Fatal(err)
		}
		rr, err := rd.RecordReader(ctx)
		if err != nil {
			t.Fatal(err)
		}
		type kept struct {
			rec    arrow.RecordBatch
			offset int64
		}
		var keep []kept
		var offset int64
		for i := 0; rr.Next(); i++ {
			rec := rr.RecordBatch()
			if i%2 == 0 {
				rec.Retain()
				keep = append(keep, kept{rec, offset})
			}
			offset += rec.NumRows()
			churn, err := rd.ReadTable(ctx)
			if err != nil {
				t.Fatal(err)
			}
			churn.Release()
		}
		if err := rr.Err(); err != nil {
			t.Fatal(err)
		}
		rr.Release()
		if err := rd.Close(); err != nil {
			t.Fatal(err)
		}
		if offset != int64(want[0].Len()) {
			t.Fatalf("parallelism %d, allocator %T: read %d rows, wrote %d", parallelism, tc.mem, offset, want[0].Len())
		}
		for _, k := range keep {
			for c := range want {
				exp := array.NewSlice(want[c], k.offset, k.offset+k.rec.NumRows())
				if !array.Equal(exp, k.rec.Column(c)) {
					t.Errorf("parallelism %d, allocator %T: column %d of the batch at row %d changed after it was kept", parallelism, tc.mem, c, k.offset)
				}
				exp.Release()
			}
			k.rec.Release()
		}
	}
}

// TestRecyclingAllocatorReusesReleasedTables checks that with
// NewRecyclingAllocator a read after a released read of the same file
// takes most of its memory from the released table instead of allocating
// it again.
func TestRecyclingAllocatorReusesReleasedTables(t *testing.T) {
	file, _ := recycleFile(t)
	mem := arrowio.NewRecyclingAllocator()
	// read reads the file, releases the table and returns the bytes it
	// allocated and the bytes of the table's buffers.
	read := func() (allocated, decoded uint64) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Parallelism: 1, Allocator: mem})
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := rd.ReadTable(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for c := range int(tbl.NumCols()) {
			for _, chunk := range tbl.Column(c).Data().Chunks() {
				for _, b := range chunk.Data().Buffers() {
					if b != nil {
						decoded += uint64(b.Len())
					}
				}
			}
		}
		tbl.Release()
		if err := rd.Close(); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, decoded
	}
	read()
	if again, decoded := read(); again > decoded/4 {
		t.Errorf("a read after a released one allocated %d bytes for %d bytes of arrays", again, decoded)
	}
}
