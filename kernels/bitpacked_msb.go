package kernels

import (
	"encoding/binary"
	"fmt"
)

// UnpackLevelsMSB decodes len(dst) levels of the deprecated BIT_PACKED
// encoding: values of width bits (at most 16) back to back, most significant
// bit first, the last byte padded with zeros. It returns the bytes consumed,
// (len(dst)*width+7)/8, or an error wrapping [ErrOutOfRange] for a width
// above 16, a negative maxLevel or a level above maxLevel (dst then holds
// every level, the message names the first bad one), and [ErrCorrupt] when
// src is too short (nothing is decoded).
func UnpackLevelsMSB(dst []int16, src []byte, width uint, maxLevel int16) (int, error) {
	if err := checkMaxLevel(int(maxLevel), width, 16); err != nil {
		return 0, err
	}
	need, err := packedLen(len(dst), len(src), width, 16)
	if err != nil {
		return 0, err
	}
	if i := unpackMSB(dst, src[:need], width, maxLevel); i >= 0 {
		return 0, fmt.Errorf("%w: BIT_PACKED level %d at index %d above max level %d", ErrOutOfRange, dst[i], i, maxLevel)
	}
	return need, nil
}

// PackLevelsMSB writes levels in the deprecated BIT_PACKED encoding (width
// at most 16, most significant bit first, the last byte padded with zeros)
// into dst and returns the bytes written, (len(src)*width+7)/8. Bits of a
// level above width are ignored. It returns an error wrapping
// [ErrOutOfRange] for a width above 16 and [ErrShortBuffer] when dst is too
// small, writing nothing.
func PackLevelsMSB(dst []byte, src []int16, width uint) (int, error) {
	need, err := packDstLen(len(src), len(dst), width, 16)
	if err != nil {
		return 0, err
	}
	packMSB(dst[:need], src, width)
	return need, nil
}

// unpackMSB decodes len(dst) levels from src, which holds exactly the bytes
// they occupy, and returns the index of the first level above maxLevel, or
// -1. Each level comes from a big-endian 32-bit load while four bytes
// remain, from single bytes after that.
func unpackMSB(dst []int16, src []byte, width uint, maxLevel int16) int {
	bit := uint(0)
	bad := -1
	for i := range dst {
		at, shift := bit>>3, bit&7
		var v uint32
		if at+4 <= uint(len(src)) {
			v = binary.BigEndian.Uint32(src[at:]) << shift >> (32 - width)
		} else {
			var x uint32
			for k := uint(0); k < 4; k++ {
				x <<= 8
				if at+k < uint(len(src)) {
					x |= uint32(src[at+k])
				}
			}
			v = x << shift >> (32 - width)
		}
		dst[i] = int16(v) // a shift by 32 leaves 0 at width 0
		if (int16(v) > maxLevel || int16(v) < 0) && bad < 0 {
			bad = i
		}
		bit += width
	}
	return bad
}

// packMSB writes levels most significant bit first through an accumulator.
func packMSB(dst []byte, src []int16, width uint) {
	mask := uint64(1)<<width - 1
	var acc uint64
	nacc := uint(0)
	o := 0
	for _, x := range src {
		acc = acc<<width | uint64(uint16(x))&mask
		nacc += width
		for nacc >= 8 {
			nacc -= 8
			dst[o] = byte(acc >> nacc)
			o++
		}
	}
	if nacc > 0 {
		dst[o] = byte(acc << (8 - nacc))
	}
}
