package arrowio

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/quiverio/quiver/arrowio/internal/colwrite"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/levels"
)

// sizeCheckRows is the fewest rows between two looks at the size of the
// row group being filled, and the unit of the distance between them. The
// looks fall at row counts that only the row group's contents decide, so
// they fall alike however the batches split the rows.
const sizeCheckRows = 1024

// rowGroupState is where the row group being filled stands.
type rowGroupState struct {
	open bool
	rows int64 // rows added so far
	// next is the row count at which to look at the row group again: its
	// row limit, or the next size check.
	next int64
}

// maxRows returns the row limit of a row group.
func (w *Writer) maxRows() int64 { return positiveOr64(w.opts.MaxRowGroupRows, DefaultMaxRowGroupRows) }

// maxBytes returns the byte limit of a row group, math.MaxInt64 for none.
func (w *Writer) maxBytes() int64 {
	switch b := w.opts.MaxRowGroupBytes; {
	case b < 0:
		return math.MaxInt64
	case b == 0:
		return DefaultMaxRowGroupBytes
	default:
		return b
	}
}

// positiveOr64 returns v when it is positive and def otherwise.
func positiveOr64(v, def int64) int64 {
	if v > 0 {
		return v
	}
	return def
}

// openRowGroup starts a chunk in every column writer.
func (w *Writer) openRowGroup() error {
	for i, c := range w.cols {
		if err := w.startEncryption(c, i); err != nil {
			return err
		}
		c.StartChunk()
	}
	w.rg = rowGroupState{open: true, next: min(w.maxRows(), sizeCheckRows)}
	return nil
}

// addRows adds rows [lo, hi) of rec, whose nested fields nested holds
// shredded, to the open row group.
func (w *Writer) addRows(rec arrow.RecordBatch, nested []shreddedField, lo, hi int) error {
	leafCol := make([]levels.Column, len(w.cols))
	for k, nw := range w.nested {
		cols, err := nested[k].take(hi - lo)
		if err != nil {
			return fmt.Errorf("field %q: %w", w.schema.Field(nw.Field).Name, err)
		}
		copy(leafCol[nw.FirstColumn:], cols)
	}
	defer func() {
		for _, c := range leafCol {
			if c.Values != nil {
				c.Values.Release()
			}
		}
	}()
	err := w.eachColumn(func(i int) error {
		c := w.cols[i]
		if c.Nested {
			return c.WriteNested(leafCol[i])
		}
		arr := rec.Column(w.leafField[i])
		return c.WriteFlat(arr, lo, hi)
	})
	w.rg.rows += int64(hi - lo)
	return err
}

// eachColumn runs f on every column writer, on the Writer's encoding
// goroutines, each with its own compressor and page buffers, and returns
// their errors.
func (w *Writer) eachColumn(f func(i int) error) error {
	errs := make([]error, len(w.cols))
	run := func(i, g int) {
		c := w.cols[i]
		c.Compressor = &w.comps[g]
		c.UseScratch(&w.scratch[g])
		errs[i] = f(i)
		c.ReturnScratch(&w.scratch[g])
		c.Compressor = nil
	}
	if len(w.comps) == 1 {
		for i := range w.cols {
			run(i, 0)
		}
	} else {
		var next atomic.Int64
		var wg sync.WaitGroup
		for g := range w.comps {
			wg.Go(func() {
				for i := int(next.Add(1) - 1); i < len(w.cols); i = int(next.Add(1) - 1) {
					run(i, g)
				}
			})
		}
		wg.Wait()
	}
	return errors.Join(errs...)
}

// checkpoint looks at the row group being filled when it reached its next
// checkpoint: it writes the row group out at its row limit or once its
// size reaches the byte limit (counting a column that has not written a
// page yet in this row group at its compression ratio in the file so far,
// or uncompressed in the first row group), and otherwise sets the next size check
// where the bytes per row so far say the limit will be reached, in whole
// multiples of sizeCheckRows.
func (w *Writer) checkpoint() error {
	if w.rg.rows < w.rg.next {
		return nil
	}
	limit := w.maxRows()
	if w.rg.rows >= limit {
		return w.closeRowGroup()
	}
	var size int64
	for i, c := range w.cols {
		size += c.BufferedBytes(w.metrics[i].ratio())
	}
	maxBytes := w.maxBytes()
	if size >= maxBytes {
		return w.closeRowGroup()
	}
	step := int64(sizeCheckRows)
	if size > 0 {
		rows := float64(maxBytes-size) / (float64(size) / float64(w.rg.rows))
		step = max(step, int64(min(rows, float64(limit)))/sizeCheckRows*sizeCheckRows)
	}
	w.rg.next = min(limit, w.rg.rows+step)
	return nil
}

// closeRowGroup finishes the chunks of the row group being filled and
// writes them out in column order, if it holds any rows.
func (w *Writer) closeRowGroup() error {
	if !w.rg.open || w.rg.rows == 0 {
		return nil
	}
	rows := w.rg.rows
	w.rg = rowGroupState{}
	mds := make([]*footer.ColumnMetaData, len(w.cols))
	if err := w.eachColumn(func(i int) (err error) {
		mds[i], err = w.cols[i].FinishChunk()
		return err
	}); err != nil {
		w.err = err
		return err
	}
	rg := footer.RowGroup{NumRows: rows, FileOffset: footer.Some(w.offset), SortingColumns: w.sorting}
	var compressed int64
	for i, c := range w.cols {
		base := w.offset
		for _, buf := range []*colwrite.PageBuffer{&c.DictPage, &c.DataPages} {
			for _, seg := range buf.Segments() {
				if err := w.write(seg); err != nil {
					return err
				}
			}
		}
		md := mds[i]
		colwrite.Place(md, base)
		w.keepModules(len(w.rowGroups), c, base)
		w.metrics[i].addChunk(c, md)
		rg.Columns = append(rg.Columns, footer.ColumnChunk{FileOffset: base, MetaData: md})
		rg.TotalByteSize += md.TotalUncompressedSize
		compressed += md.TotalCompressedSize
	}
	rg.TotalCompressedSize = footer.Some(compressed)
	if len(w.rowGroups) <= math.MaxInt16 {
		rg.Ordinal = footer.Some(int16(len(w.rowGroups)))
	}
	w.rowGroups = append(w.rowGroups, rg)
	w.numRows += rows
	return nil
}

// releaseBuffers drops the column writers' chunk buffers once the file
// is written.
func (w *Writer) releaseBuffers() {
	for _, c := range w.cols {
		c.ReleaseBuffers()
	}
}
