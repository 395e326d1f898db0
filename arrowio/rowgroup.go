package arrowio

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
)

// coalesceGap is the largest gap between two projected column chunks that
// one read spans rather than issuing two: reading a few unused bytes is
// cheaper than another round trip to storage.
const coalesceGap = 1 << 20

// decompressors recycles codec state between column chunks.
var decompressors = sync.Pool{New: func() any { return new(codec.Decompressor) }}

// group is one row group being read: its projected column chunks in memory
// and a leaf reader per projected column.
type group struct {
	index  int
	rows   int64
	schema *arrow.Schema
	leaves []colread.Reader // one per projected column
	// buffers holds the pooled bytes of the column chunks.
	buffers [][]byte
	// mapped is the file's mapping when the chunks are slices of it.
	mapped *mapping
	// src and pending, for Reader.chunkReads: the file, and for each
	// column the byte ranges of its leaves' chunks, until load reads them.
	src     io.ReaderAt
	pending [][]byteRange
	window  int // Reader.window
	// filtered holds the rows of a filtered read (filter.go), which read
	// slices from pos on; nil without a filter.
	filtered arrow.RecordBatch
	pos      int64
}

// release returns the group's pooled buffers; the group is not read again.
func (g *group) release() {
	for _, l := range g.leaves {
		if l != nil {
			l.Release()
		}
	}
	for _, b := range g.buffers {
		arrowmem.PutBytes(b)
	}
	if g.filtered != nil {
		g.filtered.Release()
	}
	g.buffers, g.leaves, g.filtered = nil, nil, nil
}

// byteRange is a span of the file to read.
type byteRange struct{ start, end int64 }

// openGroup reads the projected column chunks of row group i, coalescing
// neighbouring chunks into single reads (or, with chunkReads, leaves each
// to group.load), and prepares their readers. With
// a filter the group's columns decode here, on the calling goroutine,
// which holds one of sl, and on helpers for any of sl that are free.
func (r *Reader) openGroup(ctx context.Context, i int, sl slots) (*group, error) {
	if r.filter != nil {
		return r.openFiltered(ctx, i, sl)
	}
	rg := &r.ft.Meta.RowGroups[i]
	limit := r.ft.MetaOffset
	var leaves []*footer.Node // the leaves of every projected column, in order
	for _, col := range r.cols {
		leaves = append(leaves, col.leafNodes()...)
	}
	crypts, err := r.chunkCiphers(i, leaves, rg.NumRows)
	if err != nil {
		return nil, err
	}
	chunks := make([]byteRange, len(leaves))
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
		chunks[c] = byteRange{start, start + length}
	}
	g := &group{index: i, rows: rg.NumRows, schema: r.schema, leaves: make([]colread.Reader, len(r.cols)), mapped: r.mapped}
	bufs := make([][]byte, len(chunks)) // nil until load, with chunkReads
	if r.chunkReads && r.mapped == nil {
		g.src, g.pending, g.window = r.r, make([][]byteRange, len(r.cols)), r.window
	} else if bufs, err = r.readRanges(ctx, chunks, &g.buffers); err != nil {
		g.release()
		return nil, fmt.Errorf("row group %d: %w", i, err)
	}
	k := 0 // the first leaf of column c
	for c, col := range r.cols {
		in := make([]colread.Chunk, 0, 1)
		first := k
		for _, leaf := range leaves[k : k+len(col.leafNodes())] {
			md := rg.Columns[leaf.Column].MetaData
			if md == nil {
				md = &footer.ColumnMetaData{} // an empty row group's chunk metadata is never used
			}
			in = append(in, colread.Chunk{Meta: md, Data: bufs[k], Base: chunks[k].start})
			k++
		}
		var l colread.Reader
		if col.nested == nil {
			l, err = colread.NewLeafReader(col.leaf, i, in[0].Meta, in[0].Data, in[0].Base, rg.NumRows, col.field.Type, r.leafOptions(), nil)
		} else {
			l, err = colread.NewNestedReader(col.nested, i, in, rg.NumRows, r.leafOptions())
		}
		if err != nil {
			g.release()
			return nil, err
		}
		colread.SetPageCrypt(l, crypts[first:k])
		g.leaves[c] = l
		if g.pending != nil {
			g.pending[c] = chunks[first:k]
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
func (g *group) load(c int) error {
	if g.pending == nil || g.pending[c] == nil {
		return nil
	}
	ranges := g.pending[c]
	g.pending[c] = nil
	if l, ok := g.leaves[c].(*colread.LeafReader); ok && l.ReadsFromFile() {
		l.Pages.AttachFile(g.src, ranges[0].start, ranges[0].end, g.window)
		return nil
	}
	bufs := make([][]byte, len(ranges))
	for k, rg := range ranges {
		bufs[k] = arrowmem.GetBytes(int(rg.end - rg.start))
		if err := page.ReadFull(g.src, bufs[k], rg.start); err != nil {
			for _, b := range bufs[:k+1] {
				arrowmem.PutBytes(b)
			}
			return fmt.Errorf("row group %d: %w", g.index, err)
		}
	}
	g.leaves[c].AttachChunks(bufs)
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
func (r *Reader) readRanges(ctx context.Context, ranges []byteRange, bufs *[][]byte) ([][]byte, error) {
	order := make([]int, len(ranges))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return int(ranges[a].start - ranges[b].start) })
	out := make([][]byte, len(ranges))
	for i := 0; i < len(order); {
		span := ranges[order[i]]
		j := i + 1
		for ; j < len(order) && ranges[order[j]].start <= span.end+coalesceGap; j++ {
			span.end = max(span.end, ranges[order[j]].end)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var buf []byte
		if r.mapped != nil && span.end <= int64(len(r.mapped.data)) {
			populate(r.mapped.data, span.start, span.end)
			buf = r.mapped.data[span.start:span.end:span.end]
		} else {
			buf = arrowmem.GetBytes(int(span.end - span.start))
			*bufs = append(*bufs, buf)
			if _, err := io.ReadFull(io.NewSectionReader(r.r, span.start, int64(len(buf))), buf); err != nil {
				return nil, fmt.Errorf("reading %d bytes at offset %d: %w", len(buf), span.start, err)
			}
		}
		for _, k := range order[i:j] {
			out[k] = buf[ranges[k].start-span.start : ranges[k].end-span.start]
		}
		i = j
	}
	return out, nil
}

// read decodes the next n rows of every projected column, on up to
// parallelism goroutines, into a record batch.
func (g *group) read(ctx context.Context, n, parallelism int) (arrow.RecordBatch, error) {
	if g.filtered != nil {
		return g.readFiltered(n)
	}
	cols := make([]arrow.Array, len(g.leaves))
	errs := make([]error, len(g.leaves))
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
			cols[c], err = g.leaves[c].ReadRows(n, dec)
			return err
		})
	}
	if parallelism <= 1 || len(g.leaves) == 1 {
		for c := range g.leaves {
			work(c)
		}
	} else {
		next := make(chan int)
		var wg sync.WaitGroup
		for range min(parallelism, len(g.leaves)) {
			wg.Go(func() {
				for c := range next {
					work(c)
				}
			})
		}
		for c := range g.leaves {
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
func (r *Reader) leafOptions() colread.Options {
	return colread.Options{Mem: r.opts.allocator(), VerifyCRC: r.opts.VerifyCRC}
}
