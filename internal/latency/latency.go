// Package latency makes an io.ReaderAt behave like an object store for
// tests and benchmarks: each ReadAt waits a fixed latency plus its bytes
// at a bandwidth before it returns, as a ranged GET does, and calls that
// overlap wait side by side (each request has a connection of its own).
// It counts the requests, their bytes and the most in flight at once.
package latency

import (
	"io"
	"sync"
	"time"
)

// ReaderAt is R behind a request cost: every ReadAt takes Latency plus
// len(p) bytes at BytesPerSecond (no bandwidth cost when 0) before it
// returns R's answer. It is safe for concurrent use when R is.
type ReaderAt struct {
	R              io.ReaderAt
	Latency        time.Duration
	BytesPerSecond float64

	mu    sync.Mutex
	stats Stats
	cur   Stats // Requests and Bytes in flight now
}

// Stats counts a ReaderAt's requests.
type Stats struct {
	// Requests and Bytes are the ReadAt calls made and the bytes they
	// asked for.
	Requests, Bytes int64
	// MaxInFlight and MaxInFlightBytes are the most calls, and the most
	// bytes asked for, in flight at one time.
	MaxInFlight, MaxInFlightBytes int64
	// Rounds is the number of calls that began with no other in flight:
	// the round trips a reader waited for one after another, where calls
	// that overlap share one.
	Rounds int64
}

// New returns r behind latency and bytesPerSecond.
func New(r io.ReaderAt, latency time.Duration, bytesPerSecond float64) *ReaderAt {
	return &ReaderAt{R: r, Latency: latency, BytesPerSecond: bytesPerSecond}
}

// ReadAt waits the request's cost and reads p from R at off.
func (l *ReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n := int64(len(p))
	l.mu.Lock()
	l.stats.Requests++
	l.stats.Bytes += n
	if l.cur.Requests == 0 {
		l.stats.Rounds++
	}
	l.cur.Requests++
	l.cur.Bytes += n
	l.stats.MaxInFlight = max(l.stats.MaxInFlight, l.cur.Requests)
	l.stats.MaxInFlightBytes = max(l.stats.MaxInFlightBytes, l.cur.Bytes)
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.cur.Requests--
		l.cur.Bytes -= n
		l.mu.Unlock()
	}()
	cost := l.Latency
	if l.BytesPerSecond > 0 {
		cost += time.Duration(float64(n) / l.BytesPerSecond * float64(time.Second))
	}
	time.Sleep(cost)
	return l.R.ReadAt(p, off)
}

// Stats returns the counts so far.
func (l *ReaderAt) Stats() Stats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stats
}
