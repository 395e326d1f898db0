package pageindex

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/quiverio/quiver/footer"
)

// TestPageRows checks the rows of the first, a middle and the last page.
func TestPageRows(t *testing.T) {
	first := []int64{0, 10, 25}
	for _, c := range []struct {
		p    int
		want Range
	}{{0, Range{0, 10}}, {1, Range{10, 25}}, {2, Range{25, 40}}} {
		if got := PageRows(first, c.p, 40); got != c.want {
			t.Errorf("page %d: rows %v, want %v", c.p, got, c.want)
		}
	}
}

// TestOverlappingPages checks the pages that hold some rows, touching
// page boundaries from either side.
func TestOverlappingPages(t *testing.T) {
	first := []int64{0, 10, 20, 30}
	for _, c := range []struct {
		r    Ranges
		want []int
	}{
		{nil, nil},
		{Ranges{{9, 10}}, []int{0}},
		{Ranges{{10, 11}}, []int{1}},
		{Ranges{{9, 11}}, []int{0, 1}},
		{Ranges{{0, 1}, {39, 40}}, []int{0, 3}},
		{Ranges{{5, 35}}, []int{0, 1, 2, 3}},
		{Ranges{{12, 13}, {15, 18}, {21, 22}}, []int{1, 2}},
	} {
		if got := OverlappingPages(first, c.r, 40); !slices.Equal(got, c.want) {
			t.Errorf("rows %v: pages %v, want %v", c.r, got, c.want)
		}
	}
}

// TestAlignToPages checks the rows a column with leaves paged apart
// decodes for some ranges: every leaf's pages tile them exactly, and they
// hold the ranges.
func TestAlignToPages(t *testing.T) {
	firsts := [][]int64{{0, 10, 20, 30}, {0, 20, 30}} // two leaves of 40 rows
	cases := []struct {
		r, want Ranges
	}{
		{Ranges{{12, 13}}, Ranges{{0, 20}}},
		{Ranges{{31, 32}}, Ranges{{30, 40}}},
		{Ranges{{0, 1}, {39, 40}}, Ranges{{0, 20}, {30, 40}}},
		{Ranges{{19, 21}}, Ranges{{0, 30}}},
		{Ranges{{0, 40}}, Ranges{{0, 40}}},
	}
	for _, c := range cases {
		got := AlignToPages(c.r, firsts, 40)
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("rows %v: cover %v, want %v", c.r, got, c.want)
		}
		checkTiles(t, c.r, got, firsts, 40)
	}
}

// TestAlignToPagesRandom aligns random rows to random pagings of two and
// three leaves.
func TestAlignToPagesRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 300 {
		n := int64(1 + rng.IntN(200))
		firsts := make([][]int64, 1+rng.IntN(3))
		for k := range firsts {
			firsts[k] = randomFirstRows(rng, n)
		}
		r := randomRanges(rng, Full(n))
		checkTiles(t, r, AlignToPages(r, firsts, n), firsts, n)
	}
}

// checkTiles fails t unless every paging of firsts tiles cover exactly
// and cover holds r.
func checkTiles(t *testing.T, r, cover Ranges, firsts [][]int64, n int64) {
	t.Helper()
	for _, first := range firsts {
		var tiled Ranges
		for _, p := range OverlappingPages(first, cover, n) {
			tiled = Union(tiled, Ranges{PageRows(first, p, n)})
		}
		if fmt.Sprint(tiled) != fmt.Sprint(cover) {
			t.Fatalf("rows %v: cover %v, but pages %v tile %v", r, cover, first, tiled)
		}
	}
	if Intersect(cover, r).Rows() != r.Rows() {
		t.Fatalf("rows %v: cover %v does not hold them", r, cover)
	}
}

