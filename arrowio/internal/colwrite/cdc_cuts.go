package colwrite

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/quiverio/quiver/arrowio/internal/errs"
)

// This file finds where content-defined chunking cuts the pages of one
// write (cdc.go has the algorithm): the bytes each Arrow value rolls into
// the hash, and the walk over a flat column's slots or a nested leaf's
// levels.

// cdcKind is how a cdcValues reads a value's bytes.
type cdcKind int8

const (
	cdcNone   cdcKind = iota // no value bytes (the null type)
	cdcFixed                 // width bytes per value
	cdcBool                  // one bit per value, rolled as a byte
	cdcOffs32                // int32 offsets into data
	cdcOffs64                // int64 offsets into data
	cdcViews                 // view headers into inline bytes or data buffers
)

// cdcValues reads the bytes of an Arrow array's values as Arrow lays them
// out, value i being the array's slot lo+i.
type cdcValues struct {
	kind   cdcKind
	width  int
	fixed  []byte // cdcFixed: from value 0
	bits   []byte // cdcBool: the value bitmap
	bitOff int    // cdcBool: the bit of value 0
	offs32 []int32
	offs64 []int64
	data   []byte
	views  []arrow.ViewHeader
	bufs   [][]byte // cdcViews: the variadic data buffers
}

// cdcValuesOf returns the values of slots [lo, hi) of arr: a dictionary
// array's indices, an extension array's storage values.
func cdcValuesOf(arr arrow.Array, lo, hi int) (cdcValues, error) {
	arr = storage(arr)
	d := arr.Data()
	off := d.Offset()
	var v cdcValues
	var err error
	dt := arr.DataType()
	if dict, ok := dt.(*arrow.DictionaryType); ok {
		dt = dict.IndexType
	}
	switch t := dt.(type) {
	case *arrow.NullType:
		v.kind = cdcNone
	case *arrow.BooleanType:
		v.kind, v.bits, v.bitOff = cdcBool, bufferAs[byte](d, 1), off+lo
		if (off+hi+7)/8 > len(v.bits) {
			err = fmt.Errorf("arrowio: boolean buffer of %d bytes for %d values", len(v.bits), off+hi)
		}
	case arrow.FixedWidthDataType:
		v.kind, v.width = cdcFixed, t.BitWidth()/8
		if v.width == 0 {
			return v, fmt.Errorf("%w: content-defined chunking of %s values", errs.ErrUnsupported, dt)
		}
		v.fixed, err = sliceOf(bufferAs[byte](d, 1), off*v.width, lo*v.width, hi*v.width, "value")
	default:
		switch dt.ID() {
		case arrow.STRING, arrow.BINARY:
			v.kind, v.data = cdcOffs32, bufferAs[byte](d, 2)
			if v.offs32, err = sliceOf(bufferAs[int32](d, 1), off, lo, hi+1, "offset"); err == nil {
				err = checkSpan(v.offs32, len(v.data))
			}
		case arrow.LARGE_STRING, arrow.LARGE_BINARY:
			v.kind, v.data = cdcOffs64, bufferAs[byte](d, 2)
			if v.offs64, err = sliceOf(bufferAs[int64](d, 1), off, lo, hi+1, "offset"); err == nil {
				err = checkSpan(v.offs64, len(v.data))
			}
		case arrow.STRING_VIEW, arrow.BINARY_VIEW:
			v.kind = cdcViews
			if v.views, err = sliceOf(bufferAs[arrow.ViewHeader](d, 1), off, lo, hi, "view"); err != nil {
				break
			}
			for _, b := range d.Buffers()[2:] {
				var bs []byte
				if b != nil {
					bs = b.Bytes()
				}
				v.bufs = append(v.bufs, bs)
			}
		default:
			return v, fmt.Errorf("%w: content-defined chunking of %s values", errs.ErrUnsupported, dt)
		}
	}
	return v, err
}

// roll rolls value i into c.
func (v *cdcValues) roll(c *chunker, i int) error {
	switch v.kind {
	case cdcFixed:
		c.roll(v.fixed[i*v.width : (i+1)*v.width])
	case cdcBool:
		var b byte
		if bitutil.BitIsSet(v.bits, v.bitOff+i) {
			b = 1
		}
		c.rollByte(b)
	case cdcOffs32:
		c.roll(v.data[v.offs32[i]:v.offs32[i+1]])
	case cdcOffs64:
		c.roll(v.data[v.offs64[i]:v.offs64[i+1]])
	case cdcViews:
		h := &v.views[i]
		if h.IsInline() {
			c.roll(h.InlineBytes())
			return nil
		}
		bi, bo, l := int(h.BufferIndex()), int(h.BufferOffset()), h.Len()
		if bi < 0 || bi >= len(v.bufs) || bo < 0 || l < 0 || bo+l > len(v.bufs[bi]) {
			return fmt.Errorf("arrowio: view %d points outside its data buffers", i)
		}
		c.roll(v.bufs[bi][bo : bo+l])
	}
	return nil
}

