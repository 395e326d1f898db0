package arrowmem

import (
	"strings"
	"unsafe"
)

// alignment is the byte alignment of the memory Recycling hands out, the
// one Arrow recommends and arrow-go's Go allocator gives.
const alignment = 64

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
