package arrowio

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
		{footer.CodecUncompressed, defaultLevel, true},
		{footer.CodecUncompressed, 1, false},
		{footer.CodecSnappy, defaultLevel, true},
		{footer.CodecSnappy, 0, false},
		{footer.CodecLZ4Raw, defaultLevel, true},
		{footer.CodecLZ4Raw, 3, false},
		{footer.CodecGzip, defaultLevel, true},
		{footer.CodecGzip, 0, false},
		{footer.CodecGzip, 1, true},
		{footer.CodecGzip, 9, true},
		{footer.CodecGzip, 10, false},
		{footer.CodecZstd, defaultLevel, true},
		{footer.CodecZstd, 0, false},
		{footer.CodecZstd, 1, true},
		{footer.CodecZstd, 22, true},
		{footer.CodecZstd, 23, false},
		{footer.CodecBrotli, defaultLevel, true},
		{footer.CodecBrotli, -1, false},
		{footer.CodecBrotli, 0, true},
		{footer.CodecBrotli, 11, true},
		{footer.CodecBrotli, 12, false},
		{footer.CodecLZ4, defaultLevel, false},
		{footer.CodecLZO, defaultLevel, false},
		{8, defaultLevel, false},
	}
	for _, tt := range tests {
		err := checkLevel(tt.codec, tt.level)
		if tt.ok != (err == nil) {
			t.Errorf("%s level %d: got %v, want ok=%v", tt.codec, tt.level, err, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s level %d: %v does not wrap ErrUnsupported", tt.codec, tt.level, err)
		}
		var c compressor
		if _, cerr := c.compress(tt.codec, tt.level, nil, []byte("x")); (cerr == nil) != (err == nil) {
			t.Errorf("%s level %d: compress says %v, checkLevel %v", tt.codec, tt.level, cerr, err)
		}
	}
	if err := checkLevel(footer.CodecLZ4, defaultLevel); !strings.Contains(err.Error(), "LZ4_RAW") {
		t.Errorf("refusing LZ4 should point to LZ4_RAW: %v", err)
	}
}

// TestCompressAppends checks that compress keeps what dst holds, whether or
// not dst has room, and that a compressor reused across codecs and levels
// writes what a fresh one writes.
func TestCompressAppends(t *testing.T) {
	src, _ := pageData(40000, 8)
	var shared compressor
	prefix := []byte("prefix")
	for _, c := range codecCases {
		if c.lz4 != nil {
			continue
		}
		want := compressCase(t, c, src)
		for _, dst := range [][]byte{append([]byte{}, prefix...), append(make([]byte, 0, 1<<20), prefix...)} {
			got, err := shared.compress(c.codec, c.level, dst, src)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if !bytes.HasPrefix(got, prefix) || !bytes.Equal(got[len(prefix):], want) {
				t.Errorf("%s: appending to a %d-capacity buffer changed the output", c.name, cap(dst))
			}
		}
	}
}

// TestCompressInterop decodes what compress writes with decoders other
// than the ones decompress uses: the standard library's gzip and the
// strict (reference-compatible) snappy decoder, which rejects the s2
// extensions a snappy writer must not use.
func TestCompressInterop(t *testing.T) {
	var c compressor
	for _, in := range inputs {
		for _, n := range []int{0, 1, 1000, 65536, 300000} {
			src := in.make(n)
			page, err := c.compress(footer.CodecSnappy, defaultLevel, nil, src)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := snappy.DecodeStrict(nil, page); err != nil || !bytes.Equal(got, src) {
				t.Errorf("snappy %s/%d: strict decoder: %v", in.name, n, err)
			}
			for _, level := range []int{1, defaultLevel, 9} {
				page, err := c.compress(footer.CodecGzip, level, nil, src)
				if err != nil {
					t.Fatal(err)
				}
				r, err := stdgzip.NewReader(bytes.NewReader(page))
				if err != nil {
					t.Fatalf("gzip %s/%d level %d: %v", in.name, n, level, err)
				}
				if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, src) {
					t.Errorf("gzip %s/%d level %d: standard library reader: %v", in.name, n, level, err)
				}
			}
		}
	}
}

