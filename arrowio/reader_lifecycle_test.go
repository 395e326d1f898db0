package arrowio_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/footer"
)

const tripsFixture = "../testdata/trips.parquet"

// settleGoroutines waits briefly for goroutines to exit and returns the
// count.
func settleGoroutines(want int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 100 && n > want; i++ {
		time.Sleep(5 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

func TestOpenErrors(t *testing.T) {
	if _, err := arrowio.OpenFile(tripsFixture, arrowio.ReadOptions{Columns: []string{"no_such"}}); !errors.Is(err, arrowio.ErrUnknownColumn) {
		t.Errorf("unknown column: %v", err)
	}
	if _, err := arrowio.OpenFile(tripsFixture, arrowio.ReadOptions{RowGroups: []int{2}}); err == nil {
		t.Error("row group 2 of 2 accepted")
	}
	if _, err := arrowio.OpenFile("no/such/file.parquet", arrowio.ReadOptions{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	rd, err := arrowio.OpenFile(tripsFixture, arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if _, err := rd.ReadRowGroup(context.Background(), -1); err == nil {
		t.Error("row group -1 read")
	}
}

// The file the goroutine and determinism tests read: lifeGroups row groups
// of lifeGroupRows rows, read in batches of lifeBatch rows, which does not
// divide a row group, so that every group ends in a short batch.
const (
	lifeGroups    = 6
	lifeGroupRows = 3000
	lifeBatch     = 700
)

// lifecycleFile writes lifeGroups row groups of five columns (int64,
// nullable float64, nullable string, low-cardinality int32 that the writer
// dictionary-encodes, nullable list<int32>) with Snappy and small pages,
// and returns the file's path and bytes.
func lifecycleFile(t *testing.T) (string, []byte) {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "c", Type: arrow.PrimitiveTypes.Int32},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	}, nil)
	mem := memory.NewGoAllocator()
	rng := rand.New(rand.NewPCG(41, 42))
	path := arrowiotest.WriteTempFile(t, schema, arrowio.WriteOptions{Compression: footer.CodecSnappy, DataPageSize: 4096, MaxRowGroupRows: lifeGroupRows},
		lifeGroups, func(b int) arrow.RecordBatch {
			ids := array.NewInt64Builder(mem)
			defer ids.Release()
			lb := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int32)
			defer lb.Release()
			vb := lb.ValueBuilder().(*array.Int32Builder)
			for i := range lifeGroupRows {
				ids.Append(int64(b*lifeGroupRows + i))
				if rng.IntN(8) == 0 {
					lb.AppendNull()
					continue
				}
				lb.Append(true)
				for k := range rng.IntN(4) {
					vb.Append(int32(i*4 + k))
				}
			}
			cols := []arrow.Array{
				ids.NewArray(),
				arrowiotest.RandomArray(t, mem, arrow.PrimitiveTypes.Float64, lifeGroupRows, 0.1, false, rng),
				arrowiotest.RandomArray(t, mem, arrow.BinaryTypes.String, lifeGroupRows, 0.1, false, rng),
				arrowiotest.RandomArray(t, mem, arrow.PrimitiveTypes.Int32, lifeGroupRows, 0, true, rng),
				lb.NewArray(),
			}
			defer releaseAll(cols)
			return array.NewRecordBatch(schema, cols, lifeGroupRows)
		})
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, file
}

// openSource opens the file at path with OpenFile when source is "file",
// else its bytes, file, with Open over a bytes.Reader.
func openSource(t *testing.T, source, path string, file []byte, opts arrowio.ReadOptions) *arrowio.Reader {
	t.Helper()
	var rd *arrowio.Reader
	var err error
	if source == "file" {
		rd, err = arrowio.OpenFile(path, opts)
	} else {
		rd, err = arrowio.Open(bytes.NewReader(file), int64(len(file)), opts)
	}
	if err != nil {
		t.Fatal(err)
	}
	return rd
}

// openLifecycle opens the file from disk (OpenFile, which reads each
// column chunk as its column decodes) or from memory (Open over a
// bytes.Reader, which reads a row group's projection when it opens).
func openLifecycle(t *testing.T, source, path string, file []byte, opts arrowio.ReadOptions) *arrowio.Reader {
	t.Helper()
	rd := openSource(t, source, path, file, opts)
	if rd.NumRowGroups() != lifeGroups {
		t.Fatalf("the file has %d row groups, want %d", rd.NumRowGroups(), lifeGroups)
	}
	return rd
}

// arrowioStacks returns the stacks of the goroutines, other than the
// caller, that are running code of package arrowio outside its tests.
func arrowioStacks() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for i, g := range strings.Split(string(buf), "\n\n") {
		if i == 0 { // the caller's own goroutine comes first
			continue
		}
		for _, line := range strings.Split(g, "\n") {
			if strings.Contains(line, "/arrowio/") && !strings.Contains(line, "_test.go") {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

// checkGoroutines fails the test unless the number of goroutines falls
// back to before within settleGoroutines' half second, and no more
// goroutines run arrowio code than the inArrowio that did before the read
// (goroutines other tests left behind are not the read's); it prints the
// stacks of those in arrowio.
func checkGoroutines(t *testing.T, before, inArrowio int) {
	t.Helper()
	n := settleGoroutines(before)
	left := arrowioStacks()
	if n > before || len(left) > inArrowio {
		t.Errorf("%d goroutines after Close, %d before; %d in arrowio, %d before:\n%s", n, before, len(left), inArrowio, strings.Join(left, "\n\n"))
	}
}

// TestReaderLifecycle reads the file every way a Reader reads (a whole
// table, a table with a context cancelled before the read, a
// RecordReader drained to the end, one whose context is cancelled
// mid-way, one released after two batches with the first kept, one
// abandoned with its prefetch in flight, every row group with
// ReadRowGroup), from disk and from memory, with Parallelism 1, 2 and 8.
// A cancelled read ends with context.Canceled, a RecordReader within a
// batch of the cancel. After Close (and the Release each result needs) no
// goroutine the read started may be left, and a checked allocator must
// hold no byte but the kept batch's, which stays whole: decode workers,
// prefetches and pooled buffers all end with the read. Closing again
// does nothing, and reading after Close is ErrClosed.
//
// An unreleased RecordReader keeps its Reader open: Close does not stop
// it but waits, until the RecordReader is released, for it to let go of
// the Reader (recordReader.finish calls Reader.active.Done). The
// "abandoned" case checks exactly that: Close still blocks 100 ms after
// it is called, the prefetch goroutine has already ended by then (it
// sends to a buffered channel), and Release lets Close return at once.
func TestReaderLifecycle(t *testing.T) {
	path, file := lifecycleFile(t)
	const total = lifeGroups * lifeGroupRows
	for _, source := range []string{"file", "bytes"} {
		for _, how := range []string{"table", "table-cancelled", "drained", "cancelled", "partial", "abandoned", "rowgroups"} {
			for _, par := range []int{1, 2, 8} {
				t.Run(fmt.Sprintf("%s/%s/par=%d", source, how, par), func(t *testing.T) {
					before, inArrowio := runtime.NumGoroutine(), len(arrowioStacks())
					mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
					rd := openLifecycle(t, source, path, file, arrowio.ReadOptions{Allocator: mem, BatchSize: lifeBatch, Parallelism: par})
					closed := false
					defer func() {
						if !closed {
							rd.Close()
						}
					}()
					ctx, cancel := context.WithCancel(context.Background())
					defer cancel()
					var kept arrow.RecordBatch
					switch how {
					case "table-cancelled":
						cancel()
						if tbl, err := rd.ReadTable(ctx); !errors.Is(err, context.Canceled) {
							t.Errorf("ReadTable with a cancelled context: %v", err)
							if tbl != nil {
								tbl.Release()
							}
						}
					case "partial":
						rr, err := rd.RecordReader(ctx)
						if err != nil {
							t.Fatal(err)
						}
						if !rr.Next() {
							t.Fatal(rr.Err())
						}
						kept = rr.RecordBatch()
						kept.Retain()
						rr.Next()
						// Stop early: Release must wait for the prefetch
						// and free the batch it holds.
						rr.Release()
					case "table":
						tbl, err := rd.ReadTable(ctx)
						if err != nil {
							t.Fatal(err)
						}
						if tbl.NumRows() != total {
							t.Errorf("table of %d rows, want %d", tbl.NumRows(), total)
						}
						tbl.Release()
					case "rowgroups":
						for i := range lifeGroups {
							rec, err := rd.ReadRowGroup(ctx, i)
							if err != nil {
								t.Fatal(err)
							}
							if rec.NumRows() != lifeGroupRows {
								t.Errorf("row group %d: %d rows", i, rec.NumRows())
							}
							rec.Release()
						}
					case "drained":
						rr, err := rd.RecordReader(ctx)
						if err != nil {
							t.Fatal(err)
						}
						var rows int64
						for rr.Next() {
							rows += rr.RecordBatch().NumRows()
						}
						if rr.Err() != nil || rows != total {
							t.Errorf("drained %d rows, want %d (err %v)", rows, total, rr.Err())
						}
						rr.Release()
					case "cancelled":
						rr, err := rd.RecordReader(ctx)
						if err != nil {
							t.Fatal(err)
						}
						// Cancel in the third row group, with the fourth
						// prefetched when Parallelism allows.
						const upTo = 2*(lifeGroupRows/lifeBatch+1) + 1
						for i := range upTo {
							if !rr.Next() {
								t.Fatalf("batch %d: %v", i, rr.Err())
							}
						}
						cancel()
						start := time.Now()
						after := 0
						for rr.Next() {
							after++
						}
						if !errors.Is(rr.Err(), context.Canceled) {
							t.Errorf("Err() = %v after cancel, want context.Canceled", rr.Err())
						}
						if after > 1 {
							t.Errorf("%d batches after cancel, want at most 1", after)
						}
						if d := time.Since(start); d > time.Second {
							t.Errorf("Next took %v to stop after cancel", d)
						}
						rr.Release()
					case "abandoned":
						rr, err := rd.RecordReader(ctx)
						if err != nil {
							t.Fatal(err)
						}
						// The first batch opens row group 0 and, above
						// Parallelism 1, starts fetching row group 1.
						if !rr.Next() {
							t.Fatal(rr.Err())
						}
						done := make(chan error, 1)
						go func() { done <- rd.Close() }()
						closed = true
						select {
						case err := <-done:
							t.Fatalf("Close returned (%v) with a RecordReader unreleased", err)
						case <-time.After(100 * time.Millisecond):
						}
						// Only the goroutine blocked in Close is left: the
						// prefetch ended without anyone taking its group.
						if n := settleGoroutines(before + 1); n > before+1 {
							t.Errorf("%d goroutines while Close waits, want %d (the caller of Close)\n%s", n, before+1, strings.Join(arrowioStacks(), "\n\n"))
						}
						rr.Release()
						select {
						case err := <-done:
							if err != nil {
								t.Errorf("Close: %v", err)
							}
						case <-time.After(time.Second):
							t.Fatal("Close still blocked 1s after the RecordReader was released")
						}
						if _, err := rd.RecordReader(ctx); !errors.Is(err, arrowio.ErrClosed) {
							t.Errorf("RecordReader after Close: %v, want ErrClosed", err)
						}
					}
					if !closed {
						closed = true
						if err := rd.Close(); err != nil {
							t.Fatal(err)
						}
					}
					if err := rd.Close(); err != nil {
						t.Errorf("second Close: %v", err)
					}
					if _, err := rd.ReadTable(context.Background()); !errors.Is(err, arrowio.ErrClosed) {
						t.Errorf("ReadTable after Close: %v, want ErrClosed", err)
					}
					if kept != nil {
						if kept.NumRows() != lifeBatch {
							t.Errorf("the kept batch has %d rows after Close, want %d", kept.NumRows(), lifeBatch)
						}
						kept.Release()
					}
					checkGoroutines(t, before, inArrowio)
					mem.AssertSize(t, 0)
				})
			}
		}
	}
}

// lifeBatches reads every batch of rd with a RecordReader, retained.
func lifeBatches(t *testing.T, rd *arrowio.Reader) []arrow.RecordBatch {
	t.Helper()
	rr, err := rd.RecordReader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	var recs []arrow.RecordBatch
	for rr.Next() {
		rec := rr.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	return recs
}

// sameBatches reports the first difference between two sequences of
// batches, boundaries included, or "" when there is none.
func sameBatches(want, got []arrow.RecordBatch) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d batches, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].NumRows() != want[i].NumRows() {
			return fmt.Sprintf("batch %d has %d rows, want %d", i, got[i].NumRows(), want[i].NumRows())
		}
		if !array.RecordEqual(got[i], want[i]) {
			return fmt.Sprintf("batch %d differs", i)
		}
	}
	return ""
}

// TestReaderSameOutputAnyParallelism reads the file with Parallelism 1, 2
// and 8, from disk and from memory, three times each, and checks that
// every read returns the same thing: the same RecordReader batches (count,
// row counts, values), the same ReadTable chunks (one per row group), the
// same ReadRowGroup batches. Concurrent decoding and prefetching must not
// reorder columns, rows or row groups.
func TestReaderSameOutputAnyParallelism(t *testing.T) {
	path, file := lifecycleFile(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var wantBatches, wantGroups []arrow.RecordBatch
	defer func() {
		for _, r := range append(wantBatches, wantGroups...) {
			r.Release()
		}
	}()
	for _, source := range []string{"file", "bytes"} {
		for round := range 3 {
			for _, par := range []int{1, 2, 8} {
				desc := fmt.Sprintf("%s, round %d, Parallelism %d", source, round, par)
				rd := openLifecycle(t, source, path, file, arrowio.ReadOptions{Allocator: mem, BatchSize: lifeBatch, Parallelism: par})
				batches := lifeBatches(t, rd)
				tbl, err := rd.ReadTable(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				var chunks []arrow.RecordBatch
				tr := array.NewTableReader(tbl, -1) // a batch per chunk
				for tr.Next() {
					rec := tr.RecordBatch()
					rec.Retain()
					chunks = append(chunks, rec)
				}
				tr.Release()
				tbl.Release()
				var groups []arrow.RecordBatch
				for i := range lifeGroups {
					rec, err := rd.ReadRowGroup(context.Background(), i)
					if err != nil {
						t.Fatal(err)
					}
					groups = append(groups, rec)
				}
				if err := rd.Close(); err != nil {
					t.Fatal(err)
				}
				if wantBatches == nil {
					// Parallelism 1 from disk, read sequentially, is the
					// reference; its batches must cut every row group at
					// lifeBatch rows.
					wantBatches, wantGroups = batches, groups
					if n := lifeGroups * (lifeGroupRows/lifeBatch + 1); len(batches) != n {
						t.Fatalf("%s: %d batches, want %d", desc, len(batches), n)
					}
				} else {
					if d := sameBatches(wantBatches, batches); d != "" {
						t.Errorf("%s: RecordReader: %s", desc, d)
					}
					if d := sameBatches(wantGroups, groups); d != "" {
						t.Errorf("%s: ReadRowGroup: %s", desc, d)
					}
					for _, r := range append(batches, groups...) {
						r.Release()
					}
				}
				if d := sameBatches(wantGroups, chunks); d != "" {
					t.Errorf("%s: ReadTable chunks: %s", desc, d)
				}
				for _, r := range chunks {
					r.Release()
				}
			}
		}
	}
}
