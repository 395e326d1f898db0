package arrowio_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
	"github.com/quiverio/quiver/internal/latency"
	"github.com/quiverio/quiver/pageindex"
)

// plannerFile writes a file of groups row groups of 20,000 rows of an
// int64, a float64 and a string column, each column chunk about 100-200
// KB, and returns its bytes.
func plannerFile(t testing.TB, groups int, opts arrowio.WriteOptions) []byte {
	t.Helper()
	const rows = 20000
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	rng := rand.New(rand.NewPCG(24, 1))
	mem := memory.DefaultAllocator
	opts.MaxRowGroupRows = rows
	var recs []arrow.RecordBatch
	for g := range groups {
		ids := array.NewInt64Builder(mem)
		for i := range rows {
			ids.Append(int64(g*rows + i))
		}
		cols := []arrow.Array{
			ids.NewArray(),
			arrowiotest.RandomArray(t, mem, arrow.PrimitiveTypes.Float64, rows, 0.1, false, rng),
			arrowiotest.RandomArray(t, mem, arrow.BinaryTypes.String, rows, 0.1, false, rng),
		}
		ids.Release()
		recs = append(recs, array.NewRecordBatch(schema, cols, rows))
		releaseAll(cols)
	}
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	return arrowiotest.WriteFile(t, schema, opts, recs...)
}

