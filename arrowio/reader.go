package arrowio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/quiverio/quiver/arrowio/internal/colread"

	"github.com/quiverio/quiver/arrowio/internal/page"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
)

// Reader reads a Parquet file into Arrow record batches.
//
// A Reader is safe for concurrent use by several goroutines: each call
// reads the bytes it needs with ReadAt (or slices them out of the file's
// mapping, see ReadOptions.MemoryMap) and decodes into new arrays.
type Reader struct {
	r      io.ReaderAt
	closer io.Closer // the file OpenFile opened, nil for Open
	// mapped is the file when OpenFile mapped it (ReadOptions.MemoryMap),
	// nil otherwise.
	mapped *mapping
	ft     *footer.Footer
	crypt  *encrypt.FileDecryptor // nil for files that are not encrypted
	opts   ReadOptions
	schema *arrow.Schema
	cols   []column
	groups []int // row groups RecordReader and ReadTable visit
	// padChunks reads past each chunk's declared size, for writers known
	// to understate it (see understatesChunkSize).
	padChunks bool
	// chunkReads reads each column chunk just before its column decodes,
	// into a buffer the column hands on when done, instead of the whole
	// row group's projection when the group opens (see group.load): set
	// for the local files OpenFile reads with ReadAt.
	chunkReads bool
	// window is the window size of chunks read page by page (see
	// pageIterator.attachFile); 0 for pageWindow. Tests shrink it.
	window int
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
	// nested is set for structs, lists and maps, which the levels
	// package assembles (see nested_reader.go).
	nested *colread.NestedField
}

// OpenFile opens the Parquet file at path. Close releases it.
func OpenFile(path string, opts ReadOptions) (*Reader, error) {
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
	rd.chunkReads = true
	if opts.MemoryMap && rd.crypt == nil {
		// Encrypted chunks are decrypted in place, so they are read into
		// buffers of their own.
		if b := mapFile(f, st.Size()); b != nil {
			rd.mapped = &mapping{data: b, f: f}
		}
	}
	return rd, nil
}

// Open reads the footer of the size-byte Parquet file r and prepares to
// read the columns and row groups opts selects. r must stay readable until
// Close.
//
// A malformed footer is an error wrapping footer.ErrCorrupt; an unknown
// column path or row group index is an error naming it. An encrypted file
// is decrypted with opts.Decryption (see [ReadOptions]); an encrypted
// footer without it is an error wrapping footer.ErrEncryptedFooter, and a
// footer that does not authenticate wraps encrypt.ErrAuthentication.
func Open(r io.ReaderAt, size int64, opts ReadOptions) (*Reader, error) {
	tail, err := footer.ReadTail(r, size)
	if err != nil {
		return nil, err
	}
	ft, crypt, err := encrypt.OpenFooter(tail, opts.Decryption)
	if err != nil {
		return nil, err
	}
	rd := &Reader{r: r, ft: ft, crypt: crypt, opts: opts, padChunks: page.UnderstatesChunkSize(ft.Meta.CreatedBy.Or(""))}
	if rd.schema, rd.cols, err = project(ft, &opts); err != nil {
		return nil, err
	}
	if opts.Filter != nil {
		if rd.filter, err = newRowFilter(ft, &opts, rd.cols); err != nil {
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

// Schema returns the Arrow schema of the batches the Reader returns: the
// projected columns, with types restored from the ARROW:schema metadata
// entry when the writer stored one.
func (r *Reader) Schema() *arrow.Schema { return r.schema }

// Metadata returns the file's parsed footer. It must not be modified.
func (r *Reader) Metadata() *footer.FileMetaData { return r.ft.Meta }

// NumRows returns the number of rows in the file.
func (r *Reader) NumRows() int64 { return r.ft.Meta.NumRows }

// NumRowGroups returns the number of row groups in the file.
func (r *Reader) NumRowGroups() int { return len(r.ft.Meta.RowGroups) }

// ErrClosed is returned by calls on a Reader after Close.
var ErrClosed = errors.New("arrowio: reader is closed")

// enter registers a call that reads from the file; it fails after Close.
func (r *Reader) enter() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return ErrClosed
	}
	r.active.Add(1)
	return nil
}

// Close waits for the reads in progress, RecordReaders included (it
// returns once each has been released, so release them first), and
// closes the file OpenFile opened. Closing twice is harmless.
func (r *Reader) Close() error {
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

// ReadRowGroup reads the projected columns of row group i into one record
// batch, which the caller releases.
func (r *Reader) ReadRowGroup(ctx context.Context, i int) (arrow.RecordBatch, error) {
	if err := r.enter(); err != nil {
		return nil, err
	}
	defer r.active.Done()
	if i < 0 || i >= len(r.ft.Meta.RowGroups) {
		return nil, fmt.Errorf("arrowio: row group %d of %d", i, len(r.ft.Meta.RowGroups))
	}
	sl := newSlots(r.opts.parallelism())
	sl.take()
	g, err := r.openGroup(ctx, i, sl)
	sl.give()
	if err != nil {
		return nil, err
	}
	defer g.release()
	return g.read(ctx, int(g.rows), r.opts.parallelism())
}

// leafNodes returns the Parquet leaves column c reads, in column order.
func (c *column) leafNodes() []*footer.Node {
	if c.nested == nil {
		return []*footer.Node{c.leaf}
	}
	out := make([]*footer.Node, len(c.nested.Leaves))
	for i, l := range c.nested.Leaves {
		out[i] = l.Node
	}
	return out
}
