// Package arrowmem holds the reader's allocators, Unzeroed (its default,
// which leaves released memory to the garbage collector) and Recycling
// (which hands it out again: the opt-in of arrowio.NewRecyclingAllocator,
// and the pool of the reader's scratch buffers), and wraps the arrow-go
// array constructors the reader calls so that they work on memory no one
// zeroed. arrow-go's constructors count on allocators that hand out zeroed
// memory (its Go and C allocators both do): MakeArrayOfNull writes
// nothing, and Concatenate leaves the bits past a bitmap's length as it
// found them. quiver's decoders write every byte they return themselves;
// the wrappers give arrow-go cleared memory.
package arrowmem

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// NullArray returns an array of n nulls of type dt from mem.
func NullArray(mem memory.Allocator, dt arrow.DataType, n int) arrow.Array {
	return array.MakeArrayOfNull(zeroing{mem}, dt, n)
}

// Concatenate is array.Concatenate of arrs into memory from mem.
func Concatenate(arrs []arrow.Array, mem memory.Allocator) (arrow.Array, error) {
	return array.Concatenate(arrs, zeroing{mem})
}

// zeroing is an allocator that clears the memory of the allocator it
// wraps before handing it out.
type zeroing struct{ memory.Allocator }

// Allocate returns size zero bytes.
func (z zeroing) Allocate(size int) []byte {
	b := z.Allocator.Allocate(size)
	clear(b)
	return b
}

// Reallocate returns size bytes that start with b's and go on with zeros.
func (z zeroing) Reallocate(size int, b []byte) []byte {
	old := len(b)
	nb := z.Allocator.Reallocate(size, b)
	if size > old {
		clear(nb[old:])
	}
	return nb
}

// DataBytes returns the bytes of d's buffers, its children's and its
// dictionary's: the memory an array holds, as a bound on buffered batches
// or a size in a report counts it.
func DataBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, c := range d.Children() {
		n += DataBytes(c)
	}
	if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
		n += DataBytes(dict)
	}
	return n
}
