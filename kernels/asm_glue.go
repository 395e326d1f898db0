//go:build (amd64 || arm64) && !purego

package kernels

// Glue between the assembly kernels of package asm and the dispatch
// variables set by the *_amd64.go and *_arm64.go init functions.

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
func padRest[T uint32 | uint64](dst []T, src []byte, n int, width uint, pad []byte) ([]T, []byte, int) {
	dst, src = dst[n:], src[uint(n)/8*width:]
	if width == 0 {
		return dst, src, 0
	}
	c := copy(pad[:padWindow], src)
	return dst, src, min(len(dst), c*8/int(width)) &^ 7
}
