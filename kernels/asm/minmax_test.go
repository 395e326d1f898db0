package asm

import (
	"math"
	"testing"
)

type (
	minMaxNaN32Func = func(v []float32) (lo, hi float32, nans, n int)
	minMaxNaN64Func = func(v []float64) (lo, hi float64, nans, n int)
)

var (
	minMaxNaN32Impls []impl[minMaxNaN32Func]
	minMaxNaN64Impls []impl[minMaxNaN64Func]
)

// minMaxNaNRef returns the bounds of the values of v that are not NaN
// (+Inf and -Inf for none) and how many are NaN.
func minMaxNaNRef(v []float64) (lo, hi float64, nans int) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range v {
		if math.IsNaN(x) {
			nans++
			continue
		}
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi, nans
}

// minMaxNaNValues returns n values, NaN at random where nanEvery is
// positive (about one in nanEvery), with zeros of both signs and
// infinities among the rest.
func minMaxNaNValues(n, nanEvery int) []float64 {
	r := newRand()
	special := []float64{math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), math.MaxFloat32, -math.MaxFloat32}
	v := make([]float64, n)
	for i := range v {
		switch {
		case nanEvery > 0 && r.IntN(nanEvery) == 0:
			v[i] = math.NaN()
		case r.IntN(6) == 0:
			v[i] = special[r.IntN(len(special))]
		default:
			v[i] = r.NormFloat64() * 100
		}
	}
	return v
}

// TestMinMaxNaN checks that each kernel takes the whole blocks and gives
// their bounds and NaN count, NaN never a bound, at every test length.
func TestMinMaxNaN(t *testing.T) {
	check := func(t *testing.T, n, block, gotN, nans, wantNaNs int, lo, hi, wantLo, wantHi float64) {
		t.Helper()
		if gotN != n&^(block-1) || nans != wantNaNs || lo != wantLo || hi != wantHi {
			t.Fatalf("%d values: took %d, bounds [%v, %v], %d NaNs; want %d, [%v, %v], %d",
				n, gotN, lo, hi, nans, n&^(block-1), wantLo, wantHi, wantNaNs)
		}
	}
	forEach(t, minMaxNaN64Impls, func(t *testing.T, fn minMaxNaN64Func) {
		for _, n := range testLengths() {
			for _, every := range []int{0, 1, 2, 40} {
				v := minMaxNaNValues(n, every)
				lo, hi, nans, k := fn(v)
				wlo, whi, wn := minMaxNaNRef(v[:n&^15])
				check(t, n, 16, k, nans, wn, lo, hi, wlo, whi)
			}
		}
	})
	forEach(t, minMaxNaN32Impls, func(t *testing.T, fn minMaxNaN32Func) {
		for _, n := range testLengths() {
			for _, every := range []int{0, 1, 2, 40} {
				v64 := minMaxNaNValues(n, every)
				v := make([]float32, n)
				for i, x := range v64 {
					v[i] = float32(x)
					v64[i] = float64(v[i])
				}
				lo, hi, nans, k := fn(v)
				wlo, whi, wn := minMaxNaNRef(v64[:n&^31])
				check(t, n, 32, k, nans, wn, float64(lo), float64(hi), wlo, whi)
			}
		}
	})
}