// TestPageBytes checks the bytes read for some rows of a chunk with a
// dictionary page at [100, 130) and four data pages, and that a page
// outside the chunk is an error.
func TestPageBytes(t *testing.T) {
	oi := &footer.OffsetIndex{PageLocations: []footer.PageLocation{
		{Offset: 130, CompressedPageSize: 20, FirstRowIndex: 0},
		{Offset: 150, CompressedPageSize: 20, FirstRowIndex: 10},
		{Offset: 170, CompressedPageSize: 20, FirstRowIndex: 20},
		{Offset: 190, CompressedPageSize: 10, FirstRowIndex: 30},
	}}
	first := []int64{0, 10, 20, 30}
	chunk := ByteRange{100, 200}
	for _, c := range []struct {
		r    Ranges
		want []ByteRange
	}{
		{Ranges{{0, 1}}, []ByteRange{{100, 150}}},
		{Ranges{{12, 13}}, []ByteRange{{100, 130}, {150, 170}}},
		{Ranges{{12, 13}, {25, 26}}, []ByteRange{{100, 130}, {150, 190}}},
		{Ranges{{12, 13}, {35, 36}}, []ByteRange{{100, 130}, {150, 170}, {190, 200}}},
	} {
		got, err := PageBytes(oi, first, c.r, 40, chunk)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("rows %v: bytes %v, %v; want %v", c.r, got, err, c.want)
		}
	}
	// Without a dictionary page nothing precedes the first data page.
	got, err := PageBytes(oi, first, Ranges{{35, 36}}, 40, ByteRange{130, 200})
	if err != nil || !slices.Equal(got, []ByteRange{{190, 200}}) {
		t.Errorf("no dictionary: bytes %v, %v", got, err)
	}
	for _, loc := range []footer.PageLocation{
		{Offset: 190, CompressedPageSize: 11, FirstRowIndex: 30}, // past the chunk's end
		{Offset: 90, CompressedPageSize: 10, FirstRowIndex: 30},  // before its start
		{Offset: 190, CompressedPageSize: 0, FirstRowIndex: 30},  // empty
	} {
		bad := &footer.OffsetIndex{PageLocations: append(slices.Clone(oi.PageLocations[:3]), loc)}
		if _, err := PageBytes(bad, first, Ranges{{35, 36}}, 40, chunk); !errors.Is(err, ErrCorrupt) {
			t.Errorf("page %+v: %v, want ErrCorrupt", loc, err)
		}
	}
}

// TestPositions checks where some rows lie among the rows of a cover.
func TestPositions(t *testing.T) {
	cover := Ranges{{10, 20}, {30, 40}}
	got := Positions(cover, Ranges{{12, 14}, {18, 20}, {30, 31}, {35, 40}})
	if fmt.Sprint(got) != "[{2 4} {8 11} {15 20}]" {
		t.Errorf("positions %v", got)
	}
	if got := RowsAt(cover, got); fmt.Sprint(got) != "[{12 14} {18 20} {30 31} {35 40}]" {
		t.Errorf("rows at the positions: %v", got)
	}
	if got := RowsAt(cover, Ranges{{18, 25}}); fmt.Sprint(got) != "[{38 40}]" {
		t.Errorf("rows at positions past the cover: %v", got)
	}
}

// TestPositionsRandom maps random rows of random covers to positions and
// back.
func TestPositionsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for range 500 {
		cover := randomRanges(rng, Full(int64(1+rng.IntN(300))))
		r := randomRanges(rng, cover)
		pos := Positions(cover, r)
		if pos.Rows() != r.Rows() || len(pos) > 0 && pos[len(pos)-1].End > cover.Rows() {
			t.Fatalf("cover %v, rows %v: positions %v", cover, r, pos)
		}
		if back := RowsAt(cover, pos); fmt.Sprint(back) != fmt.Sprint(r) {
			t.Fatalf("cover %v, rows %v: positions %v map back to %v", cover, r, pos, back)
		}
	}
}

// randomFirstRows returns the first rows of a random paging of n rows.
func randomFirstRows(rng *rand.Rand, n int64) []int64 {
	first := []int64{0}
	for at := int64(1); at < n; at++ {
		if rng.IntN(8) == 0 {
			first = append(first, at)
		}
	}
	return first
}

// randomRanges returns random rows of within.
func randomRanges(rng *rand.Rand, within Ranges) Ranges {
	var out Ranges
	for _, w := range within {
		for at := w.Start; at < w.End; at++ {
			if rng.IntN(4) == 0 {
				out = out.add(at, at+1)
			}
		}
	}
	return out
}
