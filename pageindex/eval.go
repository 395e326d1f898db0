package pageindex

import (
	"bytes"

	"github.com/quiverio/quiver/footer"
)

// Stats is what is known of one column's values over some rows (a column
// chunk, or a page of the ColumnIndex).
type Stats struct {
	// Min and Max are PLAIN-encoded lower and upper bounds of the non-null
	// values (possibly truncated, as bounds); nil when unknown.
	Min, Max []byte
	// NullCount is the number of nulls when HasNullCount is set.
	NullCount    int64
	HasNullCount bool
	// Values is the number of values, nulls included, when known (0
	// otherwise).
	Values int64
	// AllNull says every value is null (a null page of the ColumnIndex).
	AllNull bool
	// Geo is the bounding box of a GEOMETRY or GEOGRAPHY column chunk's
	// GeospatialStatistics, nil when unknown.
	Geo *footer.BoundingBox
	// Distinct, when not nil, holds every distinct non-null value,
	// PLAIN-encoded one by one (a column chunk's dictionary page when all
	// its data pages are dictionary-encoded).
	Distinct [][]byte
}

// Pages describes what is known of one column over a row group's rows,
// page by page: FirstRows[i] is the first row of page i (ascending, the
// first 0), Stats[i] its statistics. A column chunk without a page index
// is one page with the chunk's statistics.
type Pages struct {
	FirstRows []int64
	Stats     []Stats
	// Bloom is the chunk's bloom filter, or nil.
	Bloom *Bloom
}

// Source supplies the Pages of the predicate's columns, by their index in
// [Bound.Leaves]; ok is false when nothing is known of a column.
type Source func(col int) (p Pages, ok bool)

// Ranges returns the rows of a row group of n rows that may satisfy the
// predicate, as far as src tells; rows outside them surely do not.
func (b *Bound) Ranges(src Source, n int64) Ranges {
	maybe, _ := b.ranges(b.root, src, n)
	return maybe
}

// Match evaluates the predicate against the statistics of a whole row
// group of n rows.
func (b *Bound) Match(src Source, n int64) Match {
	maybe, sure := b.ranges(b.root, src, n)
	switch {
	case len(maybe) == 0:
		return MatchNone
	case sure.Rows() == n:
		return MatchAll
	}
	return MatchSome
}

// ranges returns the rows of [0, n) that may satisfy nd and those that
// surely do.
func (b *Bound) ranges(nd *node, src Source, n int64) (maybe, sure Ranges) {
	switch nd.kind {
	case nodeAnd:
		maybe, sure = Full(n), Full(n)
		for _, k := range nd.kids {
			m, s := b.ranges(k, src, n)
			maybe, sure = Intersect(maybe, m), Intersect(sure, s)
		}
		return maybe, sure
	case nodeOr:
		for _, k := range nd.kids {
			m, s := b.ranges(k, src, n)
			maybe, sure = Union(maybe, m), Union(sure, s)
		}
		return maybe, sure
	}
	p, ok := src(nd.col)
	if !ok || len(p.FirstRows) == 0 || len(p.FirstRows) != len(p.Stats) {
		return Full(n), nil
	}
	for i, st := range p.Stats {
		start, end := min(max(p.FirstRows[i], 0), n), n
		if i+1 < len(p.FirstRows) {
			end = min(max(p.FirstRows[i+1], start), n)
		}
		m := b.matchStats(nd, &st, p.Bloom)
		if m != MatchNone {
			maybe = maybe.add(start, end)
		}
		if m == MatchAll {
			sure = sure.add(start, end)
		}
	}
	return maybe, sure
}

// anyInBloom reports whether the filter may hold one of the hashes.
func anyInBloom(f *Bloom, hashes []uint64) bool {
	for _, h := range hashes {
		if f.Check(h) {
			return true
		}
	}
	return false
}

// matchStats evaluates the leaf condition nd against st and the chunk's
// bloom filter (nil for none). A condition on values is unknown for a
// null, negated or not, so it never holds for every row when some are
// null.
func (b *Bound) matchStats(nd *node, st *Stats, bloom *Bloom) Match {
	nulls := MatchSome // whether the values hold nulls: none, some, all
	switch {
	case st.AllNull:
		nulls = MatchAll
	case st.HasNullCount && st.NullCount == 0:
		nulls = MatchNone
	case st.HasNullCount && st.Values > 0 && st.NullCount >= st.Values:
		nulls = MatchAll
	}
	switch {
	case nd.kind == nodeNull:
		return nulls
	case nd.kind == nodeNotNull:
		return MatchAll - nulls
	case nulls == MatchAll:
		return MatchNone
	}
	m := b.matchValues(nd, st, bloom)
	if nd.neg {
		m = MatchAll - m
	}
	if m == MatchAll && nulls != MatchNone {
		m = MatchSome
	}
	return m
}

