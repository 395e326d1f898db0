package geoarrow

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// ErrInvalid reports bytes that are not a well-known binary geometry.
var ErrInvalid = errors.New("geoarrow: invalid WKB")

// maxDepth bounds the nesting of collections Scan follows.
const maxDepth = 32

// Box is a bounding box of coordinates in up to four dimensions. A
// dimension that saw no coordinate has min +Inf and max -Inf (see
// NewBox); NaN coordinates are never added, as Parquet's geospatial
// statistics ask. Xmin > Xmax (both finite) is an X range that wraps
// across the antimeridian, as Parquet writes it: only SphericalBounds
// gives one.
type Box struct {
	Xmin, Xmax, Ymin, Ymax, Zmin, Zmax, Mmin, Mmax float64
}

// NewBox returns the empty box.
func NewBox() Box {
	inf := math.Inf(1)
	return Box{inf, -inf, inf, -inf, inf, -inf, inf, -inf}
}

// HasXY reports whether the box holds any X and Y coordinate (X may
// wrap: see SphericalBounds.Box).
func (b *Box) HasXY() bool { return !math.IsInf(b.Xmin, 1) && b.Ymin <= b.Ymax }

// HasZ reports whether the box holds any Z coordinate.
func (b *Box) HasZ() bool { return b.Zmin <= b.Zmax }

// HasM reports whether the box holds any M value.
func (b *Box) HasM() bool { return b.Mmin <= b.Mmax }

// Merge widens b to cover o, two boxes whose X does not wrap.
func (b *Box) Merge(o Box) {
	b.Xmin, b.Xmax = math.Min(b.Xmin, o.Xmin), math.Max(b.Xmax, o.Xmax)
	b.Ymin, b.Ymax = math.Min(b.Ymin, o.Ymin), math.Max(b.Ymax, o.Ymax)
	b.Zmin, b.Zmax = math.Min(b.Zmin, o.Zmin), math.Max(b.Zmax, o.Zmax)
	b.Mmin, b.Mmax = math.Min(b.Mmin, o.Mmin), math.Max(b.Mmax, o.Mmax)
}

// add widens one dimension to v unless v is NaN.
func add(lo, hi *float64, v float64) {
	if v < *lo {
		*lo = v
	}
	if v > *hi {
		*hi = v
	}
}

// Scan adds the coordinates of the one WKB geometry that is all of wkb to
// box and returns its ISO WKB type code (1 to 7 for point to geometry
// collection, plus 1000 for Z, 2000 for M, 3000 for ZM). It reads ISO WKB
// and, leniently, the Z, M and SRID flags of extended WKB. Empty
// geometries (no coordinates, or a point of NaNs) add nothing.
func Scan(wkb []byte, box *Box) (int32, error) {
	return (&scanner{b: wkb, box: box}).scan()
}

// scan reads the one geometry that is all of s.b.
func (s *scanner) scan() (int32, error) {
	code, err := s.geometry(0)
	if err != nil {
		return 0, err
	}
	if len(s.b) != 0 {
		return 0, fmt.Errorf("%w: %d bytes after the geometry", ErrInvalid, len(s.b))
	}
	return code, nil
}

type scanner struct {
	b   []byte
	box *Box
	// sph, when set, takes the X and Y of each coordinate sequence
	// (SphericalBounds); box then gets Z and M only.
	sph *SphericalBounds
	ord binary.ByteOrder
}

// shape is how the points of a coordinate sequence connect.
type shape uint8

const (
	shapePoint shape = iota // a point: nothing connects
	shapeLine               // a linestring: each point to the next
	shapeRing               // a polygon ring: a closed line
)

func (s *scanner) u32() (uint32, error) {
	if len(s.b) < 4 {
		return 0, fmt.Errorf("%w: truncated", ErrInvalid)
	}
	v := s.ord.Uint32(s.b)
	s.b = s.b[4:]
	return v, nil
}

