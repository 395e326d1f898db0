package kernels

import (
	"bytes"
	"fmt"
	"math"
)

// Statistics: the smallest and largest values of a column chunk or page,
// skipping nulls (by an Arrow validity bitmap; nil means every slot is
// valid) and, for floating point, NaN, following the Parquet rules for
// min/max statistics.

// Integer is the set of integer types statistics are kept for, compared as
// their Go type compares (signed or unsigned).
type Integer interface {
	~int32 | ~int64 | ~uint32 | ~uint64
}

// Float is the set of floating-point types statistics are kept for.
type Float interface{ ~float32 | ~float64 }

// MinMax returns the smallest and largest of the valid values of v
// (validity bits [offset, offset+len(v)) of valid, or all of them when
// valid is nil); ok is false when there is none. A bitmap too small wraps
// [ErrShortBuffer].
func MinMax[T Integer](v []T, valid []byte, offset int) (lo, hi T, ok bool, err error) {
	return minMaxOf(v, valid, offset, minMaxRun[T])
}

// MinMaxFloat is [MinMax] for floating-point values: NaNs are left out (all
// NaN reports ok false), and zeros follow the Parquet rule that a zero
// minimum is written as -0 and a zero maximum as +0, so that readers
// comparing against either zero do not wrongly skip the chunk.
func MinMaxFloat[T Float](v []T, valid []byte, offset int) (lo, hi T, ok bool, err error) {
	lo, hi, ok, err = minMaxOf(v, valid, offset, minMaxFloatRun[T])
	if ok {
		if lo == 0 {
			lo = T(math.Copysign(0, -1))
		}
		if hi == 0 {
			hi = 0
		}
	}
	return lo, hi, ok, err
}

// MinMaxByteArray returns the positions of the smallest and largest valid
// byte-array values (value i is data[offsets[i]:offsets[i+1]]) in unsigned
// lexicographic order, the first of equal values; ok is false when there
// is none. Offsets that decrease or point outside data wrap
// [ErrOutOfRange]; a bitmap too small, [ErrShortBuffer].
func MinMaxByteArray[O Offset](offsets []O, data []byte, valid []byte, offset int) (minIdx, maxIdx int, ok bool, err error) {
	n := max(len(offsets)-1, 0)
	if valid != nil {
		if err := checkBitRange("MinMaxByteArray", len(valid), offset, n); err != nil {
			return 0, 0, false, err
		}
	}
	var lo, hi []byte
	visit(valid, offset, n, func(a, b int) {
		for i := a; i < b && err == nil; i++ {
			s, e := int64(offsets[i]), int64(offsets[i+1])
			if s < 0 || s > e || e > int64(len(data)) {
				err = fmt.Errorf("%w: min/max: value %d spans bytes %d..%d of %d", ErrOutOfRange, i, s, e, len(data))
				return
			}
			x := data[s:e]
			switch {
			case !ok:
				lo, hi, minIdx, maxIdx, ok = x, x, i, i, true
			case bytes.Compare(x, lo) < 0:
				lo, minIdx = x, i
			case bytes.Compare(x, hi) > 0:
				hi, maxIdx = x, i
			}
		}
	})
	if err != nil {
		return 0, 0, false, err
	}
	return minIdx, maxIdx, ok, nil
}

// minMaxOf runs the dense kernel run over the valid runs of v.
func minMaxOf[T Integer | Float](v []T, valid []byte, offset int, run func(v []T, lo, hi T, ok bool) (T, T, bool)) (lo, hi T, ok bool, err error) {
	if valid == nil {
		lo, hi, ok = run(v, lo, hi, false)
		return lo, hi, ok, nil
	}
	if err := checkBitRange("MinMax", len(valid), offset, len(v)); err != nil {
		return lo, hi, false, err
	}
	eachValidRun(valid, offset, len(v), func(a, b int) {
		lo, hi, ok = run(v[a:b], lo, hi, ok)
	})
	return lo, hi, ok, nil
}

// visit calls fn for the valid runs of n slots, or once for all of them
// when valid is nil.
func visit(valid []byte, offset, n int, fn func(lo, hi int)) {
	if valid == nil {
		fn(0, n)
		return
	}
	eachValidRun(valid, offset, n, fn)
}

// minMaxRun folds the integers of v into lo and hi (meaningful when ok).
func minMaxRun[T Integer](v []T, lo, hi T, ok bool) (T, T, bool) {
	if len(v) == 0 {
		return lo, hi, ok
	}
	if !ok {
		lo, hi = v[0], v[0]
	}
	for _, x := range v {
		lo = min(lo, x)
		hi = max(hi, x)
	}
	return lo, hi, true
}

// minMaxFloatRun folds the non-NaN floats of v into lo and hi (meaningful
// when ok).
func minMaxFloatRun[T Float](v []T, lo, hi T, ok bool) (T, T, bool) {
	l, h, nans := MinMaxNaN(v)
	switch {
	case nans == len(v):
		return lo, hi, ok
	case !ok:
		return l, h, true
	}
	return min(lo, l), max(hi, h), true
}
