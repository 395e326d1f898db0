package pageindex

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/geoarrow"
)

// geoSchema has an optional GEOMETRY "g", an optional GEOGRAPHY "geo" and
// an optional plain binary "bin".
func geoSchema(t testing.TB) *footer.Schema {
	opt := footer.Some(footer.RepetitionOptional)
	ba := footer.Some(footer.TypeByteArray)
	elems := []footer.SchemaElement{
		{Name: "root", NumChildren: footer.Some(int32(3))},
		{Name: "g", Type: ba, RepetitionType: opt, LogicalType: footer.LogicalType{Kind: footer.LogicalGeometry}},
		{Name: "geo", Type: ba, RepetitionType: opt, LogicalType: footer.LogicalType{Kind: footer.LogicalGeography}},
		{Name: "bin", Type: ba, RepetitionType: opt},
	}
	s, err := footer.NewSchema(elems, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestIntersectsParse(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{"intersects(g, -10, 20.5, 30, 4e1)", "intersects(g, -10, 20.5, 30, 40)"},
		{"INTERSECTS ( `a b` , 170,-90,-170,90 ) and x = 1", "(intersects(`a b`, 170, -90, -170, 90)) and (x = 1)"},
		{"not intersects(g, 0, 0, 1, 1) or intersects = 'x'", `(not (intersects(g, 0, 0, 1, 1))) or (intersects = "x")`},
	} {
		p, err := Parse(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if p.String() != c.out {
			t.Errorf("%s: parsed as %s, want %s", c.in, p, c.out)
		}
		if again, err := Parse(p.String()); err != nil || again.String() != p.String() {
			t.Errorf("%s: does not parse back (%v)", p, err)
		}
	}
	for _, in := range []string{"intersects(g, 1, 2, 3)", "intersects(g, 1, 2, 3, 'x')", "intersects(1, 2, 3, 4, 5)", "intersects(g, 1, 2, 3, 4", "intersects(and, 1, 2, 3, 4)"} {
		if _, err := Parse(in); !errors.Is(err, ErrPredicate) {
			t.Errorf("%s: %v, want ErrPredicate", in, err)
		}
	}
	s := geoSchema(t)
	for _, p := range []Predicate{Intersects("bin", 0, 0, 1, 1), Intersects("g", 0, 2, 1, 1), Intersects("g", math.NaN(), 0, 1, 1), Intersects("nope", 0, 0, 1, 1)} {
		if _, err := Bind(p, s); !errors.Is(err, ErrPredicate) {
			t.Errorf("Bind(%s): %v, want ErrPredicate", p, err)
		}
	}
}

// geoRow is a test geometry: its vertices (NaN coordinates allowed), or
// null.
type geoRow struct {
	null bool
	pts  [][2]float64
}

// wkbOf encodes r as a WKB point (one vertex) or linestring.
func wkbOf(r geoRow) []byte {
	b := []byte{1}
	if len(r.pts) == 1 {
		b = binary.LittleEndian.AppendUint32(b, 1)
	} else {
		b = binary.LittleEndian.AppendUint32(b, 2)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(r.pts)))
	}
	for _, p := range r.pts {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(p[0]))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(p[1]))
	}
	return b
}

// wantIntersects is the row test written out plainly: some vertex x and
// some vertex y (NaN left out) bound a box meeting the query box.
func wantIntersects(r geoRow, xmin, ymin, xmax, ymax float64) bool {
	lx, hx, ly, hy := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, p := range r.pts {
		if !math.IsNaN(p[0]) {
			lx, hx = min(lx, p[0]), max(hx, p[0])
		}
		if !math.IsNaN(p[1]) {
			ly, hy = min(ly, p[1]), max(hy, p[1])
		}
	}
	if r.null || lx > hx || ly > hy || hy < ymin || ly > ymax {
		return false
	}
	if xmin > xmax { // wraps: [xmin, inf) and (-inf, xmax]
		return hx >= xmin || lx <= xmax
	}
	return lx <= xmax && hx >= xmin
}

