//go:build !purego

package asm

// Unpack32NEON unpacks whole 8-value blocks of width-bit values (LSB first)
// from src into dst, as many as fit in len(dst) and can be read without
// loading past the end of src (each block is read as a 32-byte window from
// its start), and returns how many values it wrote, a multiple of 8. It
// writes nothing unless 1 <= width <= 32.
//
//go:noescape
func Unpack32NEON(dst []uint32, src []byte, width uint) int

// Unpack64NEON unpacks whole 8-value blocks of width-bit values (LSB first)
// from src into dst, as many as fit in len(dst) and can be read without
// loading past the end of src (each block is read as a 64-byte window from
// its start), and returns how many values it wrote, a multiple of 8. It
// writes nothing unless 1 <= width <= 64.
//
//go:noescape
func Unpack64NEON(dst []uint64, src []byte, width uint) int
