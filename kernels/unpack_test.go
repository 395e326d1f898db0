package kernels

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// bpRefUnpack is the plainest LSB-first bit-unpacker: bit j of value i is bit
// i*width+j of src, counting from the least significant bit of src[0].
func bpRefUnpack[T packable](dst []T, src []byte, width uint) {
	for i := range dst {
		var v uint64
		for j := uint(0); j < width; j++ {
			bit := uint(i)*width + j
			v |= uint64(src[bit/8]>>(bit%8)&1) << j
		}
		dst[i] = T(v)
	}
}

// bpLengths lists the value counts the bit-packing tests cover: every count up
// to 70 and the counts around block and group boundaries up to 1000.
func bpLengths() []int {
	var ns []int
	for n := range 71 {
		ns = append(ns, n)
	}
	ns = append(ns, 95, 96, 97, 127, 128, 129, 255, 256, 257, 511, 512, 513, 999, 1000)
	if testing.Short() {
		ns = append(ns[:40], 63, 64, 65, 1000)
	}
	return ns
}

// bpSources returns the packed inputs the tests decode: random bits, all
// zeros and all ones, each size bytes long.
func bpSources(r *rand.Rand, size int) map[string][]byte {
	random := make([]byte, size)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	ones := make([]byte, size)
	for i := range ones {
		ones[i] = 0xff
	}
	return map[string][]byte{"random": random, "zero": make([]byte, size), "ones": ones}
}

const bpCanary = 0x5a

// testUnpackImpl checks one unpack implementation against bpRefUnpack for
// every width up to maxWidth, every length in bpLengths, unaligned sources
// and a canary after dst.
func testUnpackImpl[T packable](t *testing.T, fn func([]T, []byte, uint), maxWidth uint) {
	r := rand.New(rand.NewPCG(1, 2))
	const maxN = 1000
	for name, buf := range bpSources(r, maxN*8+1) {
		for w := uint(0); w <= maxWidth; w++ {
			for _, n := range bpLengths() {
				need := (n*int(w) + 7) / 8
				for _, off := range []int{0, 1} {
					src := buf[off : off+need] // exactly the bytes the values occupy
					want := make([]T, n)
					bpRefUnpack(want, src, w)
					got := make([]T, n+4)
					for i := range got {
						got[i] = bpCanary
					}
					fn(got[:n], src, w)
					for i := range want {
						if got[i] != want[i] {
							t.Fatalf("%s width %d n %d off %d: value %d = %#x, want %#x", name, w, n, off, i, got[i], want[i])
						}
					}
					for i := n; i < len(got); i++ {
						if got[i] != bpCanary {
							t.Fatalf("%s width %d n %d: wrote past dst at %d", name, w, n, i)
						}
					}
				}
			}
		}
	}
}

func TestUnpackImpls(t *testing.T) {
	for _, im := range unpack8Impls {
		t.Run("8/"+im.name, func(t *testing.T) { testUnpackImpl(t, im.fn, 8) })
	}
	for _, im := range unpack16Impls {
		t.Run("16/"+im.name, func(t *testing.T) { testUnpackImpl(t, im.fn, 16) })
	}
	for _, im := range unpack32Impls {
		t.Run("32/"+im.name, func(t *testing.T) { testUnpackImpl(t, im.fn, 32) })
	}
	for _, im := range unpack64Impls {
		t.Run("64/"+im.name, func(t *testing.T) { testUnpackImpl(t, im.fn, 64) })
	}
	t.Run("int16", func(t *testing.T) { testUnpackImpl(t, unpackGeneric[int16], 16) })
}

