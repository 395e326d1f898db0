package arrowio

import (
	"cmp"
	"fmt"
	"io"

	"github.com/quiverio/quiver/footer"
)

// pageWindow is how many bytes of a chunk read from the file at a time
// hold its next page header: with them come the page's level sections
// and its first values, or whole small pages.
const pageWindow = 64 << 10

// fileReadError is a failed ReadAt of a chunk read page by page: the
// file, not its contents, is at fault, so it is not a CorruptError.
type fileReadError struct {
	n   int
	off int64
	err error
}

func (e *fileReadError) Error() string {
	return fmt.Sprintf("reading %d bytes at offset %d: %v", e.n, e.off, e.err)
}

func (e *fileReadError) Unwrap() error { return e.err }

// readFull fills b from src at off, or says why not.
func readFull(src io.ReaderAt, b []byte, off int64) error {
	if n, err := src.ReadAt(b, off); n < len(b) {
		return &fileReadError{n: len(b), off: off, err: cmp.Or(err, io.ErrUnexpectedEOF)}
	}
	return nil
}

// attachFile makes the iterator read the chunk at file range [start, end)
// of src as it reaches each page, instead of from a buffer holding the
// whole chunk. A window of the chunk (data, at file offset base) holds
// each page header; a page larger than the window comes back with only
// its first bytes, and the caller either reads the rest of its values
// into their Arrow buffer through a bounce buffer of a few MiB at most
// (filePlain) or has the iterator materialize it. An uncompressed chunk
// then never sits whole in a chunk buffer: its values go from the file
// through cache to its Arrow array.
//
// window is the window's size, 0 for pageWindow.
func (it *pageIterator) attachFile(src io.ReaderAt, start, end int64, window int) {
	it.src, it.chunkStart, it.at, it.end = src, start, start, end
	it.base, it.data, it.pos = start, nil, 0
	it.windowSize = cmp.Or(window, pageWindow)
}

// chunkBytes is the size of the chunk the iterator walks.
func (it *pageIterator) chunkBytes() int {
	if it.src != nil {
		return int(it.end - it.chunkStart)
	}
	return len(it.data)
}

// exhausted reports whether no page is left to read.
func (it *pageIterator) exhausted() bool {
	if it.src != nil {
		return it.at >= it.end
	}
	return it.pos >= len(it.data)
}

// fill makes the window the n bytes of the chunk at file offset off
// (n > 0, off+n <= end), reusing its pooled buffer when it is large enough.
func (it *pageIterator) fill(off int64, n int) error {
	if cap(it.window) < n {
		putBytes(it.window)
		it.window = getBytes(max(n, it.windowSize))
	}
	it.data, it.base = it.window[:n], off
	if err := readFull(it.src, it.data, off); err != nil {
		it.data = nil
		return err
	}
	return nil
}

// windowEnd is the file offset just past the window.
func (it *pageIterator) windowEnd() int64 { return it.base + int64(len(it.data)) }

// nextFromFile is next for a chunk read from the file. The page's
// payload, and the byte strings of its header's statistics, alias the
// window, which the next call (or materialize) overwrites.
func (it *pageIterator) nextFromFile() (p rawPage, ok bool, err error) {
	if it.at >= it.end {
		return p, false, nil
	}
	it.ordinal++ // errors from here on name this page
	off := it.at
	p.offset = off
	if off < it.base || off >= it.windowEnd() {
		if err := it.fill(off, int(min(int64(it.windowSize), it.end-off))); err != nil {
			return p, false, err
		}
	}
	var n int
	for {
		n, err = footer.UnmarshalPageHeaderInto(it.data[off-it.base:], &p.header, &it.store)
		if err == nil {
			break
		}
		if it.windowEnd() >= it.end {
			return p, false, fmt.Errorf("page header at offset %d: %w", off, err)
		}
		// The header runs past the window: read a larger one.
		grown := max(it.windowSize, 2*int(it.windowEnd()-off))
		if err := it.fill(off, int(min(int64(grown), it.end-off))); err != nil {
			return p, false, err
		}
	}
	start := off + int64(n)
	if err := checkPageSize(&p.header, off, it.end-start); err != nil {
		return p, false, err
	}
	size := int64(p.header.CompressedPageSize)
	it.at = start + size
	if start+size > it.windowEnd() && it.windowEnd()-start < min(size, int64(it.windowSize/2)) {
		// The window holds little of the page: read a window from its
		// start, to hold its level sections and first values. The
		// header's numbers and nested structs (in it.store) stay valid;
		// its statistics' byte strings alias the window and do not, but
		// no reader of pages looks at them.
		if err := it.fill(start, int(min(int64(it.windowSize), it.end-start))); err != nil {
			return p, false, err
		}
	}
	in := min(size, it.windowEnd()-start)
	p.payload = it.data[start-it.base : start-it.base+in]
	p.more, p.moreOff = int(size-in), start+in
	return p, true, nil
}

