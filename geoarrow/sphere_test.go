package geoarrow

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// line returns a little-endian WKB linestring (or polygon of one ring
// when ring is set) of the (lon, lat) pairs c.
func line(ring bool, c ...float64) []byte {
	w := newWKB(false)
	if ring {
		w.u32(3).u32(1)
	} else {
		w.u32(2)
	}
	return w.u32(uint32(len(c) / 2)).f(c...).b
}

func TestSphericalBounds(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name string
		wkb  []byte
		box  string // dims of Box()
	}{
		{"equator", line(false, 0, 0, 10, 0), "0..10 0..0 - -"},
		{"meridian", line(false, 5, -10, 5, 20), "5..5 -10..20 - -"},
		{"across the antimeridian", line(false, 170, 0, -170, 0), "170..-170 0..0 - -"},
		{"over the north pole", line(false, 0, 80, 180, 80), "-180..180 80..90 - -"},
		{"over the south pole", line(false, -90, -80, 90, -70), "-180..180 -90..-70 - -"},
		{"ring around the north pole", line(true, 0, 80, 120, 80, -120, 80, 0, 80), "-180..180 80..90 - -"},
		{"ring around the south pole", line(true, 0, -10, -120, -20, 120, -10, 0, -10), "-180..180 -90..-10 - -"},
		{"ring around a pole across the equator", line(true, 0, -10, 120, 10, -120, 10, 0, -10), "-180..180 -90..90 - -"},
		{"ring across the antimeridian", line(true, 175, -5, -175, -5, -175, 5, 175, 5, 175, -5), "175..-175 -5.019..5.019 - -"},
		{"point out of range", newWKB(false).u32(1).f(200, 0).b, "- - - -"},
		{"NaN vertex breaks the line", line(false, 0, 0, nan, nan, 10, 10), "0..10 0..10 - -"},
		{"point Z", newWKB(false).u32(1001).f(-30, 10, 7).b, "-30..-30 10..10 7..7 -"},
	} {
		s := NewSphericalBounds()
		if _, err := s.Add(c.wkb); err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		b := s.Box()
		if got := roughDims(b); got != c.box {
			t.Errorf("%s: box %s, want %s (%s)", c.name, got, c.box, &s)
		}
	}
	// The arc from (0, 45) to (90, 45) peaks at atan(√2) at longitude 45.
	s := NewSphericalBounds()
	if _, err := s.Add(line(false, 0, 45, 90, 45)); err != nil {
		t.Fatal(err)
	}
	if want := math.Atan(math.Sqrt2) * 180 / math.Pi; math.Abs(s.Box().Ymax-want) > 1e-8 || s.Box().Ymin != 45 {
		t.Errorf("arc peak %v, want %v", s.Box().Ymax, want)
	}
	if s.IntersectsBox(40, 50, 50, 54) != true || s.IntersectsBox(100, 0, 120, 90) || s.IntersectsBox(0, 55, 90, 60) {
		t.Errorf("IntersectsBox wrong for %s", &s)
	}
	// Two points far apart leave the gap between them out of the ranges,
	// but not out of the box.
	s = NewSphericalBounds()
	if _, err := s.Add(newWKB(false).u32(4).u32(2).raw(newWKB(false).u32(1).f(0, 0).b).raw(newWKB(false).u32(1).f(100, 0).b).b); err != nil {
		t.Fatal(err)
	}
	if s.IntersectsBox(10, -1, 90, 1) || !s.IntersectsBox(90, -1, 110, 1) || roughDims(s.Box()) != "0..100 0..0 - -" {
		t.Errorf("multipoint: %s, box %s", &s, roughDims(s.Box()))
	}
	s.Compact(1)
	if !s.IntersectsBox(10, -1, 90, 1) {
		t.Errorf("Compact(1) left %s", &s)
	}
}

// roughDims is dims rounded to 5 decimals, with an X range that wraps
// written lo..hi too.
func roughDims(b Box) string {
	r := func(v float64) float64 { return math.Round(v*1e5) / 1e5 }
	d := dims(Box{r(b.Xmin), r(b.Xmax), r(b.Ymin), r(b.Ymax), b.Zmin, b.Zmax, b.Mmin, b.Mmax})
	if b.Xmin > b.Xmax && b.HasXY() {
		d = fmt.Sprint(r(b.Xmin), "..", r(b.Xmax)) + d[1:]
	}
	return d
}