// TestCompressEmptyPage checks that every codec writes a real stream for an
// empty page (other readers reject zero bytes), and that it decodes back.
func TestCompressEmptyPage(t *testing.T) {
	var c compressor
	var d decompressor
	for _, cc := range codecCases {
		if cc.lz4 != nil || cc.codec == footer.CodecUncompressed {
			continue
		}
		page, err := c.compress(cc.codec, cc.level, nil, nil)
		if err != nil || len(page) == 0 {
			t.Errorf("%s: empty page compressed to %d bytes, %v", cc.name, len(page), err)
			continue
		}
		if got, err := d.decompress(cc.codec, nil, page, 0); err != nil || len(got) != 0 {
			t.Errorf("%s: compressed empty page decoded to %d bytes, %v", cc.name, len(got), err)
		}
	}
}

func TestCompressAllocs(t *testing.T) {
	src, _ := pageData(64<<10, 6)
	dst := make([]byte, 0, 2*len(src))
	var c compressor
	for _, cc := range codecCases {
		if cc.lz4 != nil || cc.slow || cc.codec == footer.CodecBrotli {
			continue // brotli's encoder allocates per stream, inside the library
		}
		compress := func() {
			if _, err := c.compress(cc.codec, cc.level, dst, src); err != nil {
				t.Fatal(err)
			}
		}
		compress()
		if allocs := testing.AllocsPerRun(10, compress); allocs != 0 {
			t.Errorf("%s: %v allocations per page, want 0", cc.name, allocs)
		}
	}
}

func BenchmarkCompress(b *testing.B) {
	src, values := pageData(1<<20, 1)
	for _, c := range codecCases {
		if c.lz4 != nil {
			continue
		}
		b.Run(fmt.Sprintf("codec=%s", c.name), func(b *testing.B) {
			var comp compressor
			dst, err := comp.compress(c.codec, c.level, nil, src) // warm up
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if dst, err = comp.compress(c.codec, c.level, dst[:0], src); err != nil {
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
	src, values := pageData(1<<20, 1)
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
// column to it, random bytes keep it on the plain encoder, and every page
// decodes back.
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
	var d decompressor
	for _, c := range []struct {
		name   string
		page   []byte
		better bool
	}{{"timestamps", stamps, true}, {"random", random, false}} {
		var s snappyChoice
		for page := range snappyRetry + 2 {
			out := s.compress(nil, c.page)
			got, err := d.decompress(footer.CodecSnappy, make([]byte, len(c.page)), out, len(c.page))
			if err != nil || !bytes.Equal(got, c.page) {
				t.Fatalf("%s page %d: %v", c.name, page, err)
			}
			if s.better != c.better {
				t.Fatalf("%s page %d: better = %v, want %v", c.name, page, s.better, c.better)
			}
		}
		// Page 0 tried both encoders, pages 1 to snappyRetry followed the
		// choice, and the last page tried both again.
		if s.settle != snappyRetry {
			t.Errorf("%s: settle = %d after a retry, want %d", c.name, s.settle, snappyRetry)
		}
	}
}

// TestSnappyChoicesPerEncoding checks that a column keeps one snappy choice
// for dictionary pages and one per data page encoding, that each lasts (a
// later chunk finds it), and that an encoding past the table is decided
// page by page.
func TestSnappyChoicesPerEncoding(t *testing.T) {
	var c snappyChoices
	dp, dict, plain := footer.PageTypeData, c.of(footer.PageTypeData, footer.EncodingRLEDictionary), c.of(footer.PageTypeData, footer.EncodingPlain)
	dictPage := c.of(footer.PageTypeDictionary, footer.EncodingPlain)
	if dict == nil || plain == nil || dictPage == nil || dict == plain || dictPage == plain || dictPage == dict {
		t.Fatalf("choices for RLE_DICTIONARY, PLAIN and the dictionary page: %p, %p, %p", dict, plain, dictPage)
	}
	dictPage.better, dictPage.settle = true, 5
	if again := c.of(footer.PageTypeDictionary, footer.EncodingPlain); again != dictPage || !again.better || plain.better || dict.better {
		t.Fatalf("the dictionary page choice did not last or leaked to data pages")
	}
	if c.of(dp, footer.EncodingALP+1) != nil || c.of(dp, -1) != nil {
		t.Fatalf("an encoding past the table has a choice")
	}
}
