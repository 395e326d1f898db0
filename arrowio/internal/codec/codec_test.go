package codec_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/codec/codectest"

	"github.com/quiverio/quiver/arrowio/internal/codec"
	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/klauspost/compress/zstd"

	"github.com/quiverio/quiver/footer"
)

// roundTripSizes are the page sizes every codec case is tried with: the
// small ones around the codecs' header and block thresholds, then block
// boundaries (64 KiB for snappy and LZ4, 128 KiB for zstd) and a megabyte.
var roundTripSizes = []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 15, 16, 17, 31, 32, 33, 63, 64, 65,
	100, 255, 256, 257, 1000, 4095, 4096, 4097, 65535, 65536, 65537, 128<<10 + 1, 1 << 20}

// decodePage decompresses src into a fresh buffer of exactly size bytes.
func decodePage(d *codec.Decompressor, codec footer.CompressionCodec, src []byte, size int) ([]byte, error) {
	return d.Decompress(codec, make([]byte, size), src, size)
}

func TestDecompressRoundTrip(t *testing.T) {
	var d codec.Decompressor // shared by every case: state must carry over cleanly
	for _, c := range codectest.Cases {
		for _, in := range codectest.Inputs {
			t.Run(c.Name+"/"+in.Name, func(t *testing.T) {
				for _, n := range roundTripSizes {
					if (c.Slow && n > 64<<10) || (testing.Short() && n > 128<<10+1) {
						continue // slow encoders and, under qemu, megabyte pages
					}
					src := in.Make(n)
					page := codectest.Compress(t, c, src)
					got, err := decodePage(&d, c.Codec, page, n)
					if err != nil {
						t.Fatalf("size %d: %v", n, err)
					}
					if !bytes.Equal(got, src) {
						t.Fatalf("size %d: output differs from the input", n)
					}
				}
			})
		}
	}
}

func TestDecompressEmptyPage(t *testing.T) {
	var d codec.Decompressor
	for codec := footer.CodecUncompressed; codec <= footer.CodecLZ4Raw; codec++ {
		if codec == footer.CodecLZO {
			continue
		}
		got, err := d.Decompress(codec, nil, nil, 0)
		if err != nil || len(got) != 0 {
			t.Errorf("%s: empty page gave %d bytes, %v", codec, len(got), err)
		}
	}
}

func TestDecompressWrongSize(t *testing.T) {
	var d codec.Decompressor
	for _, c := range codectest.Cases {
		for _, in := range codectest.Inputs {
			for _, n := range []int{1, 3000, 70000} {
				if c.Slow && n > 64<<10 {
					continue
				}
				src := in.Make(n)
				page := codectest.Compress(t, c, src)
				for _, declared := range []int{n - 1, n + 1} {
					_, err := decodePage(&d, c.Codec, page, declared)
					if !errors.Is(err, errs.ErrCorrupt) {
						t.Fatalf("%s/%s: %d-byte page declared as %d: got %v, want ErrCorrupt", c.Name, in.Name, n, declared, err)
					}
					msg := err.Error()
					if !strings.Contains(msg, strconv.Itoa(declared)) {
						t.Errorf("%s/%s: error does not give the declared size %d: %v", c.Name, in.Name, declared, err)
					}
					if declared > n && !strings.Contains(msg, strconv.Itoa(n)) {
						t.Errorf("%s/%s: error does not give the actual size %d: %v", c.Name, in.Name, n, err)
					}
				}
				// The decompressor is still sound after the errors.
				if got, err := decodePage(&d, c.Codec, page, n); err != nil || !bytes.Equal(got, src) {
					t.Fatalf("%s/%s: after errors, decoding the right size gave %v", c.Name, in.Name, err)
				}
			}
		}
	}
}

func TestDecompressTruncated(t *testing.T) {
	var d codec.Decompressor
	src, _ := codectest.PageData(5000, 7)
	for _, c := range codectest.Cases {
		page := codectest.Compress(t, c, src)
		step := 1
		if testing.Short() {
			step = 7
		}
		for cut := 0; cut < len(page); cut += step {
			if _, err := decodePage(&d, c.Codec, page[:cut], len(src)); !errors.Is(err, errs.ErrCorrupt) {
				t.Fatalf("%s: page cut to %d of %d bytes: got %v, want ErrCorrupt", c.Name, cut, len(page), err)
			}
		}
	}
}

