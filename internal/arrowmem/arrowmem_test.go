package arrowmem

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// filled is an allocator whose memory comes out holding 0xA5s.
type filled struct{ memory.GoAllocator }

func (f *filled) Allocate(size int) []byte {
	b := f.GoAllocator.Allocate(size)
	for i := range b {
		b[i] = 0xA5
	}
	return b
}

func (f *filled) Reallocate(size int, b []byte) []byte {
	nb := f.Allocate(size)
	copy(nb, b)
	return nb
}

// TestZeroing checks that the constructors' allocator clears what it
// hands out, fresh and grown, over an allocator that does not.
func TestZeroing(t *testing.T) {
	z := zeroing{&filled{}}
	b := z.Allocate(100)
	for i := range b {
		if b[i] != 0 {
			t.Fatalf("Allocate: byte %d is %#x", i, b[i])
		}
		b[i] = 0xFF
	}
	g := z.Reallocate(5000, b)
	for i := range g {
		if want := byte(0); i < 100 && g[i] != 0xFF || i >= 100 && g[i] != want {
			t.Fatalf("Reallocate: byte %d is %#x", i, g[i])
		}
	}
}
