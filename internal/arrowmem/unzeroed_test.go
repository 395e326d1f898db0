package arrowmem

import (
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestMakeNoZero checks lengths and that slices do not overlap.
func TestMakeNoZero(t *testing.T) {
	var live [][]byte
	for _, n := range []int{0, 1, 8, 100, 4096, 1 << 20} {
		b := makeNoZero(n)
		if len(b) != n || cap(b) != n {
			t.Fatalf("makeNoZero(%d): len %d cap %d", n, len(b), cap(b))
		}
		for i := range b {
			b[i] = byte(n + i)
		}
		live = append(live, b)
	}
	for _, b := range live {
		for i := range b {
			if b[i] != byte(len(b)+i) {
				t.Fatalf("slice of %d bytes changed at byte %d", len(b), i)
			}
		}
	}
}

var _ memory.Allocator = Unzeroed{}

// TestUnzeroedAllocate checks sizes, capacities, alignment, that
// Reallocate keeps the contents, and that a freed buffer is never handed
// out again while it can still be reached: buffers allocated after it,
// of its size and written whole, leave what it holds as it was.
func TestUnzeroedAllocate(t *testing.T) {
	var a Unzeroed
	for _, size := range []int{0, 1, 63, 64, 65, 1 << minShift, 1<<minShift + 1, 4096, 1 << 20, 5<<20 + 3} {
		b := a.Allocate(size)
		if len(b) != size || cap(b) != size {
			t.Fatalf("Allocate(%d): len %d cap %d", size, len(b), cap(b))
		}
		if p := uintptr(unsafe.Pointer(unsafe.SliceData(b))); p%alignment != 0 {
			t.Fatalf("Allocate(%d) at %#x, not %d-byte aligned", size, p, alignment)
		}
		for i := range b {
			b[i] = byte(size + i)
		}
		if shrunk := a.Reallocate(size/2, b); len(shrunk) != size/2 || (size > 1 && &shrunk[0] != &b[0]) {
			t.Fatalf("Reallocate(%d) of %d bytes did not reuse them", size/2, size)
		}
		grown := a.Reallocate(2*size+1, b)
		if len(grown) != 2*size+1 {
			t.Fatalf("Reallocate(%d): len %d", 2*size+1, len(grown))
		}
		for i := range size {
			if grown[i] != byte(size+i) {
				t.Fatalf("Reallocate(%d) lost byte %d", 2*size+1, i)
			}
		}
		a.Free(b)
		for range 8 {
			o := a.Allocate(size)
			if size > 0 && unsafe.SliceData(o) == unsafe.SliceData(b) {
				t.Fatalf("Allocate(%d) handed out a freed buffer still in use", size)
			}
			for i := range o {
				o[i] = ^byte(size + i)
			}
			a.Free(o)
		}
		for i := range b {
			if b[i] != byte(size+i) {
				t.Fatalf("a freed buffer of %d bytes, still reachable, changed at byte %d", size, i)
			}
		}
	}
}
