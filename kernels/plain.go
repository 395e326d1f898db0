package kernels

import "unsafe"

// castSlice reinterprets s as a slice of To of the same length. From and To
// must have the same size and alignment (int32 and uint32, say).
func castSlice[To, From any](s []From) []To {
	return unsafe.Slice((*To)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}
