package scan

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/arrowio/internal/codec"
	"github.com/quiverio/quiver/arrowio/internal/colread"
	"github.com/quiverio/quiver/arrowio/internal/page"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/arrowmem"
	"github.com/quiverio/quiver/pageindex"
)

// decompressors recycles codec state between column chunks.
var decompressors = sync.Pool{New: func() any { return new(codec.Decompressor) }}

// Group is one row group being read: a column reader per projected
// column over its column chunks, or for a filtered read the rows selected,
// decoded when the group opened.
type Group struct {
	index int
	// Rows is the number of rows the group returns: the row group's, or
	// with a filter those that satisfy it.
	Rows int64
	// MaxBatch, when not 0, is the most rows one Read should take, so
	// that string and binary values keep within int32 offsets (see
	// batchLimit).
	MaxBatch int64
	schema   *arrow.Schema
	// Readers holds the reader of each projected column; none for a
	// filtered group.
	Readers []colread.Reader
	// Buffers holds the pooled bytes of the column chunks read when the
	// group opened: none with File.ChunkReads or from a mapped file.
	Buffers [][]byte
	// mapped is the file's mapping when the chunks are slices of it.
	mapped *mapping
	// src, for File.ChunkReads, is the file to read chunks from (its bytes
	// counted as used).
	src io.ReaderAt
	// Pending, for File.ChunkReads, holds for each column the byte ranges
	// of its leaves' chunks until load reads them (nil once read).
	Pending [][]pageindex.ByteRange
	// flat, for File.ChunkReads, holds the readers of flat columns as the
	// *colread.LeafReader they are, nil for nested columns: only those
	// read their chunk page by page from the file (see load).
	flat   []*colread.LeafReader
	window int // File.Window
	// filtered holds the rows of a filtered read (filter.go), which read
	// slices from pos on; nil without a filter.
	filtered arrow.RecordBatch
	pos      int64
	// arriving, for a group whose chunks a prefetcher fetches, holds
	// them while their bytes come in; its columns' Readers stay nil until
	// load opens them.
	arriving *arriving
	// done, for a group whose chunks a prefetcher fetched, gives their
	// bytes back to its budget on Release.
	done func()
}

