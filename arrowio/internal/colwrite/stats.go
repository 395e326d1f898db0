package colwrite

import (
	"bytes"
	"encoding/binary"
	"math"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/float16"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/arrowmem"
	"github.com/quiverio/quiver/kernels"
	"github.com/quiverio/quiver/pageindex"
)

// statOrder is how a leaf's values compare for its min and max statistics
// (the TYPE_ORDER of the Parquet spec).
type statOrder int8

// Statistics orders.
const (
	orderNone     statOrder = iota // no defined order (INTERVAL, INT96): no min/max
	orderSigned                    // two's complement integers, booleans
	orderUnsigned                  // UINT_* integers; bytes compared unsigned, lexicographically
	orderFloat                     // FLOAT and DOUBLE: NaN left out, -0 as min and +0 as max
	orderFloat16                   // FLOAT16 (2 little-endian bytes), as orderFloat
	orderDecimal                   // big-endian two's complement bytes (DECIMAL)
)

// leafOrder returns the statistics order of leaf n.
func leafOrder(n *footer.Node) statOrder {
	lt := n.Logical()
	switch lt.Kind {
	case footer.LogicalInteger:
		if !lt.Integer.IsSigned {
			return orderUnsigned
		}
		return orderSigned
	case footer.LogicalDecimal:
		if n.Physical == footer.TypeByteArray || n.Physical == footer.TypeFixedLenByteArray {
			return orderDecimal
		}
		return orderSigned
	case footer.LogicalFloat16:
		return orderFloat16
	case footer.LogicalNone:
		if c, ok := n.Converted().Get(); ok {
			switch c {
			case footer.ConvertedUint8, footer.ConvertedUint16, footer.ConvertedUint32, footer.ConvertedUint64:
				return orderUnsigned
			case footer.ConvertedInterval:
				return orderNone
			case footer.ConvertedDecimal:
				if n.Physical == footer.TypeByteArray || n.Physical == footer.TypeFixedLenByteArray {
					return orderDecimal
				}
			}
		}
	case footer.LogicalUnrecognized, footer.LogicalVariant, footer.LogicalGeometry, footer.LogicalGeography:
		return orderNone
	}
	switch n.Physical {
	case footer.TypeBoolean, footer.TypeInt32, footer.TypeInt64:
		return orderSigned
	case footer.TypeFloat, footer.TypeDouble:
		return orderFloat
	case footer.TypeByteArray, footer.TypeFixedLenByteArray:
		return orderUnsigned
	}
	return orderNone
}

// signed reports whether o is a signed order, for which the
// deprecated min and max fields are written too, as older readers expect.
func (o statOrder) signed() bool {
	return o == orderSigned || o == orderFloat || o == orderFloat16 || o == orderDecimal
}

// fixedValue is a physical value of a fixed-width column.
type fixedValue interface {
	int32 | int64 | float32 | float64
}

// fixedStats is the min and max of a fixed-width column's values.
type fixedStats[T fixedValue] struct {
	lo, hi T
	has    bool
}

// update widens s to cover vals and returns how many of them are NaN,
// counted in the same pass as the bounds.
func (s *fixedStats[T]) update(vals []T, order statOrder) (nans int) {
	if len(vals) == 0 {
		return 0
	}
	switch v := any(vals).(type) {
	case []int32:
		if order == orderUnsigned {
			s.setUnsigned(arrowmem.Cast[uint32](v))
		} else {
			lo, hi := minMax(v)
			s.set(T(lo), T(hi))
		}
	case []int64:
		if order == orderUnsigned {
			s.setUnsigned(arrowmem.Cast[uint64](v))
		} else {
			lo, hi := minMax(v)
			s.set(T(lo), T(hi))
		}
	case []float32:
		lo, hi, n := kernels.MinMaxNaN(v)
		if n < len(v) {
			s.set(T(lo), T(hi))
		}
		return n
	case []float64:
		lo, hi, n := kernels.MinMaxNaN(v)
		if n < len(v) {
			s.set(T(lo), T(hi))
		}
		return n
	}
	return 0
}

