package pqcli

import (
	"fmt"
	"strings"

	"github.com/quiverio/quiver/footer"
)

// geospatialView is a column chunk's GeospatialStatistics as pq meta
// reports them: the bounding box (nil when absent; xmin > xmax is a box
// that wraps across the antimeridian) and the ISO WKB geometry type codes
// (empty when the writer did not know them).
type geospatialView struct {
	Bbox  *bboxView `json:"bbox,omitempty"`
	Types []int32   `json:"geospatial_types"`
}

type bboxView struct {
	Xmin float64  `json:"xmin"`
	Xmax float64  `json:"xmax"`
	Ymin float64  `json:"ymin"`
	Ymax float64  `json:"ymax"`
	Zmin *float64 `json:"zmin,omitempty"`
	Zmax *float64 `json:"zmax,omitempty"`
	Mmin *float64 `json:"mmin,omitempty"`
	Mmax *float64 `json:"mmax,omitempty"`
}

func newGeospatialView(g *footer.GeospatialStatistics) *geospatialView {
	v := &geospatialView{Types: append([]int32{}, g.GeospatialTypes...)}
	if b := g.Bbox; b != nil {
		v.Bbox = &bboxView{Xmin: b.Xmin, Xmax: b.Xmax, Ymin: b.Ymin, Ymax: b.Ymax,
			Zmin: ptr(b.Zmin), Zmax: ptr(b.Zmax), Mmin: ptr(b.Mmin), Mmax: ptr(b.Mmax)}
	}
	return v
}

// text renders the statistics on one line: "x -10..20 (wraps), y ...,
// types [1 1003]".
func (g *geospatialView) text() string {
	var parts []string
	if b := g.Bbox; b != nil {
		x := fmt.Sprintf("x %v..%v", b.Xmin, b.Xmax)
		if b.Xmin > b.Xmax {
			x += " (wraps the antimeridian)"
		}
		parts = append(parts, x, fmt.Sprintf("y %v..%v", b.Ymin, b.Ymax))
		if b.Zmin != nil && b.Zmax != nil {
			parts = append(parts, fmt.Sprintf("z %v..%v", *b.Zmin, *b.Zmax))
		}
		if b.Mmin != nil && b.Mmax != nil {
			parts = append(parts, fmt.Sprintf("m %v..%v", *b.Mmin, *b.Mmax))
		}
	} else {
		parts = append(parts, "no bbox")
	}
	types := "unknown"
	if len(g.Types) > 0 {
		types = strings.Trim(fmt.Sprint(g.Types), "[]")
	}
	return strings.Join(parts, ", ") + ", types " + types
}
