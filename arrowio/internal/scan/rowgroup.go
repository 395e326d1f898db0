package scan

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/quiverio/quiver/arrowio/internal/colread"

	"github.com/quiverio/quiver/arrowio/internal/page"

	"github.com/quiverio/quiver/arrowio/internal/codec"
	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/internal/arrowmem"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

// coalesceGap is the largest gap between two projected column chunks that
// one read spans rather than issuing two: reading a few unused bytes is
// cheaper than another round trip to storage.
const coalesceGap = 1 << 20

// decompressors recycles codec state between column chunks.
var decompressors = sync.Pool{New: func() any { return new(codec.Decompressor) }}

// Group is one row group being read: its projected column chunks in memory
// and a leaf reader per projected column.
type Group struct {
	index  int
	Rows   int64
	schema *arrow.Schema
	Leaves []colread.Reader // one per projected column
	// Buffers holds the pooled bytes of the column chunks.
	Buffers [][]byte
	// Mapped is the file's mapping when the chunks are slices of it.
	mapped *mapping
	// src and pending, for Reader.chunkReads: the file, and for each
	// column the byte ranges of its leaves' chunks, until load reads them.
	src     io.ReaderAt
	Pending [][]pageindex.ByteRange
	window  int // Reader.window
	// filtered holds the rows of a filtered read (filter.go), which read
	// slices from pos on; nil without a filter.
	filtered arrow.RecordBatch
	pos      int64
}

// Release returns the group's pooled buffers; the group is not read again.
func (g *Group) Release() {
	for _, l := range g.Leaves {
		if l != nil {
			l.Release()
		}
	}
	for _, b := range g.Buffers {
		arrowmem.PutBytes(b)
	}
	if g.filtered != nil {
		g.filtered.Release()
	}
	g.Buffers, g.Leaves, g.filtered = nil, nil, nil
}

// OpenGroup reads the projected column chunks of row group i, coalescing
// neighbouring chunks into single reads (or, with chunkReads, leaves each
// to group.load), and prepares their readers. With
// a filter the group's columns decode here, on the calling goroutine,
// which holds one of sl, and on helpers for any of sl that are free.
func (r *File) OpenGroup(ctx context.Context, i int, sl slots) (*Group, error) {
	if r.filter != nil {
		return r.openFiltered(ctx, i, sl)
	}
	rg := &r.Footer.Meta.RowGroups[i]
	limit := r.Footer.MetaOffset
	var leaves []*footer.Node // the leaves of every projected column, in order
	for _, col := range r.Cols {
		leaves = append(leaves, col.leafNodes()...)
	}
	crypts, err := r.chunkCiphers(i, leaves, rg.NumRows)
	if err != nil {
		return nil, err
	}
	chunks := make([]pageindex.ByteRange, len(leaves))
	for c, leaf := range leaves {
		if rg.NumRows == 0 {
			break // nothing to decode: leave the chunks unread
		}
		md := rg.Columns[leaf.Column].MetaData
		if md == nil {
			return nil, &errs.CorruptError{Offset: -1, RowGroup: i, Column: leaf.DottedPath(), Page: -1,
				Err: fmt.Errorf("%w: column chunk has no metadata in the footer", errs.ErrCorrupt)}
		}
		start, length, err := page.ChunkRange(md, limit, r.padChunks)
		if err != nil {
			return nil, &errs.CorruptError{Offset: md.DataPageOffset, RowGroup: i, Column: leaf.DottedPath(), Page: -1, Err: fmt.Errorf("%w: %w", errs.ErrCorrupt, err)}
		}
		chunks[c] = pageindex.ByteRange{Start: start, End: start + length}
	}
	g := &Group{index: i, Rows: rg.NumRows, schema: r.schema, Leaves: make([]colread.Reader, len(r.Cols)), mapped: r.Mapped}
	bufs := make([][]byte, len(chunks)) // nil until load, with chunkReads
	if r.ChunkReads && r.Mapped == nil {
		g.src, g.Pending, g.window = r.r, make([][]pageindex.ByteRange, len(r.Cols)), r.Window
	} else if bufs, err = r.readRanges(ctx, chunks, &g.Buffers); err != nil {
		g.Release()
		return nil, fmt.Errorf("row group %d: %w", i, err)
	}
	k := 0 // the first leaf of column c
	for c, col := range r.Cols {
		in := make([]colread.Chunk, 0, 1)
		first := k
		for _, leaf := range leaves[k : k+len(col.leafNodes())] {
			md := rg.Columns[leaf.Column].MetaData
			if md == nil {
				md = &footer.ColumnMetaData{} // an empty row group's chunk metadata is never used
			}
			in = append(in, colread.Chunk{Meta: md, Data: bufs[k], Base: chunks[k].Start})
			k++
		}
		var l colread.Reader
		if col.Nested == nil {
			l, err = colread.NewLeafReader(col.leaf, i, in[0].Meta, in[0].Data, in[0].Base, rg.NumRows, col.field.Type, r.leafOptions(), nil)
		} else {
			l, err = colread.NewNestedReader(col.Nested, i, in, rg.NumRows, r.leafOptions())
		}
		if err != nil {
			g.Release()
			return nil, err
		}
		colread.SetPageCrypt(l, crypts[first:k])
		g.Leaves[c] = l
		if g.Pending != nil {
			g.Pending[c] = chunks[first:k]
		}
	}
	return g, nil
}

