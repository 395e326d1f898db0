package page

import (
	"fmt"
	"hash/crc32"
	"io"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/quiverio/quiver/footer"
)

// ChunkRange returns the file byte range [start, start+length) of a column
// chunk's pages, checked against limit, the offset where the pages end
// (the footer's start).
//
// The chunk starts at its dictionary page when it has one and otherwise at
// its first data page; writers have set either offset to 0 for "none", so
// only offsets past the leading magic count, and the smaller one wins.
// total_compressed_size covers every page with its header; pad adds bytes
// for writers that understate it (see chunkPadding), clamped to limit.
func ChunkRange(md *footer.ColumnMetaData, limit int64, pad bool) (start, length int64, err error) {
	start = md.DataPageOffset
	if d, ok := md.DictionaryPageOffset.Get(); ok && d >= 4 && (d < start || start < 4) {
		start = d
	}
	length = md.TotalCompressedSize
	if start < 4 || length < 0 || start > limit || length > limit-start {
		return 0, 0, fmt.Errorf("column chunk at offset %d of %d bytes lies outside the %d bytes of pages", start, length, limit)
	}
	if pad {
		length = min(length+chunkPadding, limit-start)
	}
	return start, length, nil
}

// rawPage is one page as stored: its parsed header, where it starts, and
// its payload, still compressed. The header's nested structs belong to the
// pageIterator and are overwritten by its next page.
type Raw struct {
	Header  footer.PageHeader
	Offset  int64  // file offset of the page header
	Payload []byte // compressed_page_size bytes after the header
	// More counts the payload's bytes not in payload yet, which follow
	// it at file offset moreOff: a page larger than the window of a chunk
	// read from the file comes with its first bytes only (see
	// pageIterator.nextFromFile). It is 0 for a chunk held in memory.
	More    int
	MoreOff int64
}

// pageIterator walks the pages of one column chunk held in memory, or
// read from the file as it goes (see attachFile).
type Iterator struct {
	Data      []byte // the chunk's bytes, or the window of a chunk read from the file
	Base      int64  // file offset of data[0]
	pos       int    // offset in data of the next page of a chunk in memory
	Ordinal   int    // pages next has begun: the last one's index + 1
	VerifyCRC bool
	Crypt     *Crypt // the chunk's decryption, nil for plaintext chunks
	// store holds the nested structs of the current page's header.
	store footer.PageHeaderStore
	// For a chunk read from the file: the file, the chunk's range
	// [chunkStart, end), the file offset of the next page, and the
	// window's pooled buffer and size.
	Src                 io.ReaderAt
	chunkStart, at, end int64
	window              []byte
	WindowSize          int
}

// Next parses the next page header and slices its payload. It returns
// ok=false at the end of the chunk. A header that does not parse, a size
// that runs past the chunk, or (with CRC verification on) a checksum
// mismatch is an error wrapping ErrCorrupt.
func (it *Iterator) Next() (p Raw, ok bool, err error) {
	if it.Src != nil {
		return it.nextFromFile()
	}
	if it.pos >= len(it.Data) {
		return p, false, nil
	}
	if it.Crypt != nil {
		return it.nextEncrypted()
	}
	it.Ordinal++ // errors from here on name this page
	p.Offset = it.Base + int64(it.pos)
	n, err := footer.UnmarshalPageHeaderInto(it.Data[it.pos:], &p.Header, &it.store)
	if err != nil {
		return p, false, fmt.Errorf("page header at offset %d: %w", p.Offset, err)
	}
	h := &p.Header
	start := it.pos + n
	if err := checkPageSize(h, p.Offset, int64(len(it.Data)-start)); err != nil {
		return p, false, err
	}
	p.Payload = it.Data[start : start+int(h.CompressedPageSize)]
	it.pos = start + int(h.CompressedPageSize)
	if err := it.checkCRC(h, p.Payload, p.Offset); err != nil {
		return p, false, err
	}
	return p, true, nil
}

// checkPageSize checks the sizes page header h, at file offset off,
// declares: none negative, and the page within the left bytes of its
// chunk that follow the header.
func checkPageSize(h *footer.PageHeader, off, left int64) error {
	if h.CompressedPageSize < 0 || h.UncompressedPageSize < 0 {
		return fmt.Errorf("%w: page header at offset %d declares %d compressed, %d uncompressed bytes",
			errs.ErrCorrupt, off, h.CompressedPageSize, h.UncompressedPageSize)
	}
	if int64(h.CompressedPageSize) > left {
		return fmt.Errorf("%w: page at offset %d declares %d bytes, the column chunk has %d left",
			errs.ErrCorrupt, off, h.CompressedPageSize, left)
	}
	return nil
}

// checkCRC verifies, when verification is on and header h has a CRC, the
// CRC-32 of stored, the page's bytes as written (after compression and
// encryption) at file offset off.
func (it *Iterator) checkCRC(h *footer.PageHeader, stored []byte, off int64) error {
	if !it.VerifyCRC {
		return nil
	}
	if want, ok := h.CRC.Get(); ok {
		if got := crc32.ChecksumIEEE(stored); got != uint32(want) {
			return fmt.Errorf("%w: page at offset %d: CRC-32 is %08x, page header says %08x",
				errs.ErrCorrupt, off, got, uint32(want))
		}
	}
	return nil
}
