package arrowio

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/arrowio/internal/colwrite"
	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/levels"
)

// shreddedField is a nested field of a batch shredded into its leaves'
// levels and values, handed to the row groups a few rows at a time.
type shreddedField struct {
	nw     *colwrite.NestedFieldWriter
	maxDef []int16 // each leaf's maximum definition level
	next   []leafCursor
	out    []levels.Column // reused by take
}

// leafCursor is where the next row of a leaf starts: its first level
// entry and its first value.
type leafCursor struct{ entry, value int }

// shredNested shreds the nested fields of rec, one shreddedField per
// Writer.nested entry; the caller releases them with releaseShredded,
// after an error too.
func (w *Writer) shredNested(rec arrow.RecordBatch) ([]shreddedField, error) {
	out := make([]shreddedField, 0, len(w.nested))
	for _, nw := range w.nested {
		if err := nw.Shred(rec.Column(nw.Field), 0, int(rec.NumRows())); err != nil {
			return out, fmt.Errorf("field %q: %w", w.schema.Field(nw.Field).Name, err)
		}
		sf := shreddedField{nw: nw, next: make([]leafCursor, len(nw.Columns)), out: make([]levels.Column, len(nw.Columns))}
		for k := range nw.Columns {
			sf.maxDef = append(sf.maxDef, w.tree.Leaves[nw.FirstColumn+k].MaxDef)
		}
		out = append(out, sf)
	}
	return out, nil
}

// releaseShredded releases the values of the shredded fields.
func releaseShredded(fields []shreddedField) {
	for _, f := range fields {
		f.nw.Release()
	}
}

// take returns the level entries and values of each leaf for the next
// rows rows; the caller releases each Values.
func (f *shreddedField) take(rows int) ([]levels.Column, error) {
	for k, col := range f.nw.Columns {
		cur := &f.next[k]
		end := cur.entry + rows
		if col.Rep != nil {
			end = cur.entry
			for seen := 0; end < len(col.Rep); end++ {
				if col.Rep[end] == 0 {
					if seen == rows {
						break
					}
					seen++
				}
			}
		}
		present := rows
		if col.Def != nil {
			if end > len(col.Def) {
				return nil, fmt.Errorf("%w: leaf %d has %d level entries, fewer than its rows", errs.ErrUnsupported, k, len(col.Def))
			}
			present = 0
			for _, d := range col.Def[cur.entry:end] {
				if d == f.maxDef[k] {
					present++
				}
			}
		}
		if cur.value+present > col.Values.Len() {
			return nil, fmt.Errorf("%w: leaf %d: levels give more than its %d values", errs.ErrUnsupported, k, col.Values.Len())
		}
		out := levels.Column{Values: array.NewSlice(col.Values, int64(cur.value), int64(cur.value+present))}
		if col.Def != nil {
			out.Def = col.Def[cur.entry:end]
		}
		if col.Rep != nil {
			out.Rep = col.Rep[cur.entry:end]
		}
		f.out[k] = out
		cur.entry, cur.value = end, cur.value+present
	}
	return f.out, nil
}
