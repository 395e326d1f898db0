package arrowmem

import (
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

var _ memory.Allocator = Unzeroed{}

// TestUnzeroedAllocate checks sizes, alignment, that allocations do not
// overlap, and that Reallocate keeps the contents.
func TestUnzeroedAllocate(t *testing.T) {
	var a Unzeroed
	var live [][]byte
	for _, size := range []int{0, 1, 7, 63, 64, 65, 1000, 4096, 32 << 10, 1 << 20} {
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
		live = append(live, b)
		grown := a.Reallocate(2*size+1, b)
		if len(grown) != 2*size+1 {
			t.Fatalf("Reallocate(%d): len %d", 2*size+1, len(grown))
		}
		for i := range size {
			if grown[i] != byte(size+i) {
				t.Fatalf("Reallocate(%d) lost byte %d", 2*size+1, i)
			}
		}
		if shrunk := a.Reallocate(size/2, b); len(shrunk) != size/2 || (size > 1 && &shrunk[0] != &b[0]) {
			t.Fatalf("Reallocate(%d) of %d bytes did not reuse them", size/2, size)
		}
		a.Free(grown)
	}
	// Every live allocation still holds what was written to it.
	for _, b := range live {
		for i := range b {
			if b[i] != byte(len(b)+i) {
				t.Fatalf("allocation of %d bytes changed at byte %d", len(b), i)
			}
		}
	}
}

// BenchmarkAllocate compares Unzeroed with arrow-go's Go allocator on an
// allocation the size of a batch's values that is then written whole, as
// the reader does: the Go allocator clears it first.
func BenchmarkAllocate(b *testing.B) {
	const size = 8 << 20
	for _, c := range []struct {
		name string
		mem  memory.Allocator
	}{{"unzeroed", Unzeroed{}}, {"go", memory.NewGoAllocator()}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				buf := c.mem.Allocate(size)
				for i := 0; i < len(buf); i += 64 {
					buf[i] = 1
				}
				c.mem.Free(buf)
			}
		})
	}
}

// TestMakeNoZero checks lengths and that slices do not overlap.
func TestMakeNoZero(t *testing.T) {
	var live [][]byte
	for _, n := range []int{0, 1, 8, 100, 4096, 1 << 20} {
		b := MakeNoZero(n)
		if len(b) != n || cap(b) != n {
			t.Fatalf("MakeNoZero(%d): len %d cap %d", n, len(b), cap(b))
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