// TestIntersectsAgreesWithStatistics draws random geometries, boxes and
// statistics: the row test must match wantIntersects, and a row group
// whose statistics box (exact, widened, or wrapping the antimeridian
// around every x) rules the query out must hold no selected row. NOT
// intersects(...) must select the non-null rows intersects leaves out
// (SQL's three-valued logic), and its statistics match must hold too.
func TestIntersectsAgreesWithStatistics(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	s := geoSchema(t)
	coord := func() float64 {
		if rng.IntN(20) == 0 {
			return math.NaN()
		}
		return float64(rng.IntN(360) - 180)
	}
	pruned, kept := 0, 0
	for iter := range 3000 {
		rows := make([]geoRow, 1+rng.IntN(6))
		bld := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
		for i := range rows {
			switch rng.IntN(8) {
			case 0:
				rows[i].null = true
				bld.AppendNull()
				continue
			case 1:
				rows[i].pts = [][2]float64{{math.NaN(), math.NaN()}} // empty point
			default:
				for range 1 + rng.IntN(3) {
					rows[i].pts = append(rows[i].pts, [2]float64{coord(), coord()})
				}
			}
			bld.Append(wkbOf(rows[i]))
		}
		storage := bld.NewArray()
		bld.Release()
		wt, _ := geoarrow.NewWKBType(arrow.BinaryTypes.Binary, geoarrow.Metadata{})
		arr := array.NewExtensionArrayWithStorage(wt, storage)
		storage.Release()

		xmin, ymin, xmax, ymax := coord(), coord(), coord(), coord()
		if math.IsNaN(xmin + ymin + xmax + ymax) {
			xmin, ymin, xmax, ymax = -5, -5, 5, 5
		}
		ymin, ymax = min(ymin, ymax), max(ymin, ymax)
		b, err := Bind(Intersects("g", xmin, ymin, xmax, ymax), s)
		if err != nil {
			t.Fatal(err)
		}
		sel, err := b.Select([]arrow.Array{arr}, len(rows))
		if err != nil {
			t.Fatal(err)
		}
		nb, err := Bind(Not(Intersects("g", xmin, ymin, xmax, ymax)), s)
		if err != nil {
			t.Fatal(err)
		}
		nsel, err := nb.Select([]arrow.Array{arr}, len(rows))
		arr.Release()
		if err != nil {
			t.Fatal(err)
		}
		any := false
		box := geoarrow.NewBox()
		nulls := 0
		for i, r := range rows {
			if want := wantIntersects(r, xmin, ymin, xmax, ymax); sel[i] != want {
				t.Fatalf("iteration %d row %d %+v: selected %v, want %v (box %v %v %v %v)", iter, i, r, sel[i], want, xmin, ymin, xmax, ymax)
			}
			if want := !r.null && !sel[i]; nsel[i] != want {
				t.Fatalf("iteration %d row %d %+v: NOT intersects selected %v, want %v", iter, i, r, nsel[i], want)
			}
			any = any || sel[i]
			if r.null {
				nulls++
				continue
			}
			if _, err := geoarrow.Scan(wkbOf(r), &box); err != nil {
				t.Fatal(err)
			}
		}
		st := Stats{Values: int64(len(rows)), NullCount: int64(nulls), HasNullCount: true}
		if box.HasXY() {
			st.Geo = &footer.BoundingBox{Xmin: box.Xmin, Xmax: box.Xmax, Ymin: box.Ymin, Ymax: box.Ymax}
			switch rng.IntN(3) {
			case 1: // a wider box
				st.Geo.Xmin -= float64(rng.IntN(20))
				st.Geo.Ymax += float64(rng.IntN(20))
			case 2: // a box wrapping the antimeridian around every x
				st.Geo.Xmin, st.Geo.Xmax = box.Xmin+float64(rng.IntN(3)), box.Xmax-float64(rng.IntN(3))
				if st.Geo.Xmin <= st.Geo.Xmax {
					st.Geo.Xmin, st.Geo.Xmax = box.Xmax, box.Xmin
				}
			}
		}
		m := b.Match(func(int) (Pages, bool) { return Pages{FirstRows: []int64{0}, Stats: []Stats{st}}, true }, int64(len(rows)))
		if m == MatchNone {
			pruned++
			if any {
				t.Fatalf("iteration %d: statistics %+v prune a row group with selected rows", iter, st.Geo)
			}
		} else {
			kept++
		}
		if m == MatchAll {
			t.Fatalf("iteration %d: statistics claim every row", iter)
		}
		switch nm := nb.Match(func(int) (Pages, bool) { return Pages{FirstRows: []int64{0}, Stats: []Stats{st}}, true }, int64(len(rows))); nm {
		case MatchNone:
			if slices.Contains(nsel, true) {
				t.Fatalf("iteration %d: statistics %+v prune NOT intersects with selected rows", iter, st.Geo)
			}
		case MatchAll:
			if slices.Contains(nsel, false) {
				t.Fatalf("iteration %d: statistics %+v claim every row for NOT intersects, which leaves some out", iter, st.Geo)
			}
		}
	}
	if pruned == 0 || kept == 0 {
		t.Errorf("%d row groups pruned, %d kept: the draws do not exercise both", pruned, kept)
	}
}

