package asm

import (
	"fmt"
	"testing"
	"unsafe"
)

type (
	unpack32Func = func(dst []uint32, src []byte, width uint) int
	unpack64Func = func(dst []uint64, src []byte, width uint) int
)

var (
	unpack32Impls []impl[unpack32Func]
	unpack64Impls []impl[unpack64Func]
)

// unpackRef reads value i of width w from LSB-first packed src, bit by bit.
func unpackRef(src []byte, i int, w uint) uint64 {
	var v uint64
	for k := range w {
		b := uint(i)*w + k
		v |= uint64(src[b/8]>>(b%8)&1) << k
	}
	return v
}

// unpackSlacks are the extra bytes placed after the packed data: none (the
// kernel must not fault on the guard page right after it), a few, and many.
// Whenever src holds at least 64 bytes every whole block must be unpacked.
var unpackSlacks = []int{0, 1, 7, 16, 33, 200}

// checkUnpack runs one unpack kernel over n random values of width w with
// slack bytes after the data; see verifyUnpack.
func checkUnpack[T uint32 | uint64](t *testing.T, fn func([]T, []byte, uint) int, n int, w, maxWidth uint, slack int) {
	t.Helper()
	src := guarded(t, (n*int(w)+7)/8+slack)
	fillRandom(newRand(), src)
	verifyUnpack(t, fn, src, n, w, maxWidth)
}

// verifyUnpack runs fn over n values of width w from src, which must end at
// a guard page and hold the values, and checks the count it reports, the
// values it wrote and the canaries after them. maxWidth is the widest width
// the kernel accepts.
func verifyUnpack[T uint32 | uint64](t *testing.T, fn func([]T, []byte, uint) int, src []byte, n int, w, maxWidth uint) {
	t.Helper()
	const canary = 0x5a
	dst := make([]T, n+8)
	for i := range dst {
		dst[i] = canary
	}
	k := fn(dst[:n], src, w)
	if w == 0 || w > maxWidth {
		if k != 0 {
			t.Fatalf("width %d: got count %d, want 0", w, k)
		}
	} else if len(src) >= 64 && k != n&^7 {
		t.Fatalf("width %d n %d src %d bytes: count %d, want every whole block (%d)", w, n, len(src), k, n&^7)
	}
	if k < 0 || k > n || k%8 != 0 {
		t.Fatalf("width %d n %d src %d bytes: count %d is not a multiple of 8 in [0, n]", w, n, len(src), k)
	}
	for i := range k {
		if want := T(unpackRef(src, i, w)); dst[i] != want {
			t.Fatalf("width %d n %d src %d bytes: value %d = %#x, want %#x", w, n, len(src), i, dst[i], want)
		}
	}
	for i := k; i < len(dst); i++ {
		if dst[i] != canary {
			t.Fatalf("width %d n %d src %d bytes (count %d): dst[%d] = %#x overwritten", w, n, len(src), k, i, dst[i])
		}
	}
}

func TestUnpack32(t *testing.T) {
	forEach(t, unpack32Impls, func(t *testing.T, fn unpack32Func) {
		for w := uint(0); w <= 33; w++ {
			for _, n := range testLengths() {
				for _, slack := range unpackSlacks {
					checkUnpack(t, fn, n, w, 32, slack)
				}
			}
		}
	})
}

func TestUnpack64(t *testing.T) {
	forEach(t, unpack64Impls, func(t *testing.T, fn unpack64Func) {
		for w := uint(0); w <= 65; w++ {
			for _, n := range testLengths() {
				for _, slack := range unpackSlacks {
					checkUnpack(t, fn, n, w, 64, slack)
				}
			}
		}
	})
}

// benchUnpack times fn unpacking 4096 values of each width, all in cache.
func benchUnpack[T uint32 | uint64, F ~func([]T, []byte, uint) int](b *testing.B, impls []impl[F], widths []uint) {
	for _, w := range widths {
		for _, im := range impls {
			if !im.ok {
				continue
			}
			b.Run(fmt.Sprintf("width=%d/impl=%s", w, im.name), func(b *testing.B) {
				dst := make([]T, 4096)
				src := make([]byte, len(dst)*int(w)/8+64)
				fillRandom(newRand(), src)
				b.SetBytes(int64(len(dst)) * int64(sizeOf[T]()))
				b.ReportAllocs()
				for b.Loop() {
					im.fn(dst, src, w)
				}
				b.ReportMetric(float64(b.N*len(dst))/b.Elapsed().Seconds(), "values/s")
			})
		}
	}
}

// sizeOf returns the size in bytes of an unsigned integer type.
func sizeOf[T uint32 | uint64]() int {
	var z T
	return int(unsafe.Sizeof(z))
}

// unsafeUint32s views b, whose length is a multiple of 4 and whose start is
// 4-byte aligned, as uint32s.
func unsafeUint32s(b []byte) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/4)
}

// unsafeInt16s views b, whose length is even and whose start is 2-byte
// aligned, as int16s.
func unsafeInt16s(b []byte) []int16 {
	return unsafe.Slice((*int16)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/2)
}

// widthsUpTo returns the widths 1..max.
func widthsUpTo(max uint) []uint {
	ws := make([]uint, max)
	for i := range ws {
		ws[i] = uint(i + 1)
	}
	return ws
}

func BenchmarkUnpack32(b *testing.B) { benchUnpack(b, unpack32Impls, widthsUpTo(32)) }

func BenchmarkUnpack64(b *testing.B) { benchUnpack(b, unpack64Impls, widthsUpTo(64)) }
