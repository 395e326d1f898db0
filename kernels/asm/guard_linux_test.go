package asm

import (
	"os"
	"sync"
	"syscall"
	"testing"
)

// arenaSize is the most a test asks guarded for.
const arenaSize = 1 << 20

var (
	arenaOnce sync.Once
	arena     []byte
	arenaErr  error
)

// guarded returns a slice of n bytes that ends where an inaccessible page
// begins, so a kernel that loads even one byte past the end of its input
// faults instead of reading a neighbour's memory. Every call returns the
// tail of the same mapping, so the slice is valid until the next call; the
// tests are not parallel.
func guarded(t testing.TB, n int) []byte {
	t.Helper()
	arenaOnce.Do(func() {
		page := os.Getpagesize()
		size := (arenaSize+page-1)/page*page + page
		mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err != nil {
			arenaErr = err
			return
		}
		if err := syscall.Mprotect(mem[size-page:], syscall.PROT_NONE); err != nil {
			arenaErr = err
			return
		}
		arena = mem[: size-page : size-page]
	})
	if arenaErr != nil {
		t.Fatalf("mapping guarded test memory: %v", arenaErr)
	}
	if n > len(arena) {
		t.Fatalf("guarded: %d bytes asked, arena holds %d", n, len(arena))
	}
	return arena[len(arena)-n:]
}
