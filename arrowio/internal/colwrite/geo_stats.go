package colwrite

import (
	"fmt"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/geoarrow"
	"github.com/quiverio/quiver/kernels"
)

// geoStats gathers the GeospatialStatistics of a GEOMETRY or GEOGRAPHY
// column chunk (Geospatial.md): the bounding box of every coordinate,
// NaN left out per dimension (geoarrow.Scan), and the ISO WKB type code
// of every value. A value that is not WKB is an error: the statistics
// would otherwise describe values they never saw.
//
// A GEOGRAPHY's edges are not straight in longitude and latitude, so a
// box over its vertices need not cover it. Under spherical edges the box
// follows the great-circle arcs (geoarrow.SphericalBounds), wrapping
// across the antimeridian (xmin > xmax) where that is narrower; under the
// ellipsoidal algorithms (vincenty, thomas, andoyer, karney), whose
// geodesics this package does not bound, chunks get the types and no box
// (no box means readers assume nothing, as Geospatial.md says).
type geoStats struct {
	geography bool
	spherical bool // a GEOGRAPHY with spherical edges: sph bounds it
	box       geoarrow.Box
	sph       geoarrow.SphericalBounds
	// types has bit dims*7 + kind-1 set for each code seen (kind 1..7,
	// dims 0..3 for XY, XYZ, XYM, XYZM).
	types uint32
}

// newGeoStats returns the statistics gatherer of leaf n, or nil when n is
// not a GEOMETRY or GEOGRAPHY BYTE_ARRAY.
func newGeoStats(n *footer.Node) *geoStats {
	if n.Physical != footer.TypeByteArray {
		return nil
	}
	switch lt := n.Logical(); lt.Kind {
	case footer.LogicalGeometry:
		return &geoStats{}
	case footer.LogicalGeography:
		return &geoStats{geography: true, spherical: lt.Geography.Algorithm.Or(footer.EdgeSpherical) == footer.EdgeSpherical}
	}
	return nil
}

// reset forgets the chunk's statistics.
func (g *geoStats) reset() {
	*g = geoStats{geography: g.geography, spherical: g.spherical, box: geoarrow.NewBox(), sph: geoarrow.NewSphericalBounds()}
}

// add adds one WKB value.
func (g *geoStats) add(wkb []byte) error {
	var code int32
	var err error
	if g.spherical {
		code, err = g.sph.Add(wkb)
		g.sph.Compact(maxLonRanges)
	} else {
		code, err = geoarrow.Scan(wkb, &g.box)
	}
	if err != nil {
		return err
	}
	g.types |= 1 << ((code/1000)*7 + code%1000 - 1)
	return nil
}

// addArray adds the non-null values of rows [lo, hi) of arr, a
// geoarrow.wkb array (or its binary storage, or a dictionary of either);
// errors name the value as what (row, value) and its index in arr.
func (g *geoStats) addArray(arr arrow.Array, lo, hi int, what string) error {
	at, err := wkbValues(arr, lo, hi)
	if err != nil {
		return err
	}
	for i := lo; i < hi; i++ {
		if arr.IsNull(i) {
			continue
		}
		if err := g.add(at(i)); err != nil {
			return fmt.Errorf("%s %d: %w", what, i, err)
		}
	}
	return nil
}

// wkbValues returns the accessor of the values of a binary-like array,
// whose offsets of slots [lo, hi) it checks first: the bounds are taken
// before the value writer reads (and checks) the values.
func wkbValues(arr arrow.Array, lo, hi int) (func(int) []byte, error) {
	switch a := storage(arr).(type) {
	case *array.Binary:
		return a.Value, checkWKBSpan(a.ValueOffsets(), lo, hi, dataLen(a))
	case *array.LargeBinary:
		return a.Value, checkWKBSpan(a.ValueOffsets(), lo, hi, dataLen(a))
	case *array.BinaryView:
		return a.Value, nil
	case *array.Dictionary:
		inner, err := wkbValues(a.Dictionary(), 0, a.Dictionary().Len())
		if err != nil {
			return nil, err
		}
		n := a.Dictionary().Len()
		return func(i int) []byte {
			// An index outside the dictionary gives no value, which is
			// not WKB: add reports it.
			if x := a.GetValueIndex(i); x >= 0 && x < n {
				return inner(x)
			}
			return nil
		}, nil
	}
	return nil, fmt.Errorf("%w: WKB values in a %s array", errs.ErrUnsupported, arr.DataType())
}

// checkWKBSpan checks the offsets of slots [lo, hi) among offs, into n
// bytes of data.
func checkWKBSpan[O kernels.Offset](offs []O, lo, hi, n int) error {
	if hi <= lo {
		return nil
	}
	if len(offs) <= hi {
		return fmt.Errorf("arrowio: %d offsets for %d slots", len(offs), hi)
	}
	return checkSpan(offs[lo:hi+1], n)
}

// dataLen returns the bytes of the data buffer of a binary array.
func dataLen(arr arrow.Array) int {
	if b := arr.Data().Buffers(); len(b) > 2 && b[2] != nil {
		return b[2].Len()
	}
	return 0
}

// maxLonRanges bounds the longitude ranges a GEOGRAPHY chunk's bounds
// keep: more are merged across their narrowest gaps, which only widens
// the box.
const maxLonRanges = 32

// statistics returns the chunk's GeospatialStatistics: the types seen, in
// ascending order (an empty list, "not known", when every value was
// null), and, where some X and Y was seen, the box, with Z and M where
// seen (no box for an ellipsoidal GEOGRAPHY).
func (g *geoStats) statistics() *footer.GeospatialStatistics {
	st := &footer.GeospatialStatistics{GeospatialTypes: []int32{}}
	for t := g.types; t != 0; t &= t - 1 {
		b := int32(bits.TrailingZeros32(t))
		st.GeospatialTypes = append(st.GeospatialTypes, b/7*1000+b%7+1)
	}
	b := &g.box
	if g.spherical {
		sb := g.sph.Box()
		b = &sb
	}
	if g.geography && !g.spherical || !b.HasXY() {
		return st
	}
	st.Bbox = &footer.BoundingBox{Xmin: b.Xmin, Xmax: b.Xmax, Ymin: b.Ymin, Ymax: b.Ymax}
	if b.HasZ() {
		st.Bbox.Zmin, st.Bbox.Zmax = footer.Some(b.Zmin), footer.Some(b.Zmax)
	}
	if b.HasM() {
		st.Bbox.Mmin, st.Bbox.Mmax = footer.Some(b.Mmin), footer.Some(b.Mmax)
	}
	return st
}
