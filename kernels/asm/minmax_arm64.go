//go:build !purego

package asm

// MinMaxNaN32NEON takes the first len(v)&^31 values of v, 32 at a time,
// and returns the least and greatest of them that are not NaN (+Inf and
// -Inf when there is none; zeros of either sign compare equal, and when
// both occur a zero low bound is -0 and a zero high bound +0), how many
// are NaN, and how many it took, n. Each 32-bit count lane takes a
// quarter of the values: len(v) must be below 2^34.
//
//go:noescape
func MinMaxNaN32NEON(v []float32) (lo, hi float32, nans, n int)

// MinMaxNaN64NEON is MinMaxNaN32NEON for float64 values, 16 at a time
// (len(v)&^15 of them), with no bound on len(v).
//
//go:noescape
func MinMaxNaN64NEON(v []float64) (lo, hi float64, nans, n int)
