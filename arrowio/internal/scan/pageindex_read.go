package scan

import (
	"errors"
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

// chunkOf returns the column chunk of leaf column (a dotted path) in row
// group rg.
func (r *File) chunkOf(rg int, column string) (*footer.ColumnChunk, *footer.Node, error) {
	if rg < 0 || rg >= len(r.Footer.Meta.RowGroups) {
		return nil, nil, fmt.Errorf("arrowio: row group %d of %d", rg, len(r.Footer.Meta.RowGroups))
	}
	leaf := r.Footer.Schema.LeafByPath(column)
	if leaf == nil {
		return nil, nil, fmt.Errorf("arrowio: no leaf column %q", column)
	}
	return &r.Footer.Meta.RowGroups[rg].Columns[leaf.Column], leaf, nil
}

// PageIndex is arrowio's Reader.PageIndex.
func (r *File) PageIndex(rg int, column string) (*footer.ColumnIndex, *footer.OffsetIndex, error) {
	if err := r.enter(); err != nil {
		return nil, nil, err
	}
	defer r.active.Done()
	cc, leaf, err := r.chunkOf(rg, column)
	if err != nil {
		return nil, nil, err
	}
	ci, oi := new(footer.ColumnIndex), new(footer.OffsetIndex)
	hasCI, err := r.readIndex(rg, leaf, cc.ColumnIndexOffset, cc.ColumnIndexLength, ci, encrypt.ModuleColumnIndex)
	if err != nil {
		return nil, nil, err
	}
	hasOI, err := r.readIndex(rg, leaf, cc.OffsetIndexOffset, cc.OffsetIndexLength, oi, encrypt.ModuleOffsetIndex)
	if err != nil {
		return nil, nil, err
	}
	if !hasCI {
		ci = nil
	}
	if !hasOI {
		oi = nil
	}
	return ci, oi, nil
}

// BloomFilter is arrowio's Reader.BloomFilter.
func (r *File) BloomFilter(rg int, column string) (*pageindex.Bloom, error) {
	if err := r.enter(); err != nil {
		return nil, err
	}
	defer r.active.Done()
	cc, leaf, err := r.chunkOf(rg, column)
	if err != nil {
		return nil, err
	}
	if cc.MetaData == nil {
		return nil, nil
	}
	return r.readBloom(rg, leaf, cc.MetaData)
}

// indexError places an error reading an index or filter of leaf in row
// group rg at offset off: corrupt data becomes a *CorruptError.
func (r *File) indexError(rg int, leaf *footer.Node, off int64, err error) error {
	if errors.Is(err, pageindex.ErrCorrupt) || errors.Is(err, encrypt.ErrCorrupt) {
		return &errs.CorruptError{Offset: off, RowGroup: rg, Column: leaf.DottedPath(), Page: -1, Err: fmt.Errorf("%w: %w", errs.ErrCorrupt, err)}
	}
	return fmt.Errorf("row group %d, column %q: %w", rg, leaf.DottedPath(), err)
}
