package colwrite

import (
	"fmt"
	"slices"
	"unsafe"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
)

// bytesWriter is the value writer of BYTE_ARRAY columns; O is the type of
// the Arrow offsets it reads (int32 for string and binary, int64 for the
// large and view types).
type bytesWriter[O kernels.Offset] struct {
	pageEncoding
	order    statOrder
	text     bool // UTF-8 values: statistics are truncated between characters
	truncate int
	dict     bytesDict

	shared []uint32 // DELTA_BYTE_ARRAY prefix-length scratch

	offs  []O // the bound slots: value i is data[offs[i]:offs[i+1]]
	data  []byte
	soffs []O // views, widened offsets and gathered dictionary values
	sdata []byte
	coffs []O // the non-null values of a mini-batch with nulls
	cdata []byte
	poffs []int64 // the page's values, when not dictionary-encoded
	pdata []byte

	page, chunk bytesStats
	unencoded   int64
	bloom       *bloomSink // nil unless the column has a bloom filter

	// Scratch for dictionary arrays.
	didx   []int64
	dvalid []byte
	voffs  []O
	vdata  []byte
}

func (w *bytesWriter[O]) startChunk(dict bool) {
	w.pageEncoding.startChunk(dict)
	if dict {
		w.dict.reset(true)
	}
	w.poffs, w.pdata = append(w.poffs[:0], 0), w.pdata[:0]
	w.page.reset()
	w.chunk.reset()
	w.unencoded = 0
}

func (w *bytesWriter[O]) bind(arr arrow.Array, lo, hi int) ([]byte, int, error) {
	var err error
	if d, ok := arr.(*array.Dictionary); ok {
		if w.didx, w.dvalid, err = gatherIndices(w.didx, w.dvalid, d, lo, hi); err != nil {
			return nil, 0, err
		}
		dict := d.Dictionary()
		var vo []O
		var vd []byte
		if vo, vd, w.voffs, w.vdata, err = byteSlots(w.voffs, w.vdata, dict, 0, dict.Len()); err != nil {
			return nil, 0, err
		}
		w.soffs, w.sdata = append(w.soffs[:0], 0), w.sdata[:0]
		for _, x := range w.didx {
			if uint64(x) < uint64(len(vo)-1) {
				w.sdata = append(w.sdata, vd[vo[x]:vo[x+1]]...)
			}
			if int64(len(w.sdata)) > maxOffsetOf[O]() {
				return nil, 0, fmt.Errorf("%w: dictionary values past the range of the offsets", errs.ErrUnsupported)
			}
			w.soffs = append(w.soffs, O(len(w.sdata)))
		}
		w.offs, w.data = w.soffs, w.sdata
		return w.dvalid, 0, nil
	}
	if w.offs, w.data, w.soffs, w.sdata, err = byteSlots(w.soffs, w.sdata, arr, lo, hi); err != nil {
		return nil, 0, err
	}
	valid, voff := validity(arr)
	return valid, voff + lo, nil
}

// maxOffsetOf returns the largest value an O holds.
func maxOffsetOf[O kernels.Offset]() int64 {
	var o O
	return int64(^uint64(0) >> (65 - 8*unsafe.Sizeof(o)))
}

func (w *bytesWriter[O]) put(i, j int, valid []byte, voff, nonNull int) error {
	offs, data := w.offs[i:j+1], w.data
	if nonNull < j-i {
		offs, data = w.compact(offs, data, valid, voff+i)
	}
	if len(offs) < 2 {
		return nil
	}
	addOffsets(&w.page, offs, data, w.order)
	addOffsetHashes(w.bloom, offs, data)
	w.unencoded += int64(offs[len(offs)-1] - offs[0])
	if w.dictOn {
		insertOffsets(&w.dict, offs, data, w.addIndices(len(offs)-1))
		return nil
	}
	base := int64(len(w.pdata)) - int64(offs[0])
	w.poffs = growDoubling(w.poffs, len(offs)-1)
	for _, o := range offs[1:] {
		w.poffs = append(w.poffs, base+int64(o))
	}
	w.pdata = append(growDoubling(w.pdata, int(offs[len(offs)-1]-offs[0])), data[offs[0]:offs[len(offs)-1]]...)
	return nil
}

