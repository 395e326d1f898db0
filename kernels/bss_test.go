package kernels

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// bssRef is the plainest byte-stream-split decoder: byte k of value i comes
// from stream k.
func bssRef(values []byte, width int) []byte {
	n := len(values) / width
	out := make([]byte, len(values))
	for i := range n {
		for k := range width {
			out[k*n+i] = values[i*width+k]
		}
	}
	return out
}

// testLengths lists value counts 0..1000 under -short-free runs and a
// sample of them otherwise, always keeping the block cut-offs.
func testLengths(t *testing.T) []int {
	var ns []int
	step := 1
	if testing.Short() {
		step = 7
	}
	for n := 0; n <= 1000; n += step {
		ns = append(ns, n)
	}
	return append(ns, 7, 8, 9, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 4095, 4096, 4097)
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func TestByteStreamSplitImpls(t *testing.T) {
	cases := []struct {
		width  int
		decode []impl[bssFunc]
		encode []impl[bssFunc]
	}{
		{2, bssDecode2Impls, bssEncode2Impls},
		{4, bssDecode4Impls, bssEncode4Impls},
		{8, bssDecode8Impls, bssEncode8Impls},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		for _, im := range c.decode {
			t.Run(fmt.Sprintf("decode%d/%s", c.width, im.name), func(t *testing.T) {
				for _, n := range testLengths(t) {
					values := randBytes(r, n*c.width)
					streams := bssRef(values, c.width)
					// Decode from an unaligned copy into a buffer with a canary.
					src := append([]byte{0xaa}, streams...)[1:]
					dst := make([]byte, len(values)+8)
					for i := range dst {
						dst[i] = 0xfe
					}
					im.fn(dst[:len(values)], src)
					if !bytes.Equal(dst[:len(values)], values) {
						t.Fatalf("n=%d: decode differs from reference", n)
					}
					if !bytes.Equal(dst[len(values):], bytes.Repeat([]byte{0xfe}, 8)) {
						t.Fatalf("n=%d: wrote past dst", n)
					}
				}
			})
		}
		for _, im := range c.encode {
			t.Run(fmt.Sprintf("encode%d/%s", c.width, im.name), func(t *testing.T) {
				for _, n := range testLengths(t) {
					values := randBytes(r, n*c.width)
					src := append([]byte{0xaa}, values...)[1:]
					dst := make([]byte, len(values))
					im.fn(dst, src)
					if !bytes.Equal(dst, bssRef(values, c.width)) {
						t.Fatalf("n=%d: encode differs from reference", n)
					}
				}
			})
		}
	}
}

func TestByteStreamSplitRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, width := range []int{1, 2, 3, 4, 5, 7, 8, 12, 16, 33} {
		for _, n := range []int{0, 1, 7, 8, 9, 100, 1000} {
			values := randBytes(r, n*width)
			enc := make([]byte, len(values))
			if err := ByteStreamSplitEncode(enc, values, width); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(enc, bssRef(values, width)) {
				t.Fatalf("width=%d n=%d: encode differs from reference", width, n)
			}
			dec := make([]byte, len(values))
			if err := ByteStreamSplitDecode(dec, enc, width); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(dec, values) {
				t.Fatalf("width=%d n=%d: round trip differs", width, n)
			}
		}
	}
}

func TestByteStreamSplitErrors(t *testing.T) {
	cases := []struct {
		name     string
		dst, src int
		width    int
		want     error
	}{
		{"zero width", 8, 8, 0, ErrCorrupt},
		{"negative width", 8, 8, -4, ErrCorrupt},
		{"ragged page", 12, 13, 4, ErrCorrupt},
		{"short dst", 8, 16, 8, ErrShortBuffer},
		{"page too short", 16, 8, 8, ErrCorrupt},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := ByteStreamSplitDecode(make([]byte, c.dst), make([]byte, c.src), c.width)
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
		})
	}
	if err := ByteStreamSplitEncode(make([]byte, 8), make([]byte, 7), 4); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("ragged values: got %v", err)
	}
	if err := ByteStreamSplitEncode(make([]byte, 8), make([]byte, 8), 0); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("zero width: got %v", err)
	}
	if err := ByteStreamSplitEncode(make([]byte, 4), make([]byte, 8), 4); !errors.Is(err, ErrShortBuffer) {
		t.Fatalf("short streams: got %v", err)
	}
}

func TestByteStreamSplitAllocs(t *testing.T) {
	values := randBytes(rand.New(rand.NewPCG(5, 6)), 8*1000)
	enc := make([]byte, len(values))
	if a := testing.AllocsPerRun(20, func() {
		_ = ByteStreamSplitEncode(enc, values, 8)
		_ = ByteStreamSplitDecode(values, enc, 8)
		_ = ByteStreamSplitDecode(values, enc, 5)
	}); a != 0 {
		t.Fatalf("%v allocations per run", a)
	}
}

func BenchmarkBSSDecode(b *testing.B) {
	const n = 4096
	for _, width := range []int{2, 4, 8, 16} {
		b.Run(fmt.Sprintf("width=%d", width), func(b *testing.B) {
			values := randBytes(rand.New(rand.NewPCG(7, 8)), n*width)
			enc := bssRef(values, width)
			b.SetBytes(int64(len(values)))
			b.ReportAllocs()
			for b.Loop() {
				if err := ByteStreamSplitDecode(values, enc, width); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "values/s")
		})
	}
}

func BenchmarkBSSEncode(b *testing.B) {
	const n = 4096
	for _, width := range []int{2, 4, 8, 16} {
		b.Run(fmt.Sprintf("width=%d", width), func(b *testing.B) {
			values := randBytes(rand.New(rand.NewPCG(7, 8)), n*width)
			enc := make([]byte, len(values))
			b.SetBytes(int64(len(enc)))
			b.ReportAllocs()
			for b.Loop() {
				if err := ByteStreamSplitEncode(enc, values, width); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "values/s")
		})
	}
}
