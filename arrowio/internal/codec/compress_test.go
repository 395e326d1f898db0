package codec_test

import (
	"bytes"
	stdgzip "compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/codec/codectest"

	"github.com/quiverio/quiver/arrowio/internal/codec"
	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/snappy"
	"github.com/pierrec/lz4/v4"

	"github.com/quiverio/quiver/footer"
)

func TestCheckLevel(t *testing.T) {
	tests := []struct {
		codec footer.CompressionCodec
		level int
		ok    bool
	}{
		{footer.CodecUncompressed, codec.DefaultLevel, true},
		{footer.CodecUncompressed, 1, false},
		{footer.CodecSnappy, codec.DefaultLevel, true},
		{footer.CodecSnappy, 0, false},
		{footer.CodecLZ4Raw, codec.DefaultLevel, true},
		{footer.CodecLZ4Raw, 3, false},
		{footer.CodecGzip, codec.DefaultLevel, true},
		{footer.CodecGzip, 0, false},
		{footer.CodecGzip, 1, true},
		{footer.CodecGzip, 9, true},
		{footer.CodecGzip, 10, false},
		{footer.CodecZstd, codec.DefaultLevel, true},
		{footer.CodecZstd, 0, false},
		{footer.CodecZstd, 1, true},
		{footer.CodecZstd, 22, true},
		{footer.CodecZstd, 23, false},
		{footer.CodecBrotli, codec.DefaultLevel, true},
		{footer.CodecBrotli, -1, false},
		{footer.CodecBrotli, 0, true},
		{footer.CodecBrotli, 11, true},
		{footer.CodecBrotli, 12, false},
		{footer.CodecLZ4, codec.DefaultLevel, false},
		{footer.CodecLZO, codec.DefaultLevel, false},
		{8, codec.DefaultLevel, false},
	}
	for _, tt := range tests {
		err := codec.CheckLevel(tt.codec, tt.level)
		if tt.ok != (err == nil) {
			t.Errorf("%s level %d: got %v, want ok=%v", tt.codec, tt.level, err, tt.ok)
		}
		if err != nil && !errors.Is(err, errs.ErrUnsupported) {
			t.Errorf("%s level %d: %v does not wrap ErrUnsupported", tt.codec, tt.level, err)
		}
		var c codec.Compressor
		if _, cerr := c.Compress(tt.codec, tt.level, nil, []byte("x")); (cerr == nil) != (err == nil) {
			t.Errorf("%s level %d: compress says %v, checkLevel %v", tt.codec, tt.level, cerr, err)
		}
	}
	if err := codec.CheckLevel(footer.CodecLZ4, codec.DefaultLevel); !strings.Contains(err.Error(), "LZ4_RAW") {
		t.Errorf("refusing LZ4 should point to LZ4_RAW: %v", err)
	}
}

// TestCompressAppends checks that compress keeps what dst holds, whether or
// not dst has room, and that a compressor reused across codecs and levels
// writes what a fresh one writes.
func TestCompressAppends(t *testing.T) {
	src, _ := codectest.PageData(40000, 8)
	var shared codec.Compressor
	prefix := []byte("prefix")
	for _, c := range codectest.Cases {
		if c.LZ4 != nil {
			continue
		}
		want := codectest.Compress(t, c, src)
		for _, dst := range [][]byte{append([]byte{}, prefix...), append(make([]byte, 0, 1<<20), prefix...)} {
			got, err := shared.Compress(c.Codec, c.Level, dst, src)
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			if !bytes.HasPrefix(got, prefix) || !bytes.Equal(got[len(prefix):], want) {
				t.Errorf("%s: appending to a %d-capacity buffer changed the output", c.Name, cap(dst))
			}
		}
	}
}

// TestCompressInterop decodes what compress writes with decoders other
// than the ones decompress uses: the standard library's gzip and the
// strict (reference-compatible) snappy decoder, which rejects the s2
// extensions a snappy writer must not use.
func TestCompressInterop(t *testing.T) {
	var c codec.Compressor
	for _, in := range codectest.Inputs {
		for _, n := range []int{0, 1, 1000, 65536, 300000} {
			src := in.Make(n)
			page, err := c.Compress(footer.CodecSnappy, codec.DefaultLevel, nil, src)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := snappy.DecodeStrict(nil, page); err != nil || !bytes.Equal(got, src) {
				t.Errorf("snappy %s/%d: strict decoder: %v", in.Name, n, err)
			}
			for _, level := range []int{1, codec.DefaultLevel, 9} {
				page, err := c.Compress(footer.CodecGzip, level, nil, src)
				if err != nil {
					t.Fatal(err)
				}
				r, err := stdgzip.NewReader(bytes.NewReader(page))
				if err != nil {
					t.Fatalf("gzip %s/%d level %d: %v", in.Name, n, level, err)
				}
				if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, src) {
					t.Errorf("gzip %s/%d level %d: standard library reader: %v", in.Name, n, level, err)
				}
			}
		}
	}
}

