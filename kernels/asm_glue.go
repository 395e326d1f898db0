//go:build (amd64 || arm64) && !purego

package kernels

import "math"

// Glue between the assembly kernels of package asm and the dispatch
// variables set by the *_amd64.go and *_arm64.go init functions.

// use makes fn the implementation behind the dispatch variable v and lists
// it in impls under name, for the tests and benchmarks.
func use[F any](v *F, impls *[]impl[F], name string, fn F) {
	*v = fn
	*impls = append(*impls, impl[F]{name, fn})
}

// bssAsm wraps an assembly byte-stream-split kernel, which handles whole
// blocks and returns how many values it did, finishing the rest with tail
// (bssDecodeTail or bssEncodeTail).
func bssAsm(kernel func(dst, src []byte) int, width int, tail func(dst, src []byte, width, from int)) bssFunc {
	return func(dst, src []byte) { tail(dst, src, width, kernel(dst, src)) }
}

// prefixAsm wraps an assembly delta prefix sum, which handles whole 8-value
// blocks, finishing the rest with the portable twin.
func prefixAsm[T uint32 | uint64](kernel func(v []T, last, minDelta T) int) func([]T, T, T) T {
	return func(v []T, last, minDelta T) T {
		n := kernel(v, last, minDelta)
		if n > 0 {
			last = v[n-1]
		}
		return deltaPrefixSumGeneric(v[n:], last, minDelta)
	}
}

// gatherAsm wraps an assembly dictionary gather, which stops before the
// first block holding an index out of range, finishing (and finding the bad
// index, if any) with the portable twin.
func gatherAsm[T uint32 | uint64](kernel func(dst, dict []T, idx []uint32) int) func(dst, dict []T, idx []uint32) int {
	return func(dst, dict []T, idx []uint32) int {
		n := kernel(dst, dict, idx)
		return n + gatherGeneric(dst[n:], dict, idx[n:])
	}
}

// levelsAsm wraps an assembly levels-to-bitmap kernel, which writes whole
// bytes from the start of its dst and returns how many levels it did and how
// many were valid: single bits up to the first byte boundary and the levels
// it leaves go to the portable twin. The result is the null count.
func levelsAsm[T levelType](kernel func(dst []byte, levels []T, t T) (int, int)) func([]byte, uint, []T, T) int {
	return func(dst []byte, offset uint, levels []T, t T) int {
		head := min(uint(len(levels)), -offset&7)
		nulls := levelsToBitmapGeneric(dst, offset, levels[:head], t)
		offset, levels = offset+head, levels[head:]
		n, valid := kernel(dst[offset>>3:], levels, t)
		return nulls + n - valid + levelsToBitmapGeneric(dst, offset+uint(n), levels[n:], t)
	}
}

// countAtLeastAsm counts through the levels-to-bitmap kernel, chunk by
// chunk into a bitmap on the stack, finishing the last levels with the
// portable twin.
func countAtLeastAsm(levels []int16, t int16) int {
	var b [countChunk / 8]byte
	n := 0
	for len(levels) >= 32 {
		k, set := levelsToBitmap16Asm(b[:], levels, t)
		n, levels = n+set, levels[k:]
	}
	return n + countAtLeastGeneric(levels, t)
}

// minMaxNaNAsm wraps an assembly float bounds kernel, which handles whole
// blocks, finishing the rest with the portable twin. The 32-bit kernels'
// lane counts bound one call (below 2^36 values for AVX2, 2^34 for NEON):
// larger slices go in parts of 2^32.
func minMaxNaNAsm[T float32 | float64](kernel func(v []T) (lo, hi T, nans, n int)) func([]T) (T, T, int) {
	return func(v []T) (T, T, int) {
		lo, hi := T(math.Inf(1)), T(math.Inf(-1))
		nans := 0
		for len(v) > 0 {
			part := v[:min(len(v), 1<<32)]
			l, h, k, n := kernel(part)
			tl, th, tk := minMaxNaNGeneric(part[n:])
			lo, hi, nans = min(lo, l, tl), max(hi, h, th), nans+k+tk
			v = v[len(part):]
		}
		return lo, hi, nans
	}
}
