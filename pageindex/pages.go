package pageindex

import (
	"fmt"

	"github.com/quiverio/quiver/footer"
)

// A reader that decodes only some rows of a row group decodes whole
// pages: the helpers below find the pages that hold given rows (by the
// first rows an OffsetIndex gives, as [IndexPages] checks them), the rows
// those pages hold, the bytes to read for them, and where the rows asked
// for lie among the rows decoded. They append to their results in place
// rather than through Ranges.add, which costs two more allocations a call
// (go1.26.8): the compiler starts a slice that a function appends to
// itself in a stack buffer, one appended to in a method it calls on the
// heap.

// ByteRange is the half-open range [Start, End) of a file's bytes.
type ByteRange struct{ Start, End int64 }

// PageRows returns the rows of page p of a column chunk whose pages start
// at rows firstRows, in a row group of n rows: [firstRows[p],
// firstRows[p+1]), the last page ending at n.
func PageRows(firstRows []int64, p int, n int64) Range {
	if p+1 < len(firstRows) {
		return Range{firstRows[p], firstRows[p+1]}
	}
	return Range{firstRows[p], n}
}

// OverlappingPages returns, in order, the pages of a column chunk whose
// pages start at rows firstRows, in a row group of n rows, that hold rows
// of r.
func OverlappingPages(firstRows []int64, r Ranges, n int64) []int {
	var out []int
	k := 0
	for p := range firstRows {
		pr := PageRows(firstRows, p, n)
		for k < len(r) && r[k].End <= pr.Start {
			k++
		}
		if k < len(r) && r[k].Start < pr.End {
			out = append(out, p)
		}
	}
	return out
}

// AlignToPages returns the rows a column decodes to read the rows r of a
// row group of n rows, when the pages of its leaves' column chunks start
// at the rows firstRows gives (one slice per leaf): the smallest set of
// rows that holds r and that every leaf's pages tile exactly, so that
// every leaf decodes the same rows.
func AlignToPages(r Ranges, firstRows [][]int64, n int64) Ranges {
	cover := r
	for {
		next := cover
		for _, first := range firstRows {
			var pages Ranges
			for _, p := range OverlappingPages(first, cover, n) {
				pr := PageRows(first, p, n)
				if k := len(pages); k > 0 && pages[k-1].End == pr.Start {
					pages[k-1].End = pr.End
				} else {
					pages = append(pages, pr)
				}
			}
			next = Union(next, pages)
		}
		if next.Rows() == cover.Rows() { // next holds cover
			return cover
		}
		cover = next
	}
}

// PageBytes returns the byte ranges to read of a column chunk, the bytes
// chunk of the file, for the rows r of a row group of n rows: the bytes
// before its first data page (the dictionary page, when it has one) and
// the data pages oi locates that hold rows of r, adjacent ones merged.
// firstRows are the first rows of oi's pages, as [IndexPages] returns
// them. A page outside the chunk is an error wrapping ErrCorrupt.
func PageBytes(oi *footer.OffsetIndex, firstRows []int64, r Ranges, n int64, chunk ByteRange) ([]ByteRange, error) {
	var out []ByteRange
	if head := oi.PageLocations[0].Offset; head > chunk.Start {
		out = append(out, ByteRange{chunk.Start, min(head, chunk.End)})
	}
	for _, p := range OverlappingPages(firstRows, r, n) {
		loc := oi.PageLocations[p]
		if loc.Offset < chunk.Start || loc.CompressedPageSize <= 0 || loc.Offset > chunk.End || int64(loc.CompressedPageSize) > chunk.End-loc.Offset {
			return nil, fmt.Errorf("%w: offset index page %d of %d bytes at offset %d lies outside the column chunk [%d, %d)", ErrCorrupt, p, loc.CompressedPageSize, loc.Offset, chunk.Start, chunk.End)
		}
		if k := len(out); k > 0 && out[k-1].End == loc.Offset {
			out[k-1].End += int64(loc.CompressedPageSize)
		} else {
			out = append(out, ByteRange{loc.Offset, loc.Offset + int64(loc.CompressedPageSize)})
		}
	}
	return out, nil
}

// Positions returns where the rows r lie among the rows of cover, which
// holds them: their positions in an array of cover's rows, counted from
// 0 at cover's first row. [RowsAt] maps positions back to rows.
func Positions(cover, r Ranges) Ranges {
	var out Ranges
	pos, k := int64(0), 0 // cover's rows before c
	for _, c := range cover {
		for ; k < len(r) && r[k].Start < c.End; k++ {
			p := Range{pos + max(r[k].Start, c.Start) - c.Start, pos + min(r[k].End, c.End) - c.Start}
			if m := len(out); m > 0 && out[m-1].End == p.Start {
				out[m-1].End = p.End
			} else if p.Start < p.End {
				out = append(out, p)
			}
		}
		pos += c.End - c.Start
	}
	return out
}

// RowsAt returns the rows of the row group at positions among the rows of
// cover (counted from 0 at cover's first row), the inverse of
// [Positions]. Positions past cover's rows are left out.
func RowsAt(cover, positions Ranges) Ranges {
	var out Ranges
	k, pos := 0, int64(0) // cover[k] holds positions [pos, pos+its length)
	for _, s := range positions {
		for at := s.Start; at < s.End; {
			for k < len(cover) && at >= pos+cover[k].End-cover[k].Start {
				pos += cover[k].End - cover[k].Start
				k++
			}
			if k == len(cover) {
				break // past cover's rows
			}
			stop := min(s.End, pos+cover[k].End-cover[k].Start)
			lo, hi := cover[k].Start+at-pos, cover[k].Start+stop-pos
			if m := len(out); m > 0 && out[m-1].End == lo {
				out[m-1].End = hi
			} else {
				out = append(out, Range{lo, hi})
			}
			at = stop
		}
	}
	return out
}