func TestDecompressBitFlips(t *testing.T) {
	var d codec.Decompressor
	src, _ := codectest.PageData(3000, 11)
	for _, c := range codectest.Cases {
		page := codectest.Compress(t, c, src)
		bad := make([]byte, len(page))
		step := 1
		if testing.Short() {
			step = 13
		}
		for bit := 0; bit < 8*len(page); bit += step {
			copy(bad, page)
			bad[bit/8] ^= 1 << (bit % 8)
			got, err := decodePage(&d, c.Codec, bad, len(src))
			switch {
			case err != nil && !errors.Is(err, errs.ErrCorrupt):
				t.Fatalf("%s: bit %d flipped: %v does not wrap ErrCorrupt", c.Name, bit, err)
			case err == nil && len(got) != len(src):
				t.Fatalf("%s: bit %d flipped: %d bytes without error, want %d", c.Name, bit, len(got), len(src))
			}
			if bit%64 == 0 {
				if got, err := decodePage(&d, c.Codec, page, len(src)); err != nil || !bytes.Equal(got, src) {
					t.Fatalf("%s: after bit %d flipped, decoding the good page gave %v", c.Name, bit, err)
				}
			}
		}
	}
}

func TestDecompressUncompressedAliasesSource(t *testing.T) {
	var d codec.Decompressor
	src := []byte("plain page")
	got, err := d.Decompress(footer.CodecUncompressed, nil, src, len(src))
	if err != nil || len(got) != len(src) || &got[0] != &src[0] {
		t.Fatalf("got %q, %v; want src itself", got, err)
	}
	for _, declared := range []int{len(src) - 1, len(src) + 1} {
		if _, err := d.Decompress(footer.CodecUncompressed, nil, src, declared); !errors.Is(err, errs.ErrCorrupt) ||
			!strings.Contains(err.Error(), strconv.Itoa(declared)) || !strings.Contains(err.Error(), strconv.Itoa(len(src))) {
			t.Errorf("declared %d for %d bytes: got %v", declared, len(src), err)
		}
	}
}

func TestDecompressRejects(t *testing.T) {
	var d codec.Decompressor
	page := codectest.Compress(t, codectest.Cases[1], []byte("0123456789")) // snappy
	tests := []struct {
		name    string
		codec   footer.CompressionCodec
		dst     []byte
		size    int
		want    error // nil: an error wrapping neither sentinel
		message string
	}{
		{"LZO", footer.CodecLZO, make([]byte, 10), 10, errs.ErrUnsupported, "LZO codec is not supported"},
		{"codec 8", 8, make([]byte, 10), 10, errs.ErrUnsupported, "codec 8"},
		{"codec -1", -1, make([]byte, 10), 10, errs.ErrUnsupported, "codec -1"},
		{"codec 1000", 1000, make([]byte, 10), 10, errs.ErrUnsupported, "codec 1000"},
		{"negative size", footer.CodecSnappy, nil, -1, errs.ErrCorrupt, "-1"},
		{"size past int32", footer.CodecSnappy, nil, math.MaxInt32 + 1, errs.ErrCorrupt, "2147483648"},
		{"small buffer", footer.CodecSnappy, make([]byte, 9), 10, nil, "capacity 9"},
	}
	for _, tt := range tests {
		_, err := d.Decompress(tt.codec, tt.dst, page, tt.size)
		switch {
		case err == nil:
			t.Errorf("%s: no error", tt.name)
		case tt.want != nil && !errors.Is(err, tt.want):
			t.Errorf("%s: %v does not wrap %v", tt.name, err, tt.want)
		case tt.want == nil && (errors.Is(err, errs.ErrCorrupt) || errors.Is(err, errs.ErrUnsupported)):
			t.Errorf("%s: %v blames the file", tt.name, err)
		case !strings.Contains(err.Error(), tt.message):
			t.Errorf("%s: %q does not say %q", tt.name, err, tt.message)
		}
	}
}

