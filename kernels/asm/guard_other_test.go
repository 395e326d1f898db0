//go:build !linux

package asm

import "testing"

// guarded returns a slice of n bytes. Only the Linux build places a guard
// page after it; elsewhere overreads go undetected by this helper.
func guarded(t testing.TB, n int) []byte {
	t.Helper()
	return make([]byte, n)
}
