package codec

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/quiverio/quiver/footer"
)

// DefaultLevel asks compress for the codec's default level: gzip 6, zstd 3,
// brotli 6. It is the only level SNAPPY, LZ4_RAW and UNCOMPRESSED accept.
const DefaultLevel = math.MinInt

// Levels each codec accepts besides defaultLevel.
const (
	gzipMinLevel, gzipMaxLevel     = 1, 9
	zstdMinLevel, zstdMaxLevel     = 1, 22
	brotliMinLevel, brotliMaxLevel = 0, 11
	zstdDefaultLevel               = 3
)

// CheckLevel reports whether compress accepts codec at level: an error
// wrapping [ErrUnsupported] for LZO, the deprecated LZ4 (readers disagree on
// its framing, so Quiver never writes it; LZ4_RAW replaces it), unknown
// codecs and levels outside the codec's range.
func CheckLevel(codec footer.CompressionCodec, level int) error {
	lo, hi := 0, -1 // empty: only defaultLevel
	switch codec {
	case footer.CodecUncompressed, footer.CodecSnappy, footer.CodecLZ4Raw:
	case footer.CodecGzip:
		lo, hi = gzipMinLevel, gzipMaxLevel
	case footer.CodecZstd:
		lo, hi = zstdMinLevel, zstdMaxLevel
	case footer.CodecBrotli:
		lo, hi = brotliMinLevel, brotliMaxLevel
	case footer.CodecLZO, footer.CodecLZ4:
		return fmt.Errorf("%w: writing the %s codec (use LZ4_RAW for LZ4)", errs.ErrUnsupported, codec)
	default:
		return fmt.Errorf("%w: unknown compression codec %d", errs.ErrUnsupported, int32(codec))
	}
	if level == DefaultLevel || (lo <= level && level <= hi) {
		return nil
	}
	if lo > hi {
		return fmt.Errorf("%w: the %s codec has no compression levels (got %d)", errs.ErrUnsupported, codec, level)
	}
	return fmt.Errorf("%w: %s compression level %d is outside %d..%d", errs.ErrUnsupported, codec, level, lo, hi)
}

// Compressor compresses pages for the writer. It keeps the gzip and brotli
// writers (one per level used) and the LZ4 hash table from page to page;
// zstd encoders, which are safe for concurrent use, are shared by every
// compressor, one per zstd.EncoderLevel.
//
// A compressor is not safe for concurrent use: each goroutine that writes
// pages keeps its own. The zero value is ready to use.
type Compressor struct {
	gzip   [gzipMaxLevel + 1]*gzip.Writer     // by level; 0 is the default
	brotli [brotliMaxLevel + 1]*brotli.Writer // by level
	lz4    *lz4.CompressorCCompat
	out    appendWriter
	// Snappy is the encoder choice of the column chunk whose pages are
	// being compressed (set by its writer; nil: decide page by page).
	Snappy *SnappyChoice
	// FastSnappy makes that choice by the fast rule (see SnappyChoice).
	FastSnappy bool
}

// Compress appends src, compressed with codec at level, to dst and returns
// the extended slice; src is the whole page (for a DATA_PAGE_V2, its values
// section). level is [DefaultLevel] or within the codec's range (see
// [CheckLevel], whose errors it returns).
//
// UNCOMPRESSED appends a copy of src; a writer that can use src as it is
// need not call compress at all.
func (c *Compressor) Compress(codec footer.CompressionCodec, level int, dst, src []byte) ([]byte, error) {
	if err := CheckLevel(codec, level); err != nil {
		return dst, err
	}
	if len(src) > maxPageSize {
		return dst, fmt.Errorf("%w: a page of %d bytes exceeds the %d bytes a page header can declare", errs.ErrUnsupported, len(src), maxPageSize)
	}
	switch codec {
	case footer.CodecSnappy:
		return c.Snappy.Compress(dst, src, c.FastSnappy), nil
	case footer.CodecGzip:
		return c.compressGzip(level, dst, src)
	case footer.CodecBrotli:
		return c.compressBrotli(level, dst, src)
	case footer.CodecZstd:
		enc, err := zstdEncoder(level)
		if err != nil {
			return dst, err
		}
		return enc.EncodeAll(src, dst), nil
	case footer.CodecLZ4Raw:
		return c.compressLZ4Raw(dst, src)
	default: // UNCOMPRESSED: checkLevel let nothing else through
		return append(dst, src...), nil
	}
}