func TestDecompressConcatenated(t *testing.T) {
	var d codec.Decompressor
	a, _ := codectest.PageData(70000, 1)
	b, _ := codectest.PageData(5000, 2)
	whole := append(append([]byte{}, a...), b...)
	for _, c := range []codectest.Case{codectest.Cases[3], codectest.Cases[9]} { // GZIP, ZSTD
		var pages []byte
		for _, part := range [][]byte{a, nil, b} { // an empty member or frame too
			pages = append(pages, codectest.Compress(t, c, part)...)
		}
		got, err := decodePage(&d, c.Codec, pages, len(whole))
		if err != nil || !bytes.Equal(got, whole) {
			t.Errorf("%s: concatenated streams: %v", c.Name, err)
		}
	}
	for _, block := range []int{1, 1000, 64 << 10} {
		src := whole
		if block == 1 {
			src = whole[:1000]
		}
		got, err := decodePage(&d, footer.CodecLZ4, codectest.HadoopLZ4(t, src, block), len(src))
		if err != nil || !bytes.Equal(got, src) {
			t.Errorf("Hadoop LZ4 in %d-byte blocks: %v", block, err)
		}
	}
}

func TestDecompressLZ4Forms(t *testing.T) {
	src, _ := codectest.PageData(100000, 3)
	hadoop := codectest.HadoopLZ4(t, src, 64<<10)
	dst := make([]byte, len(src))
	if n, ok := codec.DecodeHadoopLZ4(dst, hadoop); !ok || n != len(src) {
		t.Errorf("Hadoop framing not recognized: %d, %v", n, ok)
	}
	for name, page := range map[string][]byte{"block": codectest.LZ4Block(t, src), "frame": codectest.LZ4Frame(t, src)} {
		if _, ok := codec.DecodeHadoopLZ4(dst, page); ok {
			t.Errorf("%s taken for Hadoop framing", name)
		}
	}
	// A frame whose content checksum is wrong is corrupt.
	frame := codectest.LZ4Frame(t, src)
	frame[len(frame)-1] ^= 1
	var d codec.Decompressor
	if _, err := decodePage(&d, footer.CodecLZ4, frame, len(src)); !errors.Is(err, errs.ErrCorrupt) {
		t.Errorf("frame with a bad checksum: got %v, want ErrCorrupt", err)
	}
}

// TestDecompressAllocs checks that a warm decompressor allocates nothing
// per page, except for brotli: andybalholm/brotli makes each metablock's
// context maps afresh (a few slices of under a kilobyte per page), which
// the test bounds instead.
func TestDecompressAllocs(t *testing.T) {
	src, _ := codectest.PageData(128<<10, 5)
	dst := make([]byte, len(src))
	var d codec.Decompressor
	for _, c := range codectest.Cases {
		page := codectest.Compress(t, c, src)
		decode := func() {
			if _, err := d.Decompress(c.Codec, dst, page, len(src)); err != nil {
				t.Fatal(err)
			}
		}
		if c.Codec != footer.CodecBrotli {
			if allocs := testing.AllocsPerRun(20, decode); allocs != 0 {
				t.Errorf("%s: %v allocations per page, want 0", c.Name, allocs)
			}
			continue
		}
		const runs, maxBytes = 20, 2 << 10
		decode()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range runs {
			decode()
		}
		runtime.ReadMemStats(&after)
		if perPage := (after.TotalAlloc - before.TotalAlloc) / runs; perPage > maxBytes {
			t.Errorf("%s: %d bytes allocated per %d-byte page, want at most %d", c.Name, perPage, len(src), maxBytes)
		}
	}
}

