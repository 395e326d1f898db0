package arrowio

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

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
		putBytes(b)
	}
	x.bufs = nil
}

// readPageIndex reads, in one coalesced read, the ColumnIndex of every
// predicate column and the OffsetIndex of every flat column the filtered
// read decodes. An index that lies outside the file's pages or does not
// parse is an error.
func (r *Reader) readPageIndex(ctx context.Context, rg *footer.RowGroup, i int) (*rowGroupIndex, error) {
	x := &rowGroupIndex{ci: make([]*footer.ColumnIndex, len(rg.Columns)), oi: make([]*footer.OffsetIndex, len(rg.Columns))}
	type want struct {
		leaf *footer.Node
		ci   bool
	}
	var wants []want
	var ranges []byteRange
	add := func(leaf *footer.Node, ci bool, off footer.Optional[int64], length footer.Optional[int32]) error {
		start, end, ok, err := pageindex.IndexSpan(off, length, r.ft.MetaOffset)
		if err != nil {
			return &CorruptError{Offset: off.Value, RowGroup: i, Column: leaf.DottedPath(), Page: -1, Err: fmt.Errorf("%w: %w", ErrCorrupt, err)}
		}
		if ok {
			wants = append(wants, want{leaf, ci})
			ranges = append(ranges, byteRange{start, end})
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
		if col.nested != nil || seen[col.leaf.Column] {
			continue
		}
		seen[col.leaf.Column] = true
		cc := &rg.Columns[col.leaf.Column]
		if err := add(col.leaf, false, cc.OffsetIndexOffset, cc.OffsetIndexLength); err != nil {
			return nil, err
		}
	}
	bufs, err := r.readRanges(ctx, ranges, &x.bufs)
	if err != nil {
		x.release()
		return nil, fmt.Errorf("row group %d: page index: %w", i, err)
	}
	for k, w := range wants {
		var msg footer.Message
		if w.ci {
			ci := new(footer.ColumnIndex)
			x.ci[w.leaf.Column], msg = ci, ci
		} else {
			oi := new(footer.OffsetIndex)
			x.oi[w.leaf.Column], msg = oi, oi
		}
		if _, err := footer.Unmarshal(bufs[k], msg); err != nil {
			x.release()
			return nil, &CorruptError{Offset: ranges[k].start, RowGroup: i, Column: w.leaf.DottedPath(), Page: -1, Err: fmt.Errorf("%w: page index: %w", ErrCorrupt, err)}
		}
	}
	return x, nil
}

// readColumnRanges decodes the rows of ranges of one column of row group
// gi. A flat column with an OffsetIndex reads only its dictionary and the
// data pages that overlap ranges; other columns read the whole chunk. The
// arrays do not keep the bytes read, which go back to the pool.
func (r *Reader) readColumnRanges(ctx context.Context, gi int, col column, idx *rowGroupIndex, ranges pageindex.Ranges) (arrow.Array, error) {
	rg := &r.ft.Meta.RowGroups[gi]
	n := rg.NumRows
	var buffers [][]byte
	defer func() {
		for _, b := range buffers {
			putBytes(b)
		}
	}()
	dec := decompressors.Get().(*decompressor)
	defer decompressors.Put(dec)
	if col.nested == nil {
		md := rg.Columns[col.leaf.Column].MetaData
		if oi := idx.oi[col.leaf.Column]; oi != nil && md != nil {
			if p, ok := pageindex.IndexPages(nil, oi, n); ok {
				return r.readPages(ctx, gi, md, col, oi, p.FirstRows, ranges, &buffers, dec)
			}
		}
	}
	var chunks []columnChunk
	var brs []byteRange
	for _, leaf := range col.leafNodes() {
		md := rg.Columns[leaf.Column].MetaData
		if md == nil {
			return nil, &CorruptError{Offset: -1, RowGroup: gi, Column: leaf.DottedPath(), Page: -1,
				Err: fmt.Errorf("%w: column chunk has no metadata in the footer", ErrCorrupt)}
		}
		start, length, err := chunkRange(md, r.ft.MetaOffset, r.padChunks)
		if err != nil {
			return nil, &CorruptError{Offset: md.DataPageOffset, RowGroup: gi, Column: leaf.DottedPath(), Page: -1, Err: fmt.Errorf("%w: %w", ErrCorrupt, err)}
		}
		chunks = append(chunks, columnChunk{md: md, base: start})
		brs = append(brs, byteRange{start, start + length})
	}
	bufs, err := r.readRanges(ctx, brs, &buffers)
	if err != nil {
		return nil, fmt.Errorf("row group %d: %w", gi, err)
	}
	for k := range chunks {
		chunks[k].data = bufs[k]
	}
	var l columnReader
	if col.nested == nil {
		l, err = newLeafReader(col.leaf, gi, chunks[0].md, chunks[0].data, chunks[0].base, n, col.field.Type, &r.opts, nil)
	} else {
		l, err = newNestedReader(col.nested, gi, chunks, n, &r.opts)
	}
	if err != nil {
		return nil, err
	}
	defer l.release()
	arr, err := l.readRows(int(n), dec)
	if err != nil {
		return nil, err
	}
	spans := make([]span, len(ranges))
	for k, x := range ranges {
		spans[k] = span{x.Start, x.End}
	}
	return takeSpans(arr, spans, r)
}

// readPages decodes the rows of ranges of a flat column of row group gi
// from the chunk's leading pages (its dictionary) and the data pages that
// overlap ranges, which first (the pages' first rows) and oi locate. The
// pooled buffers it reads into are appended to buffers.
func (r *Reader) readPages(ctx context.Context, gi int, md *footer.ColumnMetaData, col column, oi *footer.OffsetIndex,
	first []int64, ranges pageindex.Ranges, buffers *[][]byte, dec *decompressor) (arrow.Array, error) {
	n := r.ft.Meta.RowGroups[gi].NumRows
	start, length, err := chunkRange(md, r.ft.MetaOffset, r.padChunks)
	if err != nil {
		return nil, &CorruptError{Offset: md.DataPageOffset, RowGroup: gi, Column: col.leaf.DottedPath(), Page: -1, Err: fmt.Errorf("%w: %w", ErrCorrupt, err)}
	}
	end := start + length
	locs := oi.PageLocations
	var brs []byteRange
	if head := locs[0].Offset; head > start {
		brs = append(brs, byteRange{start, min(head, end)})
	}
	var spans []span
	var pos, rows int64 // position of the page's first row among the decoded rows; rows decoded
	k := 0              // the first range not wholly before the page
	for p, loc := range locs {
		pf, pe := first[p], n
		if p+1 < len(locs) {
			pe = first[p+1]
		}
		for k < len(ranges) && ranges[k].End <= pf {
			k++
		}
		if k == len(ranges) || ranges[k].Start >= pe {
			continue
		}
		if loc.Offset < start || loc.CompressedPageSize <= 0 || loc.Offset > end || int64(loc.CompressedPageSize) > end-loc.Offset {
			return nil, &CorruptError{Offset: loc.Offset, RowGroup: gi, Column: col.leaf.DottedPath(), Page: p,
				Err: fmt.Errorf("%w: offset index page of %d bytes at offset %d lies outside the column chunk [%d, %d)", ErrCorrupt, loc.CompressedPageSize, loc.Offset, start, end)}
		}
		if m := len(brs); m > 0 && brs[m-1].end == loc.Offset {
			brs[m-1].end += int64(loc.CompressedPageSize) // pages next to each other read as one span
		} else {
			brs = append(brs, byteRange{loc.Offset, loc.Offset + int64(loc.CompressedPageSize)})
		}
		pos = rows
		for j := k; j < len(ranges) && ranges[j].Start < pe; j++ {
			s := span{pos + max(ranges[j].Start, pf) - pf, pos + min(ranges[j].End, pe) - pf}
			if m := len(spans); m > 0 && spans[m-1].end == s.start {
				spans[m-1].end = s.end
			} else {
				spans = append(spans, s)
			}
		}
		rows += pe - pf
	}
	bufs, err := r.readRanges(ctx, brs, buffers)
	if err != nil {
		return nil, fmt.Errorf("row group %d: %w", gi, err)
	}
	var chunk []byte
	if len(bufs) == 1 {
		chunk = bufs[0]
	} else {
		var total int
		for _, b := range bufs {
			total += len(b)
		}
		chunk = getBytes(total)[:0]
		for _, b := range bufs {
			chunk = append(chunk, b...)
		}
		*buffers = append(*buffers, chunk)
	}
	l, err := newLeafReader(col.leaf, gi, md, chunk, start, rows, col.field.Type, &r.opts, nil)
	if err != nil {
		return nil, err
	}
	defer l.release()
	arr, err := l.readRows(int(rows), dec)
	if err != nil {
		return nil, err
	}
	if l.left != 0 || l.pages.pos < len(l.pages.data) {
		arr.Release()
		return nil, &CorruptError{Offset: start, RowGroup: gi, Column: col.leaf.DottedPath(), Page: -1,
			Err: fmt.Errorf("%w: the offset index's first rows disagree with the value counts of the pages it locates", ErrCorrupt)}
	}
	return takeSpans(arr, spans, r)
}
