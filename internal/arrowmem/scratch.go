package arrowmem

// scratch is the recycling allocator of the reader's scratch buffers
// (GetBytes), a pool of its own: no array's memory is drawn from it and
// no released array's memory goes into it, so the memory it hands out
// again is memory only the reader ever held, never a buffer a caller's
// Go slice may still point into (see arrowio's ReadOptions.Allocator).
var scratch Recycling

// GetBytes returns a slice of length n whose contents are undefined, for
// the scratch the reader reads column chunks, decompresses pages and
// decodes into. It comes from scratch, recycled so that a long read
// neither zeroes fresh memory for every chunk nor feeds the garbage
// collector. It must never become part of an array the reader returns:
// values are copied out of it into buffers from the caller's allocator
// (arrowio's allocator_owned_test.go checks every array of every corpus
// file).
func GetBytes(n int) []byte {
	if n == 0 {
		return nil
	}
	return scratch.Allocate(n)
}

// PutBytes returns b, a slice from GetBytes (or a reslice of it keeping its
// start and capacity), for reuse; b must not be used afterwards.
func PutBytes(b []byte) { scratch.Free(b) }