// TestUnpackEntries checks the exported entries: consumed byte counts, that
// src is left unchanged, and the errors for short input and wide widths.
func TestUnpackEntries(t *testing.T) {
	src := []byte{0x88, 0xc6, 0xfa} // 0..7 at width 3, the spec's example
	want := []uint32{0, 1, 2, 3, 4, 5, 6, 7}
	got := make([]uint32, 8)
	n, err := Unpack32(got, src, 3)
	if err != nil || n != 3 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("Unpack32 = %v, %d, %v; want %v, 3", got, n, err, want)
	}
	cases := []struct {
		name    string
		call    func() (int, error)
		wantErr error
	}{
		{"8/short", func() (int, error) { return Unpack8(make([]uint8, 9), make([]byte, 1), 1) }, ErrCorrupt},
		{"8/wide", func() (int, error) { return Unpack8(make([]uint8, 1), make([]byte, 2), 9) }, ErrOutOfRange},
		{"16/short", func() (int, error) { return Unpack16(make([]uint16, 3), make([]byte, 4), 13) }, ErrCorrupt},
		{"16/wide", func() (int, error) { return Unpack16(make([]uint16, 1), make([]byte, 3), 17) }, ErrOutOfRange},
		{"32/short", func() (int, error) { return Unpack32(make([]uint32, 32), make([]byte, 3), 1) }, ErrCorrupt},
		{"32/wide", func() (int, error) { return Unpack32(make([]uint32, 1), make([]byte, 8), 33) }, ErrOutOfRange},
		{"64/short", func() (int, error) { return Unpack64(make([]uint64, 2), make([]byte, 14), 60) }, ErrCorrupt},
		{"64/wide", func() (int, error) { return Unpack64(make([]uint64, 1), make([]byte, 9), 65) }, ErrOutOfRange},
		{"64/ok", func() (int, error) { return Unpack64(make([]uint64, 2), make([]byte, 16), 60) }, nil},
		{"16/empty", func() (int, error) { return Unpack16(nil, nil, 16) }, nil},
	}
	for _, c := range cases {
		n, err := c.call()
		if !errors.Is(err, c.wantErr) || (err != nil && n != 0) {
			t.Errorf("%s: n %d, err %v; want %v", c.name, n, err, c.wantErr)
		}
	}
}

func TestUnpackAllocs(t *testing.T) {
	dst32, dst64, src := make([]uint32, 1000), make([]uint64, 1000), make([]byte, 8000)
	if a := testing.AllocsPerRun(10, func() {
		for w := uint(0); w <= 32; w++ {
			Unpack32(dst32, src, w)
		}
		for w := uint(0); w <= 64; w++ {
			Unpack64(dst64, src, w)
		}
	}); a != 0 {
		t.Errorf("unpack allocates %v times", a)
	}
}

// bpPacked returns n random values of width bits packed LSB first.
func bpPacked(n int, width uint) []byte {
	r := rand.New(rand.NewPCG(uint64(n), uint64(width)))
	vals := make([]uint64, n)
	for i := range vals {
		vals[i] = r.Uint64()
	}
	dst := make([]byte, (n*int(width)+7)/8)
	pack64Generic(dst, vals, width)
	return dst
}

func BenchmarkUnpack32(b *testing.B) {
	for _, im := range unpack32Impls {
		for w := uint(1); w <= 32; w++ {
			b.Run(fmt.Sprintf("impl=%s/width=%d", im.name, w), func(b *testing.B) {
				dst, src := make([]uint32, 4096), bpPacked(4096, w)
				b.SetBytes(int64(4 * len(dst)))
				b.ReportAllocs()
				for b.Loop() {
					im.fn(dst, src, w)
				}
				b.ReportMetric(float64(b.N*len(dst))/b.Elapsed().Seconds(), "values/s")
			})
		}
	}
}

func BenchmarkUnpack64(b *testing.B) {
	for _, im := range unpack64Impls {
		for _, w := range []uint{1, 5, 8, 13, 16, 21, 32, 33, 40, 48, 57, 61, 64} {
			b.Run(fmt.Sprintf("impl=%s/width=%d", im.name, w), func(b *testing.B) {
				dst, src := make([]uint64, 4096), bpPacked(4096, w)
				b.SetBytes(int64(8 * len(dst)))
				b.ReportAllocs()
				for b.Loop() {
					im.fn(dst, src, w)
				}
				b.ReportMetric(float64(b.N*len(dst))/b.Elapsed().Seconds(), "values/s")
			})
		}
	}
}
