package colwrite

// PageBuffer holds a column chunk's pages, headers included, in segments
// it never copies to grow: a page that does not fit the open segment
// opens a new one of at least half the bytes held so far. Appending to
// one buffer instead copied the chunk about once more as it doubled, and
// left up to half its capacity unused; on a 1,000-column row group of
// 322 MB that was 620 MB of garbage on top. A column's segments serve
// its next chunks again.
//
// A page can also be built in place (openPage, closePage): its bytes go
// straight into the open segment, behind room for its header, which is
// written into the end of that room once the page is done; the room the
// header leaves is skipped. The bytes held are thus spans of segments.
type PageBuffer struct {
	segs  [][]byte // segments, the first used of them in use
	used  int
	n     int      // bytes held
	spans []span   // the bytes held, in order
	out   [][]byte // what Segments last returned, reused
}

// span is bytes [lo, hi) of segment seg.
type span struct{ seg, lo, hi int }

// Len returns the bytes held.
func (b *PageBuffer) Len() int { return b.n }

// Segments returns the held bytes, in order, as slices of the buffer's
// memory, valid until the buffer's next chunk.
func (b *PageBuffer) Segments() [][]byte {
	b.out = b.out[:0]
	for _, s := range b.spans {
		b.out = append(b.out, b.segs[s.seg][s.lo:s.hi])
	}
	return b.out
}

// reset empties the buffer, keeping its segments for reuse.
func (b *PageBuffer) reset() { b.used, b.n, b.spans = 0, 0, b.spans[:0] }

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
	lo := len(b.segs[b.used-1])
	b.segs[b.used-1] = s
	b.hold(lo, len(s))
}

// hold adds bytes [lo, hi) of the open segment to the bytes held.
func (b *PageBuffer) hold(lo, hi int) {
	if lo == hi {
		return
	}
	b.n += hi - lo
	seg := b.used - 1
	if k := len(b.spans) - 1; k >= 0 && b.spans[k].seg == seg && b.spans[k].hi == lo {
		b.spans[k].hi = hi
		return
	}
	b.spans = append(b.spans, span{seg, lo, hi})
}

// reserve makes room for n more bytes in one segment.
func (b *PageBuffer) reserve(n int) { b.close(b.open(n)) }

// openPage returns the open segment, with room for a page of about n
// bytes, extended by pageHeaderRoom bytes of room for the page's header;
// the caller appends the page to it and gives it back with closePage,
// with at, its length now, where the page starts.
func (b *PageBuffer) openPage(n int) (seg []byte, at int) {
	seg = b.open(pageHeaderRoom + n)
	at = len(seg) + pageHeaderRoom
	return seg[:at], at
}

// closePage takes back the open segment seg, whose bytes from at on are
// a page, and puts the page's header hdr right before them. A header
// larger than the room (statistics of long values) moves the page up.
func (b *PageBuffer) closePage(seg []byte, at int, hdr []byte) {
	start := len(b.segs[b.used-1]) // where the room begins
	lo := at - len(hdr)
	if lo < start {
		grow := start - lo
		seg = append(seg, hdr[:grow]...) // any bytes: the length is what counts
		copy(seg[at+grow:], seg[at:len(seg)-grow])
		lo = start
	}
	copy(seg[lo:], hdr)
	b.segs[b.used-1] = seg
	b.hold(lo, len(seg))
}

// ReleaseBuffers drops the chunk buffers of the writer, whose file is
// written.
func (c *Writer) ReleaseBuffers() {
	c.DictPage, c.DataPages = PageBuffer{}, PageBuffer{}
}
