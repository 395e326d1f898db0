package colwrite

import (
	"fmt"
	"slices"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
)

// flbaWriter is the value writer of FIXED_LEN_BYTE_ARRAY columns, whose
// values are width bytes each, back to back.
type flbaWriter struct {
	pageEncoding
	node     *footer.Node
	width    int
	order    statOrder
	truncate int
	dict     bytesDict

	slots  []byte   // the bound slots
	conv   []byte   // converted or gathered slots
	dense  []byte   // the non-null values of a mini-batch with nulls
	shared []uint32 // DELTA_BYTE_ARRAY prefix-length scratch
	vals   []byte   // the page's values, when not dictionary-encoded

	page, chunk bytesStats
	bloom       *bloomSink // nil unless the column has a bloom filter

	// Scratch for dictionary arrays.
	didx   []int64
	dvalid []byte
	dconv  []byte
}

func (w *flbaWriter) startChunk(dict bool) {
	w.pageEncoding.startChunk(dict)
	if dict {
		w.dict.reset(false)
	}
	w.vals = w.vals[:0]
	w.page.reset()
	w.chunk.reset()
}

func (w *flbaWriter) bind(arr arrow.Array, lo, hi int) ([]byte, int, error) {
	var err error
	if d, ok := arr.(*array.Dictionary); ok {
		if w.didx, w.dvalid, err = gatherIndices(w.didx, w.dvalid, d, lo, hi); err != nil {
			return nil, 0, err
		}
		dict := d.Dictionary()
		var vals []byte
		if vals, w.dconv, err = fixedBytesSlots(w.dconv, dict, 0, dict.Len(), w.node); err != nil {
			return nil, 0, err
		}
		wd := w.width
		w.conv = resize(w.conv, len(w.didx)*wd)
		for i, x := range w.didx {
			if uint64(x) < uint64(dict.Len()) {
				copy(w.conv[i*wd:(i+1)*wd], vals[int(x)*wd:])
			}
		}
		w.slots = w.conv
		return w.dvalid, 0, nil
	}
	if w.slots, w.conv, err = fixedBytesSlots(w.conv, arr, lo, hi, w.node); err != nil {
		return nil, 0, err
	}
	valid, voff := validity(arr)
	return valid, voff + lo, nil
}

func (w *flbaWriter) put(i, j int, valid []byte, voff, nonNull int) error {
	wd := w.width
	vals := w.slots[i*wd : j*wd]
	if nonNull < j-i {
		d := w.dense[:0]
		for k := range j - i {
			b := voff + i + k
			if valid[b>>3]>>(b&7)&1 != 0 {
				d = append(d, vals[k*wd:(k+1)*wd]...)
			}
		}
		w.dense, vals = d, d
	}
	w.page.addFixed(vals, wd, w.order)
	if w.order == orderFloat16 {
		w.nans += countNaN16(vals)
	}
	w.bloom.addFixed(vals, wd)
	if w.dictOn {
		w.dict.insertFixed(vals, wd, w.addIndices(len(vals)/wd))
		return nil
	}
	w.vals = append(growDoubling(w.vals, len(vals)), vals...)
	return nil
}

func (w *flbaWriter) undict() {
	idx := w.takeIndices()
	w.vals = slices.Grow(w.vals, len(idx)*w.width)
	for _, i := range idx {
		w.vals = append(w.vals, w.dict.value(i)...)
	}
}

func (w *flbaWriter) pageBytes() int {
	if w.dictOn {
		return w.indexBytes(w.dict.len())
	}
	return len(w.vals)
}

func (w *flbaWriter) flushPage(dst []byte, st *footer.Statistics) ([]byte, footer.Encoding, error) {
	if st != nil {
		w.page.encode(st, w.order, w.truncate, false)
	}
	w.chunk.merge(&w.page, w.order)
	w.page.reset()
	return w.endPage(dst, w.appendValues)
}

// appendValues appends the page's values encoded with enc and empties the
// page (see pageEncoding.endPage).
func (w *flbaWriter) appendValues(dst []byte, enc footer.Encoding) ([]byte, error) {
	var err error
	switch enc {
	case footer.EncodingPlain:
		dst = append(dst, w.vals...)
	case footer.EncodingDeltaByteArray:
		dst, w.shared, err = kernels.AppendDeltaByteArrayFixed(dst, w.vals, w.width, w.shared)
	case footer.EncodingByteStreamSplit:
		n := len(dst)
		dst = slices.Grow(dst, len(w.vals))[:n+len(w.vals)]
		err = kernels.ByteStreamSplitEncode(dst[n:], w.vals, w.width)
	default:
		err = fmt.Errorf("%w: encoding %s for FIXED_LEN_BYTE_ARRAY", errs.ErrUnsupported, enc)
	}
	w.vals = w.vals[:0]
	return dst, err
}

func (w *flbaWriter) dictLen() int { return w.dict.len() }

func (w *flbaWriter) dictBytes() int {
	if !w.dictOn {
		return -1
	}
	return len(w.dict.plain)
}

func (w *flbaWriter) dictPage(dst []byte) ([]byte, int) {
	return append(dst, w.dict.plain...), w.dict.len()
}

func (w *flbaWriter) chunkStats(st *footer.Statistics) {
	w.chunk.encode(st, w.order, w.truncate, false)
}

func (w *flbaWriter) unencodedBytes() (int64, bool) { return 0, false }

// countNaN16 returns how many of the 2-byte FLOAT16 values of data are
// NaN.
func countNaN16(data []byte) int64 {
	var n int64
	for i := 0; i+1 < len(data); i += 2 {
		if isNaN16(data[i : i+2]) {
			n++
		}
	}
	return n
}