// set widens s to [lo, hi] in T's own order.
func (s *fixedStats[T]) set(lo, hi T) {
	if !s.has {
		s.lo, s.hi, s.has = lo, hi, true
		return
	}
	s.lo, s.hi = min(s.lo, lo), max(s.hi, hi)
}

// setUnsigned widens s to cover vals compared as unsigned numbers.
func (s *fixedStats[T]) setUnsigned(vals any) {
	switch v := vals.(type) {
	case []uint32:
		lo, hi := minMax(v)
		if s.has {
			lo, hi = min(lo, uint32(int32(s.lo))), max(hi, uint32(int32(s.hi)))
		}
		s.lo, s.hi, s.has = T(int32(lo)), T(int32(hi)), true
	case []uint64:
		lo, hi := minMax(v)
		if s.has {
			lo, hi = min(lo, uint64(int64(s.lo))), max(hi, uint64(int64(s.hi)))
		}
		s.lo, s.hi, s.has = T(int64(lo)), T(int64(hi)), true
	}
}

// merge widens s to cover o.
func (s *fixedStats[T]) merge(o *fixedStats[T], order statOrder) {
	if o.has {
		pair := [2]T{o.lo, o.hi}
		s.update(pair[:], order)
	}
}

// encode sets the min and max of st, PLAIN-encoded.
func (s *fixedStats[T]) encode(st *footer.Statistics, order statOrder) {
	if !s.has || order == orderNone {
		return
	}
	lo, hi := s.lo, s.hi
	if order == orderFloat {
		// A zero bound may stand for either zero: widen it.
		if lo == 0 {
			lo = T(math.Copysign(0, -1))
		}
		if hi == 0 {
			hi = 0
		}
	}
	setMinMax(st, PlainValue(lo), PlainValue(hi), order, true, true)
}

// PlainValue returns the PLAIN encoding of one fixed-width value.
func PlainValue[T fixedValue](v T) []byte {
	switch x := any(v).(type) {
	case int32:
		return binary.LittleEndian.AppendUint32(nil, uint32(x))
	case int64:
		return binary.LittleEndian.AppendUint64(nil, uint64(x))
	case float32:
		return binary.LittleEndian.AppendUint32(nil, math.Float32bits(x))
	default:
		return binary.LittleEndian.AppendUint64(nil, math.Float64bits(any(v).(float64)))
	}
}

// setMinMax stores min and max in st, in the deprecated fields too for
// signed orders.
func setMinMax(st *footer.Statistics, lo, hi []byte, order statOrder, loExact, hiExact bool) {
	st.MinValue, st.MaxValue = lo, hi
	st.IsMinValueExact, st.IsMaxValueExact = footer.Some(loExact), footer.Some(hiExact)
	if order.signed() {
		st.Min, st.Max = lo, hi
	}
}

// minMax returns the smallest and largest of the non-empty vals.
func minMax[T int32 | int64 | uint32 | uint64](vals []T) (lo, hi T) {
	lo, hi = vals[0], vals[0]
	for _, v := range vals[1:] {
		lo = min(lo, v)
		hi = max(hi, v)
	}
	return lo, hi
}

// bytesStats is the min and max of a byte-array column's values, copied
// into buffers the stats own.
type bytesStats struct {
	lo, hi []byte
	has    bool
}

// reset forgets the bounds, keeping the buffers.
func (s *bytesStats) reset() { s.lo, s.hi, s.has = s.lo[:0], s.hi[:0], false }

// add widens s to cover v.
func (s *bytesStats) add(v []byte, order statOrder) {
	if !s.has {
		if order == orderFloat16 && isNaN16(v) {
			return
		}
		s.lo, s.hi, s.has = append(s.lo[:0], v...), append(s.hi[:0], v...), true
		return
	}
	if compareBytes(v, s.lo, order) < 0 {
		s.lo = append(s.lo[:0], v...)
	} else if compareBytes(v, s.hi, order) > 0 {
		s.hi = append(s.hi[:0], v...)
	}
}

