package kernels

import (
	"encoding/binary"
	"fmt"
	"slices"
)

// AppendRLE appends vals, each at most width bits (0 to 32), to dst in the
// RLE/bit-packing hybrid encoding (without a length prefix) and returns the
// extended slice. It is the one-pass alternative to [RLEEncoder] for
// writers that hold a whole page of values and want speed over the last
// bytes: a run of equal values becomes an RLE run when, after lending the
// open bit-packed group the values it lacks, at least eight remain and
// their bits cost more than the run's header and value; everything else is
// bit-packed, one bit-packed run between RLE runs. Its output is about the
// size of arrow-go's encoder's (the tests hold it within 1% of that
// rule's, in practice a little under); RLEEncoder's planned output is
// smaller at several times the cost per value. A value wider than width
// (or a negative level) is an error wrapping [ErrOutOfRange].
func AppendRLE[T uint32 | int16](dst []byte, vals []T, width uint) ([]byte, error) {
	return appendRLE(dst, vals, width, true)
}

// appendRLE is AppendRLE, passing over runs too short to matter a quad at
// a time (runSkip) when skip is set; the tests hold the two ways alike.
func appendRLE[T uint32 | int16](dst []byte, vals []T, width uint, skip bool) ([]byte, error) {
	if width > 32 {
		return dst, fmt.Errorf("%w: RLE bit width %d above 32", ErrOutOfRange, width)
	}
	maxV := uint64(1)<<width - 1
	vb := int(width+7) / 8
	lit := 0 // start of the values not yet written
	skipper, skipping := newRunSkip(vals, width)
	skipping = skipping && skip
	for i := 0; i < len(vals); {
		if skipping {
			i = skipper.next(i)
		}
		v := vals[i]
		if uint64(v) > maxV { // a negative int16 converts to a huge value
			return dst, fmt.Errorf("%w: value %d at %d does not fit %d bits", ErrOutOfRange, v, i, width)
		}
		j := i + 1
		for j < len(vals) && vals[j] == v {
			j++
		}
		lend := (8 - (i-lit)%8) % 8
		if m := j - i - lend; m >= 8 && m*int(width) > 8*(varintLen(uint64(m)<<1)+vb+1) {
			dst = appendPackedRun(dst, vals[lit:i+lend], width)
			dst = binary.AppendUvarint(dst, uint64(m)<<1)
			for b := range vb {
				dst = append(dst, byte(uint64(v)>>(8*b)))
			}
			lit = j
		}
		i = j
	}
	return appendPackedRun(dst, vals[lit:], width), nil
}

// appendPackedRun appends vals as one bit-packed run (nothing for no
// values), zero-padding the last group.
func appendPackedRun[T uint32 | int16](dst []byte, vals []T, width uint) []byte {
	if len(vals) == 0 {
		return dst
	}
	groups := (len(vals) + 7) / 8
	dst = binary.AppendUvarint(dst, uint64(groups)<<1|1)
	n := len(dst)
	size := groups * int(width)
	dst = slices.Grow(dst, size)[:n+size]
	k := (len(vals)*int(width) + 7) / 8
	switch v := any(vals).(type) {
	case []uint32:
		pack32(dst[n:n+k], v, width)
	case []int16:
		packGeneric(dst[n:n+k], v, width)
	}
	clear(dst[n+k:])
	return dst
}