// SnappyChoice picks the snappy-compatible encoder of klauspost/compress
// for a column chunk's pages, and compress appends a page's snappy block.
//
// s2.EncodeSnappy ran 2.4-3.5× as fast as s2.EncodeSnappyBetter on 1 MiB
// of mixed int64, float64 and string page data (BenchmarkBlockEncoder,
// AMD EPYC, 2 busy cores: 339 vs 98 MB/s in the quietest run), which
// snappy.Encode (and so pqarrow) calls, but it skips short matches: PLAIN
// int64 timestamps, whose high bytes repeat every 8 bytes, barely shrink
// with it and lose a quarter with the better encoder (bench taxi's pickup
// times: 34.2 vs 26.5 MB), and text compresses 6-7% larger (bench
// lineitem's comments: 46.5 vs 43.4 MB, the whole file 2.7% larger than
// pqarrow's).
//
// So a column's pages try both encoders, keep the smaller, and the
// column remembers the outcome for the pages of the same encoding: when
// the better encoder saved enough (3%, or 6% on pages the plain one
// barely shrinks: see betterPays), its next pages go to it directly;
// when it did not, they keep to the plain one (random doubles compress
// with neither); every 32nd page both are tried again. The fast rule (fast set,
// WriteOptions.FastSnappy) tries the better encoder only on pages the
// plain one shrinks by less than an eighth, which keeps the timestamp
// gain and gives the text one up. A column keeps one choice per encoding
// (see SnappyChoices): its dictionary indices and its PLAIN pages
// (dictionary page, fallback) compress differently.
type SnappyChoice struct {
	Better bool // the column's pages go straight to EncodeSnappyBetter
	Settle int  // pages left before trying both encoders again
	// Keep makes a settled choice last: the first page that tries both
	// encoders decides for every later one.
	Keep bool
}

// SnappyChoices is a column's snappy choice for its dictionary pages and
// for its data pages of each encoding, kept across column chunks: without
// it every chunk's first page of each kind went through both encoders
// again. A dictionary page gets a choice of its own: a page of distinct
// doubles can favour the better encoder while the column's PLAIN data
// pages gain nothing from it.
type SnappyChoices struct {
	dict SnappyChoice
	data [footer.EncodingALP + 1]SnappyChoice
}

// Of returns the choice for a page of type t whose values have encoding enc
// (nil, page by page, for an encoding past the table).
func (c *SnappyChoices) Of(t footer.PageType, enc footer.Encoding) *SnappyChoice {
	if t == footer.PageTypeDictionary {
		return &c.dict
	}
	if enc < 0 || int(enc) >= len(c.data) {
		return nil
	}
	return &c.data[enc]
}

// Reset forgets the choices; with keep set, each kind's next page that
// tries both encoders decides for all later pages of its kind (see
// SnappyChoice.Keep).
func (c *SnappyChoices) Reset(keep bool) {
	*c = SnappyChoices{}
	c.dict.Keep = keep
	for i := range c.data {
		c.data[i].Keep = keep
	}
}

// SnappyRetry is how many pages a column keeps its snappy choice.
const SnappyRetry = 32

// Compress appends the snappy block of src to dst, choosing the encoder
// by the fast rule when fast is set; a nil choice decides for this page
// alone.
func (s *SnappyChoice) Compress(dst, src []byte, fast bool) []byte {
	bound := s2.MaxEncodedLen(len(src))
	at := len(dst)
	dst, room := grow(dst, bound)
	if s != nil && s.Settle > 0 {
		if !s.Keep {
			s.Settle--
		}
		if s.Better {
			return dst[:at+len(s2.EncodeSnappyBetter(room, src))]
		}
		return dst[:at+len(s2.EncodeSnappy(room, src))]
	}
	n := len(s2.EncodeSnappy(room, src))
	if fast && n <= len(src)-len(src)/8 {
		return dst[:at+n]
	}
	// Second try beside the first, which it keeps.
	dst = slices.Grow(dst[:at+n], bound)
	better := s2.EncodeSnappyBetter(dst[at+n:at+n+bound], src)
	if s != nil {
		s.Better, s.Settle = betterPays(len(src), n, len(better)), SnappyRetry
	}
	if len(better) < n {
		n = copy(dst[at:], better)
	}
	return dst[:at+n]
}

// betterPays reports whether a column's pages should go to the better
// encoder, which compressed a page of size bytes to better bytes where
// the plain one took plain: it must save a 32nd of plain bytes, or a 16th
// where the plain encoder shrank the page by less than an eighth. On such
// pages it runs 3-4 times as long as the plain one, not 1.5 times as on
// text: random hex (bench strings' session ids) took it 312 ms against
// 73 ms to save 5.6%, which made the file 2.9% smaller than the plain
// encoder's but its write a quarter slower.
func betterPays(size, plain, better int) bool {
	if plain > size-size/8 {
		return better < plain-plain/16
	}
	return better < plain-plain/32
}

