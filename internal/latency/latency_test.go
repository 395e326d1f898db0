package latency_test

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/quiverio/quiver/internal/latency"
)

// TestOverlap checks that requests in flight together each pay their own
// cost, side by side, and that the peaks count them.
func TestOverlap(t *testing.T) {
	src := latency.New(bytes.NewReader(make([]byte, 1<<20)), 50*time.Millisecond, 0)
	start := time.Now()
	var wg sync.WaitGroup
	for k := range 8 {
		wg.Go(func() {
			buf := make([]byte, 1000)
			if _, err := src.ReadAt(buf, int64(k)*1000); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if d := time.Since(start); d < 50*time.Millisecond || d > 300*time.Millisecond {
		t.Errorf("8 overlapping 50 ms requests took %v", d)
	}
	st := src.Stats()
	if st.Requests != 8 || st.Bytes != 8000 || st.MaxInFlight < 2 || st.MaxInFlightBytes != st.MaxInFlight*1000 || st.Rounds >= 8 {
		t.Errorf("stats %+v", st)
	}
}

// TestBandwidth checks that a request's bytes cost their time at the
// bandwidth.
func TestBandwidth(t *testing.T) {
	src := latency.New(bytes.NewReader(make([]byte, 1<<20)), 0, 10e6)
	start := time.Now()
	if _, err := src.ReadAt(make([]byte, 1e6), 0); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("1 MB at 10 MB/s took %v", d)
	}
}
