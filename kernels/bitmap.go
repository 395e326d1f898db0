package kernels

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// Bitmaps here use Arrow's layout: bit i of a bitmap is bit i%8 (least
// significant first) of byte i/8, and an offset counts bits from the start
// of the slice.

// FillBits sets bits [offset, offset+n) of dst to v, leaving every other bit
// as it was. It returns an error wrapping [ErrShortBuffer] when dst is too
// small, writing nothing.
func FillBits(dst []byte, offset, n int, v bool) error {
	if err := checkBitRange("FillBits", len(dst), offset, n); err != nil {
		return err
	}
	fillBits(dst, uint(offset), uint(n), v)
	return nil
}

// ClearBitsFrom clears every bit of dst from bit n on (none when n is
// past its end): the bits past a bitmap's length, which Arrow arrays
// return along with the rest of the bitmap's last byte.
func ClearBitsFrom(dst []byte, n int) {
	n = max(n, 0)
	if i := n / 8; i < len(dst) {
		dst[i] &= byte(1)<<(n%8) - 1
		clear(dst[i+1:])
	}
}

// CopyBits copies bits [srcOffset, srcOffset+n) of src to bits
// [dstOffset, dstOffset+n) of dst, leaving every other bit of dst as it was.
// The two ranges must not overlap in memory. It returns an error wrapping
// [ErrShortBuffer] when either slice is too small, writing nothing.
func CopyBits(dst []byte, dstOffset int, src []byte, srcOffset, n int) error {
	if err := checkBitRange("CopyBits destination", len(dst), dstOffset, n); err != nil {
		return err
	}
	if err := checkBitRange("CopyBits source", len(src), srcOffset, n); err != nil {
		return err
	}
	copyBits(dst, uint(dstOffset), src, uint(srcOffset), uint(n))
	return nil
}

// CountSetBits returns the number of set bits in bits [offset, offset+n) of
// src. It returns an error wrapping [ErrShortBuffer] when src is too small.
func CountSetBits(src []byte, offset, n int) (int, error) {
	if err := checkBitRange("CountSetBits", len(src), offset, n); err != nil {
		return 0, err
	}
	return countBits(src, uint(offset), uint(n)), nil
}

// checkBitRange reports whether bits [offset, offset+n) lie within a bitmap
// of size bytes.
func checkBitRange(what string, size, offset, n int) error {
	if offset < 0 || n < 0 || uint64(offset)+uint64(n) > 8*uint64(size) {
		return fmt.Errorf("%w: %s: bits [%d, %d+%d) outside a %d-byte bitmap", ErrShortBuffer, what, offset, offset, n, size)
	}
	return nil
}

// setBit sets bit i of dst to v.
func setBit(dst []byte, i uint, v bool) {
	m := byte(1) << (i & 7)
	if v {
		dst[i>>3] |= m
	} else {
		dst[i>>3] &^= m
	}
}

// lowMask returns a byte with its k (at most 8) low bits set.
func lowMask(k uint) byte { return byte(1<<k - 1) }

// fillBits is FillBits without the checks: partial bytes at either end are
// merged under a mask and whole bytes between them are set outright.
func fillBits(dst []byte, offset, n uint, v bool) {
	if n == 0 {
		return
	}
	var fill byte
	if v {
		fill = 0xff
	}
	i, shift := offset>>3, offset&7
	if shift != 0 {
		k := min(8-shift, n)
		m := lowMask(k) << shift
		dst[i] = dst[i]&^m | fill&m
		n -= k
		i++
	}
	whole := n >> 3
	mid := dst[i : i+whole]
	if v {
		for len(mid) >= 8 {
			binary.LittleEndian.PutUint64(mid, ^uint64(0))
			mid = mid[8:]
		}
		for j := range mid {
			mid[j] = 0xff
		}
	} else {
		clear(mid)
	}
	i += whole
	if r := n & 7; r != 0 {
		m := lowMask(r)
		dst[i] = dst[i]&^m | fill&m
	}
}

// loadBits returns the k (at most 57) bits of src starting at bit pos in the
// low bits of the result, reading only the bytes those bits occupy.
func loadBits(src []byte, pos, k uint) uint64 {
	at, shift := pos>>3, pos&7
	end := (pos + k + 7) >> 3
	var v uint64
	if at+8 <= uint(len(src)) {
		v = binary.LittleEndian.Uint64(src[at:])
	} else {
		for j := at; j < end; j++ {
			v |= uint64(src[j]) << (8 * (j - at))
		}
	}
	return v >> shift & (1<<k - 1)
}

// copyBits is CopyBits without the checks. Bits up to the first byte
// boundary of dst are merged as one partial byte. After that, a source on a
// byte boundary is copied with memmove; otherwise 64 bits move per step
// while the source has a ninth byte to shift in, then a byte per step. The
// final partial byte is merged under a mask.
func copyBits(dst []byte, dstOff uint, src []byte, srcOff, n uint) {
	if shift := dstOff & 7; shift != 0 && n > 0 {
		k := min(8-shift, n)
		i := dstOff >> 3
		m := lowMask(k) << shift
		dst[i] = dst[i]&^m | byte(loadBits(src, srcOff, k))<<shift&m
		dstOff, srcOff, n = dstOff+k, srcOff+k, n-k
	}
	d := dst[dstOff>>3:]
	at, shift := srcOff>>3, srcOff&7
	if shift == 0 {
		c := copy(d[:n>>3], src[at:])
		d, at = d[c:], at+uint(c)
	} else {
		for n >= 64 && at+9 <= uint(len(src)) {
			w := binary.LittleEndian.Uint64(src[at:])>>shift | uint64(src[at+8])<<(64-shift)
			binary.LittleEndian.PutUint64(d, w)
			d, at, n = d[8:], at+8, n-64
		}
		for n >= 8 {
			d[0] = src[at]>>shift | src[at+1]<<(8-shift)
			d, at, n = d[1:], at+1, n-8
		}
	}
	if n&7 > 0 {
		m := lowMask(n & 7)
		d[0] = d[0]&^m | byte(loadBits(src, at*8+shift, n&7))&m
	}
}

// countBits is CountSetBits without the checks.
func countBits(src []byte, offset, n uint) int {
	if n == 0 {
		return 0
	}
	c := 0
	i, shift := offset>>3, offset&7
	if shift != 0 {
		k := min(8-shift, n)
		c += bits.OnesCount8(src[i] >> shift & lowMask(k))
		n -= k
		i++
	}
	s := src[i : i+(n+7)>>3]
	for len(s) >= 8 && n >= 64 {
		c += bits.OnesCount64(binary.LittleEndian.Uint64(s))
		s, n = s[8:], n-64
	}
	for n >= 8 {
		c += bits.OnesCount8(s[0])
		s, n = s[1:], n-8
	}
	if n > 0 {
		c += bits.OnesCount8(s[0] & lowMask(n))
	}
	return c
}
