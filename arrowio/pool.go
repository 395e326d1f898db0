package arrowio

import (
	"math/bits"
	"sync"

	"github.com/quiverio/quiver/internal/arrowmem"
)

// bytePools recycle the scratch byte slices the reader reads column chunks
// and decompresses pages into, by power-of-two capacity class, so that a
// long read neither zeroes fresh memory for every chunk nor feeds the
// garbage collector. Class k holds slices of capacity exactly 1<<k.
var bytePools [41]sync.Pool

// boxes recycles the *[]byte the byte pools hold their slices in: a slice
// put in a sync.Pool as it is would need a new box each time.
var boxes = sync.Pool{New: func() any { return new([]byte) }}

// getBytes returns a slice of length n whose contents are undefined.
func getBytes(n int) []byte {
	if n == 0 {
		return nil
	}
	k := bits.Len(uint(n - 1))
	if k >= len(bytePools) {
		return make([]byte, n)
	}
	if p, ok := bytePools[k].Get().(*[]byte); ok {
		b := (*p)[:n]
		*p = nil
		boxes.Put(p)
		return b
	}
	// Pooled slices hold whatever they last held anyway: a fresh one
	// need not be cleared either.
	return arrowmem.MakeNoZero(1 << k)[:n]
}

// putBytes returns b to its pool; b must not be used afterwards.
func putBytes(b []byte) {
	c := cap(b)
	if c == 0 || c&(c-1) != 0 {
		return // not from getBytes
	}
	k := bits.TrailingZeros(uint(c))
	if k < len(bytePools) {
		p := boxes.Get().(*[]byte)
		*p = b[:0]
		bytePools[k].Put(p)
	}
}
