//go:build !purego

package asm

// LevelsToBitmap16NEON sets bit i of dst (LSB first) when levels[i] >= t,
// for the first n = min(len(levels), 8*len(dst))&^31 levels, writing n/8
// whole bytes, and returns n and how many of those bits it set.
//
//go:noescape
func LevelsToBitmap16NEON(dst []byte, levels []int16, t int16) (n, valid int)

// LevelsToBitmap8NEON is LevelsToBitmap16NEON for uint8 levels.
//
//go:noescape
func LevelsToBitmap8NEON(dst []byte, levels []uint8, t uint8) (n, valid int)
