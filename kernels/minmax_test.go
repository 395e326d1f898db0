package kernels

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// minMaxRef is the plainest min/max over the valid values.
func minMaxRef[T Integer | Float](v []T, valid []byte, offset int) (lo, hi T, ok bool) {
	for i, x := range v {
		if valid != nil && !bitAt(valid, offset+i) || x != x {
			continue
		}
		if !ok || x < lo {
			lo = x
		}
		if !ok || x > hi {
			hi = x
		}
		ok = true
	}
	return lo, hi, ok
}

func testMinMaxInts[T Integer](t *testing.T, r *rand.Rand, gen func() T) {
	for _, n := range testLengths(t) {
		v := make([]T, n)
		for i := range v {
			v[i] = gen()
		}
		off := n % 11
		for _, bm := range [][]byte{nil, testBitmap(r, off, n, 0.6), testBitmap(r, off, n, 0)} {
			o := off
			if bm == nil {
				o = 0
			}
			lo, hi, ok, err := MinMax(v, bm, o)
			wlo, whi, wok := minMaxRef(v, bm, o)
			if err != nil || ok != wok || ok && (lo != wlo || hi != whi) {
				t.Fatalf("%T n=%d: got %v %v %v %v, want %v %v %v", v, n, lo, hi, ok, err, wlo, whi, wok)
			}
		}
	}
}

func TestMinMaxInts(t *testing.T) {
	r := rand.New(rand.NewPCG(101, 102))
	testMinMaxInts(t, r, func() int32 { return int32(r.Uint32()) })
	testMinMaxInts(t, r, func() int64 { return int64(r.Uint64()) })
	testMinMaxInts(t, r, func() uint32 { return r.Uint32() })
	testMinMaxInts(t, r, func() uint64 { return r.Uint64() })
	if _, _, _, err := MinMax(make([]int32, 20), make([]byte, 2), 0); !errors.Is(err, ErrShortBuffer) {
		t.Fatalf("short bitmap: %v", err)
	}
}

func TestMinMaxFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(103, 104))
	nan := math.NaN()
	for _, n := range testLengths(t) {
		v := make([]float64, n)
		for i := range v {
			switch r.IntN(5) {
			case 0:
				v[i] = nan
			case 1:
				v[i] = math.Inf(r.IntN(2)*2 - 1)
			default:
				v[i] = r.NormFloat64()
			}
		}
		bm := testBitmap(r, 3, n, 0.5)
		for _, valid := range [][]byte{nil, bm} {
			lo, hi, ok, err := MinMaxFloat(v, valid, 3*len(valid)/max(len(valid), 1))
			wlo, whi, wok := minMaxRef(v, valid, 3*len(valid)/max(len(valid), 1))
			if err != nil || ok != wok || ok && (lo != wlo || hi != whi) {
				t.Fatalf("n=%d: got %v %v %v %v, want %v %v %v", n, lo, hi, ok, err, wlo, whi, wok)
			}
		}
	}
	negZero := float32(math.Copysign(0, -1))
	cases := []struct {
		v        []float32
		lo, hi   float32
		ok       bool
		loNeg    bool
		hiNotNeg bool
	}{
		{[]float32{float32(nan), float32(nan)}, 0, 0, false, false, false},
		{nil, 0, 0, false, false, false},
		{[]float32{0, 0}, 0, 0, true, true, true},
		{[]float32{negZero, negZero}, 0, 0, true, true, true},
		{[]float32{negZero, 1, float32(nan)}, 0, 1, true, true, true},
		{[]float32{-1, 0}, -1, 0, true, false, true},
		{[]float32{-1, negZero}, -1, 0, true, false, true},
	}
	for i, c := range cases {
		lo, hi, ok, err := MinMaxFloat(c.v, nil, 0)
		if err != nil || ok != c.ok || ok && (lo != c.lo || hi != c.hi) {
			t.Fatalf("case %d: got %v %v %v %v", i, lo, hi, ok, err)
		}
		if c.loNeg && !math.Signbit(float64(lo)) {
			t.Fatalf("case %d: zero minimum is not -0", i)
		}
		if c.hiNotNeg && math.Signbit(float64(hi)) {
			t.Fatalf("case %d: zero maximum is not +0", i)
		}
	}
}

func TestMinMaxByteArray(t *testing.T) {
	r := rand.New(rand.NewPCG(105, 106))
	for _, n := range testLengths(t) {
		vals := testStrings(r, n, n%3)
		for i := range vals {
			if r.IntN(10) == 0 && len(vals[i]) > 0 {
				vals[i][0] = 0xff // unsigned order: 0xff sorts last
			}
		}
		off, data := testFlatten[int64](vals, 1)
		bm := testBitmap(r, 5, n, 0.5)
		for _, valid := range [][]byte{nil, bm} {
			mi, ma, ok, err := MinMaxByteArray(off, data, valid, 5)
			wok := false
			var wlo, whi []byte
			for i, v := range vals {
				if valid != nil && !bitAt(valid, 5+i) {
					continue
				}
				if !wok || bytes.Compare(v, wlo) < 0 {
					wlo = v
				}
				if !wok || bytes.Compare(v, whi) > 0 {
					whi = v
				}
				wok = true
			}
			if err != nil || ok != wok || ok && (!bytes.Equal(vals[mi], wlo) || !bytes.Equal(vals[ma], whi)) {
				t.Fatalf("n=%d: got %d %d %v %v", n, mi, ma, ok, err)
			}
		}
	}
	if _, _, _, err := MinMaxByteArray([]int32{0, 5, 2}, make([]byte, 5), nil, 0); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("decreasing offsets: %v", err)
	}
	if _, _, _, err := MinMaxByteArray([]int32{0, 5, 2}, make([]byte, 5), []byte{}, 0); !errors.Is(err, ErrShortBuffer) {
		t.Fatalf("short bitmap: %v", err)
	}
}

func TestMinMaxAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(107, 108))
	v := make([]float32, 1000)
	w := make([]uint64, 1000)
	bm := testBitmap(r, 0, 1000, 0.5)
	off, data := testFlatten[int32](testStrings(r, 1000, 0), 0)
	if a := testing.AllocsPerRun(20, func() {
		_, _, _, _ = MinMaxFloat(v, bm, 0)
		_, _, _, _ = MinMax(w, nil, 0)
		_, _, _, _ = MinMaxByteArray(off, data, bm, 0)
	}); a != 0 {
		t.Fatalf("%v allocations per run", a)
	}
}

func BenchmarkMinMax(b *testing.B) {
	const n = 4096
	r := rand.New(rand.NewPCG(109, 110))
	v := make([]float64, n)
	for i := range v {
		v[i] = r.NormFloat64()
	}
	bm := testBitmap(r, 0, n, 0.9)
	for _, name := range []string{"float64/all-valid", "float64/bitmap"} {
		b.Run(name, func(b *testing.B) {
			valid := bm
			if name == "float64/all-valid" {
				valid = nil
			}
			b.SetBytes(8 * n)
			b.ReportAllocs()
			for b.Loop() {
				if _, _, _, err := MinMaxFloat(v, valid, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "values/s")
		})
	}
}