// compressLZ4Raw appends the raw LZ4 block of src to dst.
//
// It uses pierrec/lz4's port of the reference LZ4_compress_fast
// (CompressorCCompat), whose blocks match the C library's. On the page data
// of BenchmarkBlockEncoder it ran 1.4-2× as fast as lz4.Compressor for
// pages of 16 KiB to 1 MiB (1 MiB: 215 vs 110 MB/s on 2 busy cores), for
// blocks 0.7% larger (ratio 1.956 vs 1.970).
func (c *Compressor) compressLZ4Raw(dst, src []byte) ([]byte, error) {
	dst, room := grow(dst, lz4.CompressBlockBound(len(src)))
	if c.lz4 == nil {
		c.lz4 = new(lz4.CompressorCCompat)
	}
	n, err := c.lz4.CompressBlock(src, room)
	if err != nil {
		return dst, fmt.Errorf("arrowio: LZ4_RAW compression of %d bytes: %w", len(src), err)
	}
	return dst[:len(dst)+n], nil
}

// compressGzip appends a gzip member holding src to dst.
func (c *Compressor) compressGzip(level int, dst, src []byte) ([]byte, error) {
	i := level
	if level == DefaultLevel {
		i, level = 0, gzip.DefaultCompression
	}
	c.out.b = dst
	w := c.gzip[i]
	if w == nil {
		var err error
		if w, err = gzip.NewWriterLevel(&c.out, level); err != nil {
			return dst, err
		}
		c.gzip[i] = w
	} else {
		w.Reset(&c.out)
	}
	return c.finish(w, src)
}

// compressBrotli appends the brotli stream of src to dst.
func (c *Compressor) compressBrotli(level int, dst, src []byte) ([]byte, error) {
	if level == DefaultLevel {
		level = brotli.DefaultCompression
	}
	c.out.b = dst
	w := c.brotli[level]
	if w == nil {
		w = brotli.NewWriterLevel(&c.out, level)
		c.brotli[level] = w
	} else {
		w.Reset(&c.out)
	}
	return c.finish(w, src)
}

// streamWriter is what gzip and brotli writers share.
type streamWriter interface {
	Write(p []byte) (int, error)
	Close() error
}

// finish writes src through w, closes the stream and returns what w
// appended to c.out.
func (c *Compressor) finish(w streamWriter, src []byte) ([]byte, error) {
	_, err := w.Write(src)
	if err == nil {
		err = w.Close()
	}
	out := c.out.b
	c.out.b = nil // do not keep the caller's buffer alive
	return out, err
}

// appendWriter is an io.Writer appending to b.
type appendWriter struct{ b []byte }

// Write appends p to w.b.
func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// grow returns dst with room for n more bytes, and those n bytes past its
// length.
func grow(dst []byte, n int) ([]byte, []byte) {
	dst = slices.Grow(dst, n)
	return dst, dst[len(dst) : len(dst)+n]
}

// zstdEncoders holds one encoder per zstd.EncoderLevel, made on first use
// and shared by every compressor (EncodeAll is safe for concurrent use).
var zstdEncoders [zstd.SpeedBestCompression + 1]struct {
	once sync.Once
	enc  *zstd.Encoder
	err  error
}

// zstdEncoder returns the shared encoder for a zstd level (1..22 or
// defaultLevel). Its frames carry no checksum, as Arrow C++ and parquet-mr
// write them (a page has its own optional CRC), and empty pages still get a
// frame, which every reader expects. Blocks in which the encoder finds no
// match still get their literals entropy-coded (klauspost/compress does
// that only above its default level): a dictionary page of distinct
// values, dates or prices, has no repeats but few distinct high bytes,
// and was stored raw at about twice the size pqarrow's zstd gives it
// (bench lineitem zstd-v2 at 50 k rows: 1.068x pqarrow's file; 0.999x
// with this; at 4 M rows 1.004x and 0.996x), for a few percent more
// write time.
func zstdEncoder(level int) (*zstd.Encoder, error) {
	if level == DefaultLevel {
		level = zstdDefaultLevel
	}
	l := zstd.EncoderLevelFromZstd(level)
	e := &zstdEncoders[l]
	e.once.Do(func() {
		e.enc, e.err = zstd.NewWriter(nil, zstd.WithEncoderLevel(l), zstd.WithEncoderCRC(false), zstd.WithZeroFrames(true), zstd.WithAllLitEntropyCompression(true))
	})
	return e.enc, e.err
}
