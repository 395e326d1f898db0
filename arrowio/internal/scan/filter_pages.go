package scan

import (
	"context"
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/colread"

	"github.com/quiverio/quiver/arrowio/internal/page"

	"github.com/quiverio/quiver/arrowio/internal/codec"
	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/internal/arrowmem"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
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

// readPageIndex reads, in one coalesced read, the ColumnIndex of every
// predicate column and the OffsetIndex of every leaf the filtered read
// decodes. An index that lies outside the file's pages or does not
// parse is an error.
func (r *File) readPageIndex(ctx context.Context, rg *footer.RowGroup, i int) (*rowGroupIndex, error) {
	x := &rowGroupIndex{ci: make([]*footer.ColumnIndex, len(rg.Columns)), oi: make([]*footer.OffsetIndex, len(rg.Columns))}
	type want struct {
		leaf *footer.Node
		ci   bool
	}
	var wants []want
	var ranges []pageindex.ByteRange
	add := func(leaf *footer.Node, ci bool, off footer.Optional[int64], length footer.Optional[int32]) error {
		start, end, ok, err := pageindex.IndexSpan(off, length, r.Footer.MetaOffset)
		if err != nil {
			return &errs.CorruptError{Offset: off.Value, RowGroup: i, Column: leaf.DottedPath(), Page: -1, Err: fmt.Errorf("%w: %w", errs.ErrCorrupt, err)}
		}
		if ok {
			wants = append(wants, want{leaf, ci})
			ranges = append(ranges, pageindex.ByteRange{Start: start, End: end})
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
	bufs, err := r.readRanges(ctx, ranges, &x.bufs)
	if err != nil {
		x.release()
		return nil, fmt.Errorf("row group %d: page index: %w", i, err)
	}
	err = r.Mapped.guard(func() error {
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

// readColumnRanges decodes the rows of ranges of one column of row group
// gi. When every leaf of the column has an OffsetIndex, only the leading
// pages (the dictionary) and the data pages that cover ranges are read,
// all leaves in one coalesced read; otherwise the whole chunks are. The
// arrays do not keep the bytes read, which go back to the pool.
func (r *File) readColumnRanges(ctx context.Context, gi int, col column, idx *rowGroupIndex, ranges pageindex.Ranges) (arrow.Array, error) {
	rg := &r.Footer.Meta.RowGroups[gi]
	n := rg.NumRows
	var buffers [][]byte
	defer func() {
		for _, b := range buffers {
			arrowmem.PutBytes(b)
		}
	}()
	dec := decompressors.Get().(*codec.Decompressor)
	dec.Checksums = r.Options.VerifyCRC
	defer decompressors.Put(dec)
	leaves := col.leafNodes()
	chunks := make([]colread.Chunk, len(leaves))
	ends := make([]int64, len(leaves))
	firsts := make([][]int64, len(leaves))
	crypts, err := r.chunkCiphers(gi, leaves, n)
	if err != nil {
		return nil, err
	}
	// Encrypted pages carry their ordinal in their AAD: their chunks are
	// read whole, so that the pages decrypt in order.
	indexed := true
	for _, pc := range crypts {
		indexed = indexed && pc == nil
	}
	for k, leaf := range leaves {
		md := rg.Columns[leaf.Column].MetaData
		if md == nil {
			return nil, &errs.CorruptError{Offset: -1, RowGroup: gi, Column: leaf.DottedPath(), Page: -1,
				Err: fmt.Errorf("%w: column chunk has no metadata in the footer", errs.ErrCorrupt)}
		}
		start, length, err := page.ChunkRange(md, r.Footer.MetaOffset, r.padChunks)
		if err != nil {
			return nil, &errs.CorruptError{Offset: md.DataPageOffset, RowGroup: gi, Column: leaf.DottedPath(), Page: -1, Err: fmt.Errorf("%w: %w", errs.ErrCorrupt, err)}
		}
		chunks[k], ends[k] = colread.Chunk{Meta: md, Base: start}, start+length
		p, ok := pageindex.Pages{}, false
		if oi := idx.oi[leaf.Column]; oi != nil {
			p, ok = pageindex.IndexPages(nil, oi, n)
		}
		indexed = indexed && ok
		firsts[k] = p.FirstRows
	}
	cover := pageindex.Full(n)
	if indexed {
		cover = pageindex.AlignToPages(ranges, firsts, n)
	}
	// Each leaf's byte ranges: its whole chunk, or its leading pages and
	// the data pages within cover.
	var brs []pageindex.ByteRange
	var owner []int // the leaf of each byte range
	for k, leaf := range leaves {
		if cover.Rows() == n {
			brs, owner = append(brs, pageindex.ByteRange{Start: chunks[k].Base, End: ends[k]}), append(owner, k)
			continue
		}
		leafRanges, err := pageindex.PageBytes(idx.oi[leaf.Column], firsts[k], cover, n, pageindex.ByteRange{Start: chunks[k].Base, End: ends[k]})
		if err != nil {
			return nil, &errs.CorruptError{Offset: chunks[k].Base, RowGroup: gi, Column: leaf.DottedPath(), Page: -1, Err: fmt.Errorf("%w: %w", errs.ErrCorrupt, err)}
		}
		for _, br := range leafRanges {
			brs, owner = append(brs, br), append(owner, k)
		}
	}
	bufs, err := r.readRanges(ctx, brs, &buffers)
	if err != nil {
		return nil, fmt.Errorf("row group %d: %w", gi, err)
	}
	err = r.Mapped.guard(func() error {
		for k := range chunks {
			var parts [][]byte
			for j, b := range bufs {
				if owner[j] == k {
					parts = append(parts, b)
				}
			}
			if len(parts) == 1 {
				chunks[k].Data = parts[0]
				continue
			}
			total := 0
			for _, b := range parts {
				total += len(b)
			}
			data := arrowmem.GetBytes(total)[:0]
			for _, b := range parts {
				data = append(data, b...)
			}
			buffers = append(buffers, data)
			chunks[k].Data = data
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rows := cover.Rows()
	var l colread.Reader
	if col.Nested == nil {
		l, err = colread.NewLeafReader(col.leaf, gi, chunks[0].Meta, chunks[0].Data, chunks[0].Base, rows, col.field.Type, r.leafOptions(), nil)
	} else {
		l, err = colread.NewNestedReader(col.Nested, gi, chunks, rows, r.leafOptions())
	}
	if err != nil {
		return nil, err
	}
	defer l.Release()
	colread.SetPageCrypt(l, crypts)
	var arr arrow.Array
	err = r.Mapped.guard(func() (err error) {
		arr, err = l.ReadRows(int(rows), dec)
		return err
	})
	if err != nil {
		return nil, err
	}
	if lr, ok := l.(*colread.LeafReader); ok && rows < n && (lr.Left != 0 || !lr.Pages.Exhausted()) {
		arr.Release()
		return nil, &errs.CorruptError{Offset: chunks[0].Base, RowGroup: gi, Column: col.leaf.DottedPath(), Page: -1,
			Err: fmt.Errorf("%w: the offset index's first rows disagree with the value counts of the pages it locates", errs.ErrCorrupt)}
	}
	return TakeRanges(arr, pageindex.Positions(cover, ranges), r.Options.Mem)
}
