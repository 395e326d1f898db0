package kernels

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/quiverio/quiver/internal/arrowmem"
)

// DecodeUint32 decodes the next len(dst) values of a stream of bit width at
// most 32 into dst and returns how many it decoded: len(dst), or fewer with
// an error when the stream is corrupt or ends early (see [RLEDecoder]).
func (d *RLEDecoder) DecodeUint32(dst []uint32) (int, error) {
	if d.width > 32 {
		return 0, fmt.Errorf("%w: RLE bit width %d above 32", ErrOutOfRange, d.width)
	}
	return rleDecode(d, dst, 1<<32, unpack32)
}

// DecodeIndices is [RLEDecoder.DecodeUint32] for dictionary indices: every
// index must be below dictLen, the number of dictionary entries, or the
// error wraps [ErrOutOfRange]. Values before the first bad index are
// decoded and counted.
func (d *RLEDecoder) DecodeIndices(dst []uint32, dictLen int) (int, error) {
	if d.width > 32 || dictLen < 0 {
		return 0, fmt.Errorf("%w: RLE bit width %d (at most 32), dictionary length %d", ErrOutOfRange, d.width, dictLen)
	}
	return rleDecode(d, dst, uint64(dictLen), unpack32)
}

// DecodeLevels is [RLEDecoder.DecodeUint32] for definition or repetition
// levels: the bit width must be at most 16 and every level at most maxLevel,
// or the error wraps [ErrOutOfRange].
func (d *RLEDecoder) DecodeLevels(dst []int16, maxLevel int16) (int, error) {
	if err := checkMaxLevel(int(maxLevel), d.width, 16); err != nil {
		return 0, err
	}
	return rleDecode(d, dst, uint64(maxLevel)+1, unpackLevels)
}

// DecodeLevelsUint8 is [RLEDecoder.DecodeLevels] for levels held as bytes;
// the bit width must be at most 8.
func (d *RLEDecoder) DecodeLevelsUint8(dst []uint8, maxLevel uint8) (int, error) {
	if err := checkMaxLevel(int(maxLevel), d.width, 8); err != nil {
		return 0, err
	}
	return rleDecode(d, dst, uint64(maxLevel)+1, unpack8)
}

// DecodeBitmap decodes the next n values of a stream of bit width 1 (RLE
// booleans, or the definition levels of a flat optional column) into bits
// [offset, offset+n) of dst in Arrow's LSB-first order, leaving dst's other
// bits as they were. It returns the number of set bits written, so for
// definition levels n minus the result is the null count. Repeated runs
// become bit-range fills and bit-packed runs are copied as bits, without an
// intermediate array. On error the count covers the bits written so far.
func (d *RLEDecoder) DecodeBitmap(dst []byte, offset, n int) (int, error) {
	if d.width != 1 {
		return 0, fmt.Errorf("%w: bitmap from an RLE stream of bit width %d, want 1", ErrOutOfRange, d.width)
	}
	if err := checkBitRange("DecodeBitmap", len(dst), offset, n); err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, nil
	}
	// Bits collect in acc, a little-endian word whose low nacc bits are
	// filled, stored whole at dst[at:] and counted when it fills. It
	// starts with the bits of dst below offset in its first byte, which
	// are not counted. A whole word lies within the checked bit range, so
	// its store stays in dst.
	at, nacc := offset>>3, uint(offset&7)
	acc := uint64(dst[at]) & (1<<nacc - 1)
	set := -bits.OnesCount64(acc)
	var err error
	for n > 0 {
		switch {
		case d.rleLeft > 0:
			k := min(d.rleLeft, n)
			d.rleLeft -= k
			d.consumed += k
			n -= k
			fill := -d.rleValue // all ones or zero: the value is one bit
			t := min(uint(k), 64-nacc)
			acc |= fill >> (64 - t) << nacc
			nacc += t
			if nacc < 64 {
				continue
			}
			binary.LittleEndian.PutUint64(dst[at:], acc)
			set += bits.OnesCount64(acc)
			at += 8
			rest := uint(k) - t
			for ; rest >= 64; rest -= 64 {
				binary.LittleEndian.PutUint64(dst[at:], fill)
				at += 8
				set += int(fill & 64) // 64 for a word of ones
			}
			acc, nacc = fill>>(64-rest), rest
		case d.bpLeft > 0:
			k := min(d.bpLeft, n, d.bpAvail-d.bpPos)
			if k == 0 {
				err = d.truncated()
				n = 0
				break
			}
			src, bit := d.bpData, uint(d.bpPos)
			d.bpPos += k
			d.bpLeft -= k
			d.consumed += k
			n -= k
			// Whole words while src has a ninth byte to shift in.
			for ; k >= 64 && int(bit>>3)+9 <= len(src); k -= 64 {
				b, sh := bit>>3, bit&7
				v := binary.LittleEndian.Uint64(src[b:])>>sh | uint64(src[b+8])<<(64-sh)
				acc |= v << nacc
				binary.LittleEndian.PutUint64(dst[at:], acc)
				set += bits.OnesCount64(acc)
				at += 8
				acc = v >> (64 - nacc)
				bit += 64
			}
			for k > 0 {
				t := min(uint(k), 64-nacc, 57)
				acc |= loadBits(src, bit, t) << nacc
				nacc += t
				bit += t
				k -= int(t)
				if nacc == 64 {
					binary.LittleEndian.PutUint64(dst[at:], acc)
					set += bits.OnesCount64(acc)
					at += 8
					acc, nacc = 0, 0
				}
			}
		default:
			// A one-byte header of a whole run, read here; anything else
			// (long runs, bad values, a short final run) in nextRun.
			if p := d.pos; p+1 < len(d.src) && d.src[p] < 0x80 {
				h := d.src[p]
				if h&1 == 0 && d.src[p+1] <= 1 {
					d.rleLeft, d.rleValue, d.pos = int(h>>1), uint64(d.src[p+1]), p+2
					continue
				}
				if size := int(h >> 1); h&1 == 1 && size < len(d.src)-p {
					d.bpData = d.src[p+1 : p+1+size]
					d.bpLeft, d.bpPos, d.bpAvail, d.pos = 8*size, 0, 8*size, p+1+size
					continue
				}
			}
			if err = d.nextRun(n); err != nil {
				n = 0
			}
		}
	}
	// The last, partial word: its bytes up to the last bit, the last one
	// merged with the bits of dst above it.
	for ; nacc >= 8; nacc -= 8 {
		dst[at] = byte(acc)
		at++
		set += bits.OnesCount8(byte(acc))
		acc >>= 8
	}
	if nacc > 0 {
		m := lowMask(nacc)
		dst[at] = dst[at]&^m | byte(acc)&m
		set += bits.OnesCount8(byte(acc) & m)
	}
	return set, err
}

