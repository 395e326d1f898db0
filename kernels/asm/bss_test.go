package asm

import (
	"fmt"
	"testing"
)

// bssFunc is the shape of the byte-stream-split kernels: n values of the
// kernel's width, n = min(len(dst), len(src))/width, of which they do the
// whole blocks (16 values on arm64, 32 on amd64) and return that count.
type bssFunc = func(dst, src []byte) int

// bssImpl is one byte-stream-split kernel with the value width it handles.
type bssImpl struct {
	width          int
	decode, encode []impl[bssFunc]
}

var bssImpls = map[int]*bssImpl{2: {width: 2}, 4: {width: 4}, 8: {width: 8}}

// bssStreamIndex is where byte k of value i of n values of width w lies in
// the encoded streams.
func bssStreamIndex(n, w, i, k int) int { return k*n + i }

func TestBSSDecode(t *testing.T) {
	for _, w := range []int{2, 4, 8} {
		t.Run(fmt.Sprintf("width=%d", w), func(t *testing.T) {
			forEach(t, bssImpls[w].decode, func(t *testing.T, fn bssFunc) {
				for _, n := range testLengths() {
					checkBSS(t, fn, w, n, true)
				}
			})
		})
	}
}

func TestBSSEncode(t *testing.T) {
	for _, w := range []int{2, 4, 8} {
		t.Run(fmt.Sprintf("width=%d", w), func(t *testing.T) {
			forEach(t, bssImpls[w].encode, func(t *testing.T, fn bssFunc) {
				for _, n := range testLengths() {
					checkBSS(t, fn, w, n, false)
				}
			})
		})
	}
}

// checkBSS runs a kernel over n random values of width w; see verifyBSS.
func checkBSS(t *testing.T, fn bssFunc, w, n int, decode bool) {
	t.Helper()
	src := guarded(t, n*w)
	fillRandom(newRand(), src)
	verifyBSS(t, fn, w, src, decode)
}

// verifyBSS runs a kernel over the len(src)/w values or streams in src,
// which must end at a guard page, and checks the count, every byte written
// and the canaries around them.
func verifyBSS(t *testing.T, fn bssFunc, w int, src []byte, decode bool) {
	t.Helper()
	const canary = 0xa5
	n := len(src) / w
	src = src[len(src)-n*w:]
	dst := make([]byte, n*w+64)
	for i := range dst {
		dst[i] = canary
	}
	k := fn(dst[:n*w], src)
	if k%16 != 0 || k > n || k < n&^31 {
		t.Fatalf("n %d: count %d, want every whole 16- or 32-value block", n, k)
	}
	written := make([]bool, len(dst))
	for i := range k {
		for b := range w {
			vi, si := i*w+b, bssStreamIndex(n, w, i, b)
			got, want := dst[si], src[vi]
			if decode {
				got, want = dst[vi], src[si]
				written[vi] = true
			} else {
				written[si] = true
			}
			if got != want {
				t.Fatalf("n %d: value %d byte %d = %#x, want %#x", n, i, b, got, want)
			}
		}
	}
	for i, wr := range written {
		if !wr && dst[i] != canary {
			t.Fatalf("n %d (count %d): byte %d overwritten", n, k, i)
		}
	}
}

func BenchmarkBSSDecode(b *testing.B) { benchBSS(b, true) }

func BenchmarkBSSEncode(b *testing.B) { benchBSS(b, false) }

// benchBSS times each kernel over 4096 values in cache.
func benchBSS(b *testing.B, decode bool) {
	for _, w := range []int{2, 4, 8} {
		impls := bssImpls[w].encode
		if decode {
			impls = bssImpls[w].decode
		}
		for _, im := range impls {
			if !im.ok {
				continue
			}
			b.Run(fmt.Sprintf("width=%d/impl=%s", w, im.name), func(b *testing.B) {
				const n = 4096
				src, dst := make([]byte, n*w), make([]byte, n*w)
				fillRandom(newRand(), src)
				b.SetBytes(int64(n * w))
				b.ReportAllocs()
				for b.Loop() {
					im.fn(dst, src)
				}
				b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "values/s")
			})
		}
	}
}
