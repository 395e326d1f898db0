package arrowio_test

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/quiverio/quiver/geoarrow"
)

// wktBounds adds the coordinates of the WKT geometry s to box (NaN left
// out per dimension, as Geospatial.md asks) and returns the ISO WKB code
// of its top-level type. It reads the WKT of the geospatial corpus, and
// is written apart from the WKB scan so that one checks the other.
func wktBounds(s string, box *geoarrow.Box) (int32, error) {
	p := &wktParser{toks: wktTokens(s)}
	code, err := p.geometry(box)
	if err == nil && len(p.toks) > 0 {
		err = fmt.Errorf("wkt %q: %q after the geometry", s, p.toks[0])
	}
	return code, err
}

// wktTokens splits WKT into words, numbers, parentheses and commas.
func wktTokens(s string) []string {
	return strings.Fields(strings.NewReplacer("(", " ( ", ")", " ) ", ",", " , ").Replace(s))
}

type wktParser struct{ toks []string }

func (p *wktParser) take() string {
	if len(p.toks) == 0 {
		return ""
	}
	t := p.toks[0]
	p.toks = p.toks[1:]
	return t
}

var wktKinds = map[string]int32{"POINT": 1, "LINESTRING": 2, "POLYGON": 3, "MULTIPOINT": 4,
	"MULTILINESTRING": 5, "MULTIPOLYGON": 6, "GEOMETRYCOLLECTION": 7}

func (p *wktParser) geometry(box *geoarrow.Box) (int32, error) {
	name := strings.ToUpper(p.take())
	kind, ok := wktKinds[name]
	if !ok {
		return 0, fmt.Errorf("wkt: geometry type %q", name)
	}
	z, m := false, false
	switch strings.ToUpper(p.toks[0]) {
	case "Z":
		z = true
	case "M":
		m = true
	case "ZM":
		z, m = true, true
	}
	if z || m {
		p.take()
	}
	code := kind
	switch {
	case z && m:
		code += 3000
	case z:
		code += 1000
	case m:
		code += 2000
	}
	if strings.EqualFold(p.toks[0], "EMPTY") {
		p.take()
		return code, nil
	}
	if p.take() != "(" {
		return 0, fmt.Errorf("wkt: %s without (", name)
	}
	if kind == 7 {
		for {
			if _, err := p.geometry(box); err != nil {
				return 0, err
			}
			if t := p.take(); t == ")" {
				return code, nil
			} else if t != "," {
				return 0, fmt.Errorf("wkt: %q in a collection", t)
			}
		}
	}
	dims := 2
	if z {
		dims++
	}
	if m {
		dims++
	}
	var coord []float64
	for depth := 1; depth > 0; {
		switch t := p.take(); t {
		case "(":
			depth++
		case ")":
			depth--
		case ",":
		case "":
			return 0, fmt.Errorf("wkt: unbalanced parentheses")
		default:
			v, err := strconv.ParseFloat(t, 64)
			if err != nil {
				return 0, fmt.Errorf("wkt: %w", err)
			}
			coord = append(coord, v)
			if len(coord) == dims {
				widen(&box.Xmin, &box.Xmax, coord[0])
				widen(&box.Ymin, &box.Ymax, coord[1])
				at := 2
				if z {
					widen(&box.Zmin, &box.Zmax, coord[at])
					at++
				}
				if m {
					widen(&box.Mmin, &box.Mmax, coord[at])
				}
				coord = coord[:0]
			}
		}
	}
	if len(coord) != 0 {
		return 0, fmt.Errorf("wkt: %d numbers left over", len(coord))
	}
	return code, nil
}

// widen extends [lo, hi] to v unless v is NaN.
func widen(lo, hi *float64, v float64) {
	if math.IsNaN(v) {
		return
	}
	*lo, *hi = math.Min(*lo, v), math.Max(*hi, v)
}
