package arrowmem

import (
	"strings"
	"unsafe"
)

// alignment is the byte alignment of the memory Unzeroed hands out, the
// one Arrow recommends and arrow-go's Go allocator gives.
const alignment = 64

// Unzeroed is a memory.Allocator over the Go heap that, unlike arrow-go's
// GoAllocator, does not clear the memory it hands out: a buffer the reader
// decodes into is written whole anyway, and clearing it first is a second
// pass over every output byte (a tenth of the time of an uncompressed
// read). Memory is garbage collected; Free does nothing.
//
// Only code that writes every byte of every buffer it returns may use it:
// the arrays quiver's reader builds do (reader_written_test.go checks this
// for every corpus file and random table), and arrow-go's constructors are
// reached through this package's wrappers, which clear what they leave.
type Unzeroed struct{}

// Allocate returns size bytes, 64-byte aligned, that may hold anything.
func (Unzeroed) Allocate(size int) []byte {
	buf := MakeNoZero(size + alignment)
	shift := int(-uintptr(unsafe.Pointer(unsafe.SliceData(buf))) & (alignment - 1))
	return buf[shift : shift+size : shift+size]
}

// MakeNoZero returns a new slice of n bytes (and capacity n) from the Go
// heap that may hold anything, like make without the clearing.
func MakeNoZero(n int) []byte {
	if n == 0 {
		return []byte{}
	}
	// strings.Builder grows its buffer with the runtime's allocation
	// without clearing, the only exported way to one; the string it
	// returns points at the start of that allocation of at least n bytes.
	var sb strings.Builder
	sb.Grow(n)
	sb.WriteByte(0)
	return unsafe.Slice(unsafe.StringData(sb.String()), n)
}

// Reallocate returns size bytes that start with b's, reusing b when it
// has the room.
func (a Unzeroed) Reallocate(size int, b []byte) []byte {
	if cap(b) >= size {
		return b[:size]
	}
	nb := a.Allocate(size)
	copy(nb, b)
	return nb
}

// Free does nothing: the garbage collector frees the memory.
func (Unzeroed) Free([]byte) {}