// merge widens s to cover o.
func (s *bytesStats) merge(o *bytesStats, order statOrder) {
	if o.has {
		s.add(o.lo, order)
		s.add(o.hi, order)
	}
}

// addOffsets widens s to cover the values of offs and data. Unsigned
// order, by far the most common, has a loop of its own (scanUnsigned).
func addOffsets[O kernels.Offset](s *bytesStats, offs []O, data []byte, order statOrder) {
	if len(offs) < 2 || order == orderNone {
		return
	}
	if order != orderUnsigned {
		for i := range len(offs) - 1 {
			s.add(data[offs[i]:offs[i+1]], order)
		}
		return
	}
	_, b := scanUnsigned(nil, false, offs, data)
	b.widen(s, data)
}

// scanUnsigned returns the bounds, in unsigned order, of the values of offs
// and data (at least one), as positions in data; with plain set it also
// appends their PLAIN encoding (each behind its 4-byte length) to dst, in
// the same pass, so that each value is read once. The values must lie
// within data and be at most math.MaxInt32 bytes long each.
//
// Most values fall strictly between the bounds by the 8 bytes after the
// prefix the bounds share alone (URLs and keys share theirs): checking
// that takes two or three word loads and compares, and a value of that
// prefix that the key shows to be a new bound replaces it in place.
func scanUnsigned[O kernels.Offset](dst []byte, plain bool, offs []O, data []byte) ([]byte, prefixBounds) {
	var out []byte
	if plain {
		size := 4*(len(offs)-1) + int(offs[len(offs)-1]-offs[0])
		dst = growDoubling(dst, size)
		out = dst[len(dst):cap(dst)]
	}
	pos := 0
	var b prefixBounds
	b.set(data, int(offs[0]), int(offs[1]), int(offs[0]), int(offs[1]))
	for i := range len(offs) - 1 {
		at, end := int(offs[i]), int(offs[i+1])
		if plain {
			// Values of up to 16 (or 64) bytes move as 16 (or 64) bytes
			// whatever their length, when both slices have them: the
			// bytes past a value are overwritten by the next one or left
			// in dst's spare capacity.
			l := end - at
			binary.LittleEndian.PutUint32(out[pos:], uint32(l))
			pos += 4
			switch {
			case l <= 16 && at+16 <= len(data) && pos+16 <= len(out):
				*(*[16]byte)(out[pos : pos+16]) = *(*[16]byte)(data[at : at+16])
			case l <= 64 && at+64 <= len(data) && pos+64 <= len(out):
				to, from := (*[64]byte)(out[pos:pos+64]), (*[64]byte)(data[at:at+64])
				*(*[16]byte)(to[:16]) = *(*[16]byte)(from[:16])
				*(*[16]byte)(to[16:32]) = *(*[16]byte)(from[16:32])
				*(*[16]byte)(to[32:48]) = *(*[16]byte)(from[32:48])
				*(*[16]byte)(to[48:]) = *(*[16]byte)(from[48:])
			default:
				copy(out[pos:], data[at:end])
			}
			pos += l
		}
		if n := b.n; end-at >= n && at+n+8 <= len(data) {
			// Every word load below lies within data.
			if binary.BigEndian.Uint64(data[at:])&b.headMask == b.head && (n <= 8 || b.restMatches(data, at)) {
				if k := binary.BigEndian.Uint64(data[at+n:]) & keyMask(end-at-n); k <= b.loKey || k >= b.hiKey {
					b.byKey(data, k, at, end)
				}
				continue
			}
			b.compare(data, at, end)
			continue
		}
		b.add(data, at, end)
	}
	return dst[:len(dst)+pos], b
}

