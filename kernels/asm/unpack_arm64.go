//go:build !purego

package asm

// Unpack32NEON unpacks whole 8-value blocks of width-bit values (LSB first)
// from src into dst, as many as fit in len(dst) and have their bytes in src,
// and returns how many values it wrote, a multiple of 8. It never reads
// outside src; when len(src) < 32 it may stop early. It writes nothing
// unless 1 <= width <= 32.
//
//go:noescape
func Unpack32NEON(dst []uint32, src []byte, width uint) int

// Unpack64NEON unpacks whole 8-value blocks of width-bit values (LSB first)
// from src into dst, as many as fit in len(dst) and have their bytes in src,
// and returns how many values it wrote, a multiple of 8. It never reads
// outside src; when len(src) < 64 it may stop early. It writes nothing
// unless 1 <= width <= 64.
//
//go:noescape
func Unpack64NEON(dst []uint64, src []byte, width uint) int
