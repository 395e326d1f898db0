package colwrite

// PageBuffer holds a column chunk's pages, headers included, in segments
// it never copies to grow: a page that does not fit the open segment
// opens a new one of at least half the bytes held so far. Appending to
// one buffer instead copied the chunk about once more as it doubled, and
// left up to half its capacity unused; on a 1,000-column row group of
// 322 MB that was 620 MB of garbage on top. A column's segments serve
// its next chunks again.
type PageBuffer struct {
	segs [][]byte // segments, the first used of them in use
	used int
	n    int // bytes held
}

// Len returns the bytes held.
func (b *PageBuffer) Len() int { return b.n }

// Segments returns the held bytes, in order, as segments of the buffer's
// memory, valid until the buffer's next chunk.
func (b *PageBuffer) Segments() [][]byte { return b.segs[:b.used:b.used] }

// reset empties the buffer, keeping its segments for reuse.
func (b *PageBuffer) reset() { b.used, b.n = 0, 0 }

// open returns the open segment with room for n more bytes, opening a
// new one (or reusing a spare one big enough) when it has not. The
// caller appends to it and gives it back with close.
func (b *PageBuffer) open(n int) []byte {
	if b.used > 0 {
		if s := b.segs[b.used-1]; cap(s)-len(s) >= n {
			return s
		}
	}
	switch {
	case b.used == len(b.segs):
		b.segs = append(b.segs, make([]byte, 0, max(n, b.n/2)))
	case cap(b.segs[b.used]) >= n:
		b.segs[b.used] = b.segs[b.used][:0]
	default: // a spare too small: doubled, as a chunk's size varies
		b.segs[b.used] = make([]byte, 0, max(n, b.n/2, 2*cap(b.segs[b.used])))
	}
	b.used++
	return b.segs[b.used-1]
}

// close takes back the open segment s, which the caller appended to
// (growing it past its capacity only if it must).
func (b *PageBuffer) close(s []byte) {
	b.n += len(s) - len(b.segs[b.used-1])
	b.segs[b.used-1] = s
}

// reserve makes room for n more bytes in one segment.
func (b *PageBuffer) reserve(n int) { b.close(b.open(n)) }

// ReleaseBuffers drops the chunk buffers of the writer, whose file is
// written.
func (c *Writer) ReleaseBuffers() {
	c.DictPage, c.DataPages = PageBuffer{}, PageBuffer{}
}
