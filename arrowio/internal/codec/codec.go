package codec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/quiverio/quiver/footer"
)

// maxPageSize is the largest size a page header can declare (its sizes are
// thrift i32). The zstd decoder refuses frames that claim more.
const maxPageSize = math.MaxInt32

// Decompressor decompresses pages. It keeps the state of the codecs that
// have one (the zstd decoder, the gzip, brotli and LZ4-frame readers) from
// page to page, so that once warmed up, decoding snappy, gzip, zstd, LZ4 and
// LZ4_RAW pages allocates nothing. Brotli is the exception: the library
// makes each metablock's context maps afresh (well under a kilobyte per
// page).
//
// Besides the caller's buffer, the state a decompressor keeps is bounded by
// the formats, not by lengths read from a page: zstd block buffers (128
// KiB), the brotli ring buffer (the stream's window, at most 16 MiB) and
// the LZ4 frame reader's block buffer (at most 4 MiB, pooled). One case
// escapes the cap: when a zstd frame does not state its content size and a
// block runs past the declared size, the library notices only after
// appending that block, to a copy of the buffer it grows once (to about
// 1.25 × (size + 128 KiB)) before returning the error.
//
// A decompressor is not safe for concurrent use: each goroutine that reads
// pages keeps its own. The zero value is ready to use.
type Decompressor struct {
	src bytes.Reader // the compressed page, for the codecs read as streams
	// Checksums asks for the codecs' own checksums to be verified (zstd
	// frame content checksums); whoever takes a decompressor sets it from
	// ReadOptions.VerifyCRC. Skipping them saves about a tenth of zstd's
	// time; the size checks and every bounds check stay either way.
	Checksums bool
	Zstd      *zstd.Decoder // content checksums ignored
	zstdCheck *zstd.Decoder // content checksums verified
	gzip      *gzip.Reader
	brotli    *brotli.Reader
	lz4       *lz4.Reader
	probe     [1]byte // reads past the declared size land here
}

// Decompress decodes src, one page (or the values section of a DATA_PAGE_V2)
// compressed with codec, whose page header declares size uncompressed bytes.
//
// size is a hard cap. The output goes to dst[:size], and dst must have at
// least that capacity: the caller checks size against its own limits, then
// takes a buffer from its pool; nothing here allocates from a length found
// in the compressed stream. A page that would decompress to more than size
// bytes, or to fewer, is an error wrapping [ErrCorrupt] that gives both
// sizes (or, when decoding stopped at the cap, says "more than size").
//
// For [footer.CodecUncompressed] the result is src itself, not a copy (dst
// is not touched and may be nil), once len(src) == size is checked; the
// caller must not recycle src while it uses the result. For other codecs the
// result is dst[:size]. An empty src with size 0 is an empty page for every
// codec.
//
// LZO and codec numbers this package does not know return an error wrapping
// [ErrUnsupported]. Corrupt or truncated input returns an error wrapping
// [ErrCorrupt]; nothing panics.
func (d *Decompressor) Decompress(codec footer.CompressionCodec, dst, src []byte, size int) ([]byte, error) {
	if size < 0 || size > maxPageSize {
		return nil, fmt.Errorf("%w: page header declares %d uncompressed bytes", errs.ErrCorrupt, size)
	}
	switch codec {
	case footer.CodecUncompressed:
		if len(src) != size {
			return nil, sizeError(codec, len(src), size)
		}
		return src, nil
	case footer.CodecLZO:
		return nil, fmt.Errorf("%w: LZO codec is not supported", errs.ErrUnsupported)
	case footer.CodecSnappy, footer.CodecGzip, footer.CodecBrotli, footer.CodecLZ4, footer.CodecZstd, footer.CodecLZ4Raw:
	default:
		return nil, fmt.Errorf("%w: unknown compression codec %d", errs.ErrUnsupported, int32(codec))
	}
	if cap(dst) < size {
		// The caller's mistake, not the file's: no sentinel.
		return nil, fmt.Errorf("arrowio: %s page of %d bytes given a buffer of capacity %d", codec, size, cap(dst))
	}
	out := dst[:size:size]
	if len(src) == 0 && size == 0 {
		return out, nil
	}
	var n int
	var err error
	switch codec {
	case footer.CodecSnappy:
		n, err = decodeSnappy(out, src)
	case footer.CodecGzip:
		n, err = d.decodeGzip(out, src)
	case footer.CodecBrotli:
		n, err = d.decodeBrotli(out, src)
	case footer.CodecLZ4:
		n, err = d.decodeLZ4(out, src)
	case footer.CodecZstd:
		n, err = d.decodeZstd(out, src)
	case footer.CodecLZ4Raw:
		n, err = decodeLZ4Block(out, src)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s page of %d compressed bytes: %w", errs.ErrCorrupt, codec, len(src), err)
	}
	if n != size {
		return nil, sizeError(codec, n, size)
	}
	return out, nil
}

