package kernels

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// Spacing moves values between the dense form pages store (only non-null
// values) and Arrow's spaced form (one slot per row, nulls included),
// guided by an Arrow validity bitmap read from a bit offset. Bitmaps are
// walked 64 bits at a time: a word of valid slots moves as one block, a
// word of nulls is skipped, and only mixed words go bit by bit.

// Spread scatters the dense values src into the slots of dst whose
// validity bit (bits [offset, offset+len(dst)) of valid) is set, in order,
// and zeroes the null slots. src may be dst's own prefix: decode the
// dense values into dst[:count] and spread them in place (the walk runs
// from the end). It returns the number of values placed. A bitmap too
// small for len(dst) slots wraps [ErrShortBuffer]; fewer than the
// bitmap's count of values in src, [ErrCorrupt].
func Spread[T any](dst, src []T, valid []byte, offset int) (int, error) {
	count, err := CountSetBits(valid, offset, len(dst))
	if err != nil {
		return 0, err
	}
	if len(src) < count {
		return 0, fmt.Errorf("%w: spread: %d values for %d valid slots", ErrCorrupt, len(src), count)
	}
	var zero T
	k := count
	for hi := len(dst); hi > 0; {
		lo := (hi - 1) &^ 63
		w := validityWord(valid, offset+lo, hi-lo)
		switch {
		case w == 0:
			clear(dst[lo:hi])
		case w == lowBits(hi-lo):
			copy(dst[lo:hi], src[k-(hi-lo):k])
			k -= hi - lo
		case bits.OnesCount64(^w&lowBits(hi-lo)) <= spreadRunNulls:
			// Few nulls: the runs of values between them move as
			// blocks, top down (in place, each run moves up, above the
			// values still to move).
			j := hi
			for m := ^w & lowBits(hi-lo); m != 0; {
				z := lo + 63 - bits.LeadingZeros64(m)
				m &^= 1 << (z - lo)
				n := j - z - 1
				copy(dst[z+1:j], src[k-n:k])
				k -= n
				dst[z] = zero
				j = z
			}
			copy(dst[lo:j], src[k-(j-lo):k])
			k -= j - lo
		default:
			for j := hi - 1; j >= lo; j-- {
				if w>>(j-lo)&1 != 0 {
					k--
					dst[j] = src[k]
				} else {
					dst[j] = zero
				}
			}
		}
		hi = lo
	}
	return count, nil
}

// spreadRunNulls is the most nulls a 64-slot word may have for Spread to
// move its values run by run rather than slot by slot. Measured on 8-byte
// values with a tenth of the slots null (BenchmarkSpread).
const spreadRunNulls = 8

// SpreadBits is [Spread] for booleans in an Arrow bitmap, in place: the
// dense values are bits [offset, offset+count) of dst, where count is the
// number of validity bits set in [offset, offset+n) of valid, and they move
// to the valid slots of [offset, offset+n) of dst, in order, with null
// slots cleared. It works a 64-slot word at a time from the end. It returns
// count; a bitmap too small for the slots wraps [ErrShortBuffer].
func SpreadBits(dst []byte, offset, n int, valid []byte) (int, error) {
	count, err := CountSetBits(valid, offset, n)
	if err != nil {
		return 0, err
	}
	if err := checkBitRange("SpreadBits destination", len(dst), offset, n); err != nil {
		return 0, err
	}
	k := count
	for hi := n; hi > 0; {
		lo := (hi - 1) &^ 63
		m := validityWord(valid, offset+lo, hi-lo)
		c := bits.OnesCount64(m)
		var out uint64
		if c > 0 {
			// The word's values, read before the word is written: every
			// value below them lies below offset+lo.
			out = validityWord(dst, offset+k-c, c)
			if m != lowBits(hi-lo) {
				out = depositBits(out, m)
			}
		}
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], out)
		copyBits(dst, uint(offset+lo), w[:], 0, uint(hi-lo))
		k -= c
		hi = lo
	}
	return count, nil
}

// depositBits places the low bits of d, in order, at the positions of the
// set bits of m (a parallel bit deposit).
func depositBits(d, m uint64) uint64 {
	var out uint64
	for ; m != 0; m &= m - 1 {
		out |= m & -m & -(d & 1)
		d >>= 1
	}
	return out
}

// SpreadOffsets is [Spread] for Arrow offsets: src holds the count+1
// offsets of the dense values, dst receives len(dst)-1 slots' offsets, and
// a null slot repeats the previous offset (an empty value). src may be
// dst's own prefix. Errors are those of Spread; an empty dst or src wraps
// [ErrShortBuffer].
func SpreadOffsets[O Offset](dst, src []O, valid []byte, offset int) (int, error) {
	if len(dst) == 0 || len(src) == 0 {
		return 0, fmt.Errorf("%w: spread offsets: no room for offsets[0]", ErrShortBuffer)
	}
	n := len(dst) - 1
	count, err := CountSetBits(valid, offset, n)
	if err != nil {
		return 0, err
	}
	if len(src)-1 < count {
		return 0, fmt.Errorf("%w: spread offsets: %d values for %d valid slots", ErrCorrupt, len(src)-1, count)
	}
	// Slot j's end offset is dst[j+1] = src[number of valid slots <= j].
	k := count
	for hi := n; hi > 0; {
		lo := (hi - 1) &^ 63
		w := validityWord(valid, offset+lo, hi-lo)
		switch {
		case w == 0:
			fillSlice(dst[lo+1:hi+1], src[k])
		case w == lowBits(hi-lo):
			copy(dst[lo+1:hi+1], src[k-(hi-lo)+1:k+1])
			k -= hi - lo
		default:
			for j := hi - 1; j >= lo; j-- {
				dst[j+1] = src[k]
				k -= int(w >> (j - lo) & 1)
			}
		}
		hi = lo
	}
	dst[0] = src[0]
	return count, nil
}

