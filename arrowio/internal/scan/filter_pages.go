package scan

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/arrowio/internal/codec"
	"github.com/quiverio/quiver/arrowio/internal/colread"
	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/arrowio/internal/page"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/arrowmem"
	"github.com/quiverio/quiver/pageindex"
)

// rowGroupIndex is the parsed page index of the column chunks a filtered
// read uses, by file column; nil where a chunk has none. The ColumnIndex
// bounds alias buffers that release returns to the pool.
type rowGroupIndex struct {
	ci   []*footer.ColumnIndex
	oi   []*footer.OffsetIndex
	bufs [][]byte
}

func (x *rowGroupIndex) release() {
	for _, b := range x.bufs {
		arrowmem.PutBytes(b)
	}
	x.bufs = nil
}

// readPageIndex reads the ColumnIndex of every predicate column and the
// OffsetIndex of every leaf the filtered read decodes: from what
// fetchIndexes cached, or in one planned readRanges. An index that lies outside the file's pages or does not
// parse is an error.
func (r *File) readPageIndex(ctx context.Context, rg *footer.RowGroup, i int) (*rowGroupIndex, error) {
	x := &rowGroupIndex{ci: make([]*footer.ColumnIndex, len(rg.Columns)), oi: make([]*footer.OffsetIndex, len(rg.Columns))}
	type want struct {
		leaf *footer.Node
		ci   bool
	}
	var wants []want
	var ranges []wanted
	add := func(leaf *footer.Node, ci bool, off footer.Optional[int64], length footer.Optional[int32]) error {
		start, end, ok, err := pageindex.IndexSpan(off, length, r.Footer.MetaOffset)
		if err != nil {
			return &errs.CorruptError{Offset: off.Value, RowGroup: i, Column: leaf.DottedPath(), Page: -1, Err: fmt.Errorf("%w: %w", errs.ErrCorrupt, err)}
		}
		if ok {
			wants = append(wants, want{leaf, ci})
			ranges = append(ranges, wanted{pageindex.ByteRange{Start: start, End: end}, leaf.DottedPath()})
		}
		return nil
	}
	for _, leaf := range r.filter.bound.Leaves() {
		cc := &rg.Columns[leaf.Column]
		if err := add(leaf, true, cc.ColumnIndexOffset, cc.ColumnIndexLength); err != nil {
			return nil, err
		}
	}
	seen := make([]bool, len(rg.Columns))
	for _, col := range r.filter.cols {
		for _, leaf := range col.leafNodes() {
			if seen[leaf.Column] {
				continue
			}
			seen[leaf.Column] = true
			cc := &rg.Columns[leaf.Column]
			if err := add(leaf, false, cc.OffsetIndexOffset, cc.OffsetIndexLength); err != nil {
				return nil, err
			}
		}
	}
	bufs, ok := r.cachedRanges(ranges)
	var err error
	if !ok {
		bufs, err = r.readRanges(ctx, ranges, &x.bufs)
	}
	if err != nil {
		x.release()
		return nil, fmt.Errorf("row group %d: page index: %w", i, err)
	}
	err = r.mapped.guard(func() error {
		for k, w := range wants {
			var msg footer.Message
			t := encrypt.ModuleOffsetIndex
			if w.ci {
				ci := new(footer.ColumnIndex)
				x.ci[w.leaf.Column], msg, t = ci, ci, encrypt.ModuleColumnIndex
			} else {
				oi := new(footer.OffsetIndex)
				x.oi[w.leaf.Column], msg = oi, oi
			}
			c, err := r.indexCipher(i, w.leaf.Column)
			if err != nil {
				return fmt.Errorf("row group %d, column %q: %w", i, w.leaf.DottedPath(), err)
			}
			plain, err := encrypt.OpenModule(c, bufs[k], t)
			if err != nil {
				return r.indexError(i, w.leaf, ranges[k].Start, err)
			}
			if _, err := footer.Unmarshal(plain, msg); err != nil {
				return &errs.CorruptError{Offset: ranges[k].Start, RowGroup: i, Column: w.leaf.DottedPath(), Page: -1, Err: fmt.Errorf("%w: page index: %w", errs.ErrCorrupt, err)}
			}
		}
		return nil
	})
	if err != nil {
		x.release()
		return nil, err
	}
	return x, nil
}

