package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

// minMaxNaNRef is MinMaxNaN value by value: the bounds of the values that
// are not NaN (ok false when there is none) and the NaN count.
func minMaxNaNRef[T float32 | float64](v []T) (lo, hi T, nans int, ok bool) {
	for _, x := range v {
		switch {
		case math.IsNaN(float64(x)):
			nans++
		case !ok:
			lo, hi, ok = x, x, true
		case x < lo:
			lo = x
		case x > hi:
			hi = x
		}
	}
	return lo, hi, nans, ok
}

// minMaxNaNInputs returns slices of every test length drawn from values
// that stress the rules (NaN of both signs and other payloads, zeros of
// both signs, infinities, the extremes, subnormals) and ordinary numbers,
// in mixes from no NaN to all NaN, so that NaN falls first, last, alone
// in a vector and in the tail the portable twin finishes.
func minMaxNaNInputs(t *testing.T) [][]float64 {
	r := rand.New(rand.NewPCG(113, 114))
	special := []float64{
		math.NaN(), math.Float64frombits(0xfff8000000000001), math.Float64frombits(0x7ff0000000000001),
		math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64,
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 1, -1,
	}
	var out [][]float64
	for _, n := range testLengths(t) {
		for mix := range 5 { // NaN share: 0, 1/8, 1/2, 7/8, all
			v := make([]float64, n)
			for i := range v {
				switch {
				case mix == 4 || mix > 0 && r.IntN(8) < []int{0, 1, 4, 7}[mix]:
					v[i] = special[r.IntN(3)]
				case r.IntN(4) == 0:
					v[i] = special[3+r.IntN(len(special)-3)]
				default:
					v[i] = r.NormFloat64() * 1e3
				}
			}
			out = append(out, v)
		}
	}
	return out
}

// TestMinMaxNaNImpls runs every implementation of both widths against the
// reference. Zeros compare equal, so a zero bound matches either zero.
func TestMinMaxNaNImpls(t *testing.T) {
	inputs := minMaxNaNInputs(t)
	for _, im := range minMaxNaN64Impls {
		t.Run("64/"+im.name, func(t *testing.T) {
			for _, v := range inputs {
				checkMinMaxNaN(t, v, im.fn)
			}
		})
	}
	for _, im := range minMaxNaN32Impls {
		t.Run("32/"+im.name, func(t *testing.T) {
			for _, v64 := range inputs {
				v := make([]float32, len(v64))
				for i, x := range v64 {
					v[i] = float32(x)
					if b := math.Float64bits(x); math.IsNaN(x) && b&(1<<51) == 0 {
						// The conversion quiets a signalling NaN: make one of the same sign.
						v[i] = math.Float32frombits(uint32(b>>32)&0x80000000 | 0x7f800001)
					}
				}
				checkMinMaxNaN(t, v, im.fn)
			}
		})
	}
}

func checkMinMaxNaN[T float32 | float64](t *testing.T, v []T, fn func([]T) (T, T, int)) {
	t.Helper()
	wantLo, wantHi, wantNaNs, ok := minMaxNaNRef(v)
	lo, hi, nans := fn(v)
	if nans != wantNaNs {
		t.Fatalf("%d values: %d NaNs, want %d", len(v), nans, wantNaNs)
	}
	if !ok {
		if !math.IsInf(float64(lo), 1) || !math.IsInf(float64(hi), -1) {
			t.Fatalf("%d values, all NaN: bounds [%v, %v], want [+Inf, -Inf]", len(v), lo, hi)
		}
		return
	}
	if lo != wantLo || hi != wantHi {
		t.Fatalf("%d values: bounds [%v, %v], want [%v, %v]", len(v), lo, hi, wantLo, wantHi)
	}
	if glo, ghi, gnans := MinMaxNaN(v); gnans != nans || glo != lo || ghi != hi {
		t.Fatalf("%d values: MinMaxNaN gives [%v, %v] and %d NaNs, the dispatched kernel [%v, %v] and %d", len(v), glo, ghi, gnans, lo, hi, nans)
	}
}

func TestMinMaxNaNAllocs(t *testing.T) {
	v := make([]float64, 1000)
	if a := testing.AllocsPerRun(20, func() { _, _, _ = MinMaxNaN(v) }); a != 0 {
		t.Fatalf("%v allocations per run", a)
	}
}

// BenchmarkMinMaxNaN times every implementation on 1,024 values, the
// column writer's mini-batch, with a NaN in every 64.
func BenchmarkMinMaxNaN(b *testing.B) {
	const n = 1024
	r := rand.New(rand.NewPCG(115, 116))
	v64 := make([]float64, n)
	v32 := make([]float32, n)
	for i := range v64 {
		v64[i] = r.NormFloat64()
		if i%64 == 63 {
			v64[i] = math.NaN()
		}
		v32[i] = float32(v64[i])
	}
	for _, im := range minMaxNaN64Impls {
		b.Run("float64/"+im.name, func(b *testing.B) {
			b.SetBytes(8 * n)
			b.ReportAllocs()
			for b.Loop() {
				im.fn(v64)
			}
		})
	}
	for _, im := range minMaxNaN32Impls {
		b.Run("float32/"+im.name, func(b *testing.B) {
			b.SetBytes(4 * n)
			b.ReportAllocs()
			for b.Loop() {
				im.fn(v32)
			}
		})
	}
}
