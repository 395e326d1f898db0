package scan

import (
	"io"
	"sync/atomic"
	"time"
)

// IOStats is arrowio's IOStats: what a File's reads asked of its source.
type IOStats struct {
	Requests     int64
	BytesFetched int64
	BytesUsed    int64
	Wait         time.Duration
	PeakBuffered int64
}

// ioCounters accumulate a File's IOStats; every field is updated
// atomically, by the goroutines that read and those that fetch.
type ioCounters struct {
	requests, fetched, used, wait atomic.Int64
	buffered, peak                atomic.Int64
	// rtt is the shortest time a request to the source took, in
	// nanoseconds (0 before the first): about one round trip, which
	// sizes the first requests of a read fetched ahead (ramp.go).
	rtt atomic.Int64
}

// stats returns the counters' current values.
func (c *ioCounters) stats() IOStats {
	return IOStats{
		Requests:     c.requests.Load(),
		BytesFetched: c.fetched.Load(),
		BytesUsed:    c.used.Load(),
		Wait:         time.Duration(c.wait.Load()),
		PeakBuffered: c.peak.Load(),
	}
}

// waited adds the time since start to the time spent waiting for bytes.
func (c *ioCounters) waited(start time.Time) { c.wait.Add(int64(time.Since(start))) }

// timed notes the time since start that a request took.
func (c *ioCounters) timed(start time.Time) {
	d := int64(max(time.Since(start), 1))
	for p := c.rtt.Load(); (p == 0 || d < p) && !c.rtt.CompareAndSwap(p, d); p = c.rtt.Load() {
	}
}

// buffer adds n (negative to take away) to the bytes fetched ahead and
// not yet released, keeping the peak.
func (c *ioCounters) buffer(n int64) {
	b := c.buffered.Add(n)
	for p := c.peak.Load(); b > p && !c.peak.CompareAndSwap(p, b); p = c.peak.Load() {
	}
}

// IOStats is arrowio's Reader.IOStats.
func (r *File) IOStats() IOStats { return r.io.stats() }

// countedSource is the File's source as the reads that wait for their
// bytes see it: each ReadAt is a request, its bytes fetched and its time
// spent waiting. The fetches that run ahead of decoding (fetch.go) read
// the source itself and count their requests and bytes there.
type countedSource struct {
	src io.ReaderAt
	c   *ioCounters
}

func (s countedSource) ReadAt(p []byte, off int64) (int, error) {
	start := time.Now()
	n, err := s.src.ReadAt(p, off)
	s.c.waited(start)
	s.c.timed(start)
	s.c.requests.Add(1)
	s.c.fetched.Add(int64(n))
	return n, err
}

// usedSource is a countedSource whose every byte read is used: the reads
// of page indexes, bloom filters and dictionaries ask for exactly what
// they parse.
type usedSource struct{ countedSource }

func (s usedSource) ReadAt(p []byte, off int64) (int, error) {
	n, err := s.countedSource.ReadAt(p, off)
	s.c.used.Add(int64(n))
	return n, err
}