// Compact gathers the values of the slots of src whose validity bit (bits
// [offset, offset+len(src)) of valid) is set into the front of dst, in
// order, and returns how many there are: the dense form a writer encodes.
// dst may be src itself. A bitmap too small for len(src) slots, or a dst
// too small for the valid values, wraps [ErrShortBuffer].
func Compact[T any](dst, src []T, valid []byte, offset int) (int, error) {
	count, err := CountSetBits(valid, offset, len(src))
	if err != nil {
		return 0, err
	}
	if len(dst) < count {
		return 0, fmt.Errorf("%w: compact: %d slots for %d valid values", ErrShortBuffer, len(dst), count)
	}
	k := 0
	eachValidRun(valid, offset, len(src), func(lo, hi int) {
		k += copy(dst[k:], src[lo:hi])
	})
	return count, nil
}

// CompactByteArray copies the byte-array values of the valid slots of
// src (value i is srcData[srcOffsets[i]:srcOffsets[i+1]], validity bits
// [offset, offset+len(srcOffsets)-1) of valid) to dstOffsets and dstData,
// dense, and returns the number of values; the caller sets dstOffsets[0]
// and the values land in dstData[dstOffsets[0]:]. Source offsets that
// decrease or point outside srcData wrap [ErrOutOfRange]; a bitmap, offsets
// or data too small, [ErrShortBuffer]; values past the range of O,
// [ErrCorrupt].
func CompactByteArray[O Offset](dstOffsets []O, dstData []byte, srcOffsets []O, srcData []byte, valid []byte, offset int) (int, error) {
	n := max(len(srcOffsets)-1, 0)
	count, err := CountSetBits(valid, offset, n)
	if err != nil {
		return 0, err
	}
	if len(dstOffsets) < count+1 || dstOffsets[0] < 0 || int64(dstOffsets[0]) > int64(len(dstData)) {
		return 0, fmt.Errorf("%w: compact: %d offsets for %d valid values, or offsets[0] outside %d data bytes", ErrShortBuffer, len(dstOffsets), count, len(dstData))
	}
	d := int64(dstOffsets[0])
	k := 0
	eachValidRun(valid, offset, n, func(lo, hi int) {
		if err != nil {
			return
		}
		s, e := int64(srcOffsets[lo]), int64(srcOffsets[hi])
		if s < 0 || s > e || e > int64(len(srcData)) {
			err = fmt.Errorf("%w: compact: values %d..%d span bytes %d..%d of %d", ErrOutOfRange, lo, hi, s, e, len(srcData))
			return
		}
		if e-s > int64(len(dstData))-d {
			err = fmt.Errorf("%w: compact: values %d..%d need data up to byte %d, have %d", ErrShortBuffer, lo, hi, d+e-s, len(dstData))
			return
		}
		if d+e-s > maxOffset[O]() {
			err = fmt.Errorf("%w: compact: values %d..%d end at offset %d", ErrOffsetOverflow, lo, hi, d+e-s)
			return
		}
		copy(dstData[d:], srcData[s:e])
		for i := lo; i < hi; i++ {
			l := int64(srcOffsets[i+1]) - int64(srcOffsets[i])
			if l < 0 {
				err = fmt.Errorf("%w: compact: value %d has length %d", ErrOutOfRange, i, l)
				return
			}
			d += l
			k++
			dstOffsets[k] = O(d)
		}
	})
	if err != nil {
		return 0, err
	}
	return count, nil
}

// eachValidRun calls fn(lo, hi) for every maximal run of set bits within
// each 64-bit word of bits [offset, offset+n) of valid, in order; the
// range must lie within valid.
func eachValidRun(valid []byte, offset, n int, fn func(lo, hi int)) {
	for base := 0; base < n; base += 64 {
		k := min(64, n-base)
		w := validityWord(valid, offset+base, k)
		for w != 0 {
			s := bits.TrailingZeros64(w)
			l := bits.TrailingZeros64(^(w >> s))
			fn(base+s, base+s+l)
			w &^= lowBits(s + l)
		}
	}
}

// validityWord returns bits [pos, pos+k) of bm (k at most 64) in the low
// bits of the result; the bits must lie within bm.
func validityWord(bm []byte, pos, k int) uint64 {
	at, shift := pos>>3, uint(pos&7)
	var w uint64
	if at+9 <= len(bm) {
		w = binary.LittleEndian.Uint64(bm[at:])>>shift | uint64(bm[at+8])<<(64-shift)
	} else {
		// Near the end of bm, so the bits fit in the bytes from at on.
		for j := at; j < len(bm) && j < at+8; j++ {
			w |= uint64(bm[j]) << (8 * uint(j-at))
		}
		w >>= shift
	}
	return w & lowBits(k)
}

// lowBits returns a word with its k (0 to 64) low bits set.
func lowBits(k int) uint64 { return ^uint64(0) >> (64 - uint(k)) }

// fillSlice sets every element of s to v.
func fillSlice[T any](s []T, v T) {
	for i := range s {
		s[i] = v
	}
}