// batchesOf reads rd through its RecordReader, one table chunk per batch.
func batchesOf(t testing.TB, rd *arrowio.Reader) arrow.Table {
	t.Helper()
	tbl, err := arrowiotest.ReadBatches(rd)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// sameChunks reports whether got and want hold the same values in
// batches of the same sizes.
func sameChunks(got, want arrow.Table) bool {
	if got.NumCols() != want.NumCols() || got.NumRows() != want.NumRows() {
		return false
	}
	for c := range int(want.NumCols()) {
		g, w := got.Column(c).Data().Chunks(), want.Column(c).Data().Chunks()
		if len(g) != len(w) {
			return false
		}
		for k := range w {
			if !array.ApproxEqual(g[k], w[k], array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
				return false
			}
		}
	}
	return true
}

// stressIO makes every request small, merges nothing and fetches little
// ahead: splitting, many requests in flight and a full budget happen on
// the corpus's small files too.
var stressIO = arrowio.IOOptions{FooterReadSize: 100, HoleLimit: -1, RangeLimit: 1000, Concurrency: 3, PrefetchBytes: 4000}

// TestCorpusOverLatency reads every corpus file arrowio reads locally,
// and those it refuses, through Open over a latency.ReaderAt (1 ms a
// request), with the default IOOptions and with stressIO, at Parallelism
// 1 and 2, and checks that the batches equal those of OpenFile, or that
// both fail.
func TestCorpusOverLatency(t *testing.T) {
	root := corpus.Dir(t)
	files := corpus.Sample(corpus.Files(t))
	compared, refused := 0, 0
	for _, rel := range files {
		path := filepath.Join(root, rel)
		local, lerr := readPathBatches(path, arrowio.ReadOptions{})
		if lerr == nil && local == nil {
			continue // decodes to more than the test reads
		}
		buf, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(rel, func(t *testing.T) {
			if local != nil {
				defer local.Release()
			}
			for _, io := range []arrowio.IOOptions{{}, stressIO} {
				for _, par := range []int{1, 2} {
					desc := fmt.Sprintf("IO %+v, Parallelism %d", io, par)
					src := latency.New(bytes.NewReader(buf), time.Millisecond, 0)
					got, err := readBatches(src, int64(len(buf)), arrowio.ReadOptions{Parallelism: par, IO: io})
					switch {
					case lerr != nil && err == nil:
						got.Release()
						t.Errorf("%s: read, where OpenFile failed: %v", desc, lerr)
					case lerr == nil && err != nil:
						t.Errorf("%s: %v", desc, err)
					case lerr == nil:
						if !sameChunks(got, local) {
							t.Errorf("%s: the batches differ from OpenFile's", desc)
						}
						got.Release()
					}
				}
			}
		})
		if lerr != nil {
			refused++
		} else {
			compared++
		}
	}
	if compared == 0 {
		t.Fatal("no corpus file read")
	}
	t.Logf("%d files compared, %d refused by both", compared, refused)
}

// readPathBatches reads the file at path through OpenFile's RecordReader;
// nil, nil when its row groups decode to more than 64 MiB.
func readPathBatches(path string, opts arrowio.ReadOptions) (arrow.Table, error) {
	rd, err := arrowio.OpenFile(path, opts)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	var total int64
	for _, rg := range rd.Metadata().RowGroups {
		total += rg.TotalByteSize
	}
	if total > 64<<20 {
		return nil, nil
	}
	return arrowiotest.ReadBatches(rd)
}

// readBatches reads the size-byte file r through Open's RecordReader.
func readBatches(r io.ReaderAt, size int64, opts arrowio.ReadOptions) (arrow.Table, error) {
	rd, err := arrowio.Open(r, size, opts)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return arrowiotest.ReadBatches(rd)
}

// TestFooterRequests checks that opening a file costs one request when
// its footer fits FooterReadSize and two when it does not.
func TestFooterRequests(t *testing.T) {
	small := plannerFile(t, 1, arrowio.WriteOptions{})
	large := plannerFile(t, 1, arrowio.WriteOptions{KeyValueMetadata: []footer.KeyValue{{Key: "big", Value: footer.Some(strings.Repeat("x", 100<<10))}}})
	for _, c := range []struct {
		name  string
		file  []byte
		first int64
		want  int64
	}{
		{"small footer", small, 0, 1},
		{"large footer", large, 0, 2},
		{"large footer, large first read", large, 256 << 10, 1},
		{"small footer, 8-byte first read", small, 8, 2},
	} {
		src := latency.New(bytes.NewReader(c.file), 0, 0)
		rd, err := arrowio.Open(src, int64(len(c.file)), arrowio.ReadOptions{IO: arrowio.IOOptions{FooterReadSize: c.first}})
		if err != nil {
			t.Fatal(err)
		}
		st := rd.IOStats()
		if st.Requests != c.want || src.Stats().Requests != c.want {
			t.Errorf("%s: %d requests (the source saw %d), want %d", c.name, st.Requests, src.Stats().Requests, c.want)
		}
		if st.BytesFetched != src.Stats().Bytes || st.BytesUsed > st.BytesFetched {
			t.Errorf("%s: %+v, the source gave %d bytes", c.name, st, src.Stats().Bytes)
		}
		rd.Close()
	}
}

// TestPlannedRequests checks the requests of a whole read: with the
// defaults, the footer and, as the requests ramp up from 256 KiB (a
// round trip of 1 ms is less), at most one request per row group (its
// chunks are adjacent and smaller than RangeLimit) and one per 256 KiB;
// with RangeLimit smaller than a row group, each group split into
// requests of at most RangeLimit bytes; with a projection of two columns
// far apart and HoleLimit 0, at least one request per chunk. Every
// configuration reads the same batches, and IOStats agrees with what the
// source saw.
func TestPlannedRequests(t *testing.T) {
	const groups = 6
	file := plannerFile(t, groups, arrowio.WriteOptions{})
	want := batchesOf(t, mustOpen(t, bytes.NewReader(file), len(file), arrowio.ReadOptions{}))
	defer want.Release()
	meta := mustOpen(t, bytes.NewReader(file), len(file), arrowio.ReadOptions{}).Metadata()
	var groupBytes, largest int64
	for _, rg := range meta.RowGroups {
		start, _ := chunkSpan(rg.Columns[0].MetaData)
		_, end := chunkSpan(rg.Columns[len(rg.Columns)-1].MetaData)
		groupBytes += end - start
		largest = max(largest, end-start)
	}
	const rangeLimit = 64 << 10
	const rampFloor = 256 << 10 // the ramp's smallest first request
	for _, c := range []struct {
		name    string
		columns []string
		io      arrowio.IOOptions
		max     int64 // requests after the footer
	}{
		{"defaults", nil, arrowio.IOOptions{}, groups + groupBytes/rampFloor},
		{"split", nil, arrowio.IOOptions{RangeLimit: rangeLimit}, groups * ((largest + rangeLimit - 1) / rangeLimit)},
		{"two columns, no holes", []string{"id", "s"}, arrowio.IOOptions{HoleLimit: -1}, 2*groups + groupBytes/rampFloor},
	} {
		src := latency.New(bytes.NewReader(file), time.Millisecond, 0)
		rd := mustOpen(t, src, len(file), arrowio.ReadOptions{Columns: c.columns, IO: c.io})
		got := batchesOf(t, rd)
		if c.columns == nil && !sameChunks(got, want) {
			t.Errorf("%s: the batches differ", c.name)
		}
		got.Release()
		st := rd.IOStats()
		reads := st.Requests - 1
		switch {
		case reads > c.max:
			t.Errorf("%s: %d requests after the footer, want at most %d", c.name, reads, c.max)
		case c.name == "split" && reads < groupBytes/rangeLimit:
			t.Errorf("%s: %d requests after the footer for %d bytes of row groups in requests of %d", c.name, reads, groupBytes, rangeLimit)
		case c.name == "two columns, no holes" && reads < 2*groups:
			t.Errorf("%s: %d requests after the footer, want at least %d", c.name, reads, 2*groups)
		}
		if ss := src.Stats(); st.Requests != ss.Requests || st.BytesFetched != ss.Bytes {
			t.Errorf("%s: IOStats %+v, the source saw %+v", c.name, st, ss)
		}
		// Without holes, only the first footer read fetches bytes not used.
		if c.name == "two columns, no holes" && (st.BytesFetched < st.BytesUsed || st.BytesFetched-st.BytesUsed >= arrowio.DefaultFooterReadSize) {
			t.Errorf("%s: %d bytes fetched, %d used", c.name, st.BytesFetched, st.BytesUsed)
		}
		if c.name == "split" && src.Stats().MaxInFlight < 2 {
			t.Errorf("%s: at most %d request in flight", c.name, src.Stats().MaxInFlight)
		}
	}
}

// mustOpen opens the size-byte file r with opts; the test's cleanup
// closes it.
func mustOpen(t testing.TB, r io.ReaderAt, size int, opts arrowio.ReadOptions) *arrowio.Reader {
	t.Helper()
	rd, err := arrowio.Open(r, int64(size), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rd.Close() })
	return rd
}

