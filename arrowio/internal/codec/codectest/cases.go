// Package codectest holds what tests of compressed pages share: page-like
// and random inputs, and every codec and level the writer compresses with,
// plus the three framings of the deprecated LZ4 a reader meets.
package codectest

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/codec"

	"github.com/pierrec/lz4/v4"

	"github.com/quiverio/quiver/footer"
)

// PageData returns n bytes that look like the PLAIN pages of a table, with
// how many values they hold: 32 KiB runs of int64 ids (small increasing
// steps), float64 prices with two decimals, and BYTE_ARRAY strings (4-byte
// length, then text from a small vocabulary or a keyed name). The same seed
// gives the same bytes.
func PageData(n int, seed uint64) (data []byte, values int) {
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

// RandomBytes returns n incompressible bytes.
func RandomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]byte, n)
	for i := range out {
		out[i] = byte(r.Uint32())
	}
	return out
}

// input is one kind of page content for the tests.
type input struct {
	Name string
	Make func(n int) []byte
}

// Inputs are random (incompressible), page-like and all-zero data.
var Inputs = []input{
	{"random", func(n int) []byte { return RandomBytes(n, uint64(n)) }},
	{"page", func(n int) []byte { d, _ := PageData(n, uint64(n)); return d }},
	{"zeros", func(n int) []byte { return make([]byte, n) }},
}

// Case is a way of writing pages that decompress must read: the codecs
// and levels compress writes, and the three forms of the deprecated LZ4.
type Case struct {
	Name  string
	Codec footer.CompressionCodec
	Level int
	// lz4 builds a deprecated-LZ4 page (codec is CodecLZ4); nil for the
	// codecs compress writes.
	LZ4 func(tb testing.TB, src []byte) []byte
	// slow marks levels too slow to compress pages much past 64 KiB in
	// every test run.
	Slow bool
}

// Cases lists every codec case, with a few levels of each codec that
// has them.
var Cases = []Case{
	{Name: "UNCOMPRESSED", Codec: footer.CodecUncompressed, Level: codec.DefaultLevel},
	{Name: "SNAPPY", Codec: footer.CodecSnappy, Level: codec.DefaultLevel},
	{Name: "GZIP-1", Codec: footer.CodecGzip, Level: 1},
	{Name: "GZIP", Codec: footer.CodecGzip, Level: codec.DefaultLevel},
	{Name: "GZIP-9", Codec: footer.CodecGzip, Level: 9, Slow: true},
	{Name: "BROTLI-0", Codec: footer.CodecBrotli, Level: 0},
	{Name: "BROTLI", Codec: footer.CodecBrotli, Level: codec.DefaultLevel},
	{Name: "BROTLI-11", Codec: footer.CodecBrotli, Level: 11, Slow: true},
	{Name: "ZSTD-1", Codec: footer.CodecZstd, Level: 1},
	{Name: "ZSTD", Codec: footer.CodecZstd, Level: codec.DefaultLevel},
	{Name: "ZSTD-7", Codec: footer.CodecZstd, Level: 7},
	{Name: "ZSTD-22", Codec: footer.CodecZstd, Level: 22, Slow: true},
	{Name: "LZ4_RAW", Codec: footer.CodecLZ4Raw, Level: codec.DefaultLevel},
	{Name: "LZ4-hadoop", Codec: footer.CodecLZ4, LZ4: func(tb testing.TB, src []byte) []byte { return HadoopLZ4(tb, src, 64<<10) }},
	{Name: "LZ4-block", Codec: footer.CodecLZ4, LZ4: LZ4Block},
	{Name: "LZ4-frame", Codec: footer.CodecLZ4, LZ4: LZ4Frame},
}

// Compress compresses src as c says.
func Compress(tb testing.TB, c Case, src []byte) []byte {
	tb.Helper()
	if c.LZ4 != nil {
		return c.LZ4(tb, src)
	}
	var comp codec.Compressor
	out, err := comp.Compress(c.Codec, c.Level, nil, src)
	if err != nil {
		tb.Fatalf("%s: compress %d bytes: %v", c.Name, len(src), err)
	}
	return out
}

// LZ4Block returns src as one raw LZ4 block.
func LZ4Block(tb testing.TB, src []byte) []byte {
	tb.Helper()
	var c lz4.Compressor
	out := make([]byte, lz4.CompressBlockBound(len(src)))
	n, err := c.CompressBlock(src, out)
	if err != nil {
		tb.Fatal(err)
	}
	return out[:n]
}

// HadoopLZ4 returns src in Hadoop's LZ4 framing, as blocks of at most
// block input bytes.
func HadoopLZ4(tb testing.TB, src []byte, block int) []byte {
	tb.Helper()
	var out []byte
	for len(src) > 0 {
		part := src[:min(block, len(src))]
		src = src[len(part):]
		b := LZ4Block(tb, part)
		out = binary.BigEndian.AppendUint32(out, uint32(len(part)))
		out = binary.BigEndian.AppendUint32(out, uint32(len(b)))
		out = append(out, b...)
	}
	return out
}

// LZ4Frame returns src as an LZ4 frame with a content checksum.
func LZ4Frame(tb testing.TB, src []byte) []byte {
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

// MaxCorpusPage is the largest page the corpus tests decode: the corpus
// has 1 GiB pages (large_string_map.brotli.parquet) that a reader would
// refuse under its default limits, and that would take gigabytes.
const MaxCorpusPage = 64 << 20
