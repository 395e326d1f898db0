package scan

import (
	"slices"
	"testing"
	"time"

	"github.com/quiverio/quiver/pageindex"
)

// TestRampCut cuts spans of chunks with ramps of several round trips and
// checks that the requests cover each span exactly, in order, never over
// the limit; that the first request is the bytes of one round trip
// (rampFloor at the least) and each one up to the limit rampGrowth times
// the one before, except where it ends with a chunk or its span; and that
// without a timed round trip, or with one whose bytes are half the limit
// or more,
// requests are cut as before the ramp (pieces).
func TestRampCut(t *testing.T) {
	const limit = 8 << 20
	chunk := func(start, n int64) wanted {
		return wanted{ByteRange: pageindex.ByteRange{Start: start, End: start + n}, column: "c"}
	}
	// Row groups of eight chunks of 1.5 MiB, 700 KiB, 3 MiB, 5 MiB, 100 KiB,
	// 2 MiB, 4 MiB and 300 KiB, one span each.
	sizes := []int64{3 << 19, 700 << 10, 3 << 20, 5 << 20, 100 << 10, 2 << 20, 4 << 20, 300 << 10}
	var spans []span
	off := int64(4)
	for range 6 {
		s := span{ByteRange: pageindex.ByteRange{Start: off}}
		for _, n := range sizes {
			s.parts = append(s.parts, chunk(off, n))
			off += n
		}
		s.End = off
		spans = append(spans, s)
	}
	ends := map[int64]bool{}
	for _, s := range spans {
		for _, w := range s.parts {
			ends[w.End] = true
		}
	}
	for _, c := range []struct {
		rtt   time.Duration
		first int64 // the first request's size, 0 for pieces
	}{
		{0, 0},
		{time.Microsecond, rampFloor},
		{5 * time.Millisecond, 500000},
		{40 * time.Millisecond, 4000000},
		{42 * time.Millisecond, 0},
		{20 * time.Millisecond, 2000000},
		{80 * time.Millisecond, 0},
	} {
		rp := newRamp(c.rtt, limit)
		var got []pageindex.ByteRange
		for _, s := range spans {
			ps := rp.cut(s)
			if c.first == 0 {
				if want := pieces(s.Start, s.End, limit); !slices.Equal(ps, want) {
					t.Fatalf("rtt %v: %v, want the pieces %v", c.rtt, ps, want)
				}
			}
			at := s.Start
			for _, p := range ps {
				if p.Start != at || p.End <= p.Start || p.End > s.End || p.End-p.Start > limit {
					t.Fatalf("rtt %v: request %v in span %v after %d", c.rtt, p, s.ByteRange, at)
				}
				at = p.End
			}
			if at != s.End {
				t.Fatalf("rtt %v: requests end at %d, span %v", c.rtt, at, s.ByteRange)
			}
			got = append(got, ps...)
		}
		if c.first == 0 {
			continue
		}
		if n := got[0].End - got[0].Start; n < c.first/2 || n > c.first+c.first/4 {
			t.Errorf("rtt %v: first request of %d bytes, want about %d", c.rtt, n, c.first)
		}
		want := float64(c.first)
		for i, p := range got {
			n := p.End - p.Start
			short := ends[p.End] && float64(n) >= want/2 // ended with a chunk or span
			switch {
			case want >= limit:
			case short:
			case n != int64(want) && !(ends[p.End] && float64(n) <= want*1.25+1):
				t.Errorf("rtt %v: request %d of %d bytes, want %d", c.rtt, i, n, int64(want))
			}
			want = min(want*rampGrowth, limit)
		}
		if last := got[len(got)-1]; last.End-last.Start <= got[0].End-got[0].Start {
			t.Errorf("rtt %v: the last request (%d bytes) is not larger than the first (%d)", c.rtt, last.End-last.Start, got[0].End-got[0].Start)
		}
	}
}

// TestSpreadLimit checks the request size of a read that waits for all
// its spans: RangeLimit without a timed round trip and for plans of
// Concurrency times RangeLimit or more; otherwise the plan's bytes over
// Concurrency, but not under a round trip's bytes.
func TestSpreadLimit(t *testing.T) {
	const limit = 8 << 20
	r := &File{Options: Options{IO: IOOptions{RangeLimit: limit, Concurrency: 16}}}
	spans := func(sizes ...int64) []span {
		var out []span
		off := int64(0)
		for _, n := range sizes {
			out = append(out, span{ByteRange: pageindex.ByteRange{Start: off, End: off + n}})
			off += n + 1<<20
		}
		return out
	}
	for _, c := range []struct {
		rtt   time.Duration
		spans []span
		want  int64
	}{
		{0, spans(13 << 20), limit},
		{20 * time.Millisecond, spans(100<<20, 100<<20), limit},
		{20 * time.Millisecond, spans(13<<20, 1<<20), 2000000},
		{time.Microsecond, spans(13<<20, 3<<20), 1 << 20},
		{time.Microsecond, spans(1 << 20), rampFloor},
	} {
		r.io.rtt.Store(int64(c.rtt))
		if got := r.spreadLimit(c.spans); got != c.want {
			t.Errorf("rtt %v, %d spans: limit %d, want %d", c.rtt, len(c.spans), got, c.want)
		}
	}
}