// materialize reads the rest of page p, which nextFromFile returned
// with only its first bytes, so that its payload is whole.
func (it *pageIterator) materialize(p *rawPage) error {
	if p.more == 0 {
		return nil
	}
	start := p.moreOff - int64(len(p.payload))
	size := len(p.payload) + p.more
	if err := it.fill(start, size); err != nil {
		return err
	}
	p.payload, p.more = it.data, 0
	return nil
}

// releaseWindow returns the window's pooled buffer.
func (it *pageIterator) releaseWindow() {
	putBytes(it.window)
	it.window = nil
}

// readsFromFile reports whether the leaf decodes its chunk as
// attachFile reads it: a plaintext, uncompressed chunk of PLAIN values
// copied as they are into Arrow (no conversion), without CRC
// verification, which needs each page whole. Other chunks are read whole:
// their pages would all be materialized, a read each.
func (l *leafReader) readsFromFile() bool {
	return l.plain && l.codec == footer.CodecUncompressed && l.pages.crypt == nil && !l.pages.verifyCRC && l.copiesValues()
}

// copiesValues reports whether the leaf's PLAIN values are its Arrow
// values byte for byte: fixed width, no conversion.
func (l *leafReader) copiesValues() bool {
	return l.t.kind == fixedTarget && l.t.conv == nil && !l.t.varDecimal && l.t.physWidth == l.t.width
}

// startPlacedPage starts data page p, which nextFromFile returned with
// only its first bytes, reading its PLAIN values straight from the file
// into the batch's values buffer. It reports false, having done
// nothing, when the page is not PLAIN or its first bytes do not hold its
// level sections; the caller then materializes the page.
func (l *leafReader) startPlacedPage(p *rawPage) (bool, error) {
	enc := footer.Encoding(-1)
	switch h := &p.header; {
	case h.Type == footer.PageTypeData && h.DataPageHeader != nil:
		enc = h.DataPageHeader.Encoding
	case h.Type == footer.PageTypeDataV2 && h.DataPageHeaderV2 != nil:
		enc = h.DataPageHeaderV2.Encoding
	}
	if enc != footer.EncodingPlain {
		return false, nil
	}
	dp, err := splitDataPage(p, l.codec, l.dec, nil, l.node.MaxDef, l.node.MaxRep)
	if err != nil {
		return false, nil // the whole page gives the error, if it has one
	}
	l.placed = filePlain{width: l.t.width, head: dp.values, src: l.pages.src, off: p.moreOff, left: int64(p.more),
		bounce: l.placed.bounce, most: bounceWindows * l.pages.windowSize}
	return true, l.usePage(dp, &l.placed)
}

// filePlain decodes the PLAIN values of a page read by startPlacedPage:
// those in the window are copied, the rest read from the file, at most
// most bytes at a time, into a bounce buffer kept from page to page of the
// chunk and copied from there into the values buffer. Reading
// straight into the values buffer saves that copy, but the kernel's copy
// into memory not in cache measured slower than the two (taxi plain 152.9
// -> 76.6 ms, alternating A/B n=5 on the session-9 host).
type filePlain struct {
	width  int
	head   []byte // the page's values in the window, not consumed yet
	src    io.ReaderAt
	off    int64 // file offset of the values after head
	left   int64 // bytes of values from off
	bounce []byte
	// most is the most bytes read into bounce at once.
	most int
}

func (d *filePlain) start([]byte, int) error { return nil }

func (d *filePlain) next(out *colOut, at, k int) error {
	need := k * d.width
	if int64(need) > int64(len(d.head))+d.left {
		return errShortPage("PLAIN values", need, len(d.head)+int(d.left))
	}
	dst := out.values.Bytes()[at*d.width : at*d.width+need]
	n := copy(dst, d.head)
	d.head = d.head[n:]
	for rest := dst[n:]; len(rest) > 0; {
		if cap(d.bounce) < min(len(rest), d.most) {
			putBytes(d.bounce)
			d.bounce = getBytes(int(min(d.left, int64(d.most))))
		}
		b := d.bounce[:min(len(rest), d.most)]
		if err := readFull(d.src, b, d.off); err != nil {
			return err
		}
		copy(rest, b)
		rest = rest[len(b):]
		d.off += int64(len(b))
		d.left -= int64(len(b))
	}
	return nil
}

// bounceWindows is the most a filePlain reads at once into its bounce
// buffer, in windows of the page iterator: 2 MiB by default, small enough
// to stay in cache between the read and the copy (256 KiB measured no
// different), and in the tests' small windows small enough that a page
// takes several reads.
const bounceWindows = 32