// TestDecompressBoundedMemory gives tiny pages a large declared size: what
// decompress allocates must stay far below the caller's buffer, whatever
// the page claims about its own length.
func TestDecompressBoundedMemory(t *testing.T) {
	const declared = 64 << 20
	const limit = 1 << 20 // all that a decompressor may allocate, state included
	dst := make([]byte, declared)
	small, _ := codectest.PageData(100, 1)
	zeros := make([]byte, 100<<10) // zstd writes it as an RLE block
	var zstdLiar []byte            // a frame header claiming 1 GiB
	zstdLiar = binary.LittleEndian.AppendUint32(zstdLiar, 0xFD2FB528)
	zstdLiar = append(zstdLiar, 0xa0) // FCS 4 bytes, single segment
	zstdLiar = binary.LittleEndian.AppendUint32(zstdLiar, 1<<30)
	zstdLiar = append(zstdLiar, 1, 0, 0) // last raw block of 0 bytes

	var pages []struct {
		name  string
		codec footer.CompressionCodec
		page  []byte
	}
	add := func(name string, codec footer.CompressionCodec, page []byte) {
		pages = append(pages, struct {
			name  string
			codec footer.CompressionCodec
			page  []byte
		}{name, codec, page})
	}
	for _, c := range codectest.Cases {
		if c.Codec == footer.CodecUncompressed {
			continue
		}
		add(c.Name+" small", c.Codec, codectest.Compress(t, c, small))
		add(c.Name+" zeros", c.Codec, codectest.Compress(t, c, zeros))
		add(c.Name+" garbage", c.Codec, codectest.RandomBytes(64, 9))
	}
	add("snappy claiming 2 GiB", footer.CodecSnappy, binary.AppendUvarint(nil, math.MaxInt32))
	add("snappy claiming declared+1", footer.CodecSnappy, binary.AppendUvarint(nil, declared+1))
	add("zstd claiming 1 GiB", footer.CodecZstd, zstdLiar)
	add("hadoop claiming 4 GiB", footer.CodecLZ4, []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 1, 0})

	for _, p := range pages {
		var d codec.Decompressor
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := d.Decompress(p.codec, dst, p.page, declared)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, errs.ErrCorrupt) {
			t.Errorf("%s: got %v, want ErrCorrupt", p.name, err)
		}
		budget := uint64(limit)
		if strings.HasPrefix(p.name, "LZ4-frame") {
			budget += 4 << 20 // the frame reader's block buffer: at most 4 MiB, pooled
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > budget {
			t.Errorf("%s: allocated %d bytes for a %d-byte page declared as %d", p.name, got, len(p.page), declared)
		}
	}
}

// TestZstdDecoderLimits checks the decoder options decompress relies on:
// DecodeAll stops at the capacity it is given rather than growing it.
func TestZstdDecoderLimits(t *testing.T) {
	src, _ := codectest.PageData(200000, 4)
	page := codectest.Compress(t, codectest.Cases[9], src)
	var d codec.Decompressor
	dst := make([]byte, len(src)-1, len(src)+100) // room past the declared size
	if _, err := d.Decompress(footer.CodecZstd, dst, page, len(src)-1); !errors.Is(err, errs.ErrCorrupt) {
		t.Fatalf("got %v, want ErrCorrupt", err)
	}
	out, err := d.Zstd.DecodeAll(page, dst[:0:len(src)-1])
	if !errors.Is(err, zstd.ErrDecoderSizeExceeded) || cap(out) > len(src)+100 {
		t.Fatalf("DecodeAll past the cap: %d bytes (cap %d), %v", len(out), cap(out), err)
	}
}

func BenchmarkDecompress(b *testing.B) {
	src, values := codectest.PageData(1<<20, 1)
	dst := make([]byte, len(src))
	for _, c := range codectest.Cases {
		if c.Slow {
			continue // decoding speed hardly depends on the level
		}
		page := codectest.Compress(b, c, src)
		b.Run(fmt.Sprintf("codec=%s", c.Name), func(b *testing.B) {
			var d codec.Decompressor
			if _, err := d.Decompress(c.Codec, dst, page, len(src)); err != nil { // warm up
				b.Fatal(err)
			}
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := d.Decompress(c.Codec, dst, page, len(src)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*values)/b.Elapsed().Seconds(), "values/s")
			b.ReportMetric(float64(len(src))/float64(len(page)), "ratio")
		})
	}
}

// TestZstdChecksums checks that a zstd frame's content checksum is verified
// when ReadOptions.VerifyCRC asks for it, and skipped otherwise.
func TestZstdChecksums(t *testing.T) {
	src, _ := codectest.PageData(5000, 3)
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
	if err != nil {
		t.Fatal(err)
	}
	page := enc.EncodeAll(src, nil)
	page[len(page)-1] ^= 0x40 // the last byte of the content checksum
	var d codec.Decompressor
	got, err := decodePage(&d, footer.CodecZstd, page, len(src))
	if err != nil || !bytes.Equal(got, src) {
		t.Fatalf("checksums skipped: %v", err)
	}
	d.Checksums = true
	if _, err := decodePage(&d, footer.CodecZstd, page, len(src)); !errors.Is(err, errs.ErrCorrupt) {
		t.Fatalf("checksums verified: got %v, want ErrCorrupt", err)
	}
}