// cachedRanges returns the bytes of every range of want when fetchIndexes
// cached them all.
func (r *File) cachedRanges(want []wanted) ([][]byte, bool) {
	out := make([][]byte, len(want))
	for k, w := range want {
		b, ok := r.indexes.find(w.Start, w.End-w.Start)
		if !ok {
			return nil, false
		}
		out[k] = b
	}
	return out, true
}

// columnPages is one column of a filtered read of row group gi, its
// bytes to read planned: the leaves' chunks and the bytes of each to read
// (parts, nil for whole chunks: see pagesToRead), and the rows they
// decode (cover).
type columnPages struct {
	gi     int
	col    column
	leaves []*footer.Node
	crypts []*page.Crypt
	chunks []colread.Chunk
	spans  []pageindex.ByteRange
	parts  [][]pageindex.ByteRange
	cover  pageindex.Ranges
}

// planColumnPages plans the read of the rows of ranges of column col of
// row group gi: the pages that hold them, by the OffsetIndex of idx.
func (r *File) planColumnPages(gi int, col column, idx *rowGroupIndex, ranges pageindex.Ranges) (*columnPages, error) {
	p := &columnPages{gi: gi, col: col, leaves: col.leafNodes()}
	var err error
	if p.crypts, err = r.chunkCiphers(gi, p.leaves, r.Footer.Meta.RowGroups[gi].NumRows); err != nil {
		return nil, err
	}
	if p.chunks, p.spans, err = r.locateChunks(gi, p.leaves); err != nil {
		return nil, err
	}
	if p.cover, p.parts, err = r.pagesToRead(gi, p.leaves, p.spans, p.crypts, idx, ranges); err != nil {
		return nil, err
	}
	if p.parts == nil {
		p.parts = make([][]pageindex.ByteRange, len(p.spans))
		for k, s := range p.spans {
			p.parts[k] = []pageindex.ByteRange{s}
		}
	}
	return p, nil
}

// readColumnPages reads the planned bytes of every column of cols in one
// readRanges, so that their requests share the round trips, into the
// chunks' Data; the buffers go to bufs as readRanges says.
func (r *File) readColumnPages(ctx context.Context, cols []*columnPages, bufs *[][]byte) error {
	got, err := r.readRanges(ctx, pagesWanted(cols), bufs)
	if err != nil {
		return err
	}
	return r.setPages(cols, got, bufs)
}

// pagesWanted returns the byte ranges the planned columns cols read, in
// order: the parts of each leaf's chunk, leaf after leaf.
func pagesWanted(cols []*columnPages) []wanted {
	var want []wanted
	for _, p := range cols {
		for k, parts := range p.parts {
			for _, b := range parts {
				want = append(want, wanted{b, p.leaves[k].DottedPath()})
			}
		}
	}
	return want
}

// setPages sets the Data of every planned chunk of cols to its bytes
// among got, the bytes of pagesWanted(cols) in order, joined when a chunk
// has several parts into a buffer from arrowmem.GetBytes appended to bufs.
func (r *File) setPages(cols []*columnPages, got [][]byte, bufs *[][]byte) error {
	return r.mapped.guard(func() error { // joining reads the mapping
		for _, p := range cols {
			for k, parts := range p.parts {
				p.chunks[k].Data = joinBytes(got[:len(parts)], bufs)
				got = got[len(parts):]
			}
		}
		return nil
	})
}