// geometry reads one geometry with its header and returns its ISO code.
func (s *scanner) geometry(depth int) (int32, error) {
	if depth > maxDepth {
		return 0, fmt.Errorf("%w: collections nested more than %d deep", ErrInvalid, maxDepth)
	}
	if len(s.b) < 1 {
		return 0, fmt.Errorf("%w: truncated", ErrInvalid)
	}
	switch s.b[0] {
	case 0:
		s.ord = binary.BigEndian
	case 1:
		s.ord = binary.LittleEndian
	default:
		return 0, fmt.Errorf("%w: byte order %d", ErrInvalid, s.b[0])
	}
	s.b = s.b[1:]
	raw, err := s.u32()
	if err != nil {
		return 0, err
	}
	z, m := raw&0x80000000 != 0, raw&0x40000000 != 0
	if raw&0x20000000 != 0 { // EWKB SRID
		if _, err := s.u32(); err != nil {
			return 0, err
		}
	}
	code := raw & 0x0fffffff
	kind, dims := code%1000, code/1000
	if dims > 3 || kind < 1 || kind > 7 || (dims != 0 && (z || m)) {
		return 0, fmt.Errorf("%w: geometry type %d", ErrInvalid, raw)
	}
	z = z || dims == 1 || dims == 3
	m = m || dims == 2 || dims == 3
	iso := int32(kind)
	switch {
	case z && m:
		iso += 3000
	case z:
		iso += 1000
	case m:
		iso += 2000
	}
	n := 2
	if z {
		n++
	}
	if m {
		n++
	}
	switch kind {
	case 1:
		return iso, s.points(1, n, z, m, shapePoint)
	case 2:
		return iso, s.counted(n, z, m, shapeLine)
	case 3:
		rings, err := s.u32()
		if err != nil {
			return 0, err
		}
		if uint64(rings)*4 > uint64(len(s.b)) {
			return 0, fmt.Errorf("%w: %d rings in %d bytes", ErrInvalid, rings, len(s.b))
		}
		for range rings {
			if err := s.counted(n, z, m, shapeRing); err != nil {
				return 0, err
			}
		}
		return iso, nil
	default:
		parts, err := s.u32()
		if err != nil {
			return 0, err
		}
		if uint64(parts)*5 > uint64(len(s.b)) {
			return 0, fmt.Errorf("%w: %d parts in %d bytes", ErrInvalid, parts, len(s.b))
		}
		ord := s.ord
		for range parts {
			if _, err := s.geometry(depth + 1); err != nil {
				return 0, err
			}
		}
		s.ord = ord
		return iso, nil
	}
}

// counted reads a point count and that many points of shape sh.
func (s *scanner) counted(n int, z, m bool, sh shape) error {
	k, err := s.u32()
	if err != nil {
		return err
	}
	return s.points(uint64(k), n, z, m, sh)
}

// points reads k points of n coordinates each, forming shape sh.
func (s *scanner) points(k uint64, n int, z, m bool, sh shape) error {
	size := k * uint64(n) * 8
	if k > uint64(len(s.b)) || size > uint64(len(s.b)) {
		return fmt.Errorf("%w: %d points of %d coordinates in %d bytes", ErrInvalid, k, n, len(s.b))
	}
	b := s.box
	p := s.b[:size]
	s.b = s.b[size:]
	if s.sph != nil {
		s.sph.sequence(p, n, s.ord, sh)
	}
	for len(p) > 0 {
		if s.sph == nil {
			add(&b.Xmin, &b.Xmax, math.Float64frombits(s.ord.Uint64(p)))
			add(&b.Ymin, &b.Ymax, math.Float64frombits(s.ord.Uint64(p[8:])))
		}
		at := 16
		if z {
			add(&b.Zmin, &b.Zmax, math.Float64frombits(s.ord.Uint64(p[at:])))
			at += 8
		}
		if m {
			add(&b.Mmin, &b.Mmax, math.Float64frombits(s.ord.Uint64(p[at:])))
			at += 8
		}
		p = p[at:]
	}
	return nil
}
