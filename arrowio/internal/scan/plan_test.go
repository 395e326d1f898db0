package scan

import (
	"reflect"
	"testing"

	"github.com/quiverio/quiver/pageindex"
)

// TestPlanSpans checks which ranges merge: those whose gap is at most the
// hole limit and at most the longer of the two, in file order whatever
// the order asked.
func TestPlanSpans(t *testing.T) {
	w := func(s, e int64) wanted { return wanted{pageindex.ByteRange{Start: s, End: e}, ""} }
	b := func(s, e int64) pageindex.ByteRange { return pageindex.ByteRange{Start: s, End: e} }
	for _, c := range []struct {
		name  string
		want  []wanted
		hole  int64
		spans []pageindex.ByteRange
		of    []int
	}{
		{"touching", []wanted{w(0, 10), w(10, 20)}, 0, []pageindex.ByteRange{b(0, 20)}, []int{0, 0}},
		{"gap over the limit", []wanted{w(0, 100), w(150, 250)}, 40, []pageindex.ByteRange{b(0, 100), b(150, 250)}, []int{0, 1}},
		{"gap within the limit", []wanted{w(150, 250), w(0, 100)}, 50, []pageindex.ByteRange{b(0, 250)}, []int{0, 0}},
		{"gap longer than both ranges", []wanted{w(0, 10), w(100, 110)}, 1000, []pageindex.ByteRange{b(0, 10), b(100, 110)}, []int{0, 1}},
		{"overlapping", []wanted{w(0, 100), w(50, 60), w(90, 300)}, 0, []pageindex.ByteRange{b(0, 300)}, []int{0, 0, 0}},
	} {
		spans, of := planSpans(c.want, c.hole)
		var got []pageindex.ByteRange
		for _, s := range spans {
			got = append(got, s.ByteRange)
		}
		if !reflect.DeepEqual(got, c.spans) || !reflect.DeepEqual(of, c.of) {
			t.Errorf("%s: spans %v of %v, want %v of %v", c.name, got, of, c.spans, c.of)
		}
	}
}

// TestPieces checks that a span splits into the fewest pieces of at most
// the limit, of about equal size, covering it exactly.
func TestPieces(t *testing.T) {
	for _, c := range []struct{ start, end, limit int64 }{
		{0, 100, 100}, {0, 101, 100}, {5, 1005, 64}, {7, 7, 10}, {0, 50, 0},
	} {
		ps := pieces(c.start, c.end, c.limit)
		n := int64(1)
		if c.limit > 0 {
			n = max((c.end-c.start+c.limit-1)/c.limit, 1)
		}
		if int64(len(ps)) != n || ps[0].Start != c.start || ps[len(ps)-1].End != c.end {
			t.Errorf("%+v: %v", c, ps)
			continue
		}
		for k, p := range ps {
			if (c.limit > 0 && p.End-p.Start > c.limit) || (k > 0 && p.Start != ps[k-1].End) {
				t.Errorf("%+v: piece %d %v of %v", c, k, p, ps)
			}
		}
	}
}