// decodeColumnPages decodes the rows of ranges of the column p planned
// and read, then cut down to ranges. The array does not keep the bytes
// read.
func (r *File) decodeColumnPages(p *columnPages, ranges pageindex.Ranges) (arrow.Array, error) {
	arr, err := r.decodeCover(p.gi, p.col, p.chunks, p.crypts, p.cover.Rows())
	if err != nil {
		return nil, err
	}
	return TakeRanges(arr, pageindex.Positions(p.cover, ranges), r.Options.Mem)
}

// pagesToRead returns the rows of row group gi that a column whose leaves'
// chunks span spans decodes to read ranges (cover), and the bytes of each
// leaf's chunk to read for them. When every leaf has an OffsetIndex, those
// are its leading pages (the dictionary) and the data pages that hold
// cover, which holds ranges and is the same rows for every leaf; otherwise,
// and for encrypted chunks, cover is every row and the bytes nil: the
// whole chunks.
func (r *File) pagesToRead(gi int, leaves []*footer.Node, spans []pageindex.ByteRange, crypts []*page.Crypt, idx *rowGroupIndex, ranges pageindex.Ranges) (pageindex.Ranges, [][]pageindex.ByteRange, error) {
	n := r.Footer.Meta.RowGroups[gi].NumRows
	// Encrypted pages carry their ordinal in their AAD: their chunks are
	// read whole, so that the pages decrypt in order.
	for _, pc := range crypts {
		if pc != nil {
			return pageindex.Full(n), nil, nil
		}
	}
	firsts := make([][]int64, len(leaves))
	for k, leaf := range leaves {
		oi := idx.oi[leaf.Column]
		if oi == nil {
			return pageindex.Full(n), nil, nil
		}
		p, ok := pageindex.IndexPages(nil, oi, n)
		if !ok {
			return pageindex.Full(n), nil, nil
		}
		firsts[k] = p.FirstRows
	}
	cover := pageindex.AlignToPages(ranges, firsts, n)
	if cover.Rows() == n {
		return cover, nil, nil
	}
	parts := make([][]pageindex.ByteRange, len(leaves))
	for k, leaf := range leaves {
		var err error
		if parts[k], err = pageindex.PageBytes(idx.oi[leaf.Column], firsts[k], cover, n, spans[k]); err != nil {
			return nil, nil, &errs.CorruptError{Offset: spans[k].Start, RowGroup: gi, Column: leaf.DottedPath(), Page: -1, Err: fmt.Errorf("%w: %w", errs.ErrCorrupt, err)}
		}
	}
	return cover, parts, nil
}

// decodeCover decodes the rows rows of column col in row group gi that
// chunks hold (all its rows, or the pages pagesToRead chose). A flat leaf
// that decodes some pages must use up exactly their values; pages that do
// not is an offset index that disagrees with them, a *CorruptError.
func (r *File) decodeCover(gi int, col column, chunks []colread.Chunk, crypts []*page.Crypt, rows int64) (arrow.Array, error) {
	dec := decompressors.Get().(*codec.Decompressor)
	dec.Checksums = r.Options.VerifyCRC
	defer decompressors.Put(dec)
	l, flat, err := r.openColumn(col, gi, chunks, rows, crypts)
	if err != nil {
		return nil, err
	}
	defer l.Release()
	var arr arrow.Array
	err = r.mapped.guard(func() (err error) {
		arr, err = l.ReadRows(int(rows), dec)
		return err
	})
	if err != nil {
		return nil, err
	}
	if flat != nil && rows < r.Footer.Meta.RowGroups[gi].NumRows && (flat.Left != 0 || !flat.Pages.Exhausted()) {
		arr.Release()
		return nil, &errs.CorruptError{Offset: chunks[0].Base, RowGroup: gi, Column: col.leaf.DottedPath(), Page: -1,
			Err: fmt.Errorf("%w: the offset index's first rows disagree with the value counts of the pages it locates", errs.ErrCorrupt)}
	}
	return arr, nil
}
