package geoarrow

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"testing"
)

// wkb builds WKB values for the tests.
type wkb struct {
	b   []byte
	ord binary.AppendByteOrder
}

func newWKB(big bool) *wkb {
	if big {
		return &wkb{b: []byte{0}, ord: binary.BigEndian}
	}
	return &wkb{b: []byte{1}, ord: binary.LittleEndian}
}

func (w *wkb) u32(v uint32) *wkb { w.b = w.ord.AppendUint32(w.b, v); return w }
func (w *wkb) f(vs ...float64) *wkb {
	for _, v := range vs {
		w.b = w.ord.AppendUint64(w.b, math.Float64bits(v))
	}
	return w
}
func (w *wkb) raw(b []byte) *wkb { w.b = append(w.b, b...); return w }

// dims renders a box as "x y z m" ranges, "-" for an empty dimension.
func dims(b Box) string {
	r := func(lo, hi float64) string {
		if lo > hi {
			return "-"
		}
		return fmt.Sprint(lo, "..", hi)
	}
	return r(b.Xmin, b.Xmax) + " " + r(b.Ymin, b.Ymax) + " " + r(b.Zmin, b.Zmax) + " " + r(b.Mmin, b.Mmax)
}

func TestScan(t *testing.T) {
	nan := math.NaN()
	point := func(big bool, code uint32, c ...float64) []byte { return newWKB(big).u32(code).f(c...).b }
	line := newWKB(false).u32(2).u32(3).f(30, 10, 10, 30, 40, 40).b
	polyZ := newWKB(true).u32(1003).u32(1).u32(5).f(30, 10, 40, 40, 40, 80, 20, 40, 60, 10, 20, 30, 30, 10, 40).b
	lineM := newWKB(false).u32(2002).u32(2).f(30, 10, 300, 10, 30, 1600).b
	collection := newWKB(true).u32(3007).u32(2).
		raw(point(false, 3001, 30, 10, 40, 300)).
		raw(newWKB(false).u32(3004).u32(1).raw(point(true, 3001, -5, 2, 1, 7)).b).b
	ewkbZ := newWKB(false).u32(0x80000001|0x20000000).u32(4326).f(1, 2, 3).b
	for _, c := range []struct {
		name string
		wkb  []byte
		code int32
		dims string
	}{
		{"point", point(false, 1, 30, 10), 1, "30..30 10..10 - -"},
		{"point big endian", point(true, 1, -1.5, 2), 1, "-1.5..-1.5 2..2 - -"},
		{"empty point", point(false, 1, nan, nan), 1, "- - - -"},
		{"point with a NaN y", point(false, 1, 4, nan), 1, "4..4 - - -"},
		{"linestring", line, 2, "10..40 10..40 - -"},
		{"empty linestring", newWKB(false).u32(2).u32(0).b, 2, "- - - -"},
		{"polygon Z", polyZ, 1003, "10..40 10..40 30..80 -"},
		{"linestring M", lineM, 2002, "10..30 10..30 - 300..1600"},
		{"nested collection ZM", collection, 3007, "-5..30 2..10 1..40 7..300"},
		{"EWKB point Z with SRID", ewkbZ, 1001, "1..1 2..2 3..3 -"},
	} {
		box := NewBox()
		code, err := Scan(c.wkb, &box)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if code != c.code || dims(box) != c.dims {
			t.Errorf("%s: code %d box %s, want %d %s", c.name, code, dims(box), c.code, c.dims)
		}
	}
}

func TestScanRejects(t *testing.T) {
	deep := newWKB(false)
	for range maxDepth + 2 {
		deep.u32(7).u32(1).raw([]byte{1})
	}
	deep.u32(1).f(0, 0)
	for _, c := range []struct {
		name string
		wkb  []byte
	}{
		{"empty", nil},
		{"bad byte order", []byte{2, 1, 0, 0, 0}},
		{"truncated type", []byte{1, 1, 0}},
		{"unknown type", newWKB(false).u32(8).b},
		{"unknown dimensions", newWKB(false).u32(4001).f(0, 0).b},
		{"truncated point", newWKB(false).u32(1).f(1).b},
		{"huge point count", newWKB(false).u32(2).u32(math.MaxUint32).b},
		{"huge ring count", newWKB(false).u32(3).u32(math.MaxUint32).b},
		{"huge part count", newWKB(false).u32(7).u32(math.MaxUint32).b},
		{"trailing bytes", append(newWKB(false).u32(1).f(1, 2).b, 0)},
		{"too deep", deep.b},
	} {
		box := NewBox()
		if _, err := Scan(c.wkb, &box); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", c.name, err)
		}
	}
}

// FuzzScan feeds arbitrary bytes to Scan: an error or a result, never a
// panic, and the box stays ordered or empty in each dimension.
func FuzzScan(f *testing.F) {
	f.Add(newWKB(false).u32(1).f(30, 10).b)
	f.Add(newWKB(true).u32(1003).u32(1).u32(2).f(1, 2, 3, 4, 5, 6).b)
	f.Add(newWKB(false).u32(7).u32(2).raw(newWKB(false).u32(1).f(1, 2).b).raw(newWKB(true).u32(2).u32(1).f(3, 4).b).b)
	f.Fuzz(func(t *testing.T, b []byte) {
		box := NewBox()
		code, err := Scan(b, &box)
		if err != nil {
			return
		}
		if code%1000 < 1 || code%1000 > 7 || code/1000 > 3 {
			t.Fatalf("code %d", code)
		}
		for _, d := range [][2]float64{{box.Xmin, box.Xmax}, {box.Ymin, box.Ymax}, {box.Zmin, box.Zmax}, {box.Mmin, box.Mmax}} {
			if math.IsNaN(d[0]) || math.IsNaN(d[1]) || (d[0] > d[1] && !(math.IsInf(d[0], 1) && math.IsInf(d[1], -1))) {
				t.Fatalf("box %+v", box)
			}
		}
	})
}
