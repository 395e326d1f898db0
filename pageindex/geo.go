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

// Intersects holds where the bounding box of the geometry in column col,
// a GEOMETRY or GEOGRAPHY column of WKB values, intersects the box
// [xmin, xmax] × [ymin, ymax] (edges included). The geometry's bounding
// box is that of its coordinates, NaN left out, as GeoParquet's bbox
// covering and Parquet's geospatial statistics take it; for a GEOGRAPHY
// too, whose edges may leave the box of its vertices. So the test is a
// bounding-box test, not an exact geometric one: a line passing beside
// the box may hold. A null or empty geometry (no X or Y) holds for no box.
//
// xmin > xmax is a box that wraps the antimeridian: x >= xmin or
// x <= xmax, as Parquet's geospatial statistics spell such a box.
//
// Row groups whose GeospatialStatistics box misses the query box are
// pruned; a statistics box that wraps the antimeridian prunes by y only,
// since a geometry whose vertices lie on both sides of it has a box that
// spans the gap.
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
	if k := leaf.Logical().Kind; leaf.Physical != footer.TypeByteArray || k != footer.LogicalGeometry && k != footer.LogicalGeography {
		return nil, fmt.Errorf("%w: intersects on %s column %q, not GEOMETRY or GEOGRAPHY", ErrPredicate, b.cols[c].describe(), g.col)
	}
	for _, v := range []float64{g.xmin, g.ymin, g.xmax, g.ymax} {
		if math.IsNaN(v) {
			return nil, fmt.Errorf("%w: intersects(%q): a NaN box", ErrPredicate, g.col)
		}
	}
	if g.ymin > g.ymax {
		return nil, fmt.Errorf("%w: intersects(%q): ymin %v above ymax %v", ErrPredicate, g.col, g.ymin, g.ymax)
	}
	return &node{kind: nodeIntersects, col: c, vals: []value{{f: g.xmin}, {f: g.ymin}, {f: g.xmax}, {f: g.ymax}}}, nil
}

// queryBox returns the box of an intersects node.
func (nd *node) queryBox() (xmin, ymin, xmax, ymax float64) {
	return nd.vals[0].f, nd.vals[1].f, nd.vals[2].f, nd.vals[3].f
}

// hitsX reports whether the query's x range (wrapping when xmin > xmax)
// meets [lo, hi], a range with lo <= hi.
func hitsX(xmin, xmax, lo, hi float64) bool {
	if xmin > xmax {
		return hi >= xmin || lo <= xmax
	}
	return lo <= xmax && hi >= xmin
}

// matchIntersects evaluates an intersects node against a statistics box:
// none when the box misses the query box, else some (never all: a
// geometry may be empty, and its box need not meet the query's where the
// statistics' box does).
func matchIntersects(nd *node, box *footer.BoundingBox) Match {
	if box == nil {
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
	if box.Xmin <= box.Xmax && !hitsX(xmin, xmax, box.Xmin, box.Xmax) {
		return MatchNone
	}
	return MatchSome
}

// evalIntersects evaluates an intersects node on each row of arr, a
// geoarrow.wkb array or its binary storage: whether the row's WKB box
// meets the query box. A value that is not WKB is an error wrapping
// ErrCorrupt and geoarrow.ErrInvalid.
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
		box := geoarrow.NewBox()
		if _, err := geoarrow.Scan(at(i), &box); err != nil {
			return fmt.Errorf("%w: column %q: row %d: %w", ErrCorrupt, b.cols[nd.col].leaf.DottedPath(), i, err)
		}
		out[i] = box.HasXY() && box.Ymax >= ymin && box.Ymin <= ymax && hitsX(xmin, xmax, box.Xmin, box.Xmax)
	}
	return nil
}
