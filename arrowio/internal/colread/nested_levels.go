package colread

import (
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/levels"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
)

// levelReader reads one level section (definition or repetition) of a
// data page in batches: the RLE/bit-packing hybrid through a
// kernels.RLEDecoder, or the deprecated BIT_PACKED encoding, which is
// decoded whole when the page starts (its size is exactly the page's
// level count, so it is bounded by the page's bytes).
type levelReader struct {
	rle       kernels.RLEDecoder
	max       int16
	bitPacked bool
	packed    []int16 // BIT_PACKED levels of the page not read yet
	scratch   []int16 // storage behind packed, reused from page to page
}

// reset starts the section src of a page of count levels of at most max.
func (lr *levelReader) reset(enc footer.Encoding, src []byte, count int, max int16) error {
	lr.max = max
	w := levels.Width(max)
	switch enc {
	case footer.EncodingRLE:
		lr.bitPacked = false
		lr.rle.Reset(src, w)
		return nil
	case footer.EncodingBitPacked:
		// splitDataPage checked that src holds count levels of w bits.
		if uint64(count)*uint64(w) > 8*uint64(len(src)) {
			return fmt.Errorf("%w: %d BIT_PACKED levels of %d bits in %d bytes", errs.ErrCorrupt, count, w, len(src))
		}
		if cap(lr.scratch) < count {
			lr.scratch = make([]int16, count)
		}
		lr.packed = lr.scratch[:count]
		lr.bitPacked = true
		_, err := kernels.UnpackLevelsMSB(lr.packed, src, w, max)
		return err
	}
	return fmt.Errorf("%w: levels encoded %s", errs.ErrUnsupported, enc)
}

// read decodes the next len(dst) levels into dst.
func (lr *levelReader) read(dst []int16) error {
	if !lr.bitPacked {
		_, err := lr.rle.DecodeLevels(dst, lr.max)
		return err
	}
	if len(dst) > len(lr.packed) {
		return fmt.Errorf("%w: %d BIT_PACKED levels asked, the page has %d left", errs.ErrCorrupt, len(dst), len(lr.packed))
	}
	copy(dst, lr.packed)
	lr.packed = lr.packed[len(dst):]
	return nil
}
