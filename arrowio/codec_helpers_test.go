package arrowio

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/pierrec/lz4/v4"

	"github.com/quiverio/quiver/footer"
)

// pageData returns n bytes that look like the PLAIN pages of a table, with
// how many values they hold: 32 KiB runs of int64 ids (small increasing
// steps), float64 prices with two decimals, and BYTE_ARRAY strings (4-byte
// length, then text from a small vocabulary or a keyed name). The same seed
// gives the same bytes.
func pageData(n int, seed uint64) (data []byte, values int) {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	words := []string{"furiously", "regular", "deposits", "sleep", "carefully", "pending",
		"ideas", "quickly", "express", "accounts", "blithely", "final", "packages", "haggle", "the", "above"}
	out := make([]byte, 0, n+64)
	id := int64(r.IntN(1 << 20))
	var s []byte
	for len(out) < n {
		switch (len(out) / (32 << 10)) % 3 {
		case 0:
			id += int64(1 + r.IntN(4))
			out = binary.LittleEndian.AppendUint64(out, uint64(id))
		case 1:
			price := math.Round((900+r.ExpFloat64()*2000)*100) / 100
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(price))
		case 2:
			s = s[:0]
			if r.IntN(4) == 0 {
				s = append(s, "Customer#"...)
				s = strconv.AppendInt(s, 100000000+int64(r.IntN(150000)), 10)
			} else {
				for w := 3 + r.IntN(5); w > 0; w-- {
					s = append(s, words[r.IntN(len(words))]...)
					s = append(s, ' ')
				}
			}
			out = binary.LittleEndian.AppendUint32(out, uint32(len(s)))
			out = append(out, s...)
		}
		values++
	}
	return out[:n], values
}

// randomBytes returns n incompressible bytes.
func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]byte, n)
	for i := range out {
		out[i] = byte(r.Uint32())
	}
	return out
}

// input is one kind of page content for the tests.
type input struct {
	name string
	make func(n int) []byte
}

// inputs are random (incompressible), page-like and all-zero data.
var inputs = []input{
	{"random", func(n int) []byte { return randomBytes(n, uint64(n)) }},
	{"page", func(n int) []byte { d, _ := pageData(n, uint64(n)); return d }},
	{"zeros", func(n int) []byte { return make([]byte, n) }},
}

// codecCase is a way of writing pages that decompress must read: the codecs
// and levels compress writes, and the three forms of the deprecated LZ4.
type codecCase struct {
	name  string
	codec footer.CompressionCodec
	level int
	// lz4 builds a deprecated-LZ4 page (codec is CodecLZ4); nil for the
	// codecs compress writes.
	lz4 func(tb testing.TB, src []byte) []byte
	// slow marks levels too slow to compress pages much past 64 KiB in
	// every test run.
	slow bool
}

// codecCases lists every codec case, with a few levels of each codec that
// has them.
var codecCases = []codecCase{
	{name: "UNCOMPRESSED", codec: footer.CodecUncompressed, level: defaultLevel},
	{name: "SNAPPY", codec: footer.CodecSnappy, level: defaultLevel},
	{name: "GZIP-1", codec: footer.CodecGzip, level: 1},
	{name: "GZIP", codec: footer.CodecGzip, level: defaultLevel},
	{name: "GZIP-9", codec: footer.CodecGzip, level: 9, slow: true},
	{name: "BROTLI-0", codec: footer.CodecBrotli, level: 0},
	{name: "BROTLI", codec: footer.CodecBrotli, level: defaultLevel},
	{name: "BROTLI-11", codec: footer.CodecBrotli, level: 11, slow: true},
	{name: "ZSTD-1", codec: footer.CodecZstd, level: 1},
	{name: "ZSTD", codec: footer.CodecZstd, level: defaultLevel},
	{name: "ZSTD-7", codec: footer.CodecZstd, level: 7},
	{name: "ZSTD-22", codec: footer.CodecZstd, level: 22, slow: true},
	{name: "LZ4_RAW", codec: footer.CodecLZ4Raw, level: defaultLevel},
	{name: "LZ4-hadoop", codec: footer.CodecLZ4, lz4: func(tb testing.TB, src []byte) []byte { return hadoopLZ4(tb, src, 64<<10) }},
	{name: "LZ4-block", codec: footer.CodecLZ4, lz4: lz4Block},
	{name: "LZ4-frame", codec: footer.CodecLZ4, lz4: lz4Frame},
}

// compressCase compresses src as c says.
func compressCase(tb testing.TB, c codecCase, src []byte) []byte {
	tb.Helper()
	if c.lz4 != nil {
		return c.lz4(tb, src)
	}
	var comp compressor
	out, err := comp.compress(c.codec, c.level, nil, src)
	if err != nil {
		tb.Fatalf("%s: compress %d bytes: %v", c.name, len(src), err)
	}
	return out
}

// lz4Block returns src as one raw LZ4 block.
func lz4Block(tb testing.TB, src []byte) []byte {
	tb.Helper()
	var c lz4.Compressor
	out := make([]byte, lz4.CompressBlockBound(len(src)))
	n, err := c.CompressBlock(src, out)
	if err != nil {
		tb.Fatal(err)
	}
	return out[:n]
}

// hadoopLZ4 returns src in Hadoop's LZ4 framing, as blocks of at most
// block input bytes.
func hadoopLZ4(tb testing.TB, src []byte, block int) []byte {
	tb.Helper()
	var out []byte
	for len(src) > 0 {
		part := src[:min(block, len(src))]
		src = src[len(part):]
		b := lz4Block(tb, part)
		out = binary.BigEndian.AppendUint32(out, uint32(len(part)))
		out = binary.BigEndian.AppendUint32(out, uint32(len(b)))
		out = append(out, b...)
	}
	return out
}

// lz4Frame returns src as an LZ4 frame with a content checksum.
func lz4Frame(tb testing.TB, src []byte) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w := lz4.NewWriter(&buf)
	if err := w.Apply(lz4.ChecksumOption(true)); err != nil {
		tb.Fatal(err)
	}
	if _, err := w.Write(src); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}
