package arrowio_test

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/internal/latency"
)

// rampFile returns a file of 4 row groups of 300,000 rows of two random
// float64 columns (about 4.8 MB a row group, incompressible), and its
// rows.
func rampFile(t testing.TB) ([]byte, arrow.Table) {
	t.Helper()
	const groups, rows = 4, 300000
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Float64},
		{Name: "b", Type: arrow.PrimitiveTypes.Float64},
	}, nil)
	rng := rand.New(rand.NewPCG(24, 11))
	mem := memory.DefaultAllocator
	var recs []arrow.RecordBatch
	for range groups {
		cols := []arrow.Array{
			arrowiotest.RandomArray(t, mem, arrow.PrimitiveTypes.Float64, rows, 0, false, rng),
			arrowiotest.RandomArray(t, mem, arrow.PrimitiveTypes.Float64, rows, 0, false, rng),
		}
		recs = append(recs, array.NewRecordBatch(schema, cols, rows))
		releaseAll(cols)
	}
	file := arrowiotest.WriteFile(t, schema, arrowio.WriteOptions{MaxRowGroupRows: rows}, recs...)
	tbl := array.NewTableFromRecords(schema, recs)
	for _, r := range recs {
		r.Release()
	}
	return file, tbl
}

// loggedReaderAt records the offset and length of every ReadAt, in the
// order they were called.
type loggedReaderAt struct {
	r    io.ReaderAt
	mu   sync.Mutex
	reqs [][2]int64
}

func (l *loggedReaderAt) ReadAt(p []byte, off int64) (int, error) {
	l.mu.Lock()
	l.reqs = append(l.reqs, [2]int64{off, int64(len(p))})
	l.mu.Unlock()
	return l.r.ReadAt(p, off)
}

// TestRampedRequests reads a file of 21 MB through ReadTable and a
// RecordReader behind 2 ms a request (100 MB/s), with Concurrency 4 and
// PrefetchBytes under two row groups, and checks the ramp of request
// sizes: the first request after the footer (the one at the lowest
// offset: requests start in file order, but the source may see them in
// another) asks for the bytes of about one round trip, at least 256 KiB
// (at most 2 MiB, for a machine so loaded that the round trip it timed
// took ten times as long), well under a row group's 5.4 MB; later ones
// ask for more, none for more than RangeLimit; no more than Concurrency
// requests were in flight, the bytes held never exceeded PrefetchBytes,
// the read took no more requests than its bytes in requests of the first
// one's size, and the rows are the file's.
func TestRampedRequests(t *testing.T) {
	file, want := rampFile(t)
	defer want.Release()
	const concurrency, prefetch = 4, 10 << 20
	for _, call := range []string{"ReadTable", "RecordReader"} {
		log := &loggedReaderAt{r: bytes.NewReader(file)}
		src := latency.New(log, 2*time.Millisecond, 100e6)
		rd := mustOpen(t, src, len(file), arrowio.ReadOptions{Parallelism: 2, IO: arrowio.IOOptions{Concurrency: concurrency, PrefetchBytes: prefetch}})
		var got arrow.Table
		if call == "ReadTable" {
			var err error
			if got, err = rd.ReadTable(context.Background()); err != nil {
				t.Fatal(err)
			}
		} else {
			got = batchesOf(t, rd)
		}
		if !sameValues(got, want) {
			t.Errorf("%s: the rows differ from those written", call)
		}
		got.Release()
		reqs := log.reqs[1:] // after the footer
		slices.SortFunc(reqs, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
		sizes := make([]int64, len(reqs))
		var total int64
		for i, r := range reqs {
			sizes[i] = r[1]
			total += r[1]
		}
		first, largest := sizes[0], slices.Max(sizes)
		desc := fmt.Sprintf("%s (requests of %v bytes)", call, sizes)
		if first < 256<<10 || first > 2<<20 {
			t.Errorf("%s: first request of %d bytes, want 256 KiB to 2 MiB", desc, first)
		}
		if largest <= 2*first || largest > arrowio.DefaultRangeLimit {
			t.Errorf("%s: largest request of %d bytes, want more than twice the first (%d) and at most %d", desc, largest, first, arrowio.DefaultRangeLimit)
		}
		if n := int64(len(reqs)); n > (total+first-1)/first {
			t.Errorf("%s: %d requests for %d bytes", desc, n, total)
		}
		st, ss := rd.IOStats(), src.Stats()
		if ss.MaxInFlight > concurrency {
			t.Errorf("%s: %d requests in flight, Concurrency %d", desc, ss.MaxInFlight, concurrency)
		}
		if st.PeakBuffered > prefetch || ss.MaxInFlightBytes > prefetch {
			t.Errorf("%s: %d bytes held at the peak, %d in flight, PrefetchBytes %d", desc, st.PeakBuffered, ss.MaxInFlightBytes, prefetch)
		}
	}
}
