package asm

import (
	"fmt"
	"testing"
)

type (
	gather32Func = func(dst, dict []uint32, idx []uint32) int
	gather64Func = func(dst, dict []uint64, idx []uint32) int
)

var (
	gather32Impls []impl[gather32Func]
	gather64Impls []impl[gather64Func]
)

// checkGather runs a gather kernel over n random indices into a dictionary
// of size values, with a bad index (at or past size) at position bad (none
// if bad < 0); see verifyGather.
func checkGather[T uint32 | uint64](t *testing.T, fn func(dst, dict []T, idx []uint32) int, n, size, bad int, badValue uint32) {
	t.Helper()
	r := newRand()
	dict := make([]T, size)
	for i := range dict {
		dict[i] = T(r.Uint64())
	}
	idx := guardedUint32(t, n)
	for i := range idx {
		if size > 0 {
			idx[i] = uint32(r.IntN(size))
		}
	}
	if bad >= 0 {
		idx[bad] = badValue
	}
	verifyGather(t, fn, dict, idx)
}

// verifyGather runs fn over idx, which must end at a guard page, and checks
// the count (every whole group of 16 before the first bad index), the values
// and the canaries after them.
func verifyGather[T uint32 | uint64](t *testing.T, fn func(dst, dict []T, idx []uint32) int, dict []T, idx []uint32) {
	t.Helper()
	const canary = 0xc0ffee
	n, size := len(idx), len(dict)
	dst := make([]T, n+16)
	for i := range dst {
		dst[i] = canary
	}
	k := fn(dst[:n], dict, idx)
	firstBad := n
	for i, x := range idx {
		if int(x) >= size {
			firstBad = i
			break
		}
	}
	if want := firstBad &^ 15; k != want {
		t.Fatalf("n %d size %d first bad index at %d: count %d, want %d", n, size, firstBad, k, want)
	}
	for i := range k {
		if dst[i] != dict[idx[i]] {
			t.Fatalf("n %d size %d: dst[%d] = %#x, want dict[%d] = %#x", n, size, i, dst[i], idx[i], dict[idx[i]])
		}
	}
	for i := k; i < len(dst); i++ {
		if dst[i] != canary {
			t.Fatalf("n %d size %d (count %d): dst[%d] overwritten", n, size, k, i)
		}
	}
}

// guardedUint32 returns n uint32s ending at a guard page.
func guardedUint32(t *testing.T, n int) []uint32 {
	b := guarded(t, 4*n+4)[4:] // guarded memory is page-aligned at its end, so this is 4-byte aligned
	return unsafeUint32s(b)
}

// gatherCases runs body over dictionary sizes, index counts and bad-index
// placements, including indices that would be negative as int32.
func gatherCases(body func(n, size, bad int, badValue uint32)) {
	for _, size := range []int{0, 1, 7, 1000} {
		for _, n := range testLengths() {
			body(n, size, -1, 0)
			for _, bad := range []int{0, n / 2, n - 1} {
				if bad >= 0 && bad < n {
					for _, v := range []uint32{uint32(size), uint32(size) + 1000, 1 << 31, 0xffffffff} {
						body(n, size, bad, v)
					}
				}
			}
		}
	}
}

func TestGather32(t *testing.T) {
	forEach(t, gather32Impls, func(t *testing.T, fn gather32Func) {
		gatherCases(func(n, size, bad int, v uint32) { checkGather(t, fn, n, size, bad, v) })
	})
}

func TestGather64(t *testing.T) {
	forEach(t, gather64Impls, func(t *testing.T, fn gather64Func) {
		gatherCases(func(n, size, bad int, v uint32) { checkGather(t, fn, n, size, bad, v) })
	})
}

// benchGather times each kernel gathering 4096 values from a dictionary of
// 1000 entries.
func benchGather[T uint32 | uint64, F ~func(dst, dict []T, idx []uint32) int](b *testing.B, impls []impl[F]) {
	for _, im := range impls {
		if !im.ok {
			continue
		}
		b.Run(fmt.Sprintf("impl=%s", im.name), func(b *testing.B) {
			r := newRand()
			dict, dst, idx := make([]T, 1000), make([]T, 4096), make([]uint32, 4096)
			for i := range idx {
				idx[i] = uint32(r.IntN(len(dict)))
			}
			b.SetBytes(int64(len(dst) * sizeOf[T]()))
			b.ReportAllocs()
			for b.Loop() {
				im.fn(dst, dict, idx)
			}
			b.ReportMetric(float64(b.N*len(dst))/b.Elapsed().Seconds(), "values/s")
		})
	}
}

func BenchmarkGather32(b *testing.B) { benchGather(b, gather32Impls) }

func BenchmarkGather64(b *testing.B) { benchGather(b, gather64Impls) }
