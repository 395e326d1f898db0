package arrowio_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/metrics"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
)

// The files TestStreamMemoryBounded streams: row groups of streamGroupRows
// rows, read in batches of streamBatch rows (four per row group).
const (
	streamGroupRows = 16384
	streamBatch     = 4096
)

// streamFile writes groups row groups of four zstd-compressed columns
// (int64 ids, random float64s, random nullable strings, low-cardinality
// int32s the writer dictionary-encodes) in 64 KiB pages and returns the
// file's path. Row group b holds the same values in every file, so files
// of different lengths differ only in their number of row groups.
func streamFile(t *testing.T, groups int) string {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "c", Type: arrow.PrimitiveTypes.Int32},
	}, nil)
	mem := memory.NewGoAllocator()
	return arrowiotest.WriteTempFile(t, schema, arrowio.WriteOptions{Compression: footer.CodecZstd, DataPageSize: 64 << 10, MaxRowGroupRows: streamGroupRows},
		groups, func(b int) arrow.RecordBatch {
			rng := rand.New(rand.NewPCG(uint64(b), 77))
			ids := array.NewInt64Builder(mem)
			defer ids.Release()
			for i := range streamGroupRows {
				ids.Append(int64(b*streamGroupRows + i))
			}
			cols := []arrow.Array{
				ids.NewArray(),
				arrowiotest.RandomArray(t, mem, arrow.PrimitiveTypes.Float64, streamGroupRows, 0, false, rng),
				arrowiotest.RandomArray(t, mem, arrow.BinaryTypes.String, streamGroupRows, 0.05, false, rng),
				arrowiotest.RandomArray(t, mem, arrow.PrimitiveTypes.Int32, streamGroupRows, 0, true, rng),
			}
			defer releaseAll(cols)
			return array.NewRecordBatch(schema, cols, streamGroupRows)
		})
}

// liveHeap collects garbage and returns the bytes of live heap objects.
func liveHeap() int64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// batchBytes returns the bytes of the buffers of rec's arrays.
func batchBytes(rec arrow.RecordBatch) int64 {
	var n int
	for _, c := range rec.Columns() {
		n += bufferBytes(c.Data())
	}
	return int64(n)
}

// streamStats is what streaming one file measured.
type streamStats struct {
	// allocPeak is the most bytes the caller's allocator had out at once.
	allocPeak int64
	// heapPeak is the most live Go heap above the level before the
	// Reader opened, sampled after every batch; heapAfter the same after
	// Close and two collections (which empty the reader's pools).
	heapPeak, heapAfter int64
	// batch is the largest batch's decoded bytes; compressed and
	// uncompressed the largest row group's projected chunk sizes from the
	// footer.
	batch, compressed, uncompressed int64
	rows                            int64
}

