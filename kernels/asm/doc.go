// Package asm holds Quiver's assembly kernels for amd64 (AVX2, BMI2) and
// arm64 (NEON/ASIMD), each declared in Go beside its .s file.
//
// Routines process whole blocks only and return how many values they
// handled; package kernels checks inputs, chooses an implementation from CPU
// features once, and finishes tails with the portable Go twin. Nothing here
// allocates or stores Go pointers. With the purego build tag the package is
// empty.
package asm
