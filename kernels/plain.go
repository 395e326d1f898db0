package kernels

import "unsafe"

// castSlice reinterprets s as a slice of To of the same length. From and To
// must have the same size and alignment (int32 and uint32, say).
func castSlice[To, From any](s []From) []To {
	return unsafe.Slice((*To)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// Offset is the type of Arrow offsets: int32 for String/Binary, int64 for
// LargeString/LargeBinary. Value i of an offsets+data pair is
// data[offsets[i]:offsets[i+1]].
type Offset interface{ int32 | int64 }

// maxOffset returns the largest value an O can hold.
func maxOffset[O Offset]() int64 {
	var o O
	return int64(^uint64(0) >> (65 - 8*unsafe.Sizeof(o)))
}
