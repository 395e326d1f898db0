//go:build (amd64 || arm64) && !purego

package kernels

// Glue between the assembly kernels of package asm and the dispatch
// variables set by the *_amd64.go and *_arm64.go init functions.

// use makes fn the implementation behind the dispatch variable v and lists
// it in impls under name, for the tests and benchmarks.
func use[F any](v *F, impls *[]impl[F], name string, fn F) {
	*v = fn
	*impls = append(*impls, impl[F]{name, fn})
}

// padWindow bounds the packed input an unpack kernel of package asm leaves
// undone at the end of src because its load window would cross the end: it
// reads at most 64 bytes from the start of a block.
const padWindow = 64

// padRest prepares the second pass of an assembly unpack whose first pass
// wrote n values. It advances dst and src past those values, copies what is
// left of src (up to padWindow bytes) into pad, which must hold 2*padWindow
// zeroed bytes so that every load window of the copied blocks stays inside
// it, and returns how many values the kernel may unpack from pad: the whole
// blocks of the copied bytes. The caller runs the kernel on dst[:m] and pad,
// then the portable twin on the rest (the last partial block, width 0).
//
// (The wrappers call the kernels directly rather than through a func value
// so that pad, passed to a //go:noescape declaration, stays on the stack.)
func padRest[T uint32 | uint64](dst []T, src []byte, n int, width uint, pad []byte) ([]T, []byte, int) {
	dst, src = dst[n:], src[uint(n)/8*width:]
	if width == 0 {
		return dst, src, 0
	}
	c := copy(pad[:padWindow], src)
	return dst, src, min(len(dst), c*8/int(width)) &^ 7
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
