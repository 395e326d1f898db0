//go:build !purego

package asm

// DeltaPrefixSum32NEON turns the deltas in v (each still missing minDelta)
// into values continuing from last, wrapping, for the first len(v)&^7
// values, and returns that count; v[count-1] is then the new last value.
//
//go:noescape
func DeltaPrefixSum32NEON(v []uint32, last, minDelta uint32) int

// DeltaPrefixSum64NEON is DeltaPrefixSum32NEON for uint64 values.
//
//go:noescape
func DeltaPrefixSum64NEON(v []uint64, last, minDelta uint64) int
