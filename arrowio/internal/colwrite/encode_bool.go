package colwrite

import (
	"encoding/binary"
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
)

// boolWriter is the value writer of BOOLEAN columns (never
// dictionary-encoded: its pageEncoding's dictOn stays false): the page's
// values are kept as a bitmap, which is their PLAIN encoding, and
// RLE-encoded at the end of the page when asked.
type boolWriter struct {
	pageEncoding

	bm   []byte // the bound slots' bitmap
	boff int    // the bit of slot 0 in bm
	conv []byte // gathered dictionary values
	bits []byte // the page's values
	n    int    // bits in the page

	page, chunk boolStats

	// Scratch for dictionary arrays.
	didx   []int64
	dvalid []byte
}

func (w *boolWriter) startChunk(bool) {
	w.n = 0
	w.page, w.chunk = boolStats{}, boolStats{}
}

func (w *boolWriter) bind(arr arrow.Array, lo, hi int) ([]byte, int, error) {
	var err error
	if d, ok := arr.(*array.Dictionary); ok {
		if w.didx, w.dvalid, err = gatherIndices(w.didx, w.dvalid, d, lo, hi); err != nil {
			return nil, 0, err
		}
		dict := d.Dictionary()
		vals, voff, err := boolSlots(dict, 0, dict.Len())
		if err != nil {
			return nil, 0, err
		}
		w.conv = resize(w.conv, (len(w.didx)+7)/8)
		for i, x := range w.didx {
			bitutil.SetBitTo(w.conv, i, uint64(x) < uint64(dict.Len()) && bitutil.BitIsSet(vals, voff+int(x)))
		}
		w.bm, w.boff = w.conv, 0
		return w.dvalid, 0, nil
	}
	if w.bm, w.boff, err = boolSlots(arr, lo, hi); err != nil {
		return nil, 0, err
	}
	valid, voff := validity(arr)
	return valid, voff + lo, nil
}

func (w *boolWriter) put(i, j int, valid []byte, voff, nonNull int) error {
	if need := (w.n + nonNull + 7) / 8; need > len(w.bits) {
		w.bits = append(w.bits, make([]byte, need-len(w.bits))...)
	}
	start := w.n
	if nonNull == j-i {
		if err := kernels.CopyBits(w.bits, w.n, w.bm, w.boff+i, j-i); err != nil {
			return err
		}
		w.n += j - i
	} else {
		for k := i; k < j; k++ {
			if bitutil.BitIsSet(valid, voff+k) {
				bitutil.SetBitTo(w.bits, w.n, bitutil.BitIsSet(w.bm, w.boff+k))
				w.n++
			}
		}
	}
	ones, err := kernels.CountSetBits(w.bits, start, w.n-start)
	if err != nil {
		return err
	}
	w.page.hasTrue = w.page.hasTrue || ones > 0
	w.page.hasFalse = w.page.hasFalse || ones < w.n-start
	return nil
}

func (w *boolWriter) pageBytes() int { return (w.n + 7) / 8 }

func (w *boolWriter) flushPage(dst []byte, st *footer.Statistics) ([]byte, footer.Encoding, error) {
	if st != nil {
		w.page.encode(st)
	}
	w.chunk.hasFalse = w.chunk.hasFalse || w.page.hasFalse
	w.chunk.hasTrue = w.chunk.hasTrue || w.page.hasTrue
	w.page = boolStats{}
	return w.endPage(dst, w.appendValues)
}

// appendValues appends the page's values encoded with enc and empties the
// page (see pageEncoding.endPage).
func (w *boolWriter) appendValues(dst []byte, enc footer.Encoding) ([]byte, error) {
	n := w.n
	var err error
	switch enc {
	case footer.EncodingPlain:
		dst = append(dst, w.bits[:(n+7)/8]...)
	case footer.EncodingRLE:
		// RLE-encoded booleans carry a 4-byte length, like v1 levels.
		at := len(dst)
		dst = AppendBitsRLE(append(dst, 0, 0, 0, 0), w.bits, n)
		binary.LittleEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	default:
		err = fmt.Errorf("%w: encoding %s for BOOLEAN", errs.ErrUnsupported, enc)
	}
	clear(w.bits[:(n+7)/8]) // the next page ORs nothing into stale bits
	w.n = 0
	return dst, err
}

func (w *boolWriter) dictLen() int { return 0 }

func (w *boolWriter) dictBytes() int { return -1 }

// undict has nothing to undo: a boolean chunk has no dictionary.
func (w *boolWriter) undict() {}

func (w *boolWriter) dictPage(dst []byte) ([]byte, int) { return dst, 0 }

func (w *boolWriter) chunkStats(st *footer.Statistics) { w.chunk.encode(st) }

func (w *boolWriter) unencodedBytes() (int64, bool) { return 0, false }
