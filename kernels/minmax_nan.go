package kernels

import (
	"math"
	"unsafe"

	"github.com/quiverio/quiver/internal/arrowmem"
)

// MinMaxNaN returns the least and greatest values of v that are not NaN,
// and how many values of v are NaN, in one pass: what a writer needs for
// a float column's statistics and for the NaN counts table formats keep.
// When every value is NaN (nans == len(v), an empty v included) lo and hi
// mean nothing. Zeros of either sign compare equal, so a zero bound may
// have either sign; a Parquet writer widens it as [MinMaxFloat] does.
func MinMaxNaN[T Float](v []T) (lo, hi T, nans int) {
	var x T
	if unsafe.Sizeof(x) == 4 {
		l, h, n := minMaxNaN32(arrowmem.Cast[float32](v))
		return T(l), T(h), n
	}
	l, h, n := minMaxNaN64(arrowmem.Cast[float64](v))
	return T(l), T(h), n
}

// Dispatch variables of MinMaxNaN; an arch init() may replace them once.
// Each returns +Inf and -Inf as the bounds of values that are all NaN.
var (
	minMaxNaN32 = minMaxNaNGeneric[float32]
	minMaxNaN64 = minMaxNaNGeneric[float64]
)

// Every implementation of each usable on this CPU, portable twin first,
// for tests.
var (
	minMaxNaN32Impls = []impl[func([]float32) (float32, float32, int)]{{"go", minMaxNaNGeneric[float32]}}
	minMaxNaN64Impls = []impl[func([]float64) (float64, float64, int)]{{"go", minMaxNaNGeneric[float64]}}
)

// minMaxNaNGeneric is the portable twin of the MinMaxNaN kernels: bounds
// start at +Inf and -Inf, and since NaN fails both comparisons it is
// tested only where neither bound moves, a branch almost never taken.
func minMaxNaNGeneric[T float32 | float64](v []T) (lo, hi T, nans int) {
	lo, hi = T(math.Inf(1)), T(math.Inf(-1))
	for _, x := range v {
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		} else if x != x {
			nans++
		}
	}
	return lo, hi, nans
}
