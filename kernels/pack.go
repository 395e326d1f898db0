package kernels

import "fmt"

// Pack32 packs the values of src, width bits each (0 to 32), LSB first as in
// the RLE/bit-packing hybrid's bit-packed runs, into dst and returns the
// number of bytes written, (len(src)*width+7)/8; unused bits of the last byte
// are zero. Bits of a value above width are ignored. It returns an error
// wrapping [ErrOutOfRange] when width is above 32 and [ErrShortBuffer] when
// dst is too small, writing nothing.
func Pack32(dst []byte, src []uint32, width uint) (int, error) {
	need, err := packDstLen(len(src), len(dst), width, 32)
	if err != nil {
		return 0, err
	}
	pack32(dst[:need], src, width)
	return need, nil
}

// Pack64 is [Pack32] for uint64 values of widths 0 to 64.
func Pack64(dst []byte, src []uint64, width uint) (int, error) {
	need, err := packDstLen(len(src), len(dst), width, 64)
	if err != nil {
		return 0, err
	}
	pack64(dst[:need], src, width)
	return need, nil
}

// packDstLen returns the bytes n values of width bits occupy, checking the
// width against maxWidth and the destination's size.
func packDstLen(n, have int, width, maxWidth uint) (int, error) {
	if width > maxWidth {
		return 0, fmt.Errorf("%w: bit width %d above %d", ErrOutOfRange, width, maxWidth)
	}
	need := (uint64(n)*uint64(width) + 7) / 8
	if need > uint64(have) {
		return 0, fmt.Errorf("%w: %d values of width %d need %d bytes, have %d", ErrShortBuffer, n, width, need, have)
	}
	return int(need), nil
}
