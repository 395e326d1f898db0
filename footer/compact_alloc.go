package footer

import "unsafe"

// Decoding allocates in batches: strings are copied into a shared byte
// arena, and the structures and small slices that repeat once per column
// chunk come from slabs. Every batch is bounded by what the remaining input
// could still encode, so hostile lengths cannot inflate allocations.

// maxArena caps one arena batch, so a large footer grows in steps rather
// than in one guess.
const maxArena = 1 << 20

// copyString returns a string holding b, which must lie within the input
// bytes that remain. Short strings share the decoder's arena.
func (d *decoder) copyString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	m := d.meta()
	if len(b) > cap(m.arena)-len(m.arena) {
		if len(b) >= 1024 {
			return string(b)
		}
		size := min(max(2*cap(m.arena), 4096), maxArena, d.remaining())
		m.arena = make([]byte, 0, size)
	}
	start := len(m.arena)
	m.arena = append(m.arena, b...)
	return unsafe.String(&m.arena[start], len(b))
}

// slab hands out zeroed values of T from shared backing arrays.
type slab[T any] struct {
	free []T
}

// take returns n zeroed, contiguous values with capacity n (so appending to
// the result reallocates rather than overwriting a neighbour). When the
// slab is empty it allocates room for want values, but never for more than
// limit (how many values the remaining input could still encode) nor fewer
// than n.
func (s *slab[T]) take(n, want, limit int) []T {
	if n == 0 {
		return []T{} // present but empty: non-nil, and no allocation
	}
	if n > len(s.free) {
		s.free = make([]T, max(n, min(want, limit)))
	}
	v := s.free[:n:n]
	s.free = s.free[n:]
	return v
}

// perChunk returns a value of T for the current column chunk, allocating
// one batch for the rest of the row group's chunks at a time. Each later
// chunk that uses a batch value needs at least chunkMin more input bytes,
// which bounds the batch by what the input can still hold.
func perChunk[T any](d *decoder, s *slab[T], chunkMin int) *T {
	return &s.take(1, d.colsLeft, 1+d.remaining()/chunkMin)[0]
}

// perChunkSlice is [perChunk] for a slice of n values; it expects later
// chunks to need as many.
func perChunkSlice[T any](d *decoder, s *slab[T], n, elemMin int) []T {
	return s.take(n, n*max(d.colsLeft, 1), d.remaining()/elemMin)
}
