package geoarrow

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
)

// SphericalBounds gathers the bounds of geographies whose edges are
// great-circle arcs (Parquet GEOGRAPHY with spherical edges, GeoArrow
// "edges": "spherical"), X as longitude and Y as latitude in degrees. An
// edge can reach latitudes beyond its vertices' and crosses the
// antimeridian when that is the shorter way, so the bounds follow the
// arcs, not just the vertices:
//
//   - the longitudes are a set of ranges on the circle, the union of
//     every vertex and every arc's longitudes (an arc between two
//     longitudes 180° apart runs through a pole);
//   - the latitudes are a range widened to each arc's highest and lowest
//     point;
//   - a polygon ring that winds around a pole splits the sphere into two
//     sides, each holding a pole; the polygon is taken as the smaller
//     side, which holds the pole of the hemisphere the ring lies in (its
//     bounds then reach that pole), and as the whole sphere when the ring
//     crosses the equator;
//   - an arc over or from a pole, or a polar region, reaches every
//     longitude (a point at a pole keeps its own);
//   - a coordinate that is NaN or outside [-180, 180] × [-90, 90] is left
//     out, as are the arcs that touch it (Geospatial.md's special values).
//
// Otherwise a polygon is taken as the side of its rings that holds no
// pole (the smaller side, as for a ring around a pole), whose bounds its
// rings' bounds cover. Z and M are bounded as Scan bounds them.
type SphericalBounds struct {
	lons         []lonRange // sorted by lo, disjoint, within [-180, 180]
	latLo, latHi float64
	zm           Box // Z and M only
}

// lonRange is a closed range of longitudes with lo <= hi.
type lonRange struct{ lo, hi float64 }

// NewSphericalBounds returns empty bounds.
func NewSphericalBounds() SphericalBounds {
	return SphericalBounds{latLo: math.Inf(1), latHi: math.Inf(-1), zm: NewBox()}
}

// Add adds the one WKB geometry that is all of wkb and returns its ISO WKB
// type code, as Scan does. After an error s may hold part of the value.
func (s *SphericalBounds) Add(wkb []byte) (int32, error) {
	return (&scanner{b: wkb, box: &s.zm, sph: s}).scan()
}

// IntersectsBox reports whether some longitude of s lies in [xmin, xmax]
// (x >= xmin or x <= xmax when xmin > xmax: a range across the
// antimeridian) and the latitude range of s meets [ymin, ymax].
func (s *SphericalBounds) IntersectsBox(xmin, ymin, xmax, ymax float64) bool {
	if s.latLo > s.latHi || s.latHi < ymin || s.latLo > ymax {
		return false
	}
	for _, r := range s.lons {
		if RangesMeet(r.lo, r.hi, xmin, xmax) {
			return true
		}
	}
	return false
}

// Box returns the bounds as one box: X is the shortest range of
// longitudes covering every one of s, with Xmin > Xmax when it crosses
// the antimeridian (as Parquet's geospatial statistics write it); Y the
// latitudes; Z and M as Scan gives them. With no longitude or no
// latitude, X and Y are empty.
func (s *SphericalBounds) Box() Box {
	b := s.zm
	b.Xmin, b.Xmax, b.Ymin, b.Ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	if len(s.lons) == 0 || s.latLo > s.latHi {
		return b
	}
	b.Ymin, b.Ymax = s.latLo, s.latHi
	// The box leaves out the widest gap between ranges, the one across
	// the antimeridian (from the last range to the first) included.
	n := len(s.lons)
	gap, at := s.lons[0].lo+360-s.lons[n-1].hi, n-1
	for i := range n - 1 {
		if g := s.lons[i+1].lo - s.lons[i].hi; g > gap {
			gap, at = g, i
		}
	}
	b.Xmin, b.Xmax = s.lons[(at+1)%n].lo, s.lons[at].hi
	return b
}

// Compact merges the longitude ranges separated by the narrowest gaps
// until at most max remain (max at least 1), widening the bounds, so that
// a column chunk of many scattered points keeps a bounded set.
func (s *SphericalBounds) Compact(max int) {
	for len(s.lons) > max {
		at, gap := 0, math.Inf(1)
		for i := range len(s.lons) - 1 {
			if g := s.lons[i+1].lo - s.lons[i].hi; g < gap {
				at, gap = i, g
			}
		}
		s.lons[at].hi = s.lons[at+1].hi
		s.lons = append(s.lons[:at+1], s.lons[at+2:]...)
	}
}

// Merge widens s to cover o.
func (s *SphericalBounds) Merge(o *SphericalBounds) {
	for _, r := range o.lons {
		s.addLon(r.lo, r.hi)
	}
	s.latLo, s.latHi = math.Min(s.latLo, o.latLo), math.Max(s.latHi, o.latHi)
	s.zm.Merge(o.zm)
}

// String renders the bounds for tests and messages.
func (s *SphericalBounds) String() string {
	return fmt.Sprintf("lon %v lat %v..%v", s.lons, s.latLo, s.latHi)
}

// RangesMeet reports whether the ranges [a0, a1] and [b0, b1] share a
// value, either of which wraps (x >= lo or x <= hi) when its lo is above
// its hi.
func RangesMeet(a0, a1, b0, b1 float64) bool {
	aw, bw := a0 > a1, b0 > b1
	switch {
	case aw && bw:
		return true // both reach the antimeridian
	case aw:
		return b1 >= a0 || b0 <= a1
	case bw:
		return a1 >= b0 || a0 <= b1
	}
	return a0 <= b1 && a1 >= b0
}

// vertex is a point in degrees and as a unit vector.
type vertex struct {
	lon, lat float64
	v        [3]float64
}

