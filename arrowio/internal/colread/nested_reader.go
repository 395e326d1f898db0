package colread

import (
	"errors"
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/page"

	"github.com/quiverio/quiver/arrowio/internal/codec"
	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/arrowio/internal/variantcheck"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/levels"
)

// Reader reads one projected top-level field of a row group, batch after
// batch: a [LeafReader] for a flat field, a [NestedReader] for a struct,
// list or map.
type Reader interface {
	// ReadRows decodes the next n rows into a new array, decompressing
	// pages with dec.
	ReadRows(n int, dec *codec.Decompressor) (arrow.Array, error)
	// Release returns the reader's pooled buffers; it is not used again.
	Release()
	// AttachChunks gives the reader the bytes of its leaves' column
	// chunks, in leaf order, when they were not read with the row group:
	// pooled buffers it returns when it no longer needs them.
	AttachChunks(chunks [][]byte)
}

// AttachChunks sets the flat leaf's chunk (see [Reader]).
func (l *LeafReader) AttachChunks(chunks [][]byte) { l.attach(chunks[0]) }

// AttachChunks sets the chunk of each leaf (see [Reader]).
func (r *NestedReader) AttachChunks(chunks [][]byte) {
	for i, l := range r.leaves {
		l.attach(chunks[i])
	}
}

// ReadRows reads a flat column's next n rows with dec.
func (l *LeafReader) ReadRows(n int, dec *codec.Decompressor) (arrow.Array, error) {
	l.dec = dec
	dec.Checksums = l.Pages.VerifyCRC
	defer func() { l.dec = nil }()
	return l.read(n)
}

// NestedReader reads a nested top-level field of one row group: each
// leaf's levels and dense values for a batch of whole rows, assembled by
// the levels package.
type NestedReader struct {
	field    *NestedField
	asm      *levels.Assembler
	leaves   []*nestedLeaf
	mem      memory.Allocator
	rowGroup int
	cols     []levels.Column
}

// NewNestedReader prepares to read field f of row group rg, of rows rows,
// from the column chunks of its leaves.
func NewNestedReader(f *NestedField, rg int, chunks []Chunk, rows int64, opts Options) (*NestedReader, error) {
	asm, err := levels.NewAssembler(f.Node)
	if err != nil {
		return nil, fmt.Errorf("%w: column %q: %w", errs.ErrUnsupported, f.Node.Name, err)
	}
	r := &NestedReader{field: f, asm: asm, mem: opts.Mem, rowGroup: rg,
		leaves: make([]*nestedLeaf, len(f.Leaves)), cols: make([]levels.Column, len(f.Leaves))}
	for i, l := range f.Leaves {
		c := chunks[i]
		if r.leaves[i], err = newNestedLeaf(l, rg, c.Meta, c.Data, c.Base, rows, opts); err != nil {
			r.Release()
			return nil, err
		}
	}
	return r, nil
}

// Chunk is one column chunk of a row group in memory: its metadata and
// its bytes, which start at file offset Base.
type Chunk struct {
	Meta *footer.ColumnMetaData // the chunk's metadata
	Data []byte                 // the chunk's bytes, or the part of them read
	Base int64                  // the file offset of Data[0]
}

// Release returns the leaves' pooled buffers; the reader is not used
// again.
func (r *NestedReader) Release() {
	for _, l := range r.leaves {
		if l != nil {
			l.release()
		}
	}
}

// ReadRows reads the field's next n rows with dec: each leaf's levels and
// values, assembled into one array.
func (r *NestedReader) ReadRows(n int, dec *codec.Decompressor) (arrow.Array, error) {
	defer func() {
		for i, c := range r.cols {
			if c.Values != nil {
				c.Values.Release()
			}
			r.cols[i] = levels.Column{}
		}
	}()
	for i, l := range r.leaves {
		l.dec = dec
		dec.Checksums = l.Pages.VerifyCRC
		def, rep, vals, err := l.readRows(n)
		l.dec = nil
		if err != nil {
			return nil, err
		}
		r.cols[i] = levels.Column{Def: def, Rep: rep, Values: vals, Owned: true}
	}
	arr, err := r.asm.Assemble(r.mem, n, r.cols)
	if err != nil {
		if errors.Is(err, levels.ErrCorrupt) {
			return nil, &errs.CorruptError{Offset: -1, RowGroup: r.rowGroup, Column: r.field.Node.Name, Page: -1, Err: err}
		}
		return nil, fmt.Errorf("row group %d, column %q: %w: %w", r.rowGroup, r.field.Node.Name, errs.ErrUnsupported, err)
	}
	// Shredded VARIANT values must follow VariantShredding.md before anyone
	// reconstructs them (package variantcheck).
	if err := variantcheck.Check(arr); err != nil {
		arr.Release()
		return nil, &errs.CorruptError{Offset: -1, RowGroup: r.rowGroup, Column: r.field.Node.Name, Page: -1, Err: err}
	}
	return arr, nil
}

// SetPageCrypt hands each leaf of column reader l its chunk's decryption.
func SetPageCrypt(l Reader, pcs []*page.Crypt) {
	switch l := l.(type) {
	case *LeafReader:
		l.Pages.Crypt = pcs[0]
	case *NestedReader:
		for i := range l.leaves {
			l.leaves[i].Pages.Crypt = pcs[i]
		}
	}
}
