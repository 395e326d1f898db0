package kernels

import (
	"fmt"

	"github.com/quiverio/quiver/internal/arrowmem"
)

// Unpack8 decodes len(dst) values of width bits (0 to 8), packed LSB first as
// in the RLE/bit-packing hybrid's bit-packed runs, from src and returns the
// number of bytes consumed, (len(dst)*width+7)/8. Bytes of src past that
// count are never read. It returns an error wrapping [ErrOutOfRange] when
// width is above 8 and [ErrCorrupt] when src is too short; dst is then left
// untouched.
func Unpack8(dst []uint8, src []byte, width uint) (int, error) {
	need, err := packedLen(len(dst), len(src), width, 8)
	if err != nil {
		return 0, err
	}
	unpack8(dst, src[:need], width)
	return need, nil
}

// Unpack16 is [Unpack8] for widths 0 to 16 into uint16 values.
func Unpack16(dst []uint16, src []byte, width uint) (int, error) {
	need, err := packedLen(len(dst), len(src), width, 16)
	if err != nil {
		return 0, err
	}
	unpack16(dst, src[:need], width)
	return need, nil
}

// Unpack32 is [Unpack8] for widths 0 to 32 into uint32 values.
func Unpack32(dst []uint32, src []byte, width uint) (int, error) {
	need, err := packedLen(len(dst), len(src), width, 32)
	if err != nil {
		return 0, err
	}
	if width == 32 {
		// Whole little-endian words: a copy.
		copy(arrowmem.Bytes(dst), src[:need])
		return need, nil
	}
	unpack32(dst, src[:need], width)
	return need, nil
}

// Unpack64 is [Unpack8] for widths 0 to 64 into uint64 values.
func Unpack64(dst []uint64, src []byte, width uint) (int, error) {
	need, err := packedLen(len(dst), len(src), width, 64)
	if err != nil {
		return 0, err
	}
	if width == 64 {
		copy(arrowmem.Bytes(dst), src[:need])
		return need, nil
	}
	unpack64(dst, src[:need], width)
	return need, nil
}

// packedLen returns the bytes n values of width bits occupy, checking the
// width against maxWidth and the byte count against have.
func packedLen(n, have int, width, maxWidth uint) (int, error) {
	if width > maxWidth {
		return 0, fmt.Errorf("%w: bit width %d above %d", ErrOutOfRange, width, maxWidth)
	}
	need := (uint64(n)*uint64(width) + 7) / 8
	if need > uint64(have) {
		return 0, fmt.Errorf("%w: %d values of width %d need %d bytes, have %d", ErrCorrupt, n, width, need, have)
	}
	return int(need), nil
}
