package kernels

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// bpRefPack is the plainest LSB-first bit-packer, the inverse of bpRefUnpack;
// it ignores value bits above width.
func bpRefPack[T packable](dst []byte, src []T, width uint) {
	clear(dst)
	for i, x := range src {
		for j := uint(0); j < width; j++ {
			bit := uint(i)*width + j
			dst[bit/8] |= byte(uint64(x)>>j&1) << (bit % 8)
		}
	}
}

// testPackImpl checks one pack implementation against bpRefPack for every
// width and length, with high bits set above the width, a canary after the
// packed bytes, and the round trip through unpackGeneric.
func testPackImpl[T packable](t *testing.T, fn func([]byte, []T, uint), maxWidth uint) {
	r := rand.New(rand.NewPCG(3, 4))
	for w := uint(0); w <= maxWidth; w++ {
		for _, n := range bpLengths() {
			src := make([]T, n)
			for i := range src {
				src[i] = T(r.Uint64())
			}
			need := (n*int(w) + 7) / 8
			want := make([]byte, need)
			bpRefPack(want, src, w)
			got := bytes.Repeat([]byte{bpCanary}, need+9)
			fn(got[:need], src, w)
			if !bytes.Equal(got[:need], want) {
				t.Fatalf("width %d n %d: packed %x, want %x", w, n, got[:need], want)
			}
			if bytes.Count(got[need:], []byte{bpCanary}) != 9 {
				t.Fatalf("width %d n %d: wrote past dst", w, n)
			}
			back := make([]T, n)
			unpackTail(back, got, w)
			for i := range back {
				if m := uint64(1)<<w - 1; uint64(back[i])&m != uint64(src[i])&m {
					t.Fatalf("width %d n %d: value %d round-trips to %#x from %#x", w, n, i, back[i], src[i])
				}
			}
		}
	}
}

func TestPackImpls(t *testing.T) {
	for _, im := range pack32Impls {
		t.Run("32/"+im.name, func(t *testing.T) { testPackImpl(t, im.fn, 32) })
	}
	for _, im := range pack64Impls {
		t.Run("64/"+im.name, func(t *testing.T) { testPackImpl(t, im.fn, 64) })
	}
	t.Run("int16", func(t *testing.T) { testPackImpl(t, packGeneric[int16], 16) })
	t.Run("uint8", func(t *testing.T) { testPackImpl(t, packGeneric[uint8], 8) })
}

func TestPackEntries(t *testing.T) {
	got := make([]byte, 3)
	n, err := Pack32(got, []uint32{0, 1, 2, 3, 4, 5, 6, 7}, 3)
	if err != nil || n != 3 || !bytes.Equal(got, []byte{0x88, 0xc6, 0xfa}) {
		t.Fatalf("Pack32 = %x, %d, %v; want 88c6fa, 3", got, n, err)
	}
	cases := []struct {
		name    string
		call    func() (int, error)
		wantErr error
	}{
		{"32/short", func() (int, error) { return Pack32(make([]byte, 3), make([]uint32, 9), 3) }, ErrShortBuffer},
		{"32/wide", func() (int, error) { return Pack32(make([]byte, 9), make([]uint32, 1), 33) }, ErrOutOfRange},
		{"64/short", func() (int, error) { return Pack64(make([]byte, 14), make([]uint64, 2), 60) }, ErrShortBuffer},
		{"64/wide", func() (int, error) { return Pack64(make([]byte, 9), make([]uint64, 1), 65) }, ErrOutOfRange},
		{"64/ok", func() (int, error) { return Pack64(make([]byte, 15), make([]uint64, 2), 60) }, nil},
	}
	for _, c := range cases {
		n, err := c.call()
		if !errors.Is(err, c.wantErr) || (err != nil && n != 0) {
			t.Errorf("%s: n %d, err %v; want %v", c.name, n, err, c.wantErr)
		}
	}
	dst, src := make([]byte, 8000), make([]uint64, 1000)
	if a := testing.AllocsPerRun(10, func() {
		for w := uint(0); w <= 64; w++ {
			Pack64(dst, src, w)
		}
	}); a != 0 {
		t.Errorf("Pack64 allocates %v times", a)
	}
}

func BenchmarkPack32(b *testing.B) {
	for _, im := range pack32Impls {
		for _, w := range []uint{1, 3, 8, 10, 13, 16, 21, 32} {
			b.Run(fmt.Sprintf("impl=%s/width=%d", im.name, w), func(b *testing.B) {
				src := make([]uint32, 4096)
				for i := range src {
					src[i] = uint32(i * 2654435761)
				}
				dst := make([]byte, 4*len(src))
				b.SetBytes(int64(len(src) * int(w) / 8))
				b.ReportAllocs()
				for b.Loop() {
					im.fn(dst[:len(src)*int(w)/8], src, w)
				}
				b.ReportMetric(float64(b.N*len(src))/b.Elapsed().Seconds(), "values/s")
			})
		}
	}
}