// Release returns the group's pooled buffers; the group is not read again.
func (g *Group) Release() {
	for _, l := range g.Readers {
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
	if g.done != nil {
		g.done()
	}
	g.Buffers, g.Readers, g.flat, g.filtered, g.done, g.arriving = nil, nil, nil, nil, nil, nil
}

// OpenGroup reads the projected column chunks of row group i, coalescing
// neighbouring chunks into single reads (or, with ChunkReads, leaves each
// to Group.load), and prepares their readers. With a filter the group's
// columns decode here (unless the statistics say every row satisfies it:
// the group is then read whole, its filter columns not decoded), on the
// calling goroutine, which holds one of sl, and on helpers for any of sl
// that are free (none when sl is nil).
func (r *File) OpenGroup(ctx context.Context, i int, sl slots) (*Group, error) {
	if r.filter != nil && !r.filter.holdsForAll(&r.Footer.Meta.RowGroups[i]) {
		return r.openFiltered(ctx, i, sl)
	}
	lg, err := r.locateGroup(i)
	if err != nil {
		return nil, err
	}
	g := r.newGroup(lg)
	if r.ChunkReads && r.mapped == nil {
		g.src, g.window = r.used, r.Window
		g.Pending, g.flat = make([][]pageindex.ByteRange, len(r.Cols)), make([]*colread.LeafReader, len(r.Cols))
	} else if err := r.readChunks(ctx, lg.chunks, lg.leaves, lg.spans, &g.Buffers); err != nil {
		g.Release()
		return nil, fmt.Errorf("row group %d: %w", i, err)
	}
	if err := r.openReaders(g, lg); err != nil {
		g.Release()
		return nil, err
	}
	return g, nil
}

// locatedGroup is the projection of one row group located in the file:
// the leaves of every projected column, in order, their chunks (without
// their bytes), the bytes each spans and the page ciphers of encrypted
// ones.
type locatedGroup struct {
	index  int
	rows   int64
	leaves []*footer.Node
	chunks []colread.Chunk
	spans  []pageindex.ByteRange
	crypts []*page.Crypt
}

// newGroup returns the group of lg, its chunks and readers still to come.
func (r *File) newGroup(lg *locatedGroup) *Group {
	rg := &r.Footer.Meta.RowGroups[lg.index]
	return &Group{index: lg.index, Rows: lg.rows, MaxBatch: batchLimit(rg, lg.leaves), schema: r.schema, mapped: r.mapped}
}

// locateGroup locates the projected chunks of row group i.
func (r *File) locateGroup(i int) (*locatedGroup, error) {
	lg := &locatedGroup{index: i, rows: r.Footer.Meta.RowGroups[i].NumRows}
	for _, col := range r.Cols {
		lg.leaves = append(lg.leaves, col.leafNodes()...)
	}
	var err error
	if lg.crypts, err = r.chunkCiphers(i, lg.leaves, lg.rows); err != nil {
		return nil, err
	}
	if lg.chunks, lg.spans, err = r.locateChunks(i, lg.leaves); err != nil {
		return nil, err
	}
	return lg, nil
}

// openReaders makes g's column readers over the chunks of lg, whose bytes
// are read unless g has ChunkReads pending.
func (r *File) openReaders(g *Group, lg *locatedGroup) error {
	g.Readers = make([]colread.Reader, len(r.Cols))
	k := 0 // the first leaf of column c
	for c, col := range r.Cols {
		n := col.numLeaves()
		l, flat, err := r.openColumn(col, lg.index, lg.chunks[k:k+n], lg.rows, lg.crypts[k:k+n])
		if err != nil {
			return err
		}
		g.Readers[c] = l
		if g.Pending != nil {
			g.Pending[c], g.flat[c] = lg.spans[k:k+n], flat
		}
		k += n
	}
	return nil
}

// load reads the column chunks of column c of a group opened with
// File.ChunkReads, one ReadAt each, into pooled buffers its reader takes
// over (and returns once it has decoded them). A local file's chunk is
// then decoded while the read left it in the processor's caches, and the
// columns of a row group pass the same few buffers on, where reading the
// whole projection up front went through memory twice. A flat column
// whose values need no decoding (colread.LeafReader.ReadsFromFile)
// instead reads its chunk page by page as it decodes, its values straight
// into their Arrow buffer.
//
// For a group a prefetcher fetches, load waits for the bytes of column c's
// own chunks and opens its reader over them.
func (g *Group) load(c int) error {
	if g.arriving != nil && g.Readers[c] == nil {
		l, err := g.arriving.open(c)
		g.Readers[c] = l
		return err
	}
	if g.Pending == nil || g.Pending[c] == nil {
		return nil
	}
	ranges := g.Pending[c]
	g.Pending[c] = nil
	if l := g.flat[c]; l != nil && l.ReadsFromFile() {
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
	g.Readers[c].AttachChunks(bufs)
	return nil
}

// Read decodes the next n rows of every projected column, on up to
// parallelism goroutines, into a record batch; the columns of a group a
// prefetcher fetches start decoding in the order their bytes arrive.
func (g *Group) Read(ctx context.Context, n, parallelism int) (arrow.RecordBatch, error) {
	if g.filtered != nil {
		return g.readFiltered(n)
	}
	cols := make([]arrow.Array, len(g.Readers))
	errs := make([]error, len(g.Readers))
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
			cols[c], err = g.Readers[c].ReadRows(n, dec)
			return err
		})
	}
	if parallelism <= 1 || len(g.Readers) == 1 {
		g.inArrivalOrder(ctx, work)
	} else {
		next := make(chan int)
		var wg sync.WaitGroup
		for range min(parallelism, len(g.Readers)) {
			wg.Go(func() {
				for c := range next {
					work(c)
				}
			})
		}
		g.inArrivalOrder(ctx, func(c int) { next <- c })
		close(next)
		wg.Wait()
	}
	defer ReleaseArrays(cols)
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return array.NewRecordBatch(g.schema, cols, int64(n)), nil
}
