package colwrite

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/kernels"
)

// dictArray is an Arrow dictionary array bound to a BYTE_ARRAY column's
// writer: its indices, their validity merged with the dictionary's, and
// its dictionary's values. While the chunk is dictionary-encoded, each
// Arrow dictionary value is looked up in the chunk's dictionary once
// (memo), and its slots take that index with no hash, comparison or copy
// of their bytes; otherwise a mini-batch's values are gathered and written
// as any others.
type dictArray[O kernels.Offset] struct {
	bound bool
	idx   []int64 // the slots' indices (0 for null slots)
	valid []byte  // the slots' validity, bit 0 the first slot
	offs  []O     // the dictionary's values: value x is data[offs[x]:offs[x+1]]
	data  []byte
	// memo[x] is gen<<32 | the chunk dictionary's index of value x, when
	// its high half is gen: a memo holds for one bind only, as a later
	// array's dictionary may hold other values where this one's were.
	memo []uint64
	gen  uint32
}

// bindDictionary binds slots [lo, hi) of the dictionary array d (see
// valueWriter.bind).
func (w *bytesWriter[O]) bindDictionary(d *array.Dictionary, lo, hi int) ([]byte, int, error) {
	a := &w.darr
	var err error
	if a.idx, a.valid, err = gatherIndices(a.idx, a.valid, d, lo, hi); err != nil {
		return nil, 0, err
	}
	dict := d.Dictionary()
	if a.offs, a.data, w.voffs, w.vdata, err = byteSlots(w.voffs, w.vdata, dict, 0, dict.Len()); err != nil {
		return nil, 0, err
	}
	if err := checkSpan(a.offs, len(a.data)); err != nil {
		return nil, 0, err
	}
	if err := checkLengths(a.offs); err != nil {
		return nil, 0, err
	}
	a.forget()
	for len(a.memo) < dict.Len() {
		a.memo = append(a.memo, 0)
	}
	a.bound = true
	return a.valid, 0, nil
}

// forget empties the memo, for another array or another chunk (whose
// dictionary starts empty).
func (a *dictArray[O]) forget() {
	a.gen++
	if a.gen == 0 {
		clear(a.memo)
		a.gen = 1
	}
}

// value returns dictionary value x, empty for an index outside the
// dictionary (a null slot of an empty one).
func (a *dictArray[O]) value(x int64) []byte {
	if uint64(x) >= uint64(len(a.offs)-1) {
		return nil
	}
	return a.data[a.offs[x]:a.offs[x+1]]
}

// putDictIndices adds the valid slots among [i, j), nonNull of them, to
// the dictionary-encoded page by the chunk dictionary's indices of their
// values (see put).
func (w *bytesWriter[O]) putDictIndices(i, j int, valid []byte, voff, nonNull int) error {
	a := &w.darr
	idx := w.addIndices(nonNull)
	k := 0
	for s := i; s < j; s++ {
		if valid != nil {
			if b := voff + s; valid[b>>3]>>(b&7)&1 == 0 {
				continue
			}
		}
		if k == len(idx) {
			return fmt.Errorf("arrowio: more than the %d valid slots counted among %d", nonNull, j-i)
		}
		x := a.idx[s]
		v := a.value(x)
		w.unencoded += int64(len(v))
		switch {
		case uint64(x) >= uint64(len(a.memo)):
			idx[k] = w.dict.index(v)
		case uint32(a.memo[x]>>32) == a.gen:
			idx[k] = uint32(a.memo[x])
		default:
			idx[k] = w.dict.index(v)
			a.memo[x] = uint64(a.gen)<<32 | uint64(idx[k])
		}
		k++
	}
	if k != len(idx) {
		return fmt.Errorf("arrowio: %d valid slots among %d, %d counted", k, j-i, nonNull)
	}
	w.dictStats(idx)
	return nil
}

// gatherDictValues returns the values of slots [i, j) as offsets into
// data, copied out of the dictionary (null slots hold value 0, or none
// for an empty dictionary).
func (w *bytesWriter[O]) gatherDictValues(i, j int) ([]O, []byte, error) {
	a := &w.darr
	w.soffs, w.sdata = append(w.soffs[:0], 0), w.sdata[:0]
	for _, x := range a.idx[i:j] {
		w.sdata = append(w.sdata, a.value(x)...)
		if int64(len(w.sdata)) > maxOffsetOf[O]() {
			return nil, nil, fmt.Errorf("%w: dictionary values past the range of the offsets", errs.ErrUnsupported)
		}
		w.soffs = append(w.soffs, O(len(w.sdata)))
	}
	return w.soffs, w.sdata, nil
}
