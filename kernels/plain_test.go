package kernels

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestPlainDecodeWords(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	for _, n := range testLengths(t) {
		raw := randBytes(r, 8*n+1)[1:] // unaligned
		i32 := make([]int32, n)
		if used, err := PlainDecode(i32, raw); err != nil || used != 4*n {
			t.Fatalf("int32 n=%d: %d, %v", n, used, err)
		}
		f64 := make([]float64, n)
		if used, err := PlainDecode(f64, raw); err != nil || used != 8*n {
			t.Fatalf("float64 n=%d: %d, %v", n, used, err)
		}
		for i := range n {
			if i32[i] != int32(binary.LittleEndian.Uint32(raw[4*i:])) {
				t.Fatalf("int32 n=%d: value %d differs", n, i)
			}
			if math.Float64bits(f64[i]) != binary.LittleEndian.Uint64(raw[8*i:]) {
				t.Fatalf("float64 n=%d: value %d differs", n, i)
			}
		}
		if enc := AppendPlain([]byte{1}, f64); !bytes.Equal(enc[1:], raw[:8*n]) || enc[0] != 1 {
			t.Fatalf("float64 n=%d: encoding differs", n)
		}
		if enc := AppendPlain(nil, i32); !bytes.Equal(enc, raw[:4*n]) {
			t.Fatalf("int32 n=%d: encoding differs", n)
		}
		if n > 0 {
			if _, err := PlainDecode(make([]uint64, n), raw[:8*n-1]); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("uint64 n=%d short: %v", n, err)
			}
		}
	}
	f32 := []float32{1.5, float32(math.Inf(-1)), -0.0}
	u64 := []uint64{math.MaxUint64, 0, 1 << 63}
	gotF := make([]float32, 3)
	gotU := make([]uint64, 3)
	if _, err := PlainDecode(gotF, AppendPlain(nil, f32)); err != nil || !slices.Equal(gotF, f32) {
		t.Fatalf("float32 round trip: %v %v", gotF, err)
	}
	if _, err := PlainDecode(gotU, AppendPlain(nil, u64)); err != nil || !slices.Equal(gotU, u64) {
		t.Fatalf("uint64 round trip: %v %v", gotU, err)
	}
}

// The big-endian path is one function; exercise it on any host.
func TestSwapBytes(t *testing.T) {
	b := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9}
	swapBytes(b, 4)
	if !bytes.Equal(b, []byte{4, 3, 2, 1, 8, 7, 6, 5, 9}) {
		t.Fatalf("4-byte swap: %v", b)
	}
	swapBytes(b[:8], 8)
	if !bytes.Equal(b, []byte{5, 6, 7, 8, 1, 2, 3, 4, 9}) {
		t.Fatalf("8-byte swap: %v", b)
	}
}

func TestPlainDecodeInt32To(t *testing.T) {
	vals := []int32{0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, 65535, 65536, math.MaxInt32, math.MinInt32}
	src := AppendPlain(nil, vals)
	i8 := make([]int8, len(vals))
	u8 := make([]uint8, len(vals))
	i16 := make([]int16, len(vals))
	u16 := make([]uint16, len(vals))
	for _, err := range []error{
		second(PlainDecodeInt32To(i8, src)), second(PlainDecodeInt32To(u8, src)),
		second(PlainDecodeInt32To(i16, src)), second(PlainDecodeInt32To(u16, src)),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for i, v := range vals {
		if i8[i] != int8(v) || u8[i] != uint8(v) || i16[i] != int16(v) || u16[i] != uint16(v) {
			t.Fatalf("value %d (%d): %d %d %d %d", i, v, i8[i], u8[i], i16[i], u16[i])
		}
	}
	// Writing narrow values widens them by their own signedness.
	if got := AppendPlainInt32From(nil, []int8{-1, 5}); !bytes.Equal(got, AppendPlain(nil, []int32{-1, 5})) {
		t.Fatalf("int8 widening: %v", got)
	}
	if got := AppendPlainInt32From(nil, []uint16{65535}); !bytes.Equal(got, AppendPlain(nil, []int32{65535})) {
		t.Fatalf("uint16 widening: %v", got)
	}
	if _, err := PlainDecodeInt32To(make([]int16, 3), src[:11]); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("short: %v", err)
	}
}