// TestCompressEmptyPage checks that every codec writes a real stream for an
// empty page (other readers reject zero bytes), and that it decodes back.
func TestCompressEmptyPage(t *testing.T) {
	var c codec.Compressor
	var d codec.Decompressor
	for _, cc := range codectest.Cases {
		if cc.LZ4 != nil || cc.Codec == footer.CodecUncompressed {
			continue
		}
		page, err := c.Compress(cc.Codec, cc.Level, nil, nil)
		if err != nil || len(page) == 0 {
			t.Errorf("%s: empty page compressed to %d bytes, %v", cc.Name, len(page), err)
			continue
		}
		if got, err := d.Decompress(cc.Codec, nil, page, 0); err != nil || len(got) != 0 {
			t.Errorf("%s: compressed empty page decoded to %d bytes, %v", cc.Name, len(got), err)
		}
	}
}

func TestCompressAllocs(t *testing.T) {
	src, _ := codectest.PageData(64<<10, 6)
	dst := make([]byte, 0, 2*len(src))
	var c codec.Compressor
	for _, cc := range codectest.Cases {
		if cc.LZ4 != nil || cc.Slow || cc.Codec == footer.CodecBrotli {
			continue // brotli's encoder allocates per stream, inside the library
		}
		compress := func() {
			if _, err := c.Compress(cc.Codec, cc.Level, dst, src); err != nil {
				t.Fatal(err)
			}
		}
		compress()
		if allocs := testing.AllocsPerRun(10, compress); allocs != 0 {
			t.Errorf("%s: %v allocations per page, want 0", cc.Name, allocs)
		}
	}
}

func BenchmarkCompress(b *testing.B) {
	src, values := codectest.PageData(1<<20, 1)
	for _, c := range codectest.Cases {
		if c.LZ4 != nil {
			continue
		}
		b.Run(fmt.Sprintf("codec=%s", c.Name), func(b *testing.B) {
			var comp codec.Compressor
			dst, err := comp.Compress(c.Codec, c.Level, nil, src) // warm up
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if dst, err = comp.Compress(c.Codec, c.Level, dst[:0], src); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*values)/b.Elapsed().Seconds(), "values/s")
			b.ReportMetric(float64(len(src))/float64(len(dst)), "ratio")
		})
	}
}

// BenchmarkBlockEncoder compares the snappy-compatible encoders of
// klauspost/compress and the LZ4 block encoders of pierrec/lz4 on page
// data; compressSnappy and compressLZ4Raw record the outcome.
func BenchmarkBlockEncoder(b *testing.B) {
	src, values := codectest.PageData(1<<20, 1)
	var fast lz4.Compressor
	var ccompat lz4.CompressorCCompat
	lz4Func := func(compress func(src, dst []byte) (int, error)) func(dst, src []byte) []byte {
		return func(dst, src []byte) []byte {
			n, err := compress(src, dst)
			if err != nil {
				b.Fatal(err)
			}
			return dst[:n]
		}
	}
	for _, e := range []struct {
		name string
		fn   func(dst, src []byte) []byte
	}{
		{"s2.EncodeSnappy", s2.EncodeSnappy},
		{"s2.EncodeSnappyBetter", s2.EncodeSnappyBetter}, // what snappy.Encode calls
		{"s2.EncodeSnappyBest", s2.EncodeSnappyBest},
		{"lz4.Compressor", lz4Func(fast.CompressBlock)},
		{"lz4.CompressorCCompat", lz4Func(ccompat.CompressBlock)},
	} {
		b.Run("impl="+e.name, func(b *testing.B) {
			dst := make([]byte, max(s2.MaxEncodedLen(len(src)), lz4.CompressBlockBound(len(src))))
			var out []byte
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				out = e.fn(dst, src)
			}
			b.ReportMetric(float64(b.N*values)/b.Elapsed().Seconds(), "values/s")
			b.ReportMetric(float64(len(src))/float64(len(out)), "ratio")
		})
	}
}

