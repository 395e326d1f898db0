//go:build !purego

package asm

import (
	"math"
	"testing"

	"golang.org/x/sys/cpu"
)

// TestMinMaxNaNNEONZeros checks what the NEON kernels promise beyond the
// others: when both zeros occur, a zero low bound is -0 and a zero high
// bound +0, as the reference's min and max give them.
func TestMinMaxNaNNEONZeros(t *testing.T) {
	if !cpu.ARM64.HasASIMD {
		t.Skip("CPU lacks ASIMD")
	}
	minMaxNaNInputs(t, values64, func(v []float64) {
		lo, hi, _, k := MinMaxNaN64NEON(v)
		checkZeroSigns(t, v[:k], lo, hi)
	})
	minMaxNaNInputs(t, values32, func(v []float32) {
		lo, hi, _, k := MinMaxNaN32NEON(v)
		checkZeroSigns(t, v[:k], lo, hi)
	})
}

// checkZeroSigns checks that lo and hi are the reference's bounds of v,
// telling -0 from +0.
func checkZeroSigns[T float32 | float64](t *testing.T, v []T, lo, hi T) {
	t.Helper()
	wlo, whi, _ := minMaxNaNRef(v)
	if math.Signbit(float64(lo)) != math.Signbit(float64(wlo)) || math.Signbit(float64(hi)) != math.Signbit(float64(whi)) {
		t.Fatalf("%d values: bounds [%v, %v], want [%v, %v]", len(v), lo, hi, wlo, whi)
	}
}
