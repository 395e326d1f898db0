package pageindex

import (
	"fmt"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/geoarrow"
)

// bboxIntersect is the predicate Intersects builds.
type bboxIntersect struct {
	col                    string
	xmin, ymin, xmax, ymax float64
}

// Intersects holds where the bounds of the geometry in column col, a
// GEOMETRY or GEOGRAPHY column of WKB values, meet the box [xmin, xmax] ×
// [ymin, ymax] (edges included); xmin > xmax is a box that wraps the
// antimeridian (x >= xmin or x <= xmax), as Parquet's geospatial
// statistics spell such a box. It is a bounding-box test, not an exact
// geometric one (a line passing beside the box may hold), as GeoParquet's
// bbox covering is:
//   - GEOMETRY: the box of the value's coordinates, NaN left out.
//   - GEOGRAPHY: the value's spherical bounds (geoarrow.SphericalBounds):
//     the longitudes its vertices and great-circle edges span and their
//     latitude range, coordinates outside the sphere left out. The test
//     holds when one of those longitudes lies in [xmin, xmax] and the
//     latitude range meets [ymin, ymax]. Edges of the ellipsoidal
//     algorithms are taken as great circles here.
//
// A null or empty geometry holds for no box.
//
// Row groups whose GeospatialStatistics box misses the query box are
// pruned, except that a GEOMETRY box that wraps (which planar writers do
// not write) prunes by y only, and GEOGRAPHY columns of an ellipsoidal
// algorithm are not pruned (their writers' boxes follow other curves than
// the test's).
func Intersects(col string, xmin, ymin, xmax, ymax float64) Predicate {
	return &bboxIntersect{col, xmin, ymin, xmax, ymax}
}

func (g *bboxIntersect) appendColumns(dst []string) []string { return append(dst, g.col) }

func (g *bboxIntersect) String() string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return "intersects(" + quoteColumn(g.col) + ", " + f(g.xmin) + ", " + f(g.ymin) + ", " + f(g.xmax) + ", " + f(g.ymax) + ")"
}

// bindIntersects binds g: its column must be a GEOMETRY or GEOGRAPHY
// BYTE_ARRAY and its box numbers with ymin <= ymax. The node keeps the
// box in vals as xmin, ymin, xmax, ymax.
func (b *Bound) bindIntersects(g *bboxIntersect, schema *footer.Schema) (*node, error) {
	c, err := b.column(g.col, schema)
	if err != nil {
		return nil, err
	}
	leaf := b.cols[c].leaf
	lt := leaf.Logical()
	if leaf.Physical != footer.TypeByteArray || lt.Kind != footer.LogicalGeometry && lt.Kind != footer.LogicalGeography {
		return nil, fmt.Errorf("%w: intersects on %s column %q, not GEOMETRY or GEOGRAPHY", ErrPredicate, b.cols[c].describe(), g.col)
	}
	kind := geoPlanar
	if lt.Kind == footer.LogicalGeography {
		kind = geoSpherical
		if lt.Geography.Algorithm.Or(footer.EdgeSpherical) != footer.EdgeSpherical {
			kind = geoEllipsoidal
		}
	}
	for _, v := range []float64{g.xmin, g.ymin, g.xmax, g.ymax} {
		if math.IsNaN(v) {
			return nil, fmt.Errorf("%w: intersects(%q): a NaN box", ErrPredicate, g.col)
		}
	}
	if g.ymin > g.ymax {
		return nil, fmt.Errorf("%w: intersects(%q): ymin %v above ymax %v", ErrPredicate, g.col, g.ymin, g.ymax)
	}
	return &node{kind: nodeIntersects, geo: kind, col: c, vals: []value{{f: g.xmin}, {f: g.ymin}, {f: g.xmax}, {f: g.ymax}}}, nil
}

// geoKind is how an intersects node's column bounds its values.
type geoKind uint8

const (
	geoPlanar      geoKind = iota + 1 // GEOMETRY: boxes of coordinates
	geoSpherical                      // GEOGRAPHY, spherical edges
	geoEllipsoidal                    // GEOGRAPHY, other edges: tested as spherical, never pruned
)

// queryBox returns the box of an intersects node.
func (nd *node) queryBox() (xmin, ymin, xmax, ymax float64) {
	return nd.vals[0].f, nd.vals[1].f, nd.vals[2].f, nd.vals[3].f
}

// matchIntersects evaluates an intersects node against a statistics box:
// none when the box misses the query box, else some (never all: a
// geometry may be empty, and its box need not meet the query's where the
// statistics' box does).
func matchIntersects(nd *node, box *footer.BoundingBox) Match {
	if box == nil || nd.geo == geoEllipsoidal {
		return MatchSome
	}
	for _, v := range []float64{box.Xmin, box.Xmax, box.Ymin, box.Ymax} {
		if math.IsNaN(v) {
			return MatchSome // Geospatial.md: the box is not reliable
		}
	}
	xmin, ymin, xmax, ymax := nd.queryBox()
	if box.Ymax < ymin || box.Ymin > ymax {
		return MatchNone
	}
	// A GEOGRAPHY's longitudes lie in its box even when it wraps; a
	// GEOMETRY's box of coordinates that wraps holds values spanning it.
	if (box.Xmin <= box.Xmax || nd.geo == geoSpherical) && !geoarrow.RangesMeet(box.Xmin, box.Xmax, xmin, xmax) {
		return MatchNone
	}
	return MatchSome
}

// evalIntersects evaluates an intersects node on each row of arr, a
// geoarrow.wkb array or its binary storage: whether the row's bounds meet
// the query box. A value that is not WKB is an error wrapping ErrCorrupt
// and geoarrow.ErrInvalid.
func (b *Bound) evalIntersects(nd *node, arr arrow.Array, out []bool) error {
	if ext, ok := arr.(array.ExtensionArray); ok {
		arr = ext.Storage()
	}
	var at func(int) []byte
	switch a := arr.(type) {
	case *array.Binary:
		at = a.Value
	case *array.LargeBinary:
		at = a.Value
	case *array.BinaryView:
		at = a.Value
	default:
		return unsupportedArray(&b.cols[nd.col], arr)
	}
	xmin, ymin, xmax, ymax := nd.queryBox()
	for i := range out {
		if arr.IsNull(i) {
			continue
		}
		var err error
		if nd.geo == geoPlanar {
			box := geoarrow.NewBox()
			_, err = geoarrow.Scan(at(i), &box)
			out[i] = box.HasXY() && box.Ymax >= ymin && box.Ymin <= ymax && geoarrow.RangesMeet(box.Xmin, box.Xmax, xmin, xmax)
		} else {
			sph := geoarrow.NewSphericalBounds()
			_, err = sph.Add(at(i))
			out[i] = sph.IntersectsBox(xmin, ymin, xmax, ymax)
		}
		if err != nil {
			return fmt.Errorf("%w: column %q: row %d: %w", ErrCorrupt, b.cols[nd.col].leaf.DottedPath(), i, err)
		}
	}
	return nil
}