func newVertex(lon, lat float64) vertex {
	sla, cla := math.Sincos(lat * math.Pi / 180)
	slo, clo := math.Sincos(lon * math.Pi / 180)
	return vertex{lon, lat, [3]float64{cla * clo, cla * slo, sla}}
}

// sequence adds a coordinate sequence of shape sh: p holds its points, n
// coordinates of 8 bytes each, X and Y first, in byte order ord.
func (s *SphericalBounds) sequence(p []byte, n int, ord binary.ByteOrder, sh shape) {
	var prev, first vertex
	hasPrev, hasFirst, whole := false, false, sh == shapeRing
	winding, ringLo, ringHi := 0.0, math.Inf(1), math.Inf(-1)
	for at := 0; at+16 <= len(p); at += 8 * n {
		lon := math.Float64frombits(ord.Uint64(p[at:]))
		lat := math.Float64frombits(ord.Uint64(p[at+8:]))
		if !(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90) { // NaN fails too
			hasPrev, whole = false, false
			continue
		}
		v := newVertex(lon, lat)
		ringLo, ringHi = math.Min(ringLo, lat), math.Max(ringHi, lat)
		s.addLon(lon, lon)
		s.latLo, s.latHi = math.Min(s.latLo, lat), math.Max(s.latHi, lat)
		if hasPrev && sh != shapePoint {
			winding += s.arc(prev, v)
		}
		if !hasFirst {
			first, hasFirst = v, true
		}
		prev, hasPrev = v, true
	}
	if sh == shapeRing && hasPrev && (prev.lon != first.lon || prev.lat != first.lat) {
		winding += s.arc(prev, first) // an unclosed ring closes
	}
	if whole && math.Abs(winding) > 180 {
		switch {
		case ringLo > 0:
			s.reachPole(1)
		case ringHi < 0:
			s.reachPole(-1)
		default:
			s.reachPole(0)
		}
	}
}

// reachPole widens the bounds to the north pole (side > 0), the south
// pole (side < 0) or both (side 0), and so to every longitude.
func (s *SphericalBounds) reachPole(side float64) {
	if side >= 0 {
		s.latHi = 90
	}
	if side <= 0 {
		s.latLo = -90
	}
	s.lons = append(s.lons[:0], lonRange{-180, 180})
}

// arcPad widens an arc's latitude extreme past rounding error.
const arcPad = 1e-9

// arc adds the great-circle arc from a to b and returns its signed change
// of longitude, in (-180, 180].
func (s *SphericalBounds) arc(a, b vertex) float64 {
	d := b.lon - a.lon
	switch {
	case d > 180:
		d -= 360
	case d <= -180:
		d += 360
	}
	if d == 180 { // over the nearer pole, or between antipodes on the equator
		s.reachPole(a.lat + b.lat)
		return d
	}
	if math.Abs(a.lat) == 90 || math.Abs(b.lat) == 90 {
		s.lons = append(s.lons[:0], lonRange{-180, 180}) // the pole is at every longitude
		return d
	}
	if d >= 0 {
		s.addLonSpan(a.lon, d)
	} else {
		s.addLonSpan(b.lon, -d)
	}
	nrm := cross(a.v, b.v)
	if dot(nrm, nrm) < 1e-30 {
		return d // the same point
	}
	// The great circle's highest point: the pole's projection on its plane.
	top := [3]float64{-nrm[0] * nrm[2], -nrm[1] * nrm[2], nrm[0]*nrm[0] + nrm[1]*nrm[1]}
	if dot(top, top) < 1e-30 {
		return d // the equator
	}
	l := math.Sqrt(dot(top, top))
	top = [3]float64{top[0] / l, top[1] / l, top[2] / l}
	peak := func() float64 { return math.Asin(math.Min(1, top[2])) * 180 / math.Pi }
	if between(a.v, b.v, nrm, top) {
		s.latHi = math.Max(s.latHi, math.Min(90, peak()+arcPad))
	}
	if between(a.v, b.v, nrm, [3]float64{-top[0], -top[1], -top[2]}) {
		s.latLo = math.Min(s.latLo, math.Max(-90, -peak()-arcPad))
	}
	return d
}

// between reports whether p lies strictly inside the short arc from a to
// b, whose plane has normal nrm = a × b.
func between(a, b, nrm, p [3]float64) bool {
	return dot(cross(a, p), nrm) > 0 && dot(cross(p, b), nrm) > 0
}

func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func dot(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// addLonSpan adds the longitudes from lo eastward over span degrees
// (0 <= span < 180), across the antimeridian if they reach it.
func (s *SphericalBounds) addLonSpan(lo, span float64) {
	hi := lo + span
	if hi > 180 {
		s.addLon(lo, 180)
		s.addLon(-180, hi-360)
		return
	}
	s.addLon(lo, hi)
}

// addLon adds the range [lo, hi] (lo <= hi, within [-180, 180]) to the
// sorted, disjoint ranges, merging those it meets.
func (s *SphericalBounds) addLon(lo, hi float64) {
	i := sort.Search(len(s.lons), func(i int) bool { return s.lons[i].hi >= lo })
	j := i
	for j < len(s.lons) && s.lons[j].lo <= hi {
		lo, hi = math.Min(lo, s.lons[j].lo), math.Max(hi, s.lons[j].hi)
		j++
	}
	if i == j {
		s.lons = append(s.lons, lonRange{})
		copy(s.lons[i+1:], s.lons[i:])
		s.lons[i] = lonRange{lo, hi}
		return
	}
	s.lons[i] = lonRange{lo, hi}
	s.lons = append(s.lons[:i+1], s.lons[j:]...)
}
