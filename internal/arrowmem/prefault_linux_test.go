package arrowmem

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"golang.org/x/sys/unix"
)

// pagesOf returns the first page address and the number of pages of b.
func pagesOf(b []byte) (start uintptr, n int) {
	page := uintptr(unix.Getpagesize())
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	start = p &^ (page - 1)
	return start, int((p + uintptr(cap(b)) - start + page - 1) / page)
}

// resident returns how many of the pages holding b are mapped in
// (mincore).
func resident(t *testing.T, b []byte) int {
	t.Helper()
	start, n := pagesOf(b)
	vec := make([]byte, n)
	if _, _, errno := unix.Syscall(unix.SYS_MINCORE, start, uintptr(n*unix.Getpagesize()), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Skipf("mincore: %v", errno)
	}
	runtime.KeepAlive(b)
	mapped := 0
	for _, v := range vec {
		mapped += int(v & 1)
	}
	return mapped
}

// populates reports whether MADV_POPULATE_WRITE maps the pages of a fresh
// anonymous mapping, outside the Go heap.
func populates(t *testing.T) bool {
	m, err := unix.Mmap(-1, 0, 4*unix.Getpagesize(), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer unix.Munmap(m)
	if unix.Madvise(m, unix.MADV_POPULATE_WRITE) != nil {
		return false
	}
	return resident(t, m) == 4
}

// TestPrefaultMapsNewBuffers checks that a new buffer of prefaultMin bytes
// or more comes with all its pages mapped, after the Go heap has returned
// its free memory to the system so that none of them was before, and that
// prefault keeps what the memory holds.
func TestPrefaultMapsNewBuffers(t *testing.T) {
	if !populates(t) {
		t.Skip("MADV_POPULATE_WRITE maps nothing here (Linux before 5.14, or an emulator that ignores the advice)")
	}
	for _, a := range []memory.Allocator{new(Recycling), Unzeroed{}} {
		for _, size := range []int{prefaultMin, 8<<20 + 12345} {
			debug.FreeOSMemory()
			b := a.Allocate(size)
			if _, n := pagesOf(b); resident(t, b) != n {
				t.Errorf("%T.Allocate(%d): %d of %d pages mapped, want all", a, size, resident(t, b), n)
			}
		}
	}

	b := Unzeroed{}.Allocate(4 << 20)
	for i := range b {
		b[i] = byte(i * 7)
	}
	want := bytes.Clone(b)
	prefault(b)
	if !bytes.Equal(b, want) {
		t.Fatal("prefault changed the buffer's contents")
	}
}