// TestSnappyChoice checks the per-column snappy encoder choice: pages of
// int64 timestamps (which only the better encoder shrinks) switch the
// column to it, and so do pages of text (which it shrinks several
// percent more) unless the fast rule is asked for; random bytes, and
// random hex strings (which the plain encoder barely shrinks and the
// better one shrinks by less than a 16th more, slowly), keep it on the
// plain encoder; every page decodes back.
func TestSnappyChoice(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	// Microsecond times up to 2 s apart: the plain encoder finds nothing.
	stamps := make([]byte, 64<<10)
	ts := uint64(1_704_067_200_000_000)
	for i := 0; i < len(stamps); i += 8 {
		ts += r.Uint64N(2_000_000)
		binary.LittleEndian.PutUint64(stamps[i:], ts)
	}
	random := make([]byte, 64<<10)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	var hex []byte
	for len(hex) < 64<<10 {
		hex = binary.LittleEndian.AppendUint32(hex, 32)
		hex = fmt.Appendf(hex, "%016x%016x", r.Uint64(), r.Uint64())
	}
	fast, better := len(s2.EncodeSnappy(nil, hex)), len(s2.EncodeSnappyBetter(nil, hex))
	if fast <= len(hex)-len(hex)/8 || better >= fast-fast/32 || better < fast-fast/16 {
		t.Fatalf("hex page of %d bytes: %d with the plain encoder, %d with the better one: not the case tested", len(hex), fast, better)
	}
	words := []string{"quick", "brown", "foxes", "sleep", "furiously", "among", "the", "final", "deposits", "ironic", "packages", "haggle"}
	var text []byte
	for len(text) < 64<<10 {
		text = binary.LittleEndian.AppendUint32(text, 0)
		at := len(text)
		for k := range 2 + r.IntN(6) {
			if k > 0 {
				text = append(text, ' ')
			}
			text = append(text, words[r.IntN(len(words))]...)
		}
		binary.LittleEndian.PutUint32(text[at-4:], uint32(len(text)-at))
	}
	var d codec.Decompressor
	for _, c := range []struct {
		name   string
		page   []byte
		fast   bool
		better bool
	}{
		{"timestamps", stamps, false, true}, {"timestamps-fast", stamps, true, true},
		{"text", text, false, true}, {"text-fast", text, true, false},
		{"random", random, false, false}, {"random-fast", random, true, false},
		{"hex", hex, false, false}, {"hex-fast", hex, true, false},
	} {
		var s codec.SnappyChoice
		for page := range codec.SnappyRetry + 2 {
			out := s.Compress(nil, c.page, c.fast)
			got, err := d.Decompress(footer.CodecSnappy, make([]byte, len(c.page)), out, len(c.page))
			if err != nil || !bytes.Equal(got, c.page) {
				t.Fatalf("%s page %d: %v", c.name, page, err)
			}
			if s.Better != c.better {
				t.Fatalf("%s page %d: better = %v, want %v", c.name, page, s.Better, c.better)
			}
		}
		// Page 0 tried both encoders, pages 1 to snappyRetry followed the
		// choice, and the last page tried both again; under the fast rule,
		// pages the plain encoder shrinks enough try nothing else and
		// settle nothing.
		want := codec.SnappyRetry
		if c.fast && c.name == "text-fast" {
			want = 0
		}
		if s.Settle != want {
			t.Errorf("%s: settle = %d after a retry, want %d", c.name, s.Settle, want)
		}
	}
}

// TestSnappyChoicesPerEncoding checks that a column keeps one snappy choice
// for dictionary pages and one per data page encoding, that each lasts (a
// later chunk finds it), and that an encoding past the table is decided
// page by page.
func TestSnappyChoicesPerEncoding(t *testing.T) {
	var c codec.SnappyChoices
	dp, dict, plain := footer.PageTypeData, c.Of(footer.PageTypeData, footer.EncodingRLEDictionary), c.Of(footer.PageTypeData, footer.EncodingPlain)
	dictPage := c.Of(footer.PageTypeDictionary, footer.EncodingPlain)
	if dict == nil || plain == nil || dictPage == nil || dict == plain || dictPage == plain || dictPage == dict {
		t.Fatalf("choices for RLE_DICTIONARY, PLAIN and the dictionary page: %p, %p, %p", dict, plain, dictPage)
	}
	dictPage.Better, dictPage.Settle = true, 5
	if again := c.Of(footer.PageTypeDictionary, footer.EncodingPlain); again != dictPage || !again.Better || plain.Better || dict.Better {
		t.Fatalf("the dictionary page choice did not last or leaked to data pages")
	}
	if c.Of(dp, footer.EncodingALP+1) != nil || c.Of(dp, -1) != nil {
		t.Fatalf("an encoding past the table has a choice")
	}
}

// TestSnappyChoicesKeep checks that after Reset(true) the first page that
// tries both encoders decides for good: later pages never retry, so a
// page compresses the same whichever page it follows.
func TestSnappyChoicesKeep(t *testing.T) {
	var c codec.SnappyChoices
	c.Reset(true)
	s := c.Of(footer.PageTypeData, footer.EncodingPlain)
	page := bytes.Repeat([]byte("the final deposits haggle furiously "), 2000)
	first := s.Compress(nil, page, false)
	for i := range 3 * codec.SnappyRetry {
		if got := s.Compress(nil, page, false); !bytes.Equal(got, first) || s.Settle != codec.SnappyRetry {
			t.Fatalf("page %d: %d bytes (first %d), settle %d", i+1, len(got), len(first), s.Settle)
		}
	}
	c.Reset(false)
	if s.Keep || s.Settle != 0 || s.Better {
		t.Errorf("Reset(false) left %+v", *s)
	}
}

// TestZstdLiteralEntropy checks that zstd entropy-codes a page in which
// it finds no matches: 2,000 distinct dates as int32s, a dictionary page,
// whose high bytes are few. Stored raw, it would not shrink at all.
func TestZstdLiteralEntropy(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var page []byte
	for _, p := range r.Perm(2526)[:2000] {
		page = binary.LittleEndian.AppendUint32(page, uint32(8036+p))
	}
	var c codec.Compressor
	out, err := c.Compress(footer.CodecZstd, codec.DefaultLevel, nil, page)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) > len(page)*2/3 {
		t.Errorf("zstd: %d bytes of distinct dates to %d, want at most two thirds", len(page), len(out))
	}
}
