package asm

import (
	"math"
	"testing"
	"unsafe"
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
// (+Inf and -Inf for none) and how many are NaN. Go's min and max put -0
// below +0, so where both zeros occur a zero low bound is -0 and a zero
// high bound +0.
func minMaxNaNRef[T float32 | float64](v []T) (lo, hi T, nans int) {
	lo, hi = T(math.Inf(1)), T(math.Inf(-1))
	for _, x := range v {
		if x != x {
			nans++
			continue
		}
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi, nans
}

// floatValues are the values of one width the inputs draw from, by bit
// pattern so that signalling NaNs stay signalling: NaNs quiet and
// signalling, of both signs and several payloads; numbers at the edges
// (zeros of both signs, infinities, the extremes, the smallest and largest
// subnormals, the smallest normal); and the positive numbers among those,
// zeros included, for inputs whose low bound is a zero.
type floatValues[T float32 | float64] struct {
	nans, edges, nonNegative []T
}

var (
	values64 = floatValues[float64]{
		nans: bitsTo(math.Float64frombits, 0x7ff8000000000000, 0xfff8000000000000, 0x7ff8000000000001,
			0x7ff0000000000001, 0x7ff7ffffffffffff, 0xfff0000000000001, 0xfff7ffffffffffff),
		edges: bitsTo(math.Float64frombits, 0x8000000000000000, 0, 0x7ff0000000000000, 0xfff0000000000000,
			0x7fefffffffffffff, 0xffefffffffffffff, 1, 0x8000000000000001, 0x000fffffffffffff,
			0x800fffffffffffff, 0x0010000000000000, 0x8010000000000000),
		nonNegative: bitsTo(math.Float64frombits, 0x8000000000000000, 0, 1, 0x000fffffffffffff, 0x3ff0000000000000),
	}
	values32 = floatValues[float32]{
		nans: bitsTo(math.Float32frombits, 0x7fc00000, 0xffc00000, 0x7fc00001,
			0x7f800001, 0x7fbfffff, 0xff800001, 0xffbfffff),
		edges: bitsTo(math.Float32frombits, 0x80000000, 0, 0x7f800000, 0xff800000,
			0x7f7fffff, 0xff7fffff, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000),
		nonNegative: bitsTo(math.Float32frombits, 0x80000000, 0, 1, 0x007fffff, 0x3f800000),
	}
)

func bitsTo[T float32 | float64, B uint32 | uint64](from func(B) T, bits ...B) []T {
	v := make([]T, len(bits))
	for i, b := range bits {
		v[i] = from(b)
	}
	return v
}

// minMaxNaNLengths returns every length up to 2100 and every seventh up to
// 4200 (7 being odd, the tails after the last block take every size), or
// under -short (the qemu run) every length up to 600 and every thirteenth
// past it.
func minMaxNaNLengths() []int {
	dense, step := 2100, 7
	if testing.Short() {
		dense, step = 600, 13
	}
	var ns []int
	for n := 0; n <= 4200; n++ {
		if n <= dense || n%step == 0 {
			ns = append(ns, n)
		}
	}
	return ns
}

// minMaxNaNInputs calls body with slices of every test length, ending at a
// guard page, drawn from each kind of values (ordinary numbers alone, with
// the edges among them, and with zeros of both signs as the low or the
// high bound) with NaN shares from none through rare, half and nearly all
// to all.
func minMaxNaNInputs[T float32 | float64](t *testing.T, vals floatValues[T], body func(v []T)) {
	r := newRand()
	lengths := minMaxNaNLengths()
	most := lengths[len(lengths)-1]
	kinds := []func() T{
		func() T { return T(r.NormFloat64() * 1e3) },
		func() T {
			if r.IntN(8) == 0 {
				return vals.edges[r.IntN(len(vals.edges))]
			}
			return T(r.NormFloat64() * 1e3)
		},
		func() T { return vals.nonNegative[r.IntN(len(vals.nonNegative))] },
		func() T { return -vals.nonNegative[r.IntN(len(vals.nonNegative))] },
	}
	for _, kind := range kinds {
		for _, share := range []int{0, 1, 32, 63, 64} { // NaNs in 64
			pool := make([]T, most+64)
			for i := range pool {
				if r.IntN(64) < share {
					pool[i] = vals.nans[r.IntN(len(vals.nans))]
				} else {
					pool[i] = kind()
				}
			}
			for _, n := range lengths {
				at := r.IntN(64)
				body(guardedFloats(t, pool[at:at+n]))
			}
		}
	}
}

// guardedFloats copies v to memory that ends at a guard page.
func guardedFloats[T float32 | float64](t *testing.T, v []T) []T {
	size := int(unsafe.Sizeof(T(0)))
	b := guarded(t, size*len(v))
	g := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(v))
	copy(g, v)
	return g
}

// TestMinMaxNaN checks that each kernel takes the whole blocks and gives
// their bounds and NaN count, NaN never a bound, and a zero bound only of
// a sign that occurs among them.
func TestMinMaxNaN(t *testing.T) {
	t.Run("float64", func(t *testing.T) {
		forEach(t, minMaxNaN64Impls, func(t *testing.T, fn minMaxNaN64Func) {
			minMaxNaNInputs(t, values64, func(v []float64) {
				lo, hi, nans, k := fn(v)
				checkMinMaxNaN(t, v, 16, lo, hi, nans, k)
			})
		})
	})
	t.Run("float32", func(t *testing.T) {
		forEach(t, minMaxNaN32Impls, func(t *testing.T, fn minMaxNaN32Func) {
			minMaxNaNInputs(t, values32, func(v []float32) {
				lo, hi, nans, k := fn(v)
				checkMinMaxNaN(t, v, 32, lo, hi, nans, k)
			})
		})
	})
}

// checkMinMaxNaN checks one kernel result for v against the reference:
// zeros compare equal, so a zero bound may have either sign, but only one
// that occurs.
func checkMinMaxNaN[T float32 | float64](t *testing.T, v []T, block int, lo, hi T, nans, k int) {
	t.Helper()
	n := len(v)
	wlo, whi, wnans := minMaxNaNRef(v[:n&^(block-1)])
	if k != n&^(block-1) || nans != wnans || lo != wlo || hi != whi {
		t.Fatalf("%d values: took %d, bounds [%v, %v], %d NaNs; want %d, [%v, %v], %d",
			n, k, lo, hi, nans, n&^(block-1), wlo, whi, wnans)
	}
	for _, b := range []T{lo, hi} {
		if b == 0 && !hasZero(v[:k], math.Signbit(float64(b))) {
			t.Fatalf("%d values: bounds [%v, %v]: a zero of a sign that is not among the values", n, lo, hi)
		}
	}
}

// hasZero reports whether v holds a zero of the given sign.
func hasZero[T float32 | float64](v []T, negative bool) bool {
	for _, x := range v {
		if x == 0 && math.Signbit(float64(x)) == negative {
			return true
		}
	}
	return false
}
