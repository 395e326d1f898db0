package scan

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/quiverio/quiver/arrowio/internal/colread"
	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/arrowio/internal/page"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/arrowmem"
	"github.com/quiverio/quiver/pageindex"
)

// A column's chunks are opened in three steps, which OpenGroup (every
// projected column, whole chunks) and a filtered read's readColumnRanges
// (one column, whole chunks or only some pages) share: locateChunks finds
// each leaf's chunk from its metadata, readChunks reads the byte ranges
// wanted of each in few coalesced reads (or slices them out of the file's
// mapping), and openColumn hands the chunks to a colread reader.

// coalesceGap is the largest gap between two projected column chunks that
// one read spans rather than issuing two: reading a few unused bytes is
// cheaper than another round trip to storage.
const coalesceGap = 1 << 20

// locateChunks returns the column chunk of each of leaves in row group gi,
// its metadata and the file offset its bytes start at (Data is left to
// readChunks), and the bytes each spans. The chunks of an empty row group,
// of which nothing decodes, are not located: their spans are empty and a
// chunk without metadata gets empty metadata. Otherwise a chunk without
// metadata, or whose bytes lie outside the file's pages, is a
// *CorruptError.
func (r *File) locateChunks(gi int, leaves []*footer.Node) ([]colread.Chunk, []pageindex.ByteRange, error) {
	rg := &r.Footer.Meta.RowGroups[gi]
	chunks := make([]colread.Chunk, len(leaves))
	spans := make([]pageindex.ByteRange, len(leaves))
	for k, leaf := range leaves {
		md := rg.Columns[leaf.Column].MetaData
		if rg.NumRows == 0 {
			if md == nil {
				md = &footer.ColumnMetaData{}
			}
			chunks[k].Meta = md
			continue
		}
		if md == nil {
			return nil, nil, &errs.CorruptError{Offset: -1, RowGroup: gi, Column: leaf.DottedPath(), Page: -1,
				Err: fmt.Errorf("%w: column chunk has no metadata in the footer", errs.ErrCorrupt)}
		}
		start, length, err := page.ChunkRange(md, r.Footer.MetaOffset, r.padChunks)
		if err != nil {
			return nil, nil, &errs.CorruptError{Offset: md.DataPageOffset, RowGroup: gi, Column: leaf.DottedPath(), Page: -1, Err: fmt.Errorf("%w: %w", errs.ErrCorrupt, err)}
		}
		chunks[k] = colread.Chunk{Meta: md, Base: start}
		spans[k] = pageindex.ByteRange{Start: start, End: start + length}
	}
	return chunks, spans, nil
}

// readChunks reads the bytes of each chunk k, all in one readRanges, into
// its Data: the whole chunk, spans[k], when parts is nil, and otherwise
// the byte ranges parts[k], joined when there are several. The buffers
// read or joined into come from arrowmem.GetBytes and are appended to
// bufs, which the caller hands back to arrowmem.PutBytes when it no longer
// needs the chunks.
func (r *File) readChunks(ctx context.Context, chunks []colread.Chunk, spans []pageindex.ByteRange, parts [][]pageindex.ByteRange, bufs *[][]byte) error {
	if parts == nil {
		got, err := r.readRanges(ctx, spans, bufs)
		if err != nil {
			return err
		}
		for k := range chunks {
			chunks[k].Data = got[k]
		}
		return nil
	}
	var ranges []pageindex.ByteRange
	for _, p := range parts {
		ranges = append(ranges, p...)
	}
	got, err := r.readRanges(ctx, ranges, bufs)
	if err != nil {
		return err
	}
	return r.mapped.guard(func() error { // joining reads the mapping
		for k, p := range parts {
			chunks[k].Data = joinBytes(got[:len(p)], bufs)
			got = got[len(p):]
		}
		return nil
	})
}

// joinBytes returns the one slice of parts, or their bytes joined in a
// buffer from arrowmem.GetBytes that it appends to bufs.
func joinBytes(parts [][]byte, bufs *[][]byte) []byte {
	if len(parts) == 1 {
		return parts[0]
	}
	total := 0
	for _, b := range parts {
		total += len(b)
	}
	data := arrowmem.GetBytes(total)[:0]
	for _, b := range parts {
		data = append(data, b...)
	}
	*bufs = append(*bufs, data)
	return data
}

// readRanges reads every range, merging ranges less than coalesceGap
// apart into one ReadAt, and returns each range's bytes (slices of the
// merged buffers).
//
// The merged buffers come from arrowmem.GetBytes and are appended to bufs, which the
// caller hands back to arrowmem.PutBytes when it no longer needs the ranges. When
// the file is mapped the ranges are slices of the mapping, and nothing is
// appended; reads of them go through mapping.guard.
func (r *File) readRanges(ctx context.Context, ranges []pageindex.ByteRange, bufs *[][]byte) ([][]byte, error) {
	order := make([]int, len(ranges))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return int(ranges[a].Start - ranges[b].Start) })
	out := make([][]byte, len(ranges))
	for i := 0; i < len(order); {
		span := ranges[order[i]]
		j := i + 1
		for ; j < len(order) && ranges[order[j]].Start <= span.End+coalesceGap; j++ {
			span.End = max(span.End, ranges[order[j]].End)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var buf []byte
		if r.mapped != nil && span.End <= int64(len(r.mapped.data)) {
			populate(r.mapped.data, span.Start, span.End)
			buf = r.mapped.data[span.Start:span.End:span.End]
		} else {
			buf = arrowmem.GetBytes(int(span.End - span.Start))
			*bufs = append(*bufs, buf)
			if err := r.readFull(buf, span.Start); err != nil {
				return nil, err
			}
		}
		for _, k := range order[i:j] {
			out[k] = buf[ranges[k].Start-span.Start : ranges[k].End-span.Start]
		}
		i = j
	}
	return out, nil
}

// readFull fills buf from the file at offset off.
func (r *File) readFull(buf []byte, off int64) error {
	if _, err := io.ReadFull(io.NewSectionReader(r.r, off, int64(len(buf))), buf); err != nil {
		return fmt.Errorf("reading %d bytes at offset %d: %w", len(buf), off, err)
	}
	return nil
}

// openColumn returns the reader of column col in row group gi over rows
// rows of its leaves' chunks, in leaf order, their pages decrypted with
// crypts (nil for plaintext ones). A flat column's reader comes back a
// second time as the *colread.LeafReader colread made, for what only a
// flat leaf does (reading its chunk page by page, telling whether it used
// up its pages); nil for a nested column.
func (r *File) openColumn(col column, gi int, chunks []colread.Chunk, rows int64, crypts []*page.Crypt) (colread.Reader, *colread.LeafReader, error) {
	if col.Nested != nil {
		l, err := colread.NewNestedReader(col.Nested, gi, chunks, rows, r.leafOptions())
		if err != nil {
			return nil, nil, err
		}
		colread.SetPageCrypt(l, crypts)
		return l, nil, nil
	}
	c := chunks[0]
	l, err := colread.NewLeafReader(col.leaf, gi, c.Meta, c.Data, c.Base, rows, col.field.Type, r.leafOptions(), nil)
	if err != nil {
		return nil, nil, err
	}
	colread.SetPageCrypt(l, crypts)
	return l, l, nil
}

// leafOptions returns what the column readers take from the options.
func (r *File) leafOptions() colread.Options {
	return colread.Options{Mem: r.Options.Mem, VerifyCRC: r.Options.VerifyCRC}
}
