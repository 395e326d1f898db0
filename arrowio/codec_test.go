package arrowio

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

	"github.com/klauspost/compress/zstd"

	"github.com/quiverio/quiver/footer"
)

// roundTripSizes are the page sizes every codec case is tried with: the
// small ones around the codecs' header and block thresholds, then block
// boundaries (64 KiB for snappy and LZ4, 128 KiB for zstd) and a megabyte.
var roundTripSizes = []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 15, 16, 17, 31, 32, 33, 63, 64, 65,
	100, 255, 256, 257, 1000, 4095, 4096, 4097, 65535, 65536, 65537, 128<<10 + 1, 1 << 20}

// decodePage decompresses src into a fresh buffer of exactly size bytes.
func decodePage(d *decompressor, codec footer.CompressionCodec, src []byte, size int) ([]byte, error) {
	return d.decompress(codec, make([]byte, size), src, size)
}

func TestDecompressRoundTrip(t *testing.T) {
	var d decompressor // shared by every case: state must carry over cleanly
	for _, c := range codecCases {
		for _, in := range inputs {
			t.Run(c.name+"/"+in.name, func(t *testing.T) {
				for _, n := range roundTripSizes {
					if (c.slow && n > 64<<10) || (testing.Short() && n > 128<<10+1) {
						continue // slow encoders and, under qemu, megabyte pages
					}
					src := in.make(n)
					page := compressCase(t, c, src)
					got, err := decodePage(&d, c.codec, page, n)
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
	var d decompressor
	for codec := footer.CodecUncompressed; codec <= footer.CodecLZ4Raw; codec++ {
		if codec == footer.CodecLZO {
			continue
		}
		got, err := d.decompress(codec, nil, nil, 0)
		if err != nil || len(got) != 0 {
			t.Errorf("%s: empty page gave %d bytes, %v", codec, len(got), err)
		}
	}
}

func TestDecompressWrongSize(t *testing.T) {
	var d decompressor
	for _, c := range codecCases {
		for _, in := range inputs {
			for _, n := range []int{1, 3000, 70000} {
				if c.slow && n > 64<<10 {
					continue
				}
				src := in.make(n)
				page := compressCase(t, c, src)
				for _, declared := range []int{n - 1, n + 1} {
					_, err := decodePage(&d, c.codec, page, declared)
					if !errors.Is(err, ErrCorrupt) {
						t.Fatalf("%s/%s: %d-byte page declared as %d: got %v, want ErrCorrupt", c.name, in.name, n, declared, err)
					}
					msg := err.Error()
					if !strings.Contains(msg, strconv.Itoa(declared)) {
						t.Errorf("%s/%s: error does not give the declared size %d: %v", c.name, in.name, declared, err)
					}
					if declared > n && !strings.Contains(msg, strconv.Itoa(n)) {
						t.Errorf("%s/%s: error does not give the actual size %d: %v", c.name, in.name, n, err)
					}
				}
				// The decompressor is still sound after the errors.
				if got, err := decodePage(&d, c.codec, page, n); err != nil || !bytes.Equal(got, src) {
					t.Fatalf("%s/%s: after errors, decoding the right size gave %v", c.name, in.name, err)
				}
			}
		}
	}
}

func TestDecompressTruncated(t *testing.T) {
	var d decompressor
	src, _ := pageData(5000, 7)
	for _, c := range codecCases {
		page := compressCase(t, c, src)
		step := 1
		if testing.Short() {
			step = 7
		}
		for cut := 0; cut < len(page); cut += step {
			if _, err := decodePage(&d, c.codec, page[:cut], len(src)); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%s: page cut to %d of %d bytes: got %v, want ErrCorrupt", c.name, cut, len(page), err)
			}
		}
	}
}

func TestDecompressBitFlips(t *testing.T) {
	var d decompressor
	src, _ := pageData(3000, 11)
	for _, c := range codecCases {
		page := compressCase(t, c, src)
		bad := make([]byte, len(page))
		step := 1
		if testing.Short() {
			step = 13
		}
		for bit := 0; bit < 8*len(page); bit += step {
			copy(bad, page)
			bad[bit/8] ^= 1 << (bit % 8)
			got, err := decodePage(&d, c.codec, bad, len(src))
			switch {
			case err != nil && !errors.Is(err, ErrCorrupt):
				t.Fatalf("%s: bit %d flipped: %v does not wrap ErrCorrupt", c.name, bit, err)
			case err == nil && len(got) != len(src):
				t.Fatalf("%s: bit %d flipped: %d bytes without error, want %d", c.name, bit, len(got), len(src))
			}
			if bit%64 == 0 {
				if got, err := decodePage(&d, c.codec, page, len(src)); err != nil || !bytes.Equal(got, src) {
					t.Fatalf("%s: after bit %d flipped, decoding the good page gave %v", c.name, bit, err)
				}
			}
		}
	}
}

func TestDecompressUncompressedAliasesSource(t *testing.T) {
	var d decompressor
	src := []byte("plain page")
	got, err := d.decompress(footer.CodecUncompressed, nil, src, len(src))
	if err != nil || len(got) != len(src) || &got[0] != &src[0] {
		t.Fatalf("got %q, %v; want src itself", got, err)
	}
	for _, declared := range []int{len(src) - 1, len(src) + 1} {
		if _, err := d.decompress(footer.CodecUncompressed, nil, src, declared); !errors.Is(err, ErrCorrupt) ||
			!strings.Contains(err.Error(), strconv.Itoa(declared)) || !strings.Contains(err.Error(), strconv.Itoa(len(src))) {
			t.Errorf("declared %d for %d bytes: got %v", declared, len(src), err)
		}
	}
}

func TestDecompressRejects(t *testing.T) {
	var d decompressor
	page := compressCase(t, codecCases[1], []byte("0123456789")) // snappy
	tests := []struct {
		name    string
		codec   footer.CompressionCodec
		dst     []byte
		size    int
		want    error // nil: an error wrapping neither sentinel
		message string
	}{
		{"LZO", footer.CodecLZO, make([]byte, 10), 10, ErrUnsupported, "LZO codec is not supported"},
		{"codec 8", 8, make([]byte, 10), 10, ErrUnsupported, "codec 8"},
		{"codec -1", -1, make([]byte, 10), 10, ErrUnsupported, "codec -1"},
		{"codec 1000", 1000, make([]byte, 10), 10, ErrUnsupported, "codec 1000"},
		{"negative size", footer.CodecSnappy, nil, -1, ErrCorrupt, "-1"},
		{"size past int32", footer.CodecSnappy, nil, math.MaxInt32 + 1, ErrCorrupt, "2147483648"},
		{"small buffer", footer.CodecSnappy, make([]byte, 9), 10, nil, "capacity 9"},
	}
	for _, tt := range tests {
		_, err := d.decompress(tt.codec, tt.dst, page, tt.size)
		switch {
		case err == nil:
			t.Errorf("%s: no error", tt.name)
		case tt.want != nil && !errors.Is(err, tt.want):
			t.Errorf("%s: %v does not wrap %v", tt.name, err, tt.want)
		case tt.want == nil && (errors.Is(err, ErrCorrupt) || errors.Is(err, ErrUnsupported)):
			t.Errorf("%s: %v blames the file", tt.name, err)
		case !strings.Contains(err.Error(), tt.message):
			t.Errorf("%s: %q does not say %q", tt.name, err, tt.message)
		}
	}
}

func TestDecompressConcatenated(t *testing.T) {
	var d decompressor
	a, _ := pageData(70000, 1)
	b, _ := pageData(5000, 2)
	whole := append(append([]byte{}, a...), b...)
	for _, c := range []codecCase{codecCases[3], codecCases[9]} { // GZIP, ZSTD
		var pages []byte
		for _, part := range [][]byte{a, nil, b} { // an empty member or frame too
			pages = append(pages, compressCase(t, c, part)...)
		}
		got, err := decodePage(&d, c.codec, pages, len(whole))
		if err != nil || !bytes.Equal(got, whole) {
			t.Errorf("%s: concatenated streams: %v", c.name, err)
		}
	}
	for _, block := range []int{1, 1000, 64 << 10} {
		src := whole
		if block == 1 {
			src = whole[:1000]
		}
		got, err := decodePage(&d, footer.CodecLZ4, hadoopLZ4(t, src, block), len(src))
		if err != nil || !bytes.Equal(got, src) {
			t.Errorf("Hadoop LZ4 in %d-byte blocks: %v", block, err)
		}
	}
}

func TestDecompressLZ4Forms(t *testing.T) {
	src, _ := pageData(100000, 3)
	hadoop := hadoopLZ4(t, src, 64<<10)
	dst := make([]byte, len(src))
	if n, ok := decodeHadoopLZ4(dst, hadoop); !ok || n != len(src) {
		t.Errorf("Hadoop framing not recognized: %d, %v", n, ok)
	}
	for name, page := range map[string][]byte{"block": lz4Block(t, src), "frame": lz4Frame(t, src)} {
		if _, ok := decodeHadoopLZ4(dst, page); ok {
			t.Errorf("%s taken for Hadoop framing", name)
		}
	}
	// A frame whose content checksum is wrong is corrupt.
	frame := lz4Frame(t, src)
	frame[len(frame)-1] ^= 1
	var d decompressor
	if _, err := decodePage(&d, footer.CodecLZ4, frame, len(src)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("frame with a bad checksum: got %v, want ErrCorrupt", err)
	}
}

// TestDecompressAllocs checks that a warm decompressor allocates nothing
// per page, except for brotli: andybalholm/brotli makes each metablock's
// context maps afresh (a few slices of under a kilobyte per page), which
// the test bounds instead.
func TestDecompressAllocs(t *testing.T) {
	src, _ := pageData(128<<10, 5)
	dst := make([]byte, len(src))
	var d decompressor
	for _, c := range codecCases {
		page := compressCase(t, c, src)
		decode := func() {
			if _, err := d.decompress(c.codec, dst, page, len(src)); err != nil {
				t.Fatal(err)
			}
		}
		if c.codec != footer.CodecBrotli {
			if allocs := testing.AllocsPerRun(20, decode); allocs != 0 {
				t.Errorf("%s: %v allocations per page, want 0", c.name, allocs)
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
			t.Errorf("%s: %d bytes allocated per %d-byte page, want at most %d", c.name, perPage, len(src), maxBytes)
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
	small, _ := pageData(100, 1)
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
	for _, c := range codecCases {
		if c.codec == footer.CodecUncompressed {
			continue
		}
		add(c.name+" small", c.codec, compressCase(t, c, small))
		add(c.name+" zeros", c.codec, compressCase(t, c, zeros))
		add(c.name+" garbage", c.codec, randomBytes(64, 9))
	}
	add("snappy claiming 2 GiB", footer.CodecSnappy, binary.AppendUvarint(nil, math.MaxInt32))
	add("snappy claiming declared+1", footer.CodecSnappy, binary.AppendUvarint(nil, declared+1))
	add("zstd claiming 1 GiB", footer.CodecZstd, zstdLiar)
	add("hadoop claiming 4 GiB", footer.CodecLZ4, []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 1, 0})

	for _, p := range pages {
		var d decompressor
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := d.decompress(p.codec, dst, p.page, declared)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, ErrCorrupt) {
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
	src, _ := pageData(200000, 4)
	page := compressCase(t, codecCases[9], src)
	var d decompressor
	dst := make([]byte, len(src)-1, len(src)+100) // room past the declared size
	if _, err := d.decompress(footer.CodecZstd, dst, page, len(src)-1); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("got %v, want ErrCorrupt", err)
	}
	out, err := d.zstd.DecodeAll(page, dst[:0:len(src)-1])
	if !errors.Is(err, zstd.ErrDecoderSizeExceeded) || cap(out) > len(src)+100 {
		t.Fatalf("DecodeAll past the cap: %d bytes (cap %d), %v", len(out), cap(out), err)
	}
}

func BenchmarkDecompress(b *testing.B) {
	src, values := pageData(1<<20, 1)
	dst := make([]byte, len(src))
	for _, c := range codecCases {
		if c.slow {
			continue // decoding speed hardly depends on the level
		}
		page := compressCase(b, c, src)
		b.Run(fmt.Sprintf("codec=%s", c.name), func(b *testing.B) {
			var d decompressor
			if _, err := d.decompress(c.codec, dst, page, len(src)); err != nil { // warm up
				b.Fatal(err)
			}
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := d.decompress(c.codec, dst, page, len(src)); err != nil {
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
	src, _ := pageData(5000, 3)
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
	if err != nil {
		t.Fatal(err)
	}
	page := enc.EncodeAll(src, nil)
	page[len(page)-1] ^= 0x40 // the last byte of the content checksum
	var d decompressor
	got, err := decodePage(&d, footer.CodecZstd, page, len(src))
	if err != nil || !bytes.Equal(got, src) {
		t.Fatalf("checksums skipped: %v", err)
	}
	d.checksums = true
	if _, err := decodePage(&d, footer.CodecZstd, page, len(src)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("checksums verified: got %v, want ErrCorrupt", err)
	}
}