// load reads the column chunks of column c of a group opened with
// chunkReads, one ReadAt each, into pooled buffers its reader takes over
// (and returns once it has decoded them). A local file's chunk is then
// decoded while the read left it in the processor's caches, and the
// columns of a row group pass the same few buffers on, where reading the
// whole projection up front went through memory twice. A flat column
// whose values need no decoding (leafReader.readsFromFile) instead reads
// its chunk page by page as it decodes, its values straight into their
// Arrow buffer.
func (g *Group) load(c int) error {
	if g.Pending == nil || g.Pending[c] == nil {
		return nil
	}
	ranges := g.Pending[c]
	g.Pending[c] = nil
	if l, ok := g.Leaves[c].(*colread.LeafReader); ok && l.ReadsFromFile() {
		l.Pages.AttachFile(g.src, ranges[0].Start, ranges[0].End, g.window)
		return nil
	}
	bufs := make([][]byte, len(ranges))
	for k, rg := range ranges {
		bufs[k] = arrowmem.GetBytes(int(rg.End - rg.Start))
		if err := page.ReadFull(g.src, bufs[k], rg.Start); err != nil {
			for _, b := range bufs[:k+1] {
				arrowmem.PutBytes(b)
			}
			return fmt.Errorf("row group %d: %w", g.index, err)
		}
	}
	g.Leaves[c].AttachChunks(bufs)
	return nil
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
		if r.Mapped != nil && span.End <= int64(len(r.Mapped.data)) {
			populate(r.Mapped.data, span.Start, span.End)
			buf = r.Mapped.data[span.Start:span.End:span.End]
		} else {
			buf = arrowmem.GetBytes(int(span.End - span.Start))
			*bufs = append(*bufs, buf)
			if _, err := io.ReadFull(io.NewSectionReader(r.r, span.Start, int64(len(buf))), buf); err != nil {
				return nil, fmt.Errorf("reading %d bytes at offset %d: %w", len(buf), span.Start, err)
			}
		}
		for _, k := range order[i:j] {
			out[k] = buf[ranges[k].Start-span.Start : ranges[k].End-span.Start]
		}
		i = j
	}
	return out, nil
}

// Read decodes the next n rows of every projected column, on up to
// parallelism goroutines, into a record batch.
func (g *Group) Read(ctx context.Context, n, parallelism int) (arrow.RecordBatch, error) {
	if g.filtered != nil {
		return g.readFiltered(n)
	}
	cols := make([]arrow.Array, len(g.Leaves))
	errs := make([]error, len(g.Leaves))
	work := func(c int) {
		if err := ctx.Err(); err != nil {
			errs[c] = err
			return
		}
		if err := g.load(c); err != nil {
			errs[c] = err
			return
		}
		dec := decompressors.Get().(*codec.Decompressor)
		defer decompressors.Put(dec)
		errs[c] = g.mapped.guard(func() (err error) {
			cols[c], err = g.Leaves[c].ReadRows(n, dec)
			return err
		})
	}
	if parallelism <= 1 || len(g.Leaves) == 1 {
		for c := range g.Leaves {
			work(c)
		}
	} else {
		next := make(chan int)
		var wg sync.WaitGroup
		for range min(parallelism, len(g.Leaves)) {
			wg.Go(func() {
				for c := range next {
					work(c)
				}
			})
		}
		for c := range g.Leaves {
			next <- c
		}
		close(next)
		wg.Wait()
	}
	defer func() {
		for _, a := range cols {
			if a != nil {
				a.Release()
			}
		}
	}()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return array.NewRecordBatch(g.schema, cols, int64(n)), nil
}

// leafOptions returns what the column readers take from the options.
func (r *File) leafOptions() colread.Options {
	return colread.Options{Mem: r.Options.Mem, VerifyCRC: r.Options.VerifyCRC}
}