// prefixBounds are the bounds of unsigned byte strings, data[lo:loEnd]
// and data[hi:hiEnd], with the prefix they share (n bytes: head is the
// prefixKey of its first 8 and headMask the mask of those of them it
// has, tail the prefixKey of its last 8 when it has 9 to 16) and the
// prefixKey of the bytes after it in each. A value between the bounds
// has their prefix, and the keys of two values of one prefix order them
// whenever they differ.
type prefixBounds struct {
	lo, loEnd, hi, hiEnd int
	n                    int
	head, headMask, tail uint64
	loKey, hiKey         uint64
}

// set makes data[lo:loEnd] and data[hi:hiEnd] the bounds.
func (b *prefixBounds) set(data []byte, lo, loEnd, hi, hiEnd int) {
	b.lo, b.loEnd, b.hi, b.hiEnd = lo, loEnd, hi, hiEnd
	b.n = commonPrefix(data[lo:loEnd], data[hi:hiEnd])
	b.head, b.headMask = prefixKey(data, lo, min(b.n, 8)), keyMask(b.n)
	if b.n > 8 && b.n <= 16 {
		b.tail = prefixKey(data, lo+b.n-8, 8)
	}
	b.loKey = prefixKey(data, lo+b.n, loEnd-lo-b.n)
	b.hiKey = prefixKey(data, hi+b.n, hiEnd-hi-b.n)
}

// widen widens s to cover the bounds, values of data.
func (b *prefixBounds) widen(s *bytesStats, data []byte) {
	s.add(data[b.lo:b.loEnd], orderUnsigned)
	s.add(data[b.hi:b.hiEnd], orderUnsigned)
}

// add widens the bounds to cover data[at:end].
func (b *prefixBounds) add(data []byte, at, end int) {
	if b.hasPrefix(data, at, end) {
		b.byKey(data, prefixKey(data, at+b.n, end-at-b.n), at, end)
		return
	}
	b.compare(data, at, end)
}

// byKey widens the bounds to cover data[at:end], a value of their prefix
// whose bytes after it have key k. The key decides unless it equals a
// bound's; then the bytes after the prefix do. A value of the prefix
// that becomes a bound shares exactly the prefix with the other bound
// (for lo <= hi < v, the prefix of lo and v is the shorter of those of lo
// and hi, and of hi and v), so only the moved bound and its key change.
func (b *prefixBounds) byKey(data []byte, k uint64, at, end int) {
	switch {
	case k > b.loKey && k < b.hiKey, b.equal(k, at, end):
	case k < b.loKey, k == b.loKey && lessBytes(data[at+b.n:end], data[b.lo+b.n:b.loEnd]):
		b.lo, b.loEnd, b.loKey = at, end, k
	case k > b.hiKey, k == b.hiKey && lessBytes(data[b.hi+b.n:b.hiEnd], data[at+b.n:end]):
		b.hi, b.hiEnd, b.hiKey = at, end, k
	}
}

// compare widens the bounds to cover data[at:end] by comparing its bytes
// with theirs.
func (b *prefixBounds) compare(data []byte, at, end int) {
	v, lo, hi := data[at:end], data[b.lo:b.loEnd], data[b.hi:b.hiEnd]
	if lessBytes(v, lo) {
		b.set(data, at, end, b.hi, b.hiEnd)
	} else if lessBytes(hi, v) {
		b.set(data, b.lo, b.loEnd, at, end)
	}
}

// equal reports whether a value of the bounds' prefix, data[at:end] with
// key k, is one of the bounds by its key and length alone: a key holds
// all of a value's bytes after the prefix when they are at most 8. Short
// codes hit a bound (the most frequent is often the least) many times.
func (b *prefixBounds) equal(k uint64, at, end int) bool {
	n := end - at
	if n-b.n > 8 {
		return false
	}
	return k == b.loKey && n == b.loEnd-b.lo || k == b.hiKey && n == b.hiEnd-b.hi
}

