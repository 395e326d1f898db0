package kernels

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// msbRefUnpack reads value i from bits i*width.. of src, most significant
// bit of each byte first.
func msbRefUnpack(dst []int16, src []byte, width uint) {
	for i := range dst {
		var v uint16
		for j := uint(0); j < width; j++ {
			bit := uint(i)*width + j
			v = v<<1 | uint16(src[bit/8]>>(7-bit%8)&1)
		}
		dst[i] = int16(v)
	}
}

func TestBitPackedMSB(t *testing.T) {
	// The spec's example: 0..7 at width 3.
	got := make([]int16, 8)
	if n, err := UnpackLevelsMSB(got, []byte{0x05, 0x39, 0x77}, 3, 7); n != 3 || err != nil || got[7] != 7 || got[3] != 3 {
		t.Fatalf("spec example: %v, %d, %v", got, n, err)
	}
	out := make([]byte, 3)
	if n, err := PackLevelsMSB(out, []int16{0, 1, 2, 3, 4, 5, 6, 7}, 3); n != 3 || err != nil || !bytes.Equal(out, []byte{0x05, 0x39, 0x77}) {
		t.Fatalf("spec example packs to %x, %d, %v", out, n, err)
	}
	r := rand.New(rand.NewPCG(17, 18))
	for w := uint(0); w <= 16; w++ {
		for _, n := range bpLengths() {
			need := (n*int(w) + 7) / 8
			src := make([]byte, need+1)
			for i := range src {
				src[i] = byte(r.Uint32())
			}
			want := make([]int16, n)
			msbRefUnpack(want, src[1:1+need], w)
			got := make([]int16, n+1)
			got[n] = bpCanary
			m, err := UnpackLevelsMSB(got[:n], src[1:1+need], w, math.MaxInt16)
			if w == 16 && err != nil {
				// Width 16 can hold levels above any int16 maximum.
				if !errors.Is(err, ErrOutOfRange) {
					t.Fatalf("width 16: %v", err)
				}
			} else if m != need || err != nil {
				t.Fatalf("width %d n %d: %d, %v", w, n, m, err)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("width %d n %d: level %d = %d, want %d", w, n, i, got[i], want[i])
				}
			}
			if got[n] != bpCanary {
				t.Fatalf("width %d n %d: wrote past dst", w, n)
			}
			packed := bytes.Repeat([]byte{bpCanary}, need+1)
			if m, err := PackLevelsMSB(packed[:need], want, w); m != need || err != nil {
				t.Fatalf("width %d n %d: PackLevelsMSB = %d, %v", w, n, m, err)
			}
			back := make([]int16, n)
			msbRefUnpack(back, packed, w)
			if !slices.Equal(back, want) || packed[need] != bpCanary {
				t.Fatalf("width %d n %d: pack round trip differs or overran", w, n)
			}
			if need > 0 && n*int(w)%8 != 0 && packed[need-1]&(1<<(8-n*int(w)%8)-1) != 0 {
				t.Fatalf("width %d n %d: padding bits not zero: %08b", w, n, packed[need-1])
			}
		}
	}
	for _, c := range []struct {
		name string
		err  error
		call func() (int, error)
	}{
		{"short", ErrCorrupt, func() (int, error) { return UnpackLevelsMSB(make([]int16, 3), []byte{0}, 3, 7) }},
		{"wide", ErrOutOfRange, func() (int, error) { return UnpackLevelsMSB(make([]int16, 1), []byte{0, 0, 0}, 17, 7) }},
		{"above max", ErrOutOfRange, func() (int, error) { return UnpackLevelsMSB(make([]int16, 2), []byte{0x1c}, 3, 6) }},
		{"negative max", ErrOutOfRange, func() (int, error) { return UnpackLevelsMSB(make([]int16, 2), []byte{0x1c}, 3, -1) }},
		{"pack short", ErrShortBuffer, func() (int, error) { return PackLevelsMSB(make([]byte, 1), make([]int16, 3), 3) }},
		{"pack wide", ErrOutOfRange, func() (int, error) { return PackLevelsMSB(make([]byte, 9), make([]int16, 1), 17) }},
	} {
		if n, err := c.call(); n != 0 || !errors.Is(err, c.err) {
			t.Errorf("%s: %d, %v; want %v", c.name, n, err, c.err)
		}
	}
}
