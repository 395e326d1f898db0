package colread

import (
	"fmt"
	"math"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/arrowmem"
)

// Reading into Arrow dictionary arrays. A column chunk's dictionary page
// becomes the dictionary of every batch of that chunk, built once; pages
// encoded with it decode to indices only. Pages a writer fell back to
// another encoding for decode their values into colOut.extra, and their
// indices point past the dictionary page's values; the batch's dictionary
// is then the two concatenated.

// newDictValueDecoder returns the decoder for a page of encoding enc when
// the leaf reads as a dictionary array.
func newDictValueDecoder(enc footer.Encoding, t *target, dict *dictionary, idx *[]uint32) (valueDecoder, error) {
	switch enc {
	case footer.EncodingPlainDictionary, footer.EncodingRLEDictionary:
		if dict == nil {
			return nil, fmt.Errorf("%w: %s data page without a dictionary page before it", errs.ErrCorrupt, enc)
		}
		return &dictIndexDecoder{dictDecoder: dictDecoder{dict: dict, idx: idx}}, nil
	}
	inner, err := newValueDecoder(enc, t.value, nil, idx)
	if err != nil {
		return nil, err
	}
	base := 0
	if dict != nil {
		base = dict.len
	}
	return &dictFallback{inner: inner, base: base}, nil
}

// dictIndexDecoder decodes dictionary-encoded pages into indices.
type dictIndexDecoder struct{ dictDecoder }

func (d *dictIndexDecoder) next(out *colOut, at, k int) error {
	idx := d.indices(k)
	if _, err := d.dec.DecodeIndices(idx, d.dict.len); err != nil {
		return err
	}
	return putIndices(out, at, idx, 0, d.dict.len-1)
}

// dictFallback decodes the values of a page that is not
// dictionary-encoded into the batch's extra values and indexes them.
type dictFallback struct {
	inner valueDecoder
	base  int // values in the chunk's dictionary page
	idx   []uint32
}

func (d *dictFallback) start(src []byte, count int) error { return d.inner.start(src, count) }

func (d *dictFallback) next(out *colOut, at, k int) error {
	if out.extra == nil {
		out.extra = newColOut(out.mem, out.t.value, out.n, out.slots, false, 0)
	}
	out.extra.grow(out.extraN + k)
	if err := d.inner.next(out.extra, out.extraN, k); err != nil {
		return err
	}
	if cap(d.idx) < k {
		d.idx = make([]uint32, k)
	}
	idx := d.idx[:k]
	for i := range idx {
		idx[i] = uint32(out.extraN + i)
	}
	out.extraN += k
	return putIndices(out, at, idx, d.base, d.base+out.extraN-1)
}

// putIndices writes base+idx[i] into out's indices at slot at, in the
// width of the Arrow index type, refusing a largest index maxIndex the type
// cannot hold.
func putIndices(out *colOut, at int, idx []uint32, base, maxIndex int) error {
	limit := uint64(math.MaxInt64)
	switch out.t.width {
	case 1:
		limit = math.MaxInt8
	case 2:
		limit = math.MaxInt16
	case 4:
		limit = math.MaxInt32
	}
	if uint64(maxIndex) > limit {
		return fmt.Errorf("%w: a dictionary of %d values does not fit %s indices", errs.ErrUnsupported, maxIndex+1, out.t.typ.(*arrow.DictionaryType).IndexType)
	}
	dst := out.values.Bytes()[at*out.t.width:]
	switch out.t.width {
	case 1:
		for i, v := range idx {
			dst[i] = byte(int(v) + base)
		}
	case 2:
		d := arrowmem.ViewCap[uint16](dst)
		for i, v := range idx {
			d[i] = uint16(int(v) + base)
		}
	case 4:
		d := arrowmem.ViewCap[uint32](dst)
		for i, v := range idx {
			d[i] = uint32(int(v) + base)
		}
	default:
		d := arrowmem.ViewCap[uint64](dst)
		for i, v := range idx {
			d[i] = uint64(int(v) + base)
		}
	}
	return nil
}

// buildDictionary sets o.dict to the batch's dictionary: the chunk's
// dictionary, the extra values, or both concatenated (which fails only
// when the values pass what 32-bit offsets address).
func (o *colOut) buildDictionary() error {
	var extra arrow.Array
	if o.extra != nil {
		o.extra.truncate(o.extraN)
		extra = o.extra.finish()
		o.extra = nil
	}
	switch {
	case extra == nil && o.dict == nil:
		o.dict = arrowmem.NullArray(o.mem, o.t.value.typ, 0)
	case extra == nil:
	case o.dict == nil:
		o.dict = extra
	default:
		defer extra.Release()
		both, err := arrowmem.Concatenate([]arrow.Array{o.dict, extra}, o.mem)
		if err != nil {
			return fmt.Errorf("%w: dictionary with the values of fallback pages: %w", errs.ErrUnsupported, err)
		}
		o.dict.Release()
		o.dict = both
	}
	return nil
}

// truncate shrinks a colOut of fixed or binary values to its first n slots.
func (o *colOut) truncate(n int) {
	o.n = n
	o.resize(n)
}

// arrowDictionary builds the Arrow array of a decoded dictionary page from
// mem, for dictionary targets.
func (d *dictionary) arrowDictionary(mem memory.Allocator) arrow.Array {
	out := newColOut(mem, d.t, d.len, d.len, false, len(d.data))
	switch d.t.kind {
	case fixedTarget:
		copy(out.values.Bytes(), d.values)
	case binaryTarget:
		data := out.growData(len(d.data))
		copy(data, d.data)
		out.dataLen = len(d.data)
		if d.t.large {
			o := offsets64(out)
			for i, v := range d.offsets {
				o[i] = int64(v)
			}
		} else {
			copy(offsets32(out), d.offsets)
		}
	}
	return out.finish()
}
