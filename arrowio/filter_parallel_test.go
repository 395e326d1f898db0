package arrowio_test

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/pageindex"
)

// peakReaderAt counts the ReadAt calls in flight and keeps the largest
// number seen. Each call lingers a little, so that calls issued together
// overlap even on a loaded machine.
type peakReaderAt struct {
	r         *bytes.Reader
	mu        sync.Mutex
	now, peak int
	linger    time.Duration
}

func (p *peakReaderAt) ReadAt(b []byte, off int64) (int, error) {
	p.mu.Lock()
	p.now++
	p.peak = max(p.peak, p.now)
	p.mu.Unlock()
	time.Sleep(p.linger)
	defer func() {
		p.mu.Lock()
		p.now--
		p.mu.Unlock()
	}()
	return p.r.ReadAt(b, off)
}

// TestFilteredReadBoundsGoroutines reads a filtered file of eight row
// groups with several columns through ReadTable and RecordReader, and
// checks that no more than Parallelism reads of the file are ever in
// flight: the row-group workers of a filtered ReadTable must not each fan
// out over the columns again (that made Parallelism² of them), and a
// RecordReader's one prefetch runs while the current group only hands out
// rows it already decoded. The output must equal a sequential read.
func TestFilteredReadBoundsGoroutines(t *testing.T) {
	rec := benchRecord(8_000)
	file := arrowiotest.WriteFile(t, rec.Schema(), arrowio.WriteOptions{MaxRowGroupRows: 1_000}, rec)
	rec.Release()
	filter := pageindex.GreaterEq("price", pageindex.Float(60000))
	read := func(t *testing.T, par int, table bool) (int, string) {
		t.Helper()
		ra := &peakReaderAt{r: bytes.NewReader(file), linger: time.Millisecond}
		r, err := arrowio.Open(ra, int64(len(file)), arrowio.ReadOptions{Filter: filter, Parallelism: par})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		ra.peak = 0 // the footer reads do not count
		var out bytes.Buffer
		if table {
			tbl, err := r.ReadTable(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer tbl.Release()
			tr := array.NewTableReader(tbl, -1)
			defer tr.Release()
			for tr.Next() {
				fmt.Fprintln(&out, tr.RecordBatch())
			}
		} else {
			rr, err := r.RecordReader(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer rr.Release()
			for rr.Next() {
				fmt.Fprintln(&out, rr.RecordBatch())
			}
			if err := rr.Err(); err != nil {
				t.Fatal(err)
			}
		}
		return ra.peak, out.String()
	}
	// A lone row group still decodes its columns side by side.
	t.Run("ReadRowGroup/parallelism=3", func(t *testing.T) {
		ra := &peakReaderAt{r: bytes.NewReader(file), linger: time.Millisecond}
		r, err := arrowio.Open(ra, int64(len(file)), arrowio.ReadOptions{Filter: filter, Parallelism: 3})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		ra.peak = 0
		rec, err := r.ReadRowGroup(context.Background(), 0)
		if err != nil {
			t.Fatal(err)
		}
		rec.Release()
		if ra.peak < 2 || ra.peak > 3 {
			t.Errorf("%d reads of the file in flight at once, want 2 or 3", ra.peak)
		}
	})
	for _, table := range []bool{true, false} {
		_, want := read(t, 1, table)
		for _, par := range []int{2, 3} {
			t.Run(fmt.Sprintf("table=%v/parallelism=%d", table, par), func(t *testing.T) {
				peak, got := read(t, par, table)
				if got != want {
					t.Errorf("output differs from the sequential read")
				}
				if peak > par {
					t.Errorf("%d reads of the file in flight at once, want at most Parallelism=%d", peak, par)
				}
			})
		}
	}
}