// sizeError reports a page that came out at n bytes where its header
// declares size.
func sizeError(codec footer.CompressionCodec, n, size int) error {
	return fmt.Errorf("%w: %s page decompresses to %d bytes, page header declares %d", errs.ErrCorrupt, codec, n, size)
}

// overrun is the cause for output that would not fit in the size bytes the
// page header declares.
func overrun(size int) error {
	return fmt.Errorf("decompresses to more than the %d bytes the page header declares", size)
}

// decodeSnappy decodes a snappy block into dst, after checking the length
// the block declares against len(dst).
func decodeSnappy(dst, src []byte) (int, error) {
	n, err := snappy.DecodedLen(src)
	if err != nil {
		return 0, err
	}
	if n != len(dst) {
		return n, nil // the block states its length: the caller reports both
	}
	out, err := snappy.Decode(dst, src)
	if err != nil {
		return 0, err
	}
	return len(out), nil
}

// decodeZstd decodes one or more zstd frames into dst, which the decoder
// may not grow: it stops at cap(dst).
func (d *Decompressor) decodeZstd(dst, src []byte) (int, error) {
	z := &d.Zstd
	if d.Checksums {
		z = &d.zstdCheck
	}
	if *z == nil {
		dec, err := zstd.NewReader(nil,
			zstd.WithDecoderConcurrency(1),
			zstd.WithDecodeAllCapLimit(true),
			zstd.WithDecoderMaxMemory(maxPageSize),
			zstd.IgnoreChecksum(!d.Checksums))
		if err != nil {
			return 0, err
		}
		*z = dec
	}
	out, err := (*z).DecodeAll(src, dst[:0])
	if errors.Is(err, zstd.ErrDecoderSizeExceeded) {
		return 0, overrun(len(dst))
	}
	if err != nil {
		return 0, err
	}
	return len(out), nil
}

// decodeGzip reads one or more concatenated gzip members into dst.
func (d *Decompressor) decodeGzip(dst, src []byte) (int, error) {
	d.src.Reset(src)
	if d.gzip == nil {
		d.gzip = new(gzip.Reader)
	}
	if err := d.gzip.Reset(&d.src); err != nil {
		return 0, err
	}
	return d.readExactly(d.gzip, dst)
}

// decodeBrotli reads a brotli stream into dst.
func (d *Decompressor) decodeBrotli(dst, src []byte) (int, error) {
	d.src.Reset(src)
	if d.brotli == nil {
		d.brotli = brotli.NewReader(&d.src)
	} else if err := d.brotli.Reset(&d.src); err != nil {
		return 0, err
	}
	return d.readExactly(d.brotli, dst)
}

// readExactly fills dst from r and then checks that r is at its end, so
// that a stream's trailing checksums are verified and output past len(dst)
// is caught without being stored. It returns the bytes read (fewer than
// len(dst) when the stream ends early).
func (d *Decompressor) readExactly(r io.Reader, dst []byte) (int, error) {
	n, err := io.ReadFull(r, dst)
	switch {
	case err == io.ErrUnexpectedEOF || (err == io.EOF && len(dst) > 0):
		return n, nil // short: the caller reports both sizes
	case err != nil:
		return 0, err
	}
	for range maxEmptyReads {
		m, err := r.Read(d.probe[:])
		if m > 0 {
			return 0, overrun(len(dst))
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return 0, err
		}
	}
	return 0, io.ErrNoProgress
}

// maxEmptyReads bounds how often readExactly retries a reader that returns
// neither data nor an error.
const maxEmptyReads = 100
