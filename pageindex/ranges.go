package pageindex

// Range is the half-open row range [Start, End) of a row group.
type Range struct{ Start, End int64 }

// Ranges is a set of rows: sorted, disjoint, non-adjacent, non-empty
// ranges.
type Ranges []Range

// Full returns the ranges covering rows [0, n).
func Full(n int64) Ranges {
	if n <= 0 {
		return nil
	}
	return Ranges{{0, n}}
}

// Rows returns the number of rows in r.
func (r Ranges) Rows() int64 {
	var n int64
	for _, x := range r {
		n += x.End - x.Start
	}
	return n
}

// add appends [start, end) to r, which must not reach past start,
// merging it with the last range when they touch.
func (r Ranges) add(start, end int64) Ranges {
	if start >= end {
		return r
	}
	if k := len(r); k > 0 && r[k-1].End >= start {
		r[k-1].End = max(r[k-1].End, end)
		return r
	}
	return append(r, Range{start, end})
}

// Intersect returns the rows in both a and b.
func Intersect(a, b Ranges) Ranges {
	var out Ranges
	for i, j := 0, 0; i < len(a) && j < len(b); {
		out = out.add(max(a[i].Start, b[j].Start), min(a[i].End, b[j].End))
		if a[i].End < b[j].End {
			i++
		} else {
			j++
		}
	}
	return out
}

// Union returns the rows in a or b.
func Union(a, b Ranges) Ranges {
	var out Ranges
	for i, j := 0, 0; i < len(a) || j < len(b); {
		if j == len(b) || i < len(a) && a[i].Start <= b[j].Start {
			out = out.add(a[i].Start, a[i].End)
			i++
		} else {
			out = out.add(b[j].Start, b[j].End)
			j++
		}
	}
	return out
}

// Complement returns the rows of [0, n) not in r.
func Complement(r Ranges, n int64) Ranges {
	var out Ranges
	at := int64(0)
	for _, x := range r {
		out = out.add(at, min(x.Start, n))
		at = max(at, x.End)
	}
	return out.add(at, n)
}