// hasPrefix reports whether data[at:end] begins with the bounds' prefix.
func (b *prefixBounds) hasPrefix(data []byte, at, end int) bool {
	if end-at < b.n || prefixKey(data, at, min(b.n, 8)) != b.head {
		return false
	}
	return b.n <= 8 || string(data[at+8:at+b.n]) == string(data[b.lo+8:b.lo+b.n])
}

// restMatches reports whether the bytes of the bounds' prefix past its
// first 8 (it has more) begin data[at:] too, data holding them.
func (b *prefixBounds) restMatches(data []byte, at int) bool {
	if b.n <= 16 {
		return binary.BigEndian.Uint64(data[at+b.n-8:]) == b.tail
	}
	return string(data[at+8:at+b.n]) == string(data[b.lo+8:b.lo+b.n])
}

// keyMask returns the mask of a prefixKey's first n bytes (all of them
// for n of 8 or more).
func keyMask(n int) uint64 { return ^(^uint64(0) >> (8 * uint(n))) }

// commonPrefix returns the length of the prefix a and b share.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && binary.LittleEndian.Uint64(a[i:]) == binary.LittleEndian.Uint64(b[i:]) {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// addFixed widens s to cover the width-byte values of data, tracking the
// bounds as positions in data and copying them once.
func (s *bytesStats) addFixed(data []byte, width int, order statOrder) {
	if order == orderNone || len(data) < width {
		return
	}
	if order == orderFloat16 {
		for i := 0; i+width <= len(data); i += width {
			s.add(data[i:i+width], order)
		}
		return
	}
	// Prefix keys as in addOffsets; flipping the top bit makes unsigned key
	// order the signed order of big-endian decimals of one width.
	var flip uint64
	if order == orderDecimal {
		flip = 1 << 63
	}
	lo, hi := data[:width], data[:width]
	loKey := prefixKey(data, 0, width) ^ flip
	hiKey := loKey
	for i := width; i+width <= len(data); i += width {
		k := prefixKey(data, i, width) ^ flip
		if k > loKey && k < hiKey {
			continue
		}
		v := data[i : i+width]
		if k < loKey || k == loKey && lessFixed(v, lo, order) {
			lo, loKey = v, k
		} else if k > hiKey || k == hiKey && lessFixed(hi, v, order) {
			hi, hiKey = v, k
		}
	}
	s.add(lo, order)
	s.add(hi, order)
}

// prefixKey returns the first (up to) 8 bytes of the n-byte value at
// data[at:] as a big-endian integer, zero-padded. Keys order as their
// values do whenever they differ: a smaller key means a smaller value in
// unsigned lexicographic order; equal keys leave the order open.
func prefixKey(data []byte, at, n int) uint64 {
	if at+8 <= len(data) {
		k := binary.BigEndian.Uint64(data[at:])
		if n < 8 {
			k &^= ^uint64(0) >> (8 * n)
		}
		return k
	}
	var k uint64
	for j := range 8 {
		k <<= 8
		if j < n {
			k |= uint64(data[at+j])
		}
	}
	return k
}

// lessFixed reports whether a sorts before b, two values of one width in
// unsigned or decimal order: two's complement big-endian values of one
// width differ in sign only in their first byte.
func lessFixed(a, b []byte, order statOrder) bool {
	if order == orderDecimal && a[0] != b[0] {
		return int8(a[0]) < int8(b[0])
	}
	return lessBytes(a, b)
}

// lessBytes reports whether a sorts before b, unsigned and
// lexicographically, deciding most pairs by their first bytes.
func lessBytes(a, b []byte) bool {
	if len(a) > 0 && len(b) > 0 && a[0] != b[0] {
		return a[0] < b[0]
	}
	return bytes.Compare(a, b) < 0
}