// TestPrefetchBound reads a file of 8 row groups through a RecordReader
// that decodes slowly, with PrefetchBytes about two and a half row groups,
// and checks that the bytes requested and not yet released never exceeded
// it (by IOStats and by the bytes the source had in flight), while the
// prefetcher did fetch ahead. With PrefetchBytes half a row group, and
// each column chunk a range of its own, a row group is fetched alone.
func TestPrefetchBound(t *testing.T) {
	file := plannerFile(t, 8, arrowio.WriteOptions{})
	meta := mustOpen(t, bytes.NewReader(file), len(file), arrowio.ReadOptions{}).Metadata()
	var largest int64
	for _, rg := range meta.RowGroups {
		start, _ := chunkSpan(rg.Columns[0].MetaData)
		_, end := chunkSpan(rg.Columns[len(rg.Columns)-1].MetaData)
		largest = max(largest, end-start)
	}
	for _, c := range []struct {
		io        arrowio.IOOptions
		max, more int64 // the most bytes held; the peak exceeds more
	}{
		{arrowio.IOOptions{PrefetchBytes: 2*largest + largest/2, RangeLimit: 32 << 10}, 2*largest + largest/2, largest},
		{arrowio.IOOptions{PrefetchBytes: largest / 2, HoleLimit: -1}, largest, largest / 2},
	} {
		for _, par := range []int{1, 2} {
			desc := fmt.Sprintf("PrefetchBytes %d, Parallelism %d", c.io.PrefetchBytes, par)
			src := latency.New(bytes.NewReader(file), 2*time.Millisecond, 0)
			rd := mustOpen(t, src, len(file), arrowio.ReadOptions{Parallelism: par, BatchSize: 5000, IO: c.io})
			rr, err := rd.RecordReader(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			rows := 0
			for rr.Next() {
				rows += int(rr.RecordBatch().NumRows())
				time.Sleep(5 * time.Millisecond)
			}
			if err := rr.Err(); err != nil {
				t.Fatal(err)
			}
			rr.Release()
			st := rd.IOStats()
			if rows != 8*20000 {
				t.Errorf("%s: %d rows", desc, rows)
			}
			if st.PeakBuffered > c.max || src.Stats().MaxInFlightBytes > c.max {
				t.Errorf("%s: %d bytes held at the peak, %d in flight, want at most %d", desc, st.PeakBuffered, src.Stats().MaxInFlightBytes, c.max)
			}
			if st.PeakBuffered <= c.more {
				t.Errorf("%s: %d bytes held at the peak, want more than %d", desc, st.PeakBuffered, c.more)
			}
		}
	}
}

// gatedReaderAt holds every read, once armed, until open closes,
// counting those in flight.
type gatedReaderAt struct {
	r        io.ReaderAt
	armed    atomic.Bool
	open     chan struct{}
	mu       sync.Mutex
	inFlight int
}

func (g *gatedReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if g.armed.Load() {
		g.mu.Lock()
		g.inFlight++
		g.mu.Unlock()
		<-g.open
		g.mu.Lock()
		g.inFlight--
		g.mu.Unlock()
	}
	return g.r.ReadAt(p, off)
}

// TestCancelStopsWaiting cancels a read whose requests never return
// while the context lives, and checks that Next and ReadTable return the
// context's error promptly, that Close then waits for the requests in
// flight, and that no goroutine is left behind.
func TestCancelStopsWaiting(t *testing.T) {
	file := plannerFile(t, 4, arrowio.WriteOptions{})
	before := runtime.NumGoroutine()
	for _, call := range []string{"RecordReader", "ReadTable"} {
		src := &gatedReaderAt{r: bytes.NewReader(file), open: make(chan struct{})}
		rd, err := arrowio.Open(src, int64(len(file)), arrowio.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		src.armed.Store(true) // after the footer
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() {
			switch call {
			case "RecordReader":
				rr, err := rd.RecordReader(ctx)
				if err != nil {
					errc <- err
					return
				}
				for rr.Next() {
				}
				errc <- rr.Err()
				rr.Release()
			default:
				tbl, err := rd.ReadTable(ctx)
				if tbl != nil {
					tbl.Release()
				}
				errc <- err
			}
		}()
		time.Sleep(50 * time.Millisecond)
		src.mu.Lock()
		waiting := src.inFlight
		src.mu.Unlock()
		if waiting == 0 {
			t.Fatalf("%s: no request in flight", call)
		}
		start := time.Now()
		cancel()
		select {
		case err := <-errc:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s: %v, want context.Canceled", call, err)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("%s: returned %v after the cancel", call, d)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: still waiting 5 s after the cancel", call)
		}
		closed := make(chan error, 1)
		go func() { closed <- rd.Close() }()
		select {
		case <-closed:
			t.Fatalf("%s: Close returned while requests were in flight", call)
		case <-time.After(20 * time.Millisecond):
		}
		close(src.open)
		if err := <-closed; err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after Close, %d before", n, before)
	}
}

// failingReaderAt fails every read that overlaps [bad, bad+1).
type failingReaderAt struct {
	r   io.ReaderAt
	bad int64
}

var errSource = errors.New("503 Slow Down")

func (f failingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off <= f.bad && f.bad < off+int64(len(p)) {
		return 0, errSource
	}
	return f.r.ReadAt(p, off)
}

// TestSourceErrorNamesRange fails the requests that cover a byte of one
// column chunk and checks that the error wraps the source's and names the
// byte range requested, the row group and the column.
func TestSourceErrorNamesRange(t *testing.T) {
	file := plannerFile(t, 3, arrowio.WriteOptions{})
	meta := mustOpen(t, bytes.NewReader(file), len(file), arrowio.ReadOptions{}).Metadata()
	start, end := chunkSpan(meta.RowGroups[1].Columns[2].MetaData)
	bad := (start + end) / 2
	for _, io := range []arrowio.IOOptions{{}, {RangeLimit: 10 << 10, HoleLimit: -1}} {
		src := failingReaderAt{bytes.NewReader(file), bad}
		rd := mustOpen(t, src, len(file), arrowio.ReadOptions{IO: io})
		tbl, err := rd.ReadTable(context.Background())
		if err == nil {
			tbl.Release()
			t.Fatalf("IO %+v: read with a failing source", io)
		}
		msg := err.Error()
		t.Logf("IO %+v: %v", io, err)
		if !errors.Is(err, errSource) || !strings.Contains(msg, "row group 1") || !strings.Contains(msg, `"s"`) || !strings.Contains(msg, "reading bytes ") {
			t.Errorf("IO %+v: %v", io, err)
		}
		var a, b int64
		if _, serr := fmt.Sscanf(msg[strings.Index(msg, "reading bytes "):], "reading bytes %d to %d", &a, &b); serr != nil || a > bad || b <= bad {
			t.Errorf("IO %+v: %v does not name a range holding byte %d", io, err, bad)
		}
	}
}

// TestPointLookupRequests looks up one id in a file of 6 row groups with
// a page index and a bloom filter on id, through Open, and checks the
// rows equal those OpenFile's filtered read returns, with at most three
// round trips after the footer (latency.Stats.Rounds): one for the page
// indexes and bloom filters of the row groups the statistics leave, then
// the pages of the predicate column, then those of the other columns,
// whose requests run side by side.
func TestPointLookupRequests(t *testing.T) {
	file := plannerFile(t, 6, arrowio.WriteOptions{DataPageRows: 1000, Columns: map[string]arrowio.ColumnOptions{"id": {BloomFilter: &arrowio.BloomFilterOptions{}}}})
	path := filepath.Join(t.TempDir(), "lookup.parquet")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	opts := arrowio.ReadOptions{Filter: pageindex.Eq("id", pageindex.Int(3*20000+1234))}
	want, err := readPathBatches(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Release()
	if want.NumRows() != 1 {
		t.Fatalf("OpenFile's filtered read returned %d rows", want.NumRows())
	}
	for _, call := range []string{"RecordReader", "ReadTable"} {
		src := latency.New(bytes.NewReader(file), 20*time.Millisecond, 0)
		rd := mustOpen(t, src, len(file), opts)
		var got arrow.Table
		if call == "RecordReader" {
			got = batchesOf(t, rd)
		} else if got, err = rd.ReadTable(context.Background()); err != nil {
			t.Fatal(err)
		}
		if !sameValues(got, want) {
			t.Errorf("%s: the rows differ from OpenFile's", call)
		}
		got.Release()
		if ss := src.Stats(); ss.Rounds-1 > 3 || ss.Requests != rd.IOStats().Requests {
			t.Errorf("%s: %d round trips after the footer, want at most 3 (%+v; IOStats %+v)", call, ss.Rounds-1, ss, rd.IOStats())
		}
	}
}

// sameValues reports whether got and want hold the same values, however
// chunked.
func sameValues(got, want arrow.Table) bool {
	return array.TableApproxEqual(got, want, array.WithNaNsEqual(true), array.WithAbsTolerance(0))
}

// countingAlloc counts the allocations of the allocator it wraps.
type countingAlloc struct {
	memory.Allocator
	n atomic.Int64
}

func (a *countingAlloc) Allocate(size int) []byte {
	a.n.Add(1)
	return a.Allocator.Allocate(size)
}

// heldReaderAt holds every read that overlaps [from, to) until open
// closes, counting those held.
type heldReaderAt struct {
	r        io.ReaderAt
	from, to int64
	open     chan struct{}
	held     atomic.Int32
}

func (h *heldReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < h.to && off+int64(len(p)) > h.from {
		h.held.Add(1)
		<-h.open
		h.held.Add(-1)
	}
	return h.r.ReadAt(p, off)
}

// TestColumnsDecodeAsTheyArrive holds the requests for the first
// column's chunk of a one-row-group file (one span, in pieces of 16 KiB)
// and checks that the other columns decode (their arrays are allocated) while it is held, on one goroutine
// and on two, through ReadTable and a RecordReader; then that the rows,
// once it returns, equal a read from memory.
func TestColumnsDecodeAsTheyArrive(t *testing.T) {
	file := plannerFile(t, 1, arrowio.WriteOptions{})
	want := batchesOf(t, mustOpen(t, bytes.NewReader(file), len(file), arrowio.ReadOptions{}))
	defer want.Release()
	start, end := chunkSpan(mustOpen(t, bytes.NewReader(file), len(file), arrowio.ReadOptions{}).Metadata().RowGroups[0].Columns[0].MetaData)
	for _, call := range []string{"ReadTable", "RecordReader"} {
		for _, par := range []int{1, 2} {
			desc := fmt.Sprintf("%s, Parallelism %d", call, par)
			src := &heldReaderAt{r: bytes.NewReader(file), from: start, to: end, open: make(chan struct{})}
			mem := &countingAlloc{Allocator: memory.DefaultAllocator}
			rd := mustOpen(t, src, len(file), arrowio.ReadOptions{Parallelism: par, Allocator: mem, IO: arrowio.IOOptions{RangeLimit: 16 << 10}})
			before := mem.n.Load()
			got := make(chan arrow.Table, 1)
			go func() {
				if call == "ReadTable" {
					tbl, err := rd.ReadTable(context.Background())
					if err != nil {
						t.Error(err)
					}
					got <- tbl
					return
				}
				got <- batchesOf(t, rd)
			}()
			deadline := time.Now().Add(5 * time.Second)
			for mem.n.Load() == before && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			if mem.n.Load() == before {
				t.Errorf("%s: nothing decoded while the first column's bytes were held", desc)
			}
			if src.held.Load() == 0 {
				t.Errorf("%s: the first column's request was not held", desc)
			}
			close(src.open)
			if tbl := <-got; tbl != nil {
				if !sameValues(tbl, want) {
					t.Errorf("%s: the rows differ from a read from memory", desc)
				}
				tbl.Release()
			}
		}
	}
}
