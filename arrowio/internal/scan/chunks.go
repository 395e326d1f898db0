package scan

import (
	"context"
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/colread"
	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/arrowio/internal/page"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/arrowmem"
	"github.com/quiverio/quiver/pageindex"
)

// A column's chunks are opened in three steps, which OpenGroup (every
// projected column, whole chunks) and a filtered read's planColumnPages
// (the columns a filtered row group decodes, whole chunks or only some
// pages) share: locateChunks finds each leaf's chunk from its metadata,
// readChunks reads the byte ranges wanted of each in few planned requests
// (or slices them out of the file's mapping), and openColumn hands the
// chunks to a colread reader.

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

// readChunks reads the bytes of each chunk k (of leaves[k]), spans[k],
// all in one readRanges, into its Data. The buffers read into come from
// arrowmem.GetBytes and are appended to bufs, which the caller hands back
// to arrowmem.PutBytes when it no longer needs the chunks.
func (r *File) readChunks(ctx context.Context, chunks []colread.Chunk, leaves []*footer.Node, spans []pageindex.ByteRange, bufs *[][]byte) error {
	got, err := r.readRanges(ctx, named(spans, leaves), bufs)
	if err != nil {
		return err
	}
	for k := range chunks {
		chunks[k].Data = got[k]
	}
	return nil
}

// named returns the chunk byte ranges spans of leaves as wanted ranges.
func named(spans []pageindex.ByteRange, leaves []*footer.Node) []wanted {
	want := make([]wanted, len(spans))
	for k, s := range spans {
		want[k] = wanted{s, leaves[k].DottedPath()}
	}
	return want
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
