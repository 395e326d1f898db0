package asm

import (
	"fmt"
	"testing"
)

type (
	levels16Func = func(dst []byte, levels []int16, t int16) (n, valid int)
	levels8Func  = func(dst []byte, levels []uint8, t uint8) (n, valid int)
)

var (
	levels16Impls []impl[levels16Func]
	levels8Impls  []impl[levels8Func]
)

// verifyLevels runs fn over levels with a dst of room bytes and checks the
// count, every bit written, the valid count and the canaries after them.
func verifyLevels[T int16 | uint8](t *testing.T, fn func([]byte, []T, T) (int, int), levels []T, th T, room int) {
	t.Helper()
	const canary = 0x3c
	dst := make([]byte, room+8)
	for i := range dst {
		dst[i] = canary
	}
	n, valid := fn(dst[:room], levels, th)
	if want := min(len(levels), 8*room) &^ 31; n != want {
		t.Fatalf("%d levels, %d bytes: count %d, want %d", len(levels), room, n, want)
	}
	set := 0
	for i := range n {
		got := dst[i/8]>>(i%8)&1 == 1
		if want := levels[i] >= th; got != want {
			t.Fatalf("%d levels, threshold %d: bit %d = %v for level %d", len(levels), th, i, got, levels[i])
		}
		if got {
			set++
		}
	}
	if valid != set {
		t.Fatalf("%d levels, threshold %d: valid count %d, want %d", len(levels), th, valid, set)
	}
	for i := n / 8; i < len(dst); i++ {
		if dst[i] != canary {
			t.Fatalf("%d levels (count %d): byte %d overwritten", len(levels), n, i)
		}
	}
}

func TestLevelsToBitmap16(t *testing.T) {
	forEach(t, levels16Impls, func(t *testing.T, fn levels16Func) {
		r := newRand()
		for _, n := range testLengths() {
			lv := unsafeInt16s(guarded(t, 2*n+2)[2:])
			for i := range lv {
				lv[i] = []int16{0, 1, 2, 3, -1, -32768, 32767}[r.IntN(7)]
			}
			for _, th := range []int16{-32768, -1, 0, 1, 2, 3, 32767} {
				for _, room := range []int{(n + 7) / 8, n / 16} {
					verifyLevels(t, fn, lv, th, room)
				}
			}
		}
	})
}

func TestLevelsToBitmap8(t *testing.T) {
	forEach(t, levels8Impls, func(t *testing.T, fn levels8Func) {
		r := newRand()
		for _, n := range testLengths() {
			lv := guarded(t, n)
			for i := range lv {
				lv[i] = []uint8{0, 1, 2, 3, 127, 128, 255}[r.IntN(7)]
			}
			for _, th := range []uint8{0, 1, 2, 3, 128, 255} {
				for _, room := range []int{(n + 7) / 8, n / 16} {
					verifyLevels(t, fn, lv, th, room)
				}
			}
		}
	})
}

// benchLevels times each kernel over 4096 levels, a third of them null.
func benchLevels[T int16 | uint8, F ~func([]byte, []T, T) (int, int)](b *testing.B, impls []impl[F]) {
	for _, im := range impls {
		if !im.ok {
			continue
		}
		b.Run(fmt.Sprintf("impl=%s", im.name), func(b *testing.B) {
			lv, dst := make([]T, 4096), make([]byte, 512)
			for i := range lv {
				lv[i] = T(i % 3)
			}
			b.SetBytes(int64(len(dst)))
			b.ReportAllocs()
			for b.Loop() {
				im.fn(dst, lv, 1)
			}
			b.ReportMetric(float64(b.N*len(lv))/b.Elapsed().Seconds(), "values/s")
		})
	}
}

func BenchmarkLevelsToBitmap16(b *testing.B) { benchLevels(b, levels16Impls) }

func BenchmarkLevelsToBitmap8(b *testing.B) { benchLevels(b, levels8Impls) }
