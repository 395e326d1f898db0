package footer

import "unsafe"

// Decoding allocates in batches: strings are copied into a shared byte
// arena, and the structures and small slices that repeat once per column
// chunk come from slabs. Every batch is bounded by what the remaining input
// could still encode, so hostile lengths cannot inflate allocations.

// maxArena and maxSlab cap one batch, so a large footer grows in steps
// rather than in one guess.
const (
	maxArena = 1 << 20
	maxSlab  = 4096
)

// copyString returns a string holding b, which must lie within the input
// bytes that remain. Short strings share the decoder's arena.
func (d *decoder) copyString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > cap(d.arena)-len(d.arena) {
		if len(b) >= 1024 {
			return string(b)
		}
		size := min(max(2*cap(d.arena), 4096), maxArena, d.remaining())
		d.arena = make([]byte, 0, size)
	}
	start := len(d.arena)
	d.arena = append(d.arena, b...)
	return unsafe.String(&d.arena[start], len(b))
}

// slab hands out zeroed values of T from shared backing arrays.
type slab[T any] struct {
	free []T
	last int // size of the previous batch
}

// take returns n zeroed, contiguous values with capacity n (so appending to
// the result reallocates rather than overwriting a neighbour). limit is how
// many values the remaining input could still encode, at least n.
func (s *slab[T]) take(n, limit int) []T {
	if n == 0 {
		return []T{} // present but empty: non-nil, and no allocation
	}
	if n > len(s.free) {
		size := max(n, min(max(2*s.last, 16), maxSlab, limit))
		s.free = make([]T, size)
		s.last = size
	}
	v := s.free[:n:n]
	s.free = s.free[n:]
	return v
}

// one returns a pointer to one zeroed T; minSize is T's smallest encoding.
func one[T any](d *decoder, s *slab[T], minSize int) *T {
	return &s.take(1, 1+d.remaining()/minSize)[0]
}