func second(_ int, err error) error { return err }

func TestPlainFixedLenByteArray(t *testing.T) {
	r := rand.New(rand.NewPCG(53, 54))
	src := randBytes(r, 12*10+5)
	dst := make([]byte, 12*10)
	if used, err := PlainFixedLenByteArray(dst, src, 12); err != nil || used != 120 || !bytes.Equal(dst, src[:120]) {
		t.Fatalf("int96: %d %v", used, err)
	}
	if _, err := PlainFixedLenByteArray(dst, src[:119], 12); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("short: %v", err)
	}
	if _, err := PlainFixedLenByteArray(dst[:7], src, 12); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("ragged: %v", err)
	}
	if _, err := PlainFixedLenByteArray(dst, src, 0); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("zero width: %v", err)
	}
	if enc, err := AppendPlainFixedLenByteArray(nil, dst, 12); err != nil || !bytes.Equal(enc, dst) {
		t.Fatalf("encode: %v", err)
	}
	if _, err := AppendPlainFixedLenByteArray(nil, dst[:5], 12); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("encode ragged: %v", err)
	}
}

func TestPlainBoolean(t *testing.T) {
	r := rand.New(rand.NewPCG(55, 56))
	for _, n := range testLengths(t) {
		for _, off := range []int{0, 1, 7, 8, 13, 64, 65} {
			src := randBytes(r, (n+7)/8+1)
			dst := randBytes(r, (off+n+7)/8+2)
			want := slices.Clone(dst)
			for i := range n {
				bit := src[i/8] >> (i % 8) & 1
				j := off + i
				want[j/8] = want[j/8]&^(1<<(j%8)) | bit<<(j%8)
			}
			used, err := PlainBoolean(dst, off, n, src)
			if err != nil || used != (n+7)/8 || !bytes.Equal(dst, want) {
				t.Fatalf("n=%d off=%d: used %d, %v", n, off, used, err)
			}
			enc, err := AppendPlainBoolean([]byte{0xaa}, dst, off, n)
			if err != nil || len(enc) != 1+(n+7)/8 || enc[0] != 0xaa {
				t.Fatalf("n=%d off=%d: encode %d bytes, %v", n, off, len(enc), err)
			}
			for i := range n {
				if enc[1+i/8]>>(i%8)&1 != src[i/8]>>(i%8)&1 {
					t.Fatalf("n=%d off=%d: encoded bit %d differs", n, off, i)
				}
			}
			if n%8 != 0 && enc[len(enc)-1]>>(n%8) != 0 {
				t.Fatalf("n=%d off=%d: padding bits set", n, off)
			}
		}
	}
	if _, err := PlainBoolean(make([]byte, 4), 0, 17, make([]byte, 2)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("short page: %v", err)
	}
	if _, err := PlainBoolean(make([]byte, 2), 3, 16, make([]byte, 2)); !errors.Is(err, ErrShortBuffer) {
		t.Fatalf("short bitmap: %v", err)
	}
	if _, err := AppendPlainBoolean(nil, make([]byte, 2), 3, 16); !errors.Is(err, ErrShortBuffer) {
		t.Fatalf("encode short bitmap: %v", err)
	}
}

func TestPlainAllocs(t *testing.T) {
	vals := make([]int64, 1000)
	buf := make([]byte, 0, 8000)
	narrow := make([]int16, 1000)
	bm := make([]byte, 200)
	if a := testing.AllocsPerRun(20, func() {
		enc := AppendPlain(buf, vals)
		_, _ = PlainDecode(vals, enc)
		_, _ = PlainDecodeInt32To(narrow, enc)
		_, _ = PlainBoolean(bm, 3, 1000, enc)
		_, _ = AppendPlainBoolean(buf, bm, 3, 1000)
	}); a != 0 {
		t.Fatalf("%v allocations per run", a)
	}
}
