package arrowmem

// GetBytes returns a slice of length n whose contents are undefined, for
// the scratch the reader reads column chunks, decompresses pages and
// decodes into. It comes from the recycling allocator the reader's arrays
// come from by default, so that a long read neither zeroes fresh memory for
// every chunk nor feeds the garbage collector, and scratch and released
// arrays pass their memory on to each other.
func GetBytes(n int) []byte {
	if n == 0 {
		return nil
	}
	return Default.Allocate(n)
}

// PutBytes returns b, a slice from GetBytes (or a reslice of it keeping its
// start and capacity), for reuse; b must not be used afterwards.
func PutBytes(b []byte) { Default.Free(b) }