// flatCuts appends to cuts the slots, among the n of a flat column's
// write whose values are v, that begin a new page. An optional column
// (optional set) rolls each slot's definition level first, and the
// value only for a valid slot; valid, from bit voff, is nil when every
// slot is. A cut at 0 ends the page the previous write left open.
func (c *chunker) flatCuts(cuts []int, v *cdcValues, n int, optional bool, valid []byte, voff int) ([]int, error) {
	if !optional && v.kind == cdcFixed {
		return c.fixedCuts(cuts, v, n), nil
	}
	for i := range n {
		ok := true
		if optional {
			ok = valid == nil || bitutil.BitIsSet(valid, voff+i)
			var def int16
			if ok {
				def = 1
			}
			c.rollLevel(def)
		}
		if ok {
			if err := v.roll(c, i); err != nil {
				return cuts, err
			}
		}
		if c.cutHere() {
			cuts = append(cuts, i)
		}
	}
	return cuts, nil
}

// fixedCuts is flatCuts for a required column of fixed-width values: the
// values that leave the chunk below its minimum size are counted, not
// visited.
func (c *chunker) fixedCuts(cuts []int, v *cdcValues, n int) []int {
	w := int64(v.width)
	for i := 0; i < n; {
		if c.size+w < c.min {
			// Values that keep the chunk under its minimum roll nothing
			// and cannot cut it (no match is pending after a cut).
			k := min(int64(n-i), (c.min-c.size-1)/w)
			c.size += k * w
			i += int(k)
			continue
		}
		c.roll(v.fixed[i*v.width : (i+1)*v.width])
		if c.cutHere() {
			cuts = append(cuts, i)
		}
		i++
	}
	return cuts
}

// nestedCuts appends to cuts the entries, among those of a nested leaf's
// write with levels def and rep (rep nil when the leaf repeats nowhere)
// and dense values v (one for each entry at maxDef), that begin a new
// page. Each entry rolls its
// levels (those the leaf has), then its value when it holds one (its
// definition level is maxDef). A repeated leaf is cut only where a row
// begins, and never before its first entry.
func (c *chunker) nestedCuts(cuts []int, v *cdcValues, def, rep []int16, maxDef int16) ([]int, error) {
	next := 0 // the next dense value
	prev := 0 // where the last cut was
	for i, d := range def {
		if maxDef > 0 {
			c.rollLevel(d)
		}
		if rep != nil {
			c.rollLevel(rep[i])
		}
		if d == maxDef {
			if err := v.roll(c, next); err != nil {
				return cuts, err
			}
			next++
		}
		if rep == nil {
			if c.cutHere() {
				cuts = append(cuts, i)
			}
		} else if rep[i] == 0 && c.cutHere() && i > prev {
			cuts = append(cuts, i)
			prev = i
		}
	}
	return cuts, nil
}

// flatCuts returns the slots of [lo, hi) of arr, counted from lo, that
// begin a new page: none when content-defined chunking is off. valid,
// from bit voff, is the slots' validity (nil: all valid).
func (c *Writer) flatCuts(arr arrow.Array, lo, hi int, valid []byte, voff int) ([]int, error) {
	if c.cdc == nil {
		return nil, nil
	}
	v, err := cdcValuesOf(arr, lo, hi)
	if err == nil {
		c.cuts, err = c.cdc.flatCuts(c.cuts[:0], &v, hi-lo, c.node.MaxDef > 0, valid, voff)
	}
	if err != nil {
		return nil, fmt.Errorf("column %q: %w", c.Path, err)
	}
	return c.cuts, nil
}

// nestedCuts returns the entries of a nested leaf's write that begin a
// new page (see chunker.nestedCuts): none when content-defined chunking
// is off. The leaf's values must be one for each entry at its maximum
// definition level.
func (c *Writer) nestedCuts(vals arrow.Array, def, rep []int16) ([]int, error) {
	if c.cdc == nil {
		return nil, nil
	}
	if k := countLevel(def, c.node.MaxDef); k != vals.Len() {
		return nil, fmt.Errorf("%w: column %q: levels give %d values, the leaf has %d", errs.ErrUnsupported, c.Path, k, vals.Len())
	}
	v, err := cdcValuesOf(vals, 0, vals.Len())
	if err == nil {
		c.cuts, err = c.cdc.nestedCuts(c.cuts[:0], &v, def, rep, c.node.MaxDef)
	}
	if err != nil {
		return nil, fmt.Errorf("column %q: %w", c.Path, err)
	}
	return c.cuts, nil
}

// cutFirst ends the page the previous write left open when cuts begins
// with a cut before the write's first entry, and returns the other cuts.
func (c *Writer) cutFirst(cuts []int) ([]int, error) {
	if len(cuts) == 0 || cuts[0] != 0 {
		return cuts, nil
	}
	return cuts[1:], c.endMiniBatch(true)
}

// countLevel returns how many of lv are l.
func countLevel(lv []int16, l int16) int {
	k := 0
	for _, x := range lv {
		if x == l {
			k++
		}
	}
	return k
}
