package asm

import (
	"fmt"
	"testing"
)

type (
	prefix32Func = func(v []uint32, last, minDelta uint32) int
	prefix64Func = func(v []uint64, last, minDelta uint64) int
)

var (
	prefix32Impls []impl[prefix32Func]
	prefix64Impls []impl[prefix64Func]
)

// checkPrefix runs a prefix-sum kernel over n random deltas and checks the
// count, the values (wrapping sums) and that nothing past the count changed.
func checkPrefix[T uint32 | uint64](t *testing.T, fn func([]T, T, T) int, n int, last, minDelta T) {
	t.Helper()
	r := newRand()
	v := make([]T, n+8)
	for i := range v {
		v[i] = T(r.Uint64())
	}
	orig := append([]T(nil), v...)
	k := fn(v[:n], last, minDelta)
	if k != n&^7 {
		t.Fatalf("n %d: count %d, want %d", n, k, n&^7)
	}
	want := last
	for i := range k {
		want += orig[i] + minDelta
		if v[i] != want {
			t.Fatalf("n %d last %#x minDelta %#x: v[%d] = %#x, want %#x", n, last, minDelta, i, v[i], want)
		}
	}
	for i := k; i < len(v); i++ {
		if v[i] != orig[i] {
			t.Fatalf("n %d: v[%d] changed past the count %d", n, i, k)
		}
	}
}

// prefixCases are the (last, minDelta) pairs tried: zero, small, and values
// that make the sums wrap.
func prefixCases[T uint32 | uint64]() [][2]T {
	top := ^T(0)
	return [][2]T{{0, 0}, {1, 3}, {top, top}, {top / 2, top/2 + 7}}
}

func TestDeltaPrefixSum32(t *testing.T) {
	forEach(t, prefix32Impls, func(t *testing.T, fn prefix32Func) {
		for _, c := range prefixCases[uint32]() {
			for _, n := range testLengths() {
				checkPrefix(t, fn, n, c[0], c[1])
			}
		}
	})
}

func TestDeltaPrefixSum64(t *testing.T) {
	forEach(t, prefix64Impls, func(t *testing.T, fn prefix64Func) {
		for _, c := range prefixCases[uint64]() {
			for _, n := range testLengths() {
				checkPrefix(t, fn, n, c[0], c[1])
			}
		}
	})
}

// benchPrefix times each kernel over 4096 values in cache.
func benchPrefix[T uint32 | uint64, F ~func([]T, T, T) int](b *testing.B, impls []impl[F]) {
	for _, im := range impls {
		if !im.ok {
			continue
		}
		b.Run(fmt.Sprintf("impl=%s", im.name), func(b *testing.B) {
			v := make([]T, 4096)
			b.SetBytes(int64(len(v) * sizeOf[T]()))
			b.ReportAllocs()
			for b.Loop() {
				im.fn(v, 1, 2)
			}
			b.ReportMetric(float64(b.N*len(v))/b.Elapsed().Seconds(), "values/s")
		})
	}
}

func BenchmarkDeltaPrefixSum32(b *testing.B) { benchPrefix(b, prefix32Impls) }

func BenchmarkDeltaPrefixSum64(b *testing.B) { benchPrefix(b, prefix64Impls) }
