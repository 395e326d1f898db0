package bench

import (
	"errors"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/internal/cputime"
)

// measure times op in a b.Loop and reports the metrics every benchmark of
// this package carries: b.SetBytes(bytes) for MB/s of decoded data,
// allocations, count/s of op's items under unit (rows/s, values/s),
// peak-heap-MB and peak-live-MB (see heapPeak), and cpu-ns/op (the
// process's CPU time, which other processes' load on a shared machine
// does not inflate as it does wall time). op fails the benchmark by returning an error, or skips it
// with one wrapping arrowio.ErrUnsupported (a quiver feature not there yet).
func measure(b *testing.B, bytes, count int64, unit string, op func() error) {
	b.Helper()
	b.SetBytes(bytes)
	b.ReportAllocs()
	peak := startHeapPeak()
	defer peak.stop()
	cpu, ok := cputime.Process()
	for b.Loop() {
		if err := op(); errors.Is(err, arrowio.ErrUnsupported) {
			b.Skip(err)
		} else if err != nil {
			b.Fatal(err)
		}
	}
	cputime.Report(b, cpu, ok)
	heap := peak.stop()
	b.ReportMetric(float64(count)*float64(b.N)/b.Elapsed().Seconds(), unit)
	b.ReportMetric(float64(heap)/1e6, "peak-heap-MB")
	b.ReportMetric(float64(peak.live())/1e6, "peak-live-MB")
}

// heapPeak samples every millisecond the bytes of heap objects (live or
// not yet swept, the heap in use as the garbage collector sees it) and the
// live heap the last collection marked, and keeps the largest value of
// each above its baseline, taken after a collection at start. The first
// is an upper bound of what a benchmark holds, garbage included; the
// second a lower bound, as it is known only at collections.
type heapPeak struct {
	base, baseLive uint64
	peak, peakLive uint64
	done           chan struct{}
	wg             sync.WaitGroup
	once           sync.Once
}

const (
	heapObjects = "/memory/classes/heap/objects:bytes"
	heapLive    = "/gc/heap/live:bytes"
)

// heapNow returns the heap's objects and live bytes, read into s.
func heapNow(s []metrics.Sample) (objects, live uint64) {
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

func startHeapPeak() *heapPeak {
	runtime.GC()
	s := []metrics.Sample{{Name: heapObjects}, {Name: heapLive}}
	h := &heapPeak{done: make(chan struct{})}
	h.base, h.baseLive = heapNow(s)
	h.peak, h.peakLive = h.base, h.baseLive
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			objects, live := heapNow(s)
			h.peak, h.peakLive = max(h.peak, objects), max(h.peakLive, live)
			select {
			case <-h.done:
				return
			case <-tick.C:
			}
		}
	}()
	return h
}

// stop ends the sampling (once; later calls only read the result) and
// returns the peak above the baseline.
func (h *heapPeak) stop() uint64 {
	h.once.Do(func() {
		close(h.done)
		h.wg.Wait()
	})
	return h.peak - h.base
}

// live returns the peak of the live heap above its baseline; call it
// after stop.
func (h *heapPeak) live() uint64 { return h.peakLive - min(h.baseLive, h.peakLive) }

// TestHeapPeak checks that the sampler sees a 64 MB allocation held for
// 20 ms, and as live heap once a collection marked it, and that stop can
// be called twice.
func TestHeapPeak(t *testing.T) {
	const size = 64 << 20
	h := startHeapPeak()
	buf := make([]byte, size)
	for i := 0; i < len(buf); i += 4096 {
		buf[i] = 1
	}
	runtime.GC()
	for end := time.Now().Add(20 * time.Millisecond); time.Now().Before(end); {
		runtime.Gosched()
	}
	runtime.KeepAlive(buf)
	peak := h.stop()
	if peak < size || h.stop() != peak {
		t.Errorf("peak %d bytes (second stop %d), want at least %d", peak, h.stop(), size)
	}
	// Less what the baseline held and has since let go.
	if live := h.live(); live < size-size/64 {
		t.Errorf("live peak %d bytes, want at least %d", live, size-size/64)
	}
}
