package arrowmem

import (
	"strings"
	"unsafe"
)

// alignment is the byte alignment of the memory Unzeroed and Recycling
// hand out, the one Arrow recommends and arrow-go's Go allocator gives.
const alignment = 64

// Unzeroed is a memory.Allocator whose memory comes from the Go heap and,
// unlike arrow-go's GoAllocator, is not cleared before it is handed out: a
// buffer the reader decodes into is written whole anyway, and clearing it
// first is a second pass over every output byte (a tenth of the time of an
// uncompressed read). New buffers of 1 MiB or more have their pages mapped
// in one call, with huge pages where the system allows them (prefault),
// which on Linux made first writes to new memory up to 50 times faster on
// a virtual machine.
//
// Free does nothing: a released buffer is left to the garbage collector,
// as arrow-go's GoAllocator leaves it, so memory is never handed out again
// while Go code can still reach it. A Go slice of an array's values kept
// past the array's last Release keeps its values, as it does with
// GoAllocator. [Recycling] hands freed memory out again instead.
//
// Only code that writes every byte of every buffer it returns may use it:
// the arrays quiver's reader builds do (reader_written_test.go checks
// this for every corpus file and random table), and arrow-go's
// constructors are reached through this package's wrappers, which clear
// what they leave.
//
// The zero value is ready to use and safe for concurrent use.
type Unzeroed struct{}

// Allocate returns size bytes, 64-byte aligned, that may hold anything.
func (Unzeroed) Allocate(size int) []byte { return newBuffer(size, size) }

// Reallocate returns size bytes that start with b's: b itself when it has
// the room, else new memory, b being left to the garbage collector.
func (u Unzeroed) Reallocate(size int, b []byte) []byte {
	if cap(b) >= size {
		return b[:size]
	}
	nb := u.Allocate(size)
	copy(nb, b)
	return nb
}

// Free does nothing: b is left to the garbage collector, which reclaims
// it once no Go code can reach it.
func (Unzeroed) Free([]byte) {}

// newBuffer returns size bytes of capacity capacity (>= size) from the Go
// heap, 64-byte aligned, that may hold anything, with its pages mapped in
// ahead when it is large (prefault).
func newBuffer(size, capacity int) []byte {
	b := alignedNoZero(size, capacity)
	prefault(b)
	return b
}

// alignedNoZero returns size bytes of capacity capacity (>= size) from the
// Go heap, 64-byte aligned, that may hold anything.
func alignedNoZero(size, capacity int) []byte {
	buf := makeNoZero(capacity + alignment)
	shift := int(-uintptr(unsafe.Pointer(unsafe.SliceData(buf))) & (alignment - 1))
	return buf[shift : shift+size : shift+capacity]
}

// makeNoZero returns a new slice of n bytes (and capacity n) from the Go
// heap that may hold anything, like make without the clearing.
func makeNoZero(n int) []byte {
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
