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

// testPlainByteArray is the reference PLAIN BYTE_ARRAY writer.
func testPlainByteArray(vals [][]byte) []byte {
	var out []byte
	for _, v := range vals {
		out = binary.LittleEndian.AppendUint32(out, uint32(len(v)))
		out = append(out, v...)
	}
	return out
}

func TestPlainByteArray(t *testing.T) {
	t.Run("int32", testPlainByteArrayOf[int32])
	t.Run("int64", testPlainByteArrayOf[int64])
}

func testPlainByteArrayOf[O Offset](t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	for _, n := range testLengths(t) {
		for kind := range 6 {
			var vals [][]byte
			if kind < 5 {
				vals = testStrings(r, n, kind)
			} else { // every length from 0 to past plainBlockMax
				for i := range n {
					vals = append(vals, randBytes(r, i%(plainBlockMax+40)))
				}
			}
			src := append(testPlainByteArray(vals), 7, 7, 7)
			base := r.IntN(5)
			wantOff, wantData := testFlatten[O](vals, base)
			offsets := make([]O, n+1)
			offsets[0] = O(base)
			data := make([]byte, base+len(src))
			copy(data, wantData[:base])
			dataLen, used, err := PlainByteArray(offsets, data, src)
			if err != nil || used != len(src)-3 || dataLen != len(wantData)-base {
				t.Fatalf("n=%d kind=%d: used %d, data %d, %v", n, kind, used, dataLen, err)
			}
			if !slices.Equal(offsets, wantOff) || !bytes.Equal(data[:len(wantData)], wantData) {
				t.Fatalf("n=%d kind=%d: decoded values differ", n, kind)
			}
			// Sizing any prefix of the values sums their lengths.
			for _, k := range []int{0, n / 3, n} {
				if size, err := PlainByteArraySize(src, k); err != nil || size != int(wantOff[k])-base {
					t.Fatalf("n=%d kind=%d: size of %d values is %d (%v), want %d", n, kind, k, size, err, int(wantOff[k])-base)
				}
			}
			// Data short of the values by one byte says so, where the
			// size says to grow it.
			if size := len(wantData) - base; size > 0 {
				short := make([]byte, base+size-1)
				if _, _, err := PlainByteArray(offsets, short, src); !errors.Is(err, ErrShortBuffer) {
					t.Fatalf("n=%d kind=%d: data one byte short: %v", n, kind, err)
				}
			}
			// A data slice that ends at the last value leaves the last
			// values to the checked path; the result is the same.
			exact := make([]byte, len(wantData))
			copy(exact, wantData[:base])
			if _, _, err := PlainByteArray(offsets, exact, src); err != nil || !bytes.Equal(exact, wantData) {
				t.Fatalf("n=%d kind=%d: into exactly %d data bytes: %v", n, kind, len(exact), err)
			}
			enc, err := AppendPlainByteArray([]byte{}, wantOff, wantData)
			if err != nil || !bytes.Equal(enc, src[:len(src)-3]) {
				t.Fatalf("n=%d kind=%d: encoding differs, %v", n, kind, err)
			}
			// Every truncation is corrupt, to decode and to size.
			if n > 0 && n < 40 {
				for cut := range len(src) - 3 {
					if _, _, err := PlainByteArray(offsets, data, src[:cut]); !errors.Is(err, ErrCorrupt) {
						t.Fatalf("n=%d kind=%d cut=%d: %v", n, kind, cut, err)
					}
					if _, err := PlainByteArraySize(src[:cut], n); !errors.Is(err, ErrCorrupt) {
						t.Fatalf("n=%d kind=%d cut=%d: sizing: %v", n, kind, cut, err)
					}
				}
			}
		}
	}
}

func TestPlainByteArrayErrors(t *testing.T) {
	src := testPlainByteArray([][]byte{[]byte("hello"), []byte("world")})
	if _, _, err := PlainByteArray(make([]int32, 3), make([]byte, 9), src); !errors.Is(err, ErrShortBuffer) {
		t.Fatalf("short data: %v", err)
	}
	if !testing.Short() {
		// Data past what int32 offsets can address: only the offsets
		// overflow. The slice is mostly untouched virtual memory.
		big := make([]byte, math.MaxInt32+16)
		if _, _, err := PlainByteArray([]int32{math.MaxInt32 - 7, 0, 0}, big, src); !errors.Is(err, ErrOffsetOverflow) {
			t.Fatalf("offset overflow: %v", err)
		}
	}
	if _, _, err := PlainByteArray([]int32{}, nil, src); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("no offsets: %v", err)
	}
	if _, _, err := PlainByteArray([]int32{-1, 0}, nil, src); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("negative base: %v", err)
	}
	huge := binary.LittleEndian.AppendUint32(nil, math.MaxUint32)
	if _, _, err := PlainByteArray(make([]int64, 2), make([]byte, 10), huge); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("huge length: %v", err)
	}
	if _, err := AppendPlainByteArray(nil, []int64{0, 3, 2}, make([]byte, 3)); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("decreasing offsets: %v", err)
	}
}

func TestPlainByteArrayAllocs(t *testing.T) {
	vals := testStrings(rand.New(rand.NewPCG(63, 64)), 1000, 0)
	off, data := testFlatten[int32](vals, 0)
	src := testPlainByteArray(vals)
	buf := make([]byte, 0, len(src))
	if a := testing.AllocsPerRun(20, func() {
		_, _ = AppendPlainByteArray(buf, off, data)
		_, _, _ = PlainByteArray(off, data, src)
	}); a != 0 {
		t.Fatalf("%v allocations per run", a)
	}
}

func BenchmarkPlainByteArray(b *testing.B) {
	const n = 4096
	for _, c := range []struct {
		name string
		vals [][]byte
	}{
		{"len=0-11", testStrings(rand.New(rand.NewPCG(65, 66)), n, 0)},
		{"len=10-70", testStrings(rand.New(rand.NewPCG(67, 68)), n, 4)},
	} {
		off, data := testFlatten[int32](c.vals, 0)
		src := testPlainByteArray(c.vals)
		b.Run("decode/"+c.name, func(b *testing.B) {
			dst := make([]byte, len(src))
			b.SetBytes(int64(len(data) + 4*n))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := PlainByteArray(off, dst, src); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "values/s")
		})
		b.Run("encode/"+c.name, func(b *testing.B) {
			buf := make([]byte, 0, len(src))
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := AppendPlainByteArray(buf, off, data); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "values/s")
		})
	}
}