// Skip moves past the next n values without decoding them and returns how
// many it skipped: n, or fewer with an error when the stream ends early.
// Skipped values are not checked against any bound.
func (d *RLEDecoder) Skip(n int) (int, error) {
	if d.width > 32 {
		return 0, fmt.Errorf("%w: RLE bit width %d above 32", ErrOutOfRange, d.width)
	}
	done := 0
	for done < n {
		switch {
		case d.rleLeft > 0:
			k := min(d.rleLeft, n-done)
			d.rleLeft -= k
			done += k
		case d.bpLeft > 0:
			k := min(d.bpLeft, n-done, d.bpAvail-d.bpPos)
			if k == 0 {
				d.consumed += done
				return done, d.truncated()
			}
			d.bpPos += k
			d.bpLeft -= k
			done += k
		default:
			if err := d.nextRun(n - done); err != nil {
				d.consumed += done
				return done, err
			}
		}
	}
	d.consumed += done
	return done, nil
}

// DefLevelsToBitmap decodes the RLE/bit-packing hybrid definition levels of
// a flat optional column (maximum definition level 1, so bit width 1) from
// src straight into an Arrow validity bitmap: bit offset+i of dst is set when
// value i is present. It reads n levels, leaves dst's other bits as they
// were, and returns the null count. src starts at the first run header (after
// the 4-byte length of data page v1). Errors are those of
// [RLEDecoder.DecodeBitmap].
func DefLevelsToBitmap(dst []byte, offset int, src []byte, n int) (int, error) {
	var d RLEDecoder
	d.Reset(src, 1)
	set, err := d.DecodeBitmap(dst, offset, n)
	if err != nil {
		return 0, err
	}
	return n - set, nil
}