// matchValues evaluates the value condition nd, leaving its negation
// aside, on the non-null values st and bloom describe.
func (b *Bound) matchValues(nd *node, st *Stats, bloom *Bloom) Match {
	if nd.kind == nodeIn && len(nd.vals) == 0 {
		return MatchNone // IN of nothing
	}
	if nd.kind == nodeIntersects {
		return matchIntersects(nd, st.Geo) // never MatchAll, so its negation prunes only boxes that miss
	}
	if bloom != nil && nd.hashes != nil && !anyInBloom(bloom, nd.hashes) {
		return MatchNone
	}
	ct := &b.cols[nd.col]
	if m, ok := matchDistinct(nd, ct, st.Distinct); ok {
		return m
	}
	if !ct.bounds {
		return MatchSome // bounds in an order compare does not follow
	}
	lo, okLo := ct.decode(st.Min)
	hi, okHi := ct.decode(st.Max)
	if st.Min == nil || st.Max == nil || !okLo || !okHi || ct.compare(lo, hi) > 0 {
		return MatchSome
	}
	var m Match
	switch nd.kind {
	case nodeCompare:
		m = ct.matchRange(nd.op, nd.vals[0], lo, hi)
	case nodeIn:
		m = MatchNone
		for _, v := range nd.vals {
			if ct.order == orderFloat && v.f != v.f {
				continue // NaN equals nothing
			}
			m = max(m, ct.matchRange(OpEq, v, lo, hi))
		}
	case nodePrefix:
		m = matchPrefix(nd.vals[0].b, lo.b, hi.b)
	}
	if ct.order == orderFloat && nd.kind == nodeCompare && nd.op == OpNotEq && m == MatchNone {
		m = MatchSome // NaN differs from every value, and bounds do not show NaNs
	}
	if nd.nan || ct.order == orderFloat && m == MatchAll {
		// NaN is left out of statistics and compares false: a page may
		// hold NaNs its bounds do not show.
		m = min(m, MatchSome)
		if nd.nan && nd.op != OpNotEq {
			m = MatchNone
		}
	}
	return m
}

// matchDistinct evaluates the value condition nd, leaving its negation
// aside, on every distinct value of a set; ok is false when there are no
// distinct values to go by or one does not decode.
func matchDistinct(nd *node, ct *colType, distinct [][]byte) (m Match, ok bool) {
	if len(distinct) == 0 {
		return MatchSome, false
	}
	some, all := false, true
	for _, raw := range distinct {
		v, ok := ct.decode(raw)
		if !ok {
			return MatchSome, false
		}
		if nd.test(ct, v) {
			some = true
		} else {
			all = false
		}
	}
	switch {
	case !some:
		return MatchNone, true
	case all:
		return MatchAll, true
	}
	return MatchSome, true
}

// matchRange evaluates "value op v" for values within [lo, hi].
func (c *colType) matchRange(op Op, v, lo, hi value) Match {
	cl, ch := c.compare(lo, v), c.compare(hi, v) // signs of lo-v, hi-v
	switch op {
	case OpEq:
		if cl > 0 || ch < 0 {
			return MatchNone
		}
		if cl == 0 && ch == 0 {
			return MatchAll
		}
	case OpNotEq:
		if cl == 0 && ch == 0 {
			return MatchNone
		}
		if cl > 0 || ch < 0 {
			return MatchAll
		}
	case OpLess:
		if cl >= 0 {
			return MatchNone
		}
		if ch < 0 {
			return MatchAll
		}
	case OpLessEq:
		if cl > 0 {
			return MatchNone
		}
		if ch <= 0 {
			return MatchAll
		}
	case OpGreater:
		if ch <= 0 {
			return MatchNone
		}
		if cl > 0 {
			return MatchAll
		}
	case OpGreaterEq:
		if ch < 0 {
			return MatchNone
		}
		if cl >= 0 {
			return MatchAll
		}
	}
	return MatchSome
}

// matchPrefix evaluates a prefix match for byte strings within [lo, hi].
func matchPrefix(p, lo, hi []byte) Match {
	if bytes.Compare(hi, p) < 0 {
		return MatchNone // every value sorts before the prefix
	}
	if next, ok := prefixEnd(p); ok && bytes.Compare(lo, next) >= 0 {
		return MatchNone // every value sorts after the strings with the prefix
	}
	if bytes.HasPrefix(lo, p) && bytes.HasPrefix(hi, p) {
		return MatchAll
	}
	return MatchSome
}

// prefixEnd returns the smallest string greater than every string with
// prefix p, and false when there is none (p is empty or all 0xff).
func prefixEnd(p []byte) ([]byte, bool) {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] != 0xff {
			out := append([]byte(nil), p[:i+1]...)
			out[i]++
			return out, true
		}
	}
	return nil, false
}