func TestIntersectsRejectsBadWKB(t *testing.T) {
	b, err := Bind(Intersects("g", 0, 0, 1, 1), geoSchema(t))
	if err != nil {
		t.Fatal(err)
	}
	bld := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	defer bld.Release()
	bld.Append(wkbOf(geoRow{pts: [][2]float64{{0, 0}}}))
	bld.Append([]byte{1, 2, 0})
	arr := bld.NewArray()
	defer arr.Release()
	if _, err := b.Select([]arrow.Array{arr}, 2); !errors.Is(err, ErrCorrupt) || !errors.Is(err, geoarrow.ErrInvalid) {
		t.Errorf("Select over bad WKB: %v, want ErrCorrupt and geoarrow.ErrInvalid", err)
	}
}

// geoLine returns a WKB linestring of (lon, lat) pairs c.
func geoLine(c ...float64) []byte {
	b := binary.LittleEndian.AppendUint32([]byte{1}, 2)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(c)/2))
	for _, v := range c {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// TestIntersectsGeography checks the spherical row test on arcs whose
// bounds differ from their vertices' box, and that a row group pruned by
// the box Quiver's writer computes (geoarrow.SphericalBounds over the
// chunk) never holds a selected row, the box wrapping or not.
func TestIntersectsGeography(t *testing.T) {
	s := geoSchema(t)
	sel := func(q [4]float64, rows ...[]byte) []bool {
		t.Helper()
		b, err := Bind(Intersects("geo", q[0], q[1], q[2], q[3]), s)
		if err != nil {
			t.Fatal(err)
		}
		bld := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
		defer bld.Release()
		for _, r := range rows {
			bld.Append(r)
		}
		arr := bld.NewArray()
		defer arr.Release()
		out, err := b.Select([]arrow.Array{arr}, len(rows))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	across := geoLine(170, 0, -170, 0)
	bulge := geoLine(0, 45, 90, 45)
	for _, c := range []struct {
		q    [4]float64
		row  []byte
		want bool
	}{
		{[4]float64{175, -1, 179, 1}, across, true},
		{[4]float64{0, -1, 10, 1}, across, false},
		{[4]float64{178, -1, -178, 1}, across, true},
		{[4]float64{40, 50, 50, 54}, bulge, true}, // above both vertices
		{[4]float64{40, 56, 50, 60}, bulge, false},
	} {
		if got := sel(c.q, c.row)[0]; got != c.want {
			t.Errorf("box %v: %v, want %v", c.q, got, c.want)
		}
	}

	rng := rand.New(rand.NewPCG(11, 13))
	pruned := 0
	for iter := range 2000 {
		var rows [][]byte
		chunk := geoarrow.NewSphericalBounds()
		for range 1 + rng.IntN(4) {
			lon, lat := rng.Float64()*360-180, rng.Float64()*160-80
			r := geoLine(lon, lat, math.Mod(lon+rng.Float64()*60+180, 360)-180, math.Max(-90, math.Min(90, lat+rng.Float64()*20-10)))
			if _, err := chunk.Add(r); err != nil {
				t.Fatal(err)
			}
			chunk.Compact(2)
			rows = append(rows, r)
		}
		q := [4]float64{rng.Float64()*360 - 180, rng.Float64()*180 - 90, rng.Float64()*360 - 180, 0}
		q[3] = q[1] + rng.Float64()*20
		got := sel(q, rows...)
		box := chunk.Box()
		b, _ := Bind(Intersects("geo", q[0], q[1], q[2], q[3]), s)
		st := Stats{Geo: &footer.BoundingBox{Xmin: box.Xmin, Xmax: box.Xmax, Ymin: box.Ymin, Ymax: box.Ymax}}
		if b.Match(func(int) (Pages, bool) { return Pages{FirstRows: []int64{0}, Stats: []Stats{st}}, true }, int64(len(rows))) == MatchNone {
			pruned++
			for i, g := range got {
				if g {
					t.Fatalf("iteration %d: box %v pruned by %+v, row %d selected", iter, q, *st.Geo, i)
				}
			}
		}
	}
	if pruned == 0 {
		t.Error("no row group pruned")
	}
}
