package colwrite

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMinMaxFloatCountsNaNs checks the fused bounds and NaN count of
// minMaxFloat against a plain reference on float32 and float64 slices of
// every length up to 70, drawn from values that stress the rules: NaN
// (never a bound, counted), zeros of both signs (equal), infinities, and
// ordinary numbers, in runs that put NaN first, last and everywhere.
func TestMinMaxFloatCountsNaNs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	special := []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), 1, -1, 0.5, -2.5, math.MaxFloat64, -math.SmallestNonzeroFloat64}
	for round := range 3000 {
		n := round % 71
		nanShare := rng.IntN(4) // 0: no NaN forced; 3: mostly NaN
		v64 := make([]float64, n)
		for i := range v64 {
			switch {
			case rng.IntN(4) < nanShare:
				v64[i] = math.NaN()
			case rng.IntN(2) == 0:
				v64[i] = special[rng.IntN(len(special))]
			default:
				v64[i] = rng.NormFloat64() * 100
			}
		}
		checkMinMaxFloat(t, v64)
		v32 := make([]float32, n)
		for i, x := range v64 {
			v32[i] = float32(x)
		}
		checkMinMaxFloat(t, v32)
	}
}

// checkMinMaxFloat compares minMaxFloat(vals) with a value-by-value
// reference.
func checkMinMaxFloat[T float32 | float64](t *testing.T, vals []T) {
	t.Helper()
	var wantLo, wantHi T
	wantNaNs, has := 0, false
	for _, v := range vals {
		switch {
		case math.IsNaN(float64(v)):
			wantNaNs++
		case !has:
			wantLo, wantHi, has = v, v, true
		default:
			if v < wantLo {
				wantLo = v
			}
			if v > wantHi {
				wantHi = v
			}
		}
	}
	lo, hi, nans := minMaxFloat(vals)
	if nans != wantNaNs {
		t.Fatalf("%v: %d NaNs, want %d", vals, nans, wantNaNs)
	}
	if !has {
		if nans != len(vals) {
			t.Fatalf("%v: no bounds, yet %d NaNs of %d values", vals, nans, len(vals))
		}
		return
	}
	// Zeros compare equal: either sign is a right bound here, and encode
	// widens a zero bound to -0 (min) and +0 (max).
	if lo != wantLo || hi != wantHi {
		t.Fatalf("%v: bounds [%v, %v], want [%v, %v]", vals, lo, hi, wantLo, wantHi)
	}
	var s fixedStats[T]
	if got := s.update(vals, orderFloat); got != wantNaNs || !s.has {
		t.Fatalf("%v: update counted %d NaNs (bounds set %v), want %d", vals, got, s.has, wantNaNs)
	}
}
