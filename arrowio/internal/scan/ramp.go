package scan

import (
	"time"

	"github.com/quiverio/quiver/pageindex"
)

// A prefetcher's requests ramp up in size. Decoding can start only once
// the first column's bytes are in, and a request returns its bytes only
// when its last byte has arrived: requests of RangeLimit bytes issued
// side by side would make the whole first wave land together, a round
// trip plus RangeLimit bytes' transfer after the read starts, with
// decoding idle until then. So a read's first request asks for about the
// bytes one request transfers in one round trip (rampBandwidth times the
// shortest round trip the File has timed, at least rampFloor), and each
// request after it for rampGrowth times the one before, up to RangeLimit:
// the first bytes land after little more than a round trip, the next ones
// while the first decode, and the read reaches RangeLimit requests within
// a few dozen. Where a round trip's bytes are half RangeLimit or more
// (from 42 ms a round trip with the default 8 MiB) there is no ramp and
// nothing changes: more requests there would cost more round trips than
// they save. Where no request has been timed yet (none before the first
// read of a File opened without reading its footer) there is none either.
const (
	// rampBandwidth is the bytes per second one request to an object
	// store is taken to stream at (S3's figure for one connection).
	rampBandwidth = 100e6
	// rampFloor is the smallest first request.
	rampFloor = 256 << 10
	// rampGrowth is the size of each request over the one before.
	rampGrowth = 1.1
)

// ramp sizes the requests of one read: next is the size of the next one.
type ramp struct {
	next, limit float64
}

// newRamp returns the ramp of a read whose source answers in rtt at the
// least (0 when no request was timed) and whose requests are at most
// limit bytes; it starts at limit when the bytes of rtt are half of limit
// or more.
func newRamp(rtt time.Duration, limit int64) *ramp {
	rp := &ramp{next: float64(limit), limit: float64(limit)}
	if first := roundTripBytes(rtt); rtt > 0 && first < rp.limit/2 {
		rp.next = first
	}
	return rp
}

// roundTripBytes returns the bytes one request streams in rtt, at least
// rampFloor.
func roundTripBytes(rtt time.Duration) float64 {
	return max(rtt.Seconds()*rampBandwidth, rampFloor)
}

// spreadLimit returns the most bytes one request of a read that waits for
// all of spans at once (readRanges) asks for: RangeLimit, or less when
// the spans in requests of RangeLimit would leave some of the File's
// Concurrency idle, so that their bytes spread over all of it and land
// together sooner, though in requests of no fewer bytes than a round
// trip's (roundTripBytes of the shortest timed; RangeLimit when none
// was), each of which costs a round trip more than it saves beyond that.
func (r *File) spreadLimit(spans []span) int64 {
	limit := r.Options.IO.RangeLimit
	rtt := time.Duration(r.io.rtt.Load())
	if rtt <= 0 {
		return limit
	}
	var total int64
	for _, s := range spans {
		if _, ok := r.suffix.find(s.Start, s.End-s.Start); !ok {
			total += s.End - s.Start
		}
	}
	share := (total + int64(r.Options.IO.Concurrency) - 1) / int64(r.Options.IO.Concurrency)
	return min(limit, max(share, int64(roundTripBytes(rtt))))
}

// cut splits span s into requests of the ramp's sizes, in order, growing
// the ramp by each: a request ends at the end of a wanted range when one
// falls in its second half or a quarter past it, so that a column's bytes
// do not wait for the start of the next column's, and takes the rest of
// s when that is at most a quarter more, never more than the limit. Once the ramp is at its limit,
// the rest of s is split into pieces of about equal size (pieces).
func (rp *ramp) cut(s span) []pageindex.ByteRange {
	var out []pageindex.ByteRange
	start := s.Start
	limit := int64(rp.limit)
	for start < s.End && rp.next < rp.limit {
		size := int64(rp.next)
		stretch := min(size+size/4, limit) // the most a request may take
		end := min(s.End, start+size)
		if s.End-start <= stretch {
			end = s.End
		} else if e, ok := partEnd(s.parts, start+size/2, start+stretch); ok {
			end = e
		}
		out = append(out, pageindex.ByteRange{Start: start, End: end})
		rp.next = min(rp.next*rampGrowth, rp.limit)
		start = end
	}
	if start < s.End || len(out) == 0 {
		out = append(out, pieces(start, s.End, limit)...)
	}
	return out
}

// partEnd returns the first end of a wanted range of parts within
// (from, to].
func partEnd(parts []wanted, from, to int64) (int64, bool) {
	for _, w := range parts {
		if w.End > from && w.End <= to {
			return w.End, true
		}
	}
	return 0, false
}
