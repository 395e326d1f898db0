//go:build !purego

package asm

// Gather32NEON sets dst[i] = dict[idx[i]] for the first
// min(len(dst), len(idx))&^15 indices, 16 at a time, stopping before the
// first group of 16 that holds an index at or past len(dict), and returns
// how many it gathered. NEON checks each group's largest index (UMAX of
// four vectors, then its lanes); the loads are scalar, as NEON has no
// gather.
//
//go:noescape
func Gather32NEON(dst []uint32, dict []uint32, idx []uint32) int

// Gather64NEON is Gather32NEON for uint64 values.
//
//go:noescape
func Gather64NEON(dst []uint64, dict []uint64, idx []uint32) int