// compact returns the offsets of the values of the valid slots of offs
// (slot k's bit is off+k). When null slots are empty, as Arrow builders
// leave them, the valid values stay where they are in data; otherwise they
// are copied.
func (w *bytesWriter[O]) compact(offs []O, data []byte, valid []byte, off int) ([]O, []byte) {
	d := append(w.coffs[:0], offs[0])
	contiguous := true
	for k := range len(offs) - 1 {
		b := off + k
		if valid[b>>3]>>(b&7)&1 == 0 {
			continue
		}
		if offs[k] != d[len(d)-1] {
			contiguous = false
			break
		}
		d = append(d, offs[k+1])
	}
	if contiguous {
		w.coffs = d
		return d, data
	}
	d, buf := append(d[:0], 0), w.cdata[:0]
	for k := range len(offs) - 1 {
		b := off + k
		if valid[b>>3]>>(b&7)&1 != 0 {
			buf = append(buf, data[offs[k]:offs[k+1]]...)
			d = append(d, O(len(buf)))
		}
	}
	w.coffs, w.cdata = d, buf
	return d, buf
}

func (w *bytesWriter[O]) undict() {
	idx := w.takeIndices()
	n := 0
	for _, i := range idx {
		n += int(w.dict.lens[i])
	}
	w.poffs = slices.Grow(w.poffs, len(idx))
	w.pdata = slices.Grow(w.pdata, n)
	for _, i := range idx {
		w.pdata = append(w.pdata, w.dict.value(i)...)
		w.poffs = append(w.poffs, int64(len(w.pdata)))
	}
}

func (w *bytesWriter[O]) pageBytes() int {
	if w.dictOn {
		return w.indexBytes(w.dict.len())
	}
	return len(w.pdata) + 4*(len(w.poffs)-1)
}

func (w *bytesWriter[O]) flushPage(dst []byte, st *footer.Statistics) ([]byte, footer.Encoding, error) {
	if st != nil {
		w.page.encode(st, w.order, w.truncate, w.text)
	}
	w.chunk.merge(&w.page, w.order)
	w.page.reset()
	return w.endPage(dst, w.appendValues)
}

// appendValues appends the page's values encoded with enc and empties the
// page (see pageEncoding.endPage).
func (w *bytesWriter[O]) appendValues(dst []byte, enc footer.Encoding) ([]byte, error) {
	var err error
	switch enc {
	case footer.EncodingPlain:
		dst, err = kernels.AppendPlainByteArray(dst, w.poffs, w.pdata)
	case footer.EncodingDeltaLengthByteArray:
		dst, err = kernels.AppendDeltaLengthByteArray(dst, w.poffs, w.pdata)
	case footer.EncodingDeltaByteArray:
		dst, w.shared, err = kernels.AppendDeltaByteArray(dst, w.poffs, w.pdata, w.shared)
	default:
		err = fmt.Errorf("%w: encoding %s for BYTE_ARRAY", errs.ErrUnsupported, enc)
	}
	w.poffs, w.pdata = w.poffs[:1], w.pdata[:0]
	return dst, err
}

func (w *bytesWriter[O]) dictLen() int { return w.dict.len() }

func (w *bytesWriter[O]) dictBytes() int {
	if !w.dictOn {
		return -1
	}
	return len(w.dict.plain)
}

func (w *bytesWriter[O]) dictPage(dst []byte) ([]byte, int) {
	return append(dst, w.dict.plain...), w.dict.len()
}

func (w *bytesWriter[O]) chunkStats(st *footer.Statistics) {
	w.chunk.encode(st, w.order, w.truncate, w.text)
}

func (w *bytesWriter[O]) unencodedBytes() (int64, bool) { return w.unencoded, true }
