package arrowmem

import "unsafe"

// The unsafe slice views of the module live here and nowhere else. Each
// reinterprets memory in place; the caller guarantees that the element
// types have compatible sizes and alignment and that the bytes are in the
// little-endian layout Arrow buffers use. View, Bytes and Cast return
// slices whose capacity is their length, so an append to one never writes
// into memory past the viewed values; ViewCap and BytesCap keep the whole
// capacity, for buffers that go back to a pool.

// View views b, whose length is a whole number of Ts (and whose start is
// aligned for T), as a []T.
func View[T any](b []byte) []T {
	var v T
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/int(unsafe.Sizeof(v)))
}

// Bytes views the memory of s as bytes.
func Bytes[T any](s []T) []byte {
	var v T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(v)))
}

// Cast reinterprets s as a slice of To of the same length. From and To
// must have the same size and alignment (int32 and uint32, say).
func Cast[To, From any](s []From) []To {
	return unsafe.Slice((*To)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// ViewCap is View keeping b's capacity in whole Ts, so that BytesCap of
// the view gives b back with its capacity (and pooled buffers their size
// class).
func ViewCap[T any](b []byte) []T {
	var v T
	size := int(unsafe.Sizeof(v))
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), cap(b)/size)[:len(b)/size]
}

// BytesCap is Bytes keeping s's capacity.
func BytesCap[T any](s []T) []byte {
	var v T
	size := int(unsafe.Sizeof(v))
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), cap(s)*size)[:len(s)*size]
}
