package scan_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/quiverio/quiver/arrowio/internal/scan"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/pageindex"
)

// TestTakeSpans takes random spans of sliced random arrays of every flat
// type (with and without nulls) and checks each row against the source.
func TestTakeSpans(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(4, 4))
	types := append([]arrow.DataType{arrow.BinaryTypes.LargeString, arrow.BinaryTypes.LargeBinary, arrow.FixedWidthTypes.Boolean}, arrowiotest.FlatTypes...)
	for _, dt := range types {
		for _, nulls := range []float64{0, 0.3} {
			full := arrowiotest.RandomArray(t, mem, dt, 500, nulls, false, rng)
			src := array.NewSlice(full, 7, 480)
			full.Release()
			var spans pageindex.Ranges
			for at := int64(rng.IntN(5)); at < int64(src.Len()); {
				end := min(int64(src.Len()), at+1+int64(rng.IntN(12)))
				spans = append(spans, pageindex.Range{Start: at, End: end})
				at = end + 1 + int64(rng.IntN(9))
			}
			src.Retain()
			got, err := scan.TakeRanges(src, spans, mem)
			if err != nil {
				t.Fatalf("%s: %v", dt, err)
			}
			k := 0
			for _, s := range spans {
				for i := s.Start; i < s.End; i++ {
					if got.IsNull(k) != src.IsNull(int(i)) || !src.IsNull(int(i)) && arrowiotest.Canonical(got, k) != arrowiotest.Canonical(src, int(i)) {
						t.Fatalf("%s: row %d (source %d) differs", dt, k, i)
					}
					k++
				}
			}
			if k != got.Len() {
				t.Fatalf("%s: %d rows, want %d", dt, got.Len(), k)
			}
			got.Release()
			src.Release()
		}
	}
}

// TestPagesCovering checks the rows a column with leaves paged apart
// decodes for some ranges, and where the ranges lie among them.
func TestPagesCovering(t *testing.T) {
	firsts := [][]int64{{0, 10, 20, 30}, {0, 20, 30}} // two leaves of 40 rows
	cases := []struct {
		ranges, want pageindex.Ranges
	}{
		{pageindex.Ranges{{Start: 12, End: 13}}, pageindex.Ranges{{Start: 0, End: 20}}},
		{pageindex.Ranges{{Start: 31, End: 32}}, pageindex.Ranges{{Start: 30, End: 40}}},
		{pageindex.Ranges{{Start: 0, End: 1}, {Start: 39, End: 40}}, pageindex.Ranges{{Start: 0, End: 20}, {Start: 30, End: 40}}},
		{pageindex.Ranges{{Start: 19, End: 21}}, pageindex.Ranges{{Start: 0, End: 30}}},
	}
	for _, c := range cases {
		got := pageindex.AlignToPages(c.ranges, firsts, 40)
		// Every leaf's pages must tile the cover exactly.
		for _, first := range firsts {
			var tiled pageindex.Ranges
			for _, p := range pageindex.OverlappingPages(first, got, 40) {
				tiled = pageindex.Union(tiled, pageindex.Ranges{pageindex.PageRows(first, p, 40)})
			}
			if fmt.Sprint(tiled) != fmt.Sprint(got) {
				t.Errorf("ranges %v: cover %v, but pages %v tile %v", c.ranges, got, first, tiled)
			}
		}
		if len(pageindex.Intersect(got, c.ranges)) != len(c.ranges) || pageindex.Intersect(got, c.ranges).Rows() != c.ranges.Rows() {
			t.Errorf("ranges %v: cover %v does not hold them", c.ranges, got)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("ranges %v: cover %v, want %v", c.ranges, got, c.want)
		}
	}
	spans := pageindex.Positions(pageindex.Ranges{{Start: 10, End: 20}, {Start: 30, End: 40}}, pageindex.Ranges{{Start: 12, End: 14}, {Start: 18, End: 20}, {Start: 30, End: 31}, {Start: 35, End: 40}})
	if fmt.Sprint(spans) != "[{2 4} {8 11} {15 20}]" {
		t.Errorf("positionsIn = %v", spans)
	}
}