// streamRead streams the file at path through a RecordReader with
// Parallelism 1, each batch released by the next Next, and measures it.
// From "file" it opens path with OpenFile, which reads each column chunk
// when its column first decodes; from "bytes" it opens the file's bytes,
// read into memory before the measure starts, with Open, which reads a
// row group's whole projection in one coalesced read when the group opens.
func streamRead(t *testing.T, source, path string) streamStats {
	t.Helper()
	var file []byte
	if source == "bytes" {
		var err error
		if file, err = os.ReadFile(path); err != nil {
			t.Fatal(err)
		}
	}
	mem := &peakAllocator{}
	opts := arrowio.ReadOptions{Allocator: mem, BatchSize: streamBatch, Parallelism: 1}
	var st streamStats
	// Two collections empty the sync.Pools in which the recycling
	// allocator keeps released buffers: earlier tests leave gigabytes
	// there (TestMemoryMapCorpus reads the corpus's 2 GB string file),
	// which one collection keeps and the read's would then let go,
	// hiding every rise.
	liveHeap()
	base := liveHeap()
	rd := openSource(t, source, path, file, opts)
	for _, rg := range rd.Metadata().RowGroups {
		var c, u int64
		for _, ch := range rg.Columns { // every column is projected
			c += ch.MetaData.TotalCompressedSize
			u += ch.MetaData.TotalUncompressedSize
		}
		st.compressed, st.uncompressed = max(st.compressed, c), max(st.uncompressed, u)
	}
	rr, err := rd.RecordReader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for rr.Next() {
		rec := rr.RecordBatch()
		st.rows += rec.NumRows()
		st.batch = max(st.batch, batchBytes(rec))
		st.heapPeak = max(st.heapPeak, liveHeap()-base)
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	rr.Release()
	if err := rd.Close(); err != nil {
		t.Fatal(err)
	}
	rd = nil
	liveHeap()
	st.heapAfter = liveHeap() - base
	runtime.KeepAlive(file)
	mem.mu.Lock()
	defer mem.mu.Unlock()
	if mem.cur != 0 {
		t.Errorf("%d bytes of the caller's allocator still out after Close", mem.cur)
	}
	st.allocPeak = int64(mem.peak)
	return st
}

// TestStreamMemoryBounded streams files of 4 and 16 row groups, from disk
// and from memory, through a RecordReader with Parallelism 1, and checks
// that the memory held at any time is about one row group's compressed
// projected bytes plus the current batch plus decode scratch, and does not
// grow with the number of row groups.
//
// It measures twice, because the caller's allocator
// (ReadOptions.Allocator) provides only the returned arrays (and the
// dictionaries of dictionary-typed columns): chunk bytes, decompressed
// pages, decoded dictionaries and other scratch come from the reader's
// internal recycling allocator (pool.go, arrowmem.GetBytes) on the Go heap,
// whatever the caller passes.
//
//   - Through the caller's allocator at most one batch may be out at once
//     (Next releases the previous one): the peak stays under 1.25 times
//     the largest batch's decoded bytes plus 64 KiB.
//   - The live Go heap, sampled after a collection at every batch, rises
//     above its level before the Reader opened by at most: the largest row
//     group's compressed projected bytes (C, from the footer); a scratch
//     allowance of twice its uncompressed bytes (U), since a column holds
//     a decompressed page buffer as large as its largest page (its
//     dictionary page, for the string column) and its decoded dictionary,
//     each no larger than the column's uncompressed bytes; C+U more for the
//     buffers a finished row group handed back to the recycling allocator's
//     pools, which stay live until two collections pass or the next group
//     takes them; two batches; and 1 MiB for zstd decoder state and
//     bookkeeping. After Close and two more collections, which empty the
//     pools, the heap is back within 1 MiB of where it started.
//   - For 16 row groups both peaks stay within 1.5 times (plus 256 KiB of
//     heap noise) those for 4 row groups of the same shape, so memory
//     does not grow with the length of the file: a reader that kept 1/8
//     of every finished row group would exceed that.
func TestStreamMemoryBounded(t *testing.T) {
	paths := map[int]string{4: streamFile(t, 4), 16: streamFile(t, 16)}
	for _, source := range []string{"file", "bytes"} {
		t.Run(source, func(t *testing.T) {
			stats := map[int]streamStats{}
			for _, groups := range []int{4, 16} {
				st := streamRead(t, source, paths[groups])
				stats[groups] = st
				t.Logf("%d row groups: allocator peak %d, heap peak %d, heap after Close %d; batch %d, row group %d compressed, %d uncompressed",
					groups, st.allocPeak, st.heapPeak, st.heapAfter, st.batch, st.compressed, st.uncompressed)
				desc := fmt.Sprintf("%d row groups", groups)
				if st.rows != int64(groups*streamGroupRows) {
					t.Fatalf("%s: read %d rows, want %d", desc, st.rows, groups*streamGroupRows)
				}
				if limit := st.batch*5/4 + 64<<10; st.allocPeak > limit {
					t.Errorf("%s: the caller's allocator peaked at %d bytes, want at most %d (one %d-byte batch)", desc, st.allocPeak, limit, st.batch)
				}
				scratch := 2 * st.uncompressed
				pools := st.compressed + st.uncompressed
				if limit := st.compressed + scratch + pools + 2*st.batch + 1<<20; st.heapPeak > limit {
					t.Errorf("%s: live heap peaked %d bytes above its start, want at most %d", desc, st.heapPeak, limit)
				}
				if st.heapAfter > 1<<20 {
					t.Errorf("%s: live heap %d bytes above its start after Close", desc, st.heapAfter)
				}
			}
			few, many := stats[4], stats[16]
			if many.allocPeak > few.allocPeak*3/2 {
				t.Errorf("the caller's allocator peaked at %d bytes for 16 row groups, %d for 4", many.allocPeak, few.allocPeak)
			}
			if many.heapPeak > few.heapPeak*3/2+256<<10 {
				t.Errorf("live heap peaked %d bytes above its start for 16 row groups, %d for 4", many.heapPeak, few.heapPeak)
			}
		})
	}
}
