package scan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/arrowio/internal/colread"
	"github.com/quiverio/quiver/arrowio/internal/page"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
)

// File is the read state of one open Parquet file, behind arrowio's
// Reader, whose methods of the same names call File's.
type File struct {
	// raw is the caller's source; r is raw counted in io (countedSource),
	// used the same with every byte read counted as used (usedSource).
	raw, r, used io.ReaderAt
	io           ioCounters
	// requests holds a token for each request in flight that a fetch
	// started (fetch.go), at most IOOptions.Concurrency.
	requests chan struct{}
	// indexes holds what fetchIndexes fetched for filtered reads.
	indexes indexCache
	// suffix is the footer's first read, kept (index_round.go).
	suffix suffixBytes
	closer io.Closer // the file OpenFile opened, nil for Open
	// mapped is the file when OpenFile mapped it (ReadOptions.MemoryMap),
	// nil otherwise.
	mapped *mapping
	// Footer is the file's parsed footer and schema tree.
	Footer *footer.Footer
	// Crypt decrypts the file's modules; nil for files that are not
	// encrypted.
	Crypt *encrypt.FileDecryptor
	// Options are the options the file was opened with.
	Options Options
	schema  *arrow.Schema
	// Cols are the projected top-level fields, in schema order, each with
	// the Parquet leaves it reads.
	Cols   []column
	groups []int // row groups RecordReader and ReadTable visit
	// padChunks reads past each chunk's declared size, for writers known
	// to understate it (see page.UnderstatesChunkSize).
	padChunks bool
	// ChunkReads reads each column chunk just before its column decodes,
	// into a buffer the column hands on when done, instead of the whole
	// row group's projection when the group opens (see Group.load): set
	// for the local files OpenFile reads with ReadAt.
	ChunkReads bool
	// Window is the window size of chunks read page by page (see
	// page.Iterator.AttachFile); 0 for the page package's default. Tests
	// shrink it.
	Window int
	// filter is ReadOptions.Filter bound to the file, nil without one
	// (filter.go).
	filter *rowFilter

	mu     sync.Mutex
	closed bool
	active sync.WaitGroup // calls and goroutines that use r
}

// column is one projected top-level field and the leaves it reads.
type column struct {
	field arrow.Field
	leaf  *footer.Node // a flat field's leaf
	// Nested is set for structs, lists and maps, which colread's nested
	// reader assembles with package levels.
	Nested *colread.NestedField
}

// OpenFile opens the Parquet file at path with resolved options.
func OpenFile(path string, opts Options) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	rd, err := Open(f, st.Size(), opts)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	rd.closer = f
	rd.ChunkReads = true
	if opts.MemoryMap && rd.Crypt == nil {
		// Encrypted chunks are decrypted in place, so they are read into
		// buffers of their own.
		if b := mapFile(f, st.Size()); b != nil {
			rd.mapped = &mapping{data: b, f: f}
		}
	}
	return rd, nil
}

// Open reads the footer of the size-byte file r with resolved options, or
// takes opts.Metadata for it without reading r.
func Open(r io.ReaderAt, size int64, opts Options) (*File, error) {
	rd := &File{raw: r, Options: opts, requests: make(chan struct{}, max(opts.IO.Concurrency, 1))}
	rd.r = countedSource{r, &rd.io}
	rd.used = usedSource{countedSource{r, &rd.io}}
	ft, crypt, err := rd.openFooter(size)
	if err != nil {
		return nil, err
	}
	rd.Footer, rd.Crypt, rd.padChunks = ft, crypt, page.UnderstatesChunkSize(ft.Meta.CreatedBy.Or(""))
	if crypt != nil {
		// Encrypted modules are decrypted in place (the footer's already
		// was): their bytes are never shared.
		rd.suffix = suffixBytes{}
	}
	if rd.schema, rd.Cols, err = project(ft, &opts); err != nil {
		return nil, err
	}
	if opts.Filter != nil {
		if rd.filter, err = newRowFilter(ft, &opts, rd.Cols); err != nil {
			return nil, err
		}
	}
	if opts.RowGroups == nil {
		rd.groups = make([]int, len(ft.Meta.RowGroups))
		for i := range rd.groups {
			rd.groups[i] = i
		}
	} else {
		for _, g := range opts.RowGroups {
			if g < 0 || g >= len(ft.Meta.RowGroups) {
				return nil, fmt.Errorf("arrowio: row group %d selected, the file has %d", g, len(ft.Meta.RowGroups))
			}
		}
		rd.groups = append([]int(nil), opts.RowGroups...)
	}
	return rd, nil
}

