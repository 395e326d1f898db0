package colread

import (
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/internal/arrowmem"
	"github.com/quiverio/quiver/levels"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
)

// levelReader reads one level section (definition or repetition) of a
// data page in batches, for flat and nested leaves alike: the
// RLE/bit-packing hybrid through a kernels.RLEDecoder, or the deprecated
// BIT_PACKED encoding (old parquet-mr files), which is decoded whole when
// the page starts (its size is exactly the page's level count, so it is
// bounded by the page's bytes).
type levelReader struct {
	rle       kernels.RLEDecoder
	max       int16
	bitPacked bool
	packed    []int16 // BIT_PACKED levels of the page not read yet
	// scratch is the pooled storage behind packed, reused from page to
	// page and returned by release.
	scratch []int16
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
		// page.SplitData cut src to count levels of w bits.
		if uint64(count)*uint64(w) > 8*uint64(len(src)) {
			return fmt.Errorf("%w: %d BIT_PACKED levels of %d bits in %d bytes", errs.ErrCorrupt, count, w, len(src))
		}
		if cap(lr.scratch) < count {
			arrowmem.PutBytes(arrowmem.BytesCap(lr.scratch))
			lr.scratch = arrowmem.ViewCap[int16](arrowmem.GetBytes(2 * count))
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
		return errLevelsShort(len(dst), len(lr.packed))
	}
	copy(dst, lr.packed)
	lr.packed = lr.packed[len(dst):]
	return nil
}

// readBitmap decodes the next k levels into bits [at, at+k) of the bitmap
// dst, set where a level is the maximum (a value is present), and returns
// how many it set: the definition levels of a flat optional leaf become
// its validity without an array of levels in between when they are RLE.
func (lr *levelReader) readBitmap(dst []byte, at, k int) (int, error) {
	if !lr.bitPacked {
		return lr.rle.DecodeBitmap(dst, at, k)
	}
	if k > len(lr.packed) {
		return 0, errLevelsShort(k, len(lr.packed))
	}
	nulls, err := kernels.LevelsToBitmap(dst, at, lr.packed[:k], lr.max)
	lr.packed = lr.packed[k:]
	return k - nulls, err
}

// errLevelsShort reports more BIT_PACKED levels asked than the page has.
func errLevelsShort(asked, left int) error {
	return fmt.Errorf("%w: %d BIT_PACKED levels asked, the page has %d left", errs.ErrCorrupt, asked, left)
}

// release returns the scratch to the byte pools.
func (lr *levelReader) release() {
	arrowmem.PutBytes(arrowmem.BytesCap(lr.scratch))
	lr.scratch, lr.packed = nil, nil
}
