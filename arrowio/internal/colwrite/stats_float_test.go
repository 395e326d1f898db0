package colwrite

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/quiverio/quiver/footer"
)

// TestFixedStatsFloat checks a float page's statistics and NaN count
// against a plain reference on float32 and float64 slices of every length
// up to 70, drawn from values that stress the rules: NaN (never a bound,
// counted), zeros of both signs (a zero min written -0, a zero max +0),
// infinities and ordinary numbers, with NaN first, last and everywhere.
func TestFixedStatsFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	special := []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), 1, -1, 0.5, -2.5, math.MaxFloat32, -math.SmallestNonzeroFloat32}
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
		checkFixedStatsFloat(t, v64)
		v32 := make([]float32, n)
		for i, x := range v64 {
			v32[i] = float32(x)
		}
		checkFixedStatsFloat(t, v32)
	}
}

// checkFixedStatsFloat compares the statistics fixedStats encodes for vals
// and its NaN count with a value-by-value reference.
func checkFixedStatsFloat[T float32 | float64](t *testing.T, vals []T) {
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
	if wantLo == 0 {
		wantLo = T(math.Copysign(0, -1))
	}
	if wantHi == 0 {
		wantHi = 0
	}
	var s fixedStats[T]
	// Two halves, so that merging pages is covered too.
	half := len(vals) / 2
	nans := s.update(vals[:half], orderFloat)
	var s2 fixedStats[T]
	nans += s2.update(vals[half:], orderFloat)
	s.merge(&s2, orderFloat)
	if nans != wantNaNs {
		t.Fatalf("%v: %d NaNs, want %d", vals, nans, wantNaNs)
	}
	var st footer.Statistics
	s.encode(&st, orderFloat)
	if !has {
		if st.MinValue != nil || st.MaxValue != nil {
			t.Fatalf("%v: bounds %x %x for values that are all NaN", vals, st.MinValue, st.MaxValue)
		}
		return
	}
	if lo, hi := string(PlainValue(wantLo)), string(PlainValue(wantHi)); string(st.MinValue) != lo || string(st.MaxValue) != hi {
		t.Fatalf("%v: min %x max %x, want %x %x", vals, st.MinValue, st.MaxValue, lo, hi)
	}
}