// openFooter returns the parsed footer of the size-byte file: opts.Metadata
// checked against the file's size when given, read from the file (and its
// first read kept in r.suffix) otherwise.
func (r *File) openFooter(size int64) (*footer.Footer, *encrypt.FileDecryptor, error) {
	if m := r.Options.Metadata; m != nil {
		ft, crypt, err := encrypt.OpenMetadata(m, size, r.Options.Decryption)
		if err != nil {
			return nil, nil, fmt.Errorf("arrowio: ReadOptions.Metadata: %w", err)
		}
		if crypt == nil {
			r.suffix = suffixBytes{lazy: &lazySuffix{src: r.r, start: max(size-r.Options.IO.FooterReadSize, 0), end: size}}
		}
		return ft, crypt, nil
	}
	tail, err := footer.ReadTailSize(&keepFirstRead{r: r, size: size}, size, r.Options.IO.FooterReadSize)
	if err != nil {
		return nil, nil, err
	}
	r.io.used.Add(size - tail.MetaOffset) // the metadata, its length and the magic
	return encrypt.OpenFooter(tail, r.Options.Decryption)
}

// Mapped reports whether OpenFile mapped the file into memory
// (ReadOptions.MemoryMap): column chunks are then slices of the mapping.
func (r *File) Mapped() bool { return r.mapped != nil }

// Schema is arrowio's Reader.Schema.
func (r *File) Schema() *arrow.Schema { return r.schema }

// Metadata is arrowio's Reader.Metadata.
func (r *File) Metadata() *footer.FileMetaData { return r.Footer.Meta }

// NumRows is arrowio's Reader.NumRows.
func (r *File) NumRows() int64 { return r.Footer.Meta.NumRows }

// NumRowGroups is arrowio's Reader.NumRowGroups.
func (r *File) NumRowGroups() int { return len(r.Footer.Meta.RowGroups) }

// ErrClosed is returned by calls on a Reader after Close.
var ErrClosed = errors.New("arrowio: reader is closed")

// enter registers a call that reads from the file; it fails after Close.
func (r *File) enter() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return ErrClosed
	}
	r.active.Add(1)
	return nil
}

// Close is arrowio's Reader.Close.
func (r *File) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	r.mu.Unlock()
	r.active.Wait()
	var err error
	if r.mapped != nil {
		err = unmapFile(r.mapped.data)
		r.mapped = nil
	}
	if r.closer != nil {
		err = errors.Join(err, r.closer.Close())
	}
	return err
}

// ReadRowGroup is arrowio's Reader.ReadRowGroup.
func (r *File) ReadRowGroup(ctx context.Context, i int) (arrow.RecordBatch, error) {
	if err := r.enter(); err != nil {
		return nil, err
	}
	defer r.active.Done()
	if i < 0 || i >= len(r.Footer.Meta.RowGroups) {
		return nil, fmt.Errorf("arrowio: row group %d of %d", i, len(r.Footer.Meta.RowGroups))
	}
	done, err := r.fetchIndexes(ctx, []int{i})
	if err != nil {
		return nil, err
	}
	defer done()
	pf := r.newPrefetcher(ctx, []int{i})
	defer pf.stop()
	sl := newSlots(r.Options.Parallelism)
	sl.take()
	g, err := r.openAt(ctx, pf, 0, i, sl)
	sl.give()
	if err != nil {
		return nil, err
	}
	defer g.Release()
	return g.Read(ctx, int(g.Rows), r.Options.Parallelism)
}

// openAt opens row group gi, at position pos of the groups prefetcher pf
// fetches when pf is set, and with OpenGroup otherwise.
func (r *File) openAt(ctx context.Context, pf *prefetcher, pos, gi int, sl slots) (*Group, error) {
	if pf != nil {
		return pf.open(pos, sl)
	}
	return r.OpenGroup(ctx, gi, sl)
}

// numLeaves returns the number of Parquet leaves column c reads.
func (c *column) numLeaves() int {
	if c.Nested == nil {
		return 1
	}
	return len(c.Nested.Leaves)
}

// leafNodes returns the Parquet leaves column c reads, in column order.
func (c *column) leafNodes() []*footer.Node {
	if c.Nested == nil {
		return []*footer.Node{c.leaf}
	}
	out := make([]*footer.Node, len(c.Nested.Leaves))
	for i, l := range c.Nested.Leaves {
		out[i] = l.Node
	}
	return out
}
