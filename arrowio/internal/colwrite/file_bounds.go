package colwrite

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math"
	"unicode/utf8"

	"github.com/quiverio/quiver/footer"
)

// FileBounds is the least minimum and the greatest maximum of a leaf's
// values over the column chunks of a file, from the chunks' statistics
// (PLAIN-encoded, as Statistics.MinValue holds them). Known is false when
// a chunk holding values other than nulls and NaNs had no minimum or
// maximum (its statistics were off, or the leaf has no defined order):
// then no bound holds for the file.
type FileBounds struct {
	Lower, Upper []byte
	Has          bool // Lower and Upper are set
	Known        bool // no chunk with values went without bounds
}

// NewFileBounds returns the bounds of a file with no chunk yet.
func NewFileBounds() FileBounds { return FileBounds{Known: true} }

// Widen widens b by the finished chunk's statistics st (nil when it has
// none); ordered says how many of the chunk's values are neither null
// nor NaN, the values its minimum and maximum must cover.
func (c *Writer) Widen(b *FileBounds, st *footer.Statistics, ordered int64) {
	if ordered == 0 || !b.Known {
		return
	}
	if st == nil || st.MinValue == nil || st.MaxValue == nil || c.order == orderNone {
		*b = FileBounds{}
		return
	}
	if !b.Has || c.compare(st.MinValue, b.Lower) < 0 {
		b.Lower = bytes.Clone(st.MinValue)
	}
	if !b.Has || c.compare(st.MaxValue, b.Upper) > 0 {
		b.Upper = bytes.Clone(st.MaxValue)
	}
	b.Has = true
}

// compare compares two PLAIN-encoded statistics values of the leaf in its
// order.
func (c *Writer) compare(a, b []byte) int {
	switch c.node.Physical {
	case footer.TypeBoolean:
		return int(a[0]) - int(b[0])
	case footer.TypeInt32:
		x, y := binary.LittleEndian.Uint32(a), binary.LittleEndian.Uint32(b)
		if c.order == orderUnsigned {
			return cmp.Compare(x, y)
		}
		return cmp.Compare(int32(x), int32(y))
	case footer.TypeInt64:
		x, y := binary.LittleEndian.Uint64(a), binary.LittleEndian.Uint64(b)
		if c.order == orderUnsigned {
			return cmp.Compare(x, y)
		}
		return cmp.Compare(int64(x), int64(y))
	case footer.TypeFloat:
		return cmp.Compare(math.Float32frombits(binary.LittleEndian.Uint32(a)), math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case footer.TypeDouble:
		return cmp.Compare(math.Float64frombits(binary.LittleEndian.Uint64(a)), math.Float64frombits(binary.LittleEndian.Uint64(b)))
	}
	return compareBytes(a, b, c.order)
}

// Truncate returns b's bounds truncated to n, as Iceberg's truncate(n)
// metrics mode does, for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY leaves
// compared as unsigned bytes: text keeps its first n characters (code
// points) and other bytes their first n bytes; the upper bound then has
// its last character or byte that can be incremented incremented and what
// follows it dropped, and hasUpper is false when none can. Other leaves'
// bounds are returned as they are.
func (c *Writer) Truncate(b FileBounds, n int) (lower, upper []byte, hasUpper bool) {
	if !b.Has {
		return nil, nil, false
	}
	if c.order != orderUnsigned || (c.node.Physical != footer.TypeByteArray && c.node.Physical != footer.TypeFixedLenByteArray) {
		return b.Lower, b.Upper, true
	}
	text := isText(c.node)
	lower = b.Lower[:prefixLen(b.Lower, n, text)]
	k := prefixLen(b.Upper, n, text)
	if k == len(b.Upper) {
		return lower, b.Upper, true
	}
	if text && utf8.Valid(b.Upper) {
		upper, hasUpper = truncateMax(b.Upper, k, true)
		return lower, upper, hasUpper
	}
	upper, hasUpper = truncateMax(b.Upper, k, false)
	return lower, upper, hasUpper
}

// prefixLen returns the bytes of v's first n characters (text that is
// valid UTF-8) or bytes.
func prefixLen(v []byte, n int, text bool) int {
	if !text || !utf8.Valid(v) {
		return min(n, len(v))
	}
	at := 0
	for range n {
		if at == len(v) {
			break
		}
		_, size := utf8.DecodeRune(v[at:])
		at += size
	}
	return at
}
