package pageindex

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/quiverio/quiver/footer"
)

// UsesBloom reports whether a bloom filter of column col (an index into
// [Bound.Leaves]) can prune anything: the predicate tests it with = or IN.
func (b *Bound) UsesBloom(col int) bool { return usesBloom(b.root, col) }

func usesBloom(nd *node, col int) bool {
	if nd.kind != nodeAnd && nd.kind != nodeOr {
		return nd.col == col && nd.hashes != nil
	}
	for _, k := range nd.kids {
		if usesBloom(k, col) {
			return true
		}
	}
	return false
}

// ChunkStats returns the statistics of a column chunk as Stats, leaving
// out what the file's writer w is known to have got wrong (see [Writer])
// and null counts that cannot be right (negative, or more than the chunk's
// values). Bounds come from min_value and max_value, or from the
// deprecated min and max when those are absent and the column's values are
// integers (DECIMALs stored in INT32 or INT64 included), FLOATs or
// DOUBLEs, which order as the signed numbers the deprecated fields were
// written in. Whether the bounds are used at all is the bound predicate's
// choice (by the column's order).
func ChunkStats(md *footer.ColumnMetaData, leaf *footer.Node, w Writer) Stats {
	st := Stats{Values: md.NumValues}
	if g := md.GeospatialStatistics; g != nil {
		st.Geo = g.Bbox
	}
	s := md.Statistics
	if s == nil {
		return st
	}
	if n, ok := s.NullCount.Get(); ok && n >= 0 && n <= md.NumValues && w.trustsNullCount(dictionaryEncoded(md)) {
		st.NullCount, st.HasNullCount = n, true
	}
	signed := signedBounds(leaf)
	switch {
	case s.MinValue != nil && s.MaxValue != nil:
		st.Min, st.Max = s.MinValue, s.MaxValue
	case s.Min != nil && s.Max != nil && signed:
		st.Min, st.Max = s.Min, s.Max
	}
	binary := leaf.Physical == footer.TypeByteArray || leaf.Physical == footer.TypeFixedLenByteArray
	if st.Min != nil && !w.trustsBounds(binary, signed, bytes.Equal(st.Min, st.Max)) {
		st.Min, st.Max = nil, nil
	}
	st.AllNull = st.HasNullCount && st.Values > 0 && st.NullCount >= st.Values
	return st
}

// dictionaryEncoded reports whether a chunk has dictionary-encoded pages.
func dictionaryEncoded(md *footer.ColumnMetaData) bool {
	if md.DictionaryPageOffset.Set {
		return true
	}
	for _, e := range md.Encodings {
		if e == footer.EncodingPlainDictionary || e == footer.EncodingRLEDictionary {
			return true
		}
	}
	return false
}

// signedBounds reports whether leaf's values order as signed numbers (or
// floats), the order the deprecated min and max and the statistics of
// writers from before column orders follow.
func signedBounds(leaf *footer.Node) bool {
	probe := &Bound{}
	if _, err := probe.column(leaf.DottedPath(), &footer.Schema{Leaves: []*footer.Node{leaf}}); err != nil {
		return false
	}
	c := &probe.cols[0]
	return c.logical != logicalFloat16 && (c.order == orderSigned || c.order == orderFloat)
}

// IndexPages returns the Pages a column chunk's ColumnIndex and
// OffsetIndex describe (ci may be nil: the pages then have no
// statistics), and false when they contradict each other or the row
// group of rows rows: page counts differ, first rows do not ascend from 0.
func IndexPages(ci *footer.ColumnIndex, oi *footer.OffsetIndex, rows int64) (Pages, bool) {
	n := len(oi.PageLocations)
	if n == 0 || oi.PageLocations[0].FirstRowIndex != 0 {
		return Pages{}, false
	}
	p := Pages{FirstRows: make([]int64, n), Stats: make([]Stats, n)}
	for i, loc := range oi.PageLocations {
		if i > 0 && loc.FirstRowIndex <= p.FirstRows[i-1] || loc.FirstRowIndex >= rows {
			return Pages{}, false
		}
		p.FirstRows[i] = loc.FirstRowIndex
	}
	if ci == nil {
		return p, true
	}
	if len(ci.NullPages) != n || len(ci.MinValues) != n || len(ci.MaxValues) != n || ci.NullCounts != nil && len(ci.NullCounts) != n {
		return Pages{}, false
	}
	for i := range n {
		st := &p.Stats[i]
		st.AllNull = ci.NullPages[i]
		if !st.AllNull {
			st.Min, st.Max = ci.MinValues[i], ci.MaxValues[i]
		}
		if ci.NullCounts != nil {
			st.NullCount, st.HasNullCount = ci.NullCounts[i], true
		}
	}
	return p, true
}

// SplitPlain splits count PLAIN-encoded values of physical type t (of
// width typeLength for FIXED_LEN_BYTE_ARRAY) in src into one slice per
// value, aliasing src, for [Stats.Distinct]. Values that run past src, a
// count that src cannot hold, or the BOOLEAN type (no dictionary holds
// it) are errors wrapping ErrCorrupt or ErrUnsupported.
func SplitPlain(t footer.Type, typeLength int32, count int, src []byte) ([][]byte, error) {
	width := 0
	switch t {
	case footer.TypeInt32, footer.TypeFloat:
		width = 4
	case footer.TypeInt64, footer.TypeDouble:
		width = 8
	case footer.TypeInt96:
		width = 12
	case footer.TypeFixedLenByteArray:
		width = int(typeLength)
		if width <= 0 {
			return nil, fmt.Errorf("%w: FIXED_LEN_BYTE_ARRAY of width %d", ErrCorrupt, typeLength)
		}
	case footer.TypeByteArray:
		width = 4 // the length prefix, at least
	default:
		return nil, fmt.Errorf("%w: PLAIN values of %s", ErrUnsupported, t)
	}
	if count < 0 || count > len(src)/width {
		return nil, fmt.Errorf("%w: %d PLAIN %s values in %d bytes", ErrCorrupt, count, t, len(src))
	}
	out := make([][]byte, count)
	at := 0
	for i := range out {
		n := width
		if t == footer.TypeByteArray {
			if len(src)-at < 4 {
				return nil, fmt.Errorf("%w: PLAIN BYTE_ARRAY value %d: length prefix at byte %d of %d", ErrCorrupt, i, at, len(src))
			}
			n = int(binary.LittleEndian.Uint32(src[at:]))
			at += 4
		}
		if n < 0 || n > len(src)-at {
			return nil, fmt.Errorf("%w: PLAIN %s value %d of %d bytes at byte %d of %d", ErrCorrupt, t, i, n, at, len(src))
		}
		out[i] = src[at : at+n : at+n]
		at += n
	}
	return out, nil
}
