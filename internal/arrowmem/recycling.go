package arrowmem

import (
	"math/bits"
	"sync"
	"unsafe"
)

// Size classes of the buffers Recycling keeps: buffers of more than
// 1<<minShift bytes and at most 1<<maxShift, in 1<<classBits classes per
// doubling, so that a class's size is at most 1/16 (6.25%) above the size
// asked for.
const (
	minShift   = 9
	maxShift   = 36
	classBits  = 4
	numClasses = (maxShift - minShift) << classBits
)

// Recycling is a memory.Allocator that allocates as [Unzeroed] does and
// keeps the buffers it is given back for later allocations: the opt-in
// recycling allocator of quiver's reader (arrowio.NewRecyclingAllocator)
// and the pool of the reader's own scratch buffers.
//
// Buffers of more than 512 bytes are rounded up to a size class and, once
// freed (arrow-go frees a buffer when the last reference to it is
// released), kept for the next allocation of their class, which gets them
// back with whatever they last held. A buffer handed out again has its
// pages in place and often still in cache, where memory new to the Go
// heap, or taken back from the operating system, costs a page fault per
// 4 KiB when first written (a fifth of the time of an uncompressed read;
// Unzeroed maps new buffers of 1 MiB or more in one call, which makes
// that cheaper but not free). The buffers kept are held in sync.Pools, so
// the garbage collector drops those that no allocation took within two
// collections. Buffers that are never freed are garbage collected as with
// any Go allocator.
//
// The hazard it accepts: memory is handed out again as soon as it is
// freed, whether or not Go code can still reach it. An arrow-go array, or
// a Go slice of its values (Int64Values, ValueBytes, Buffers), used after
// the array's last Release reads, and its writes corrupt, whatever a later
// allocation put there, silently. Only code that never does that may
// allocate from it, and only code that writes every byte of every buffer
// it returns: the arrays quiver's reader builds do (reader_written_test.go
// checks this for every corpus file and random table, and that no array
// holds a buffer already freed), and arrow-go's constructors are reached
// through this package's wrappers, which clear what they leave.
//
// The zero value is ready to use and safe for concurrent use.
type Recycling struct {
	pools [numClasses]sync.Pool
}

// class returns the index and size of the class of buffers of size bytes,
// or ok false for sizes that are not kept.
func class(size int) (index, classSize int, ok bool) {
	if size <= 1<<minShift || size > 1<<maxShift {
		return 0, 0, false
	}
	h := bits.Len(uint(size-1)) - 1 // 1<<h < size <= 1<<(h+1)
	shift := h - classBits
	k := (size - 1<<h + 1<<shift - 1) >> shift // 1..1<<classBits steps above 1<<h
	return (h-minShift)<<classBits + k - 1, 1<<h + k<<shift, true
}

// Allocate returns size bytes, 64-byte aligned, that may hold anything.
// Their capacity is their class's size.
func (r *Recycling) Allocate(size int) []byte {
	index, classSize, ok := class(size)
	if !ok {
		return alignedNoZero(size, size)
	}
	if p, _ := r.pools[index].Get().(unsafe.Pointer); p != nil {
		return unsafe.Slice((*byte)(p), classSize)[:size]
	}
	return newBuffer(size, classSize)
}

// Reallocate returns size bytes that start with b's, reusing b when it
// has the room and freeing it otherwise.
func (r *Recycling) Reallocate(size int, b []byte) []byte {
	if cap(b) >= size {
		return b[:size]
	}
	nb := r.Allocate(size)
	copy(nb, b)
	r.Free(b)
	return nb
}

// Free keeps b for a later allocation when it is a whole buffer of a size
// class that Allocate handed out; anything else is left to the garbage
// collector. b must not be used afterwards.
func (r *Recycling) Free(b []byte) {
	index, classSize, ok := class(cap(b))
	if !ok || classSize != cap(b) {
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(b))
	if uintptr(p)%alignment != 0 {
		return
	}
	r.pools[index].Put(p)
}
