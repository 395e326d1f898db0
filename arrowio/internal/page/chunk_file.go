package page

import (
	"cmp"
	"fmt"
	"io"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/arrowmem"
)

// pageWindow is how many bytes of a chunk read from the file at a time
// hold its next page header: with them come the page's level sections
// and its first values, or whole small pages.
const pageWindow = 64 << 10

// fileReadError is a failed ReadAt of a chunk read page by page: the
// file, not its contents, is at fault, so it is not a CorruptError.
type ReadError struct {
	n   int
	off int64
	err error
}

func (e *ReadError) Error() string {
	return fmt.Sprintf("reading %d bytes at offset %d: %v", e.n, e.off, e.err)
}

func (e *ReadError) Unwrap() error { return e.err }

// ReadFull fills b from src at off, or says why not.
func ReadFull(src io.ReaderAt, b []byte, off int64) error {
	if n, err := src.ReadAt(b, off); n < len(b) {
		return &ReadError{n: len(b), off: off, err: cmp.Or(err, io.ErrUnexpectedEOF)}
	}
	return nil
}

// AttachFile makes the iterator read the chunk at file range [start, end)
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
func (it *Iterator) AttachFile(src io.ReaderAt, start, end int64, window int) {
	it.Src, it.chunkStart, it.at, it.end = src, start, start, end
	it.Base, it.Data, it.pos = start, nil, 0
	it.WindowSize = cmp.Or(window, pageWindow)
}

// ChunkBytes is the size of the chunk the iterator walks.
func (it *Iterator) ChunkBytes() int {
	if it.Src != nil {
		return int(it.end - it.chunkStart)
	}
	return len(it.Data)
}

// Exhausted reports whether no page is left to read.
func (it *Iterator) Exhausted() bool {
	if it.Src != nil {
		return it.at >= it.end
	}
	return it.pos >= len(it.Data)
}

// fill makes the window the n bytes of the chunk at file offset off
// (n > 0, off+n <= end), reusing its pooled buffer when it is large enough.
func (it *Iterator) fill(off int64, n int) error {
	if cap(it.window) < n {
		arrowmem.PutBytes(it.window)
		it.window = arrowmem.GetBytes(max(n, it.WindowSize))
	}
	it.Data, it.Base = it.window[:n], off
	if err := ReadFull(it.Src, it.Data, off); err != nil {
		it.Data = nil
		return err
	}
	return nil
}

// windowEnd is the file offset just past the window.
func (it *Iterator) windowEnd() int64 { return it.Base + int64(len(it.Data)) }

// nextFromFile is next for a chunk read from the file. The page's
// payload, and the byte strings of its header's statistics, alias the
// window, which the next call (or materialize) overwrites.
func (it *Iterator) nextFromFile() (p Raw, ok bool, err error) {
	if it.at >= it.end {
		return p, false, nil
	}
	it.Ordinal++ // errors from here on name this page
	off := it.at
	p.Offset = off
	if off < it.Base || off >= it.windowEnd() {
		if err := it.fill(off, int(min(int64(it.WindowSize), it.end-off))); err != nil {
			return p, false, err
		}
	}
	var n int
	for {
		n, err = footer.UnmarshalPageHeaderInto(it.Data[off-it.Base:], &p.Header, &it.store)
		if err == nil {
			break
		}
		if it.windowEnd() >= it.end {
			return p, false, fmt.Errorf("page header at offset %d: %w", off, err)
		}
		// The header runs past the window: read a larger one.
		grown := max(it.WindowSize, 2*int(it.windowEnd()-off))
		if err := it.fill(off, int(min(int64(grown), it.end-off))); err != nil {
			return p, false, err
		}
	}
	start := off + int64(n)
	if err := checkPageSize(&p.Header, off, it.end-start); err != nil {
		return p, false, err
	}
	size := int64(p.Header.CompressedPageSize)
	it.at = start + size
	if start+size > it.windowEnd() && it.windowEnd()-start < min(size, int64(it.WindowSize/2)) {
		// The window holds little of the page: read a window from its
		// start, to hold its level sections and first values. The
		// header's numbers and nested structs (in it.store) stay valid;
		// its statistics' byte strings alias the window and do not, but
		// no reader of pages looks at them.
		if err := it.fill(start, int(min(int64(it.WindowSize), it.end-start))); err != nil {
			return p, false, err
		}
	}
	in := min(size, it.windowEnd()-start)
	p.Payload = it.Data[start-it.Base : start-it.Base+in]
	p.More, p.MoreOff = int(size-in), start+in
	return p, true, nil
}

// Materialize reads the rest of page p, which nextFromFile returned
// with only its first bytes, so that its payload is whole.
func (it *Iterator) Materialize(p *Raw) error {
	if p.More == 0 {
		return nil
	}
	start := p.MoreOff - int64(len(p.Payload))
	size := len(p.Payload) + p.More
	if err := it.fill(start, size); err != nil {
		return err
	}
	p.Payload, p.More = it.Data, 0
	return nil
}

// ReleaseWindow returns the window's pooled buffer.
func (it *Iterator) ReleaseWindow() {
	arrowmem.PutBytes(it.window)
	it.window = nil
}