// rleDecode decodes len(dst) values, each below bound, with unpack (one of
// the dispatched unpack kernels) for bit-packed runs.
func rleDecode[T packable](d *RLEDecoder, dst []T, bound uint64, unpack func([]T, []byte, uint)) (int, error) {
	check := bound < 1<<d.width // otherwise every value of the width is in range
	n := 0
	for n < len(dst) {
		switch {
		case d.rleLeft > 0:
			if check && d.rleValue >= bound {
				return n, d.outOfRange(d.rleValue, bound)
			}
			k := min(d.rleLeft, len(dst)-n)
			fillValues(dst[n:n+k], T(d.rleValue))
			d.rleLeft -= k
			d.consumed += k
			n += k
		case d.bpLeft > 0:
			k, err := rleUnpack(d, dst[n:], unpack)
			if check {
				if i, v := firstAtLeast(dst[n:n+k], bound); i >= 0 {
					d.consumed += i
					return n + i, d.outOfRange(v, bound)
				}
			}
			d.consumed += k
			n += k
			if err != nil {
				return n, err
			}
		default:
			if err := d.nextRun(len(dst) - n); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// outOfRange is the error for a decoded value v at or above bound.
func (d *RLEDecoder) outOfRange(v, bound uint64) error {
	return fmt.Errorf("%w: RLE value %d after %d values (before byte %d), bound %d", ErrOutOfRange, v, d.consumed, d.pos, bound)
}

// rleUnpack copies as many values of the current bit-packed run into dst as
// both hold. A group of eight already partly read is unpacked whole into a
// local array; the rest start on a group boundary and go to unpack directly.
func rleUnpack[T packable](d *RLEDecoder, dst []T, unpack func([]T, []byte, uint)) (int, error) {
	k := min(d.bpLeft, len(dst))
	var err error
	if left := d.bpAvail - d.bpPos; k > left {
		k, err = left, d.truncated()
	}
	w := int(d.width)
	i := 0
	if r := d.bpPos & 7; r != 0 && k > 0 {
		g0 := d.bpPos - r
		var g [8]T
		m := min(8, d.bpAvail-g0)
		unpackTail(g[:m], d.bpData[g0/8*w:], d.width)
		i = copy(dst[:k], g[r:m])
	}
	if i < k {
		at := (d.bpPos + i) / 8 * w
		unpack(dst[i:k], d.bpData[at:at+((k-i)*w+7)/8], d.width)
	}
	d.bpPos += k
	d.bpLeft -= k
	return k, err
}

// truncated is the error for a bit-packed run whose bytes end before a
// value that is wanted.
func (d *RLEDecoder) truncated() error {
	return fmt.Errorf("%w: bit-packed run ending at byte %d holds %d of its %d values, more wanted after %d values",
		ErrCorrupt, d.pos, d.bpAvail, d.bpPos+d.bpLeft, d.consumed)
}

// fillValues sets every element of s to v: a plain loop for a few values,
// memclr for zero, 16-byte stores of v repeated (the last one overlapping)
// for the run lengths RLE-hybrid writers usually emit, and doubling copies
// (memmove) for long runs.
func fillValues[T packable](s []T, v T) {
	size := int(unsafe.Sizeof(v))
	if len(s)*size < 16 {
		for i := range s {
			s[i] = v
		}
		return
	}
	if v == 0 {
		clear(s)
		return
	}
	var w uint64 // v repeated over 8 bytes
	switch size {
	case 1:
		w = uint64(uint8(v)) * 0x0101_0101_0101_0101
	case 2:
		w = uint64(uint16(v)) * 0x0001_0001_0001_0001
	case 4:
		w = uint64(uint32(v)) * 0x0000_0001_0000_0001
	default:
		w = uint64(v)
	}
	all := arrowmem.Bytes(s)
	var pat [16]byte
	binary.LittleEndian.PutUint64(pat[:8], w)
	binary.LittleEndian.PutUint64(pat[8:], w)
	if len(all) > 2048 {
		*(*[16]byte)(all) = pat
		for i := 16; i < len(all); i *= 2 {
			copy(all[i:], all[:i])
		}
		return
	}
	// 16 is a multiple of size, so every 16-byte store, the overlapping
	// last one included, starts on a value.
	for b := all; len(b) >= 16; b = b[16:] {
		*(*[16]byte)(b) = pat
	}
	*(*[16]byte)(all[len(all)-16:]) = pat
}

// firstAtLeast returns the index and value of the first element of s at or
// above bound, or -1. The common, clean case is one branch-free pass: four
// 16-bit values (levels) to a word, or a max over wider ones.
func firstAtLeast[T packable](s []T, bound uint64) (int, uint64) {
	var z T
	if unsafe.Sizeof(z) == 2 && bound >= 1 && bound <= 0x8000 {
		if !anyLaneAtLeast(arrowmem.Bytes(s), bound) {
			return -1, 0
		}
	} else {
		var m uint64
		for _, v := range s {
			m = max(m, uint64(v))
		}
		if m < bound {
			return -1, 0
		}
	}
	for i, v := range s {
		if uint64(v) >= bound {
			return i, uint64(v)
		}
	}
	return -1, 0
}

// anyLaneAtLeast reports whether a 16-bit little-endian lane of b is at
// least bound (1 to 0x8000), as an unsigned number. Per word of four
// lanes: a lane with its top bit set is, and the low 15 bits of the others
// plus 0x8000-bound carry into the top bit exactly when they are, without
// carrying into the next lane (at most 0x7fff+0x7fff).
func anyLaneAtLeast(b []byte, bound uint64) bool {
	const high = 0x8000_8000_8000_8000
	c := (0x8000 - bound) * 0x0001_0001_0001_0001
	var acc uint64
	for len(b) >= 8 {
		w := binary.LittleEndian.Uint64(b)
		acc |= w | (w&^high + c)
		b = b[8:]
	}
	for ; len(b) >= 2; b = b[2:] {
		w := uint64(binary.LittleEndian.Uint16(b))
		acc |= w | (w&^0x8000 + c&0xffff)
	}
	return acc&high != 0
}