// slerp returns the point a fraction f along the short arc from a to b.
func slerp(a, b vertex, f float64) (lon, lat float64) {
	ang := math.Acos(math.Max(-1, math.Min(1, dot(a.v, b.v))))
	if ang < 1e-12 {
		return a.lon, a.lat
	}
	sa, sb := math.Sin((1-f)*ang)/math.Sin(ang), math.Sin(f*ang)/math.Sin(ang)
	p := [3]float64{sa*a.v[0] + sb*b.v[0], sa*a.v[1] + sb*b.v[1], sa*a.v[2] + sb*b.v[2]}
	return math.Atan2(p[1], p[0]) * 180 / math.Pi, math.Asin(math.Max(-1, math.Min(1, p[2]))) * 180 / math.Pi
}

// TestSphericalBoundsCoverArcs draws random lines and checks that points
// sampled along every arc lie within the bounds, the longitude ranges and
// the box, and that chunk-style Merge and Compact keep covering them.
func TestSphericalBoundsCoverArcs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	chunk := NewSphericalBounds()
	var samples [][2]float64
	for range 2000 {
		var c []float64
		for range 2 + rng.IntN(3) {
			c = append(c, rng.Float64()*360-180, rng.Float64()*180-90)
		}
		s := NewSphericalBounds()
		if _, err := s.Add(line(false, c...)); err != nil {
			t.Fatal(err)
		}
		b := s.Box()
		for i := 0; i+3 < len(c); i += 2 {
			a, z := newVertex(c[i], c[i+1]), newVertex(c[i+2], c[i+3])
			if math.Abs(math.Abs(c[i+2]-c[i])-180) < 1e-6 {
				continue // near a pole the sampled longitude is unstable
			}
			for k := 0; k <= 16; k++ {
				lon, lat := slerp(a, z, float64(k)/16)
				const eps = 1e-7
				if !s.IntersectsBox(lon-eps, lat-eps, lon+eps, lat+eps) || lat < b.Ymin-eps || lat > b.Ymax+eps || !RangesMeet(b.Xmin, b.Xmax, lon-eps, lon+eps) {
					t.Fatalf("arc %v..%v: sample (%v, %v) outside %s (box %s)", c[i:i+2], c[i+2:i+4], lon, lat, &s, dims(b))
				}
				samples = append(samples, [2]float64{lon, lat})
			}
		}
		chunk.Merge(&s)
		if len(chunk.lons) > 8 {
			chunk.Compact(4)
		}
	}
	b := chunk.Box()
	for _, p := range samples {
		if p[1] < b.Ymin-1e-7 || p[1] > b.Ymax+1e-7 || !RangesMeet(b.Xmin, b.Xmax, p[0]-1e-7, p[0]+1e-7) {
			t.Fatalf("sample %v outside the merged box %s", p, dims(b))
		}
	}
}

// FuzzSphericalBounds feeds arbitrary bytes to SphericalBounds.Add: an
// error or bounds whose ranges are sorted, disjoint and within the
// sphere, never a panic.
func FuzzSphericalBounds(f *testing.F) {
	f.Add(line(false, 170, 0, -170, 0))
	f.Add(line(true, 0, 80, 120, 80, -120, 80, 0, 80))
	f.Add(newWKB(true).u32(3007).u32(1).raw(newWKB(false).u32(3001).f(1, 2, 3, 4).b).b)
	f.Fuzz(func(t *testing.T, b []byte) {
		s := NewSphericalBounds()
		if _, err := s.Add(b); err != nil {
			return
		}
		for i, r := range s.lons {
			if !(r.lo <= r.hi && r.lo >= -180 && r.hi <= 180) || i > 0 && s.lons[i-1].hi >= r.lo {
				t.Fatalf("ranges %v", s.lons)
			}
		}
		if box := s.Box(); box.HasXY() != (len(s.lons) > 0) || box.HasXY() && (box.Ymin < -90 || box.Ymax > 90) {
			t.Fatalf("box %+v of %s", box, &s)
		}
	})
}