// compareBytes compares two values of a byte-array column in order.
// NaN FLOAT16 values compare equal to everything, so they never become a
// bound once one is set.
func compareBytes(a, b []byte, order statOrder) int {
	switch order {
	case orderDecimal:
		return pageindex.CompareDecimal(a, b)
	case orderFloat16:
		x, y := float16.FromBits(binary.LittleEndian.Uint16(a)).Float32(), float16.FromBits(binary.LittleEndian.Uint16(b)).Float32()
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
	return bytes.Compare(a, b)
}

// zero16 returns v, a 2-byte FLOAT16 value, or the zero whose high byte
// is sign (0x80 for -0, 0 for +0) when v is a zero of either sign.
func zero16(v []byte, sign byte) []byte {
	if len(v) == 2 && v[0] == 0 && v[1]&0x7f == 0 {
		return []byte{0, sign}
	}
	return v
}

// isNaN16 reports whether the 2-byte FLOAT16 value v is NaN.
func isNaN16(v []byte) bool { return float16.FromBits(binary.LittleEndian.Uint16(v)).IsNaN() }

// encode sets the min and max of st, truncating unsigned byte-array bounds
// longer than truncate bytes (0: never); utf8 says the values are text,
// cut only between characters.
func (s *bytesStats) encode(st *footer.Statistics, order statOrder, truncate int, utf8Text bool) {
	if !s.has || order == orderNone {
		return
	}
	lo, hi := s.lo, s.hi
	loExact, hiExact := true, true
	if order == orderFloat16 {
		// As for FLOAT and DOUBLE, a zero bound may stand for either
		// zero: -0 as min, +0 as max.
		lo, hi = zero16(lo, 0x80), zero16(hi, 0)
	}
	if order == orderUnsigned && truncate > 0 {
		if len(lo) > truncate {
			lo, loExact = truncateMin(lo, truncate, utf8Text), false
		}
		if len(hi) > truncate {
			if t, ok := truncateMax(hi, truncate, utf8Text); ok {
				hi, hiExact = t, false
			}
		}
	}
	// The stats outlive the buffers, which the next chunk reuses.
	setMinMax(st, bytes.Clone(nonNil(lo)), bytes.Clone(nonNil(hi)), order, loExact, hiExact)
}

// nonNil returns b, or an empty non-nil slice for nil, so that an empty
// bound is written rather than left out.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// truncateMin returns a prefix of v of at most n bytes (for text, ending
// at a character boundary), a lower bound of v.
func truncateMin(v []byte, n int, text bool) []byte {
	if text && utf8.Valid(v) {
		for n > 0 && !utf8.RuneStart(v[n]) {
			n--
		}
	}
	return v[:n]
}

// truncateMax returns a value of at most n bytes (a little more for text
// whose last character grows) greater than every value with v's first n
// bytes: the prefix with its last byte (for text, character) that can be
// incremented incremented and what follows it dropped. ok is false when no
// such value exists (the prefix is all 0xff bytes, or U+10FFFF).
func truncateMax(v []byte, n int, text bool) ([]byte, bool) {
	if text && utf8.Valid(v) {
		for n > 0 && !utf8.RuneStart(v[n]) {
			n--
		}
		p := v[:n]
		for len(p) > 0 {
			r, size := utf8.DecodeLastRune(p)
			p = p[:len(p)-size]
			for r++; r <= utf8.MaxRune; r++ {
				if utf8.ValidRune(r) {
					return utf8.AppendRune(bytes.Clone(p), r), true
				}
			}
		}
		return nil, false
	}
	p := bytes.Clone(v[:n])
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] != 0xff {
			p[i]++
			return p[:i+1], true
		}
	}
	return nil, false
}

// boolStats records which boolean values a column holds.
type boolStats struct{ hasFalse, hasTrue bool }

// encode sets the min and max of st.
func (s *boolStats) encode(st *footer.Statistics) {
	if !s.hasFalse && !s.hasTrue {
		return
	}
	lo, hi := []byte{1}, []byte{0}
	if s.hasFalse {
		lo = []byte{0}
	}
	if s.hasTrue {
		hi = []byte{1}
	}
	setMinMax(st, lo, hi, orderSigned, true, true)
}
