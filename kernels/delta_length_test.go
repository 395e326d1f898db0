package kernels

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// testDLBA is the reference DELTA_LENGTH_BYTE_ARRAY writer.
func testDLBA(r *rand.Rand, vals [][]byte) []byte {
	lengths := make([]int, len(vals))
	for i, v := range vals {
		lengths[i] = len(v)
	}
	return append(testLengthsStream(r, lengths), bytes.Join(vals, nil)...)
}

func TestDeltaLengthByteArray(t *testing.T) {
	t.Run("int32", testDeltaLengthByteArray[int32])
	t.Run("int64", testDeltaLengthByteArray[int64])
}

func testDeltaLengthByteArray[O Offset](t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for _, n := range testLengths(t) {
		for kind := range 4 {
			vals := testStrings(r, n, kind)
			src := append(testDLBA(r, vals), 1, 2, 3) // the page goes on
			base := r.IntN(5)
			wantOff, wantData := testFlatten[O](vals, base)
			offsets := make([]O, n+1)
			offsets[0] = O(base)
			data := make([]byte, base+len(src))
			copy(data, wantData[:base])
			dataLen, used, err := DeltaLengthByteArray(offsets, data, src)
			if err != nil {
				t.Fatalf("n=%d kind=%d: %v", n, kind, err)
			}
			if used != len(src)-3 || dataLen != len(wantData)-base {
				t.Fatalf("n=%d kind=%d: used %d of %d, data %d of %d", n, kind, used, len(src)-3, dataLen, len(wantData)-base)
			}
			if !slices.Equal(offsets, wantOff) || !bytes.Equal(data[:base+dataLen], wantData) {
				t.Fatalf("n=%d kind=%d: decoded values differ", n, kind)
			}
			// The writer's bytes decode the same way.
			enc, err := AppendDeltaLengthByteArray(nil, wantOff, wantData)
			if err != nil {
				t.Fatal(err)
			}
			clear(offsets[1:])
			if _, used, err := DeltaLengthByteArray(offsets, data, enc); err != nil || used != len(enc) || !slices.Equal(offsets, wantOff) || !bytes.Equal(data[:base+dataLen], wantData) {
				t.Fatalf("n=%d kind=%d: round trip: used %d of %d, %v", n, kind, used, len(enc), err)
			}
		}
	}
}

func TestDeltaLengthByteArrayErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	vals := testStrings(r, 50, 0)
	good := testDLBA(r, vals)
	// Every truncation is corrupt: a cut in the lengths breaks the stream
	// (or, cutting only padding, leaves no room for the values), a cut in
	// the values leaves too few bytes for the lengths.
	for cut := range len(good) {
		_, _, err := DeltaLengthByteArray(make([]int32, 51), make([]byte, len(good)), good[:cut])
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("cut=%d: %v", cut, err)
		}
	}
	neg := append(testLengthsStream(r, []int{3, -1, 2}), "abcde"...)
	if _, _, err := DeltaLengthByteArray(make([]int64, 4), make([]byte, 10), neg); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("negative length: %v", err)
	}
	big := append(testLengthsStream(r, []int{math.MaxInt32, math.MaxInt32}), "ab"...)
	if _, _, err := DeltaLengthByteArray(make([]int32, 3), make([]byte, 10), big); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("lengths past the page: %v", err)
	}
	// Offsets near the top of int32: the page fits, the offsets do not.
	src := append(testLengthsStream(r, []int{4, 4}), "abcdefgh"...)
	off := []int32{math.MaxInt32 - 6, 0, 0}
	if _, _, err := DeltaLengthByteArray(off, nil, src); !errors.Is(err, ErrOffsetOverflow) {
		t.Fatalf("offset overflow: %v", err)
	}
	if _, _, err := DeltaLengthByteArray(make([]int32, 3), make([]byte, 7), src); !errors.Is(err, ErrShortBuffer) {
		t.Fatalf("short data: %v", err)
	}
	if _, _, err := DeltaLengthByteArray([]int32{}, nil, src); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("no offsets: %v", err)
	}
	if _, _, err := DeltaLengthByteArray([]int32{-1, 0, 0}, nil, src); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("negative base: %v", err)
	}
	if _, err := AppendDeltaLengthByteArray(nil, []int32{0, 5, 3}, make([]byte, 5)); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("decreasing offsets: %v", err)
	}
	if _, err := AppendDeltaLengthByteArray(nil, []int32{0, 9}, make([]byte, 5)); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("offsets past data: %v", err)
	}
}

func TestDeltaLengthByteArrayAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 36))
	vals := testStrings(r, 1000, 0)
	off, data := testFlatten[int64](vals, 0)
	enc, _ := AppendDeltaLengthByteArray(nil, off, data)
	buf := make([]byte, 0, 2*len(enc))
	if a := testing.AllocsPerRun(20, func() {
		_, _ = AppendDeltaLengthByteArray(buf, off, data)
		_, _, _ = DeltaLengthByteArray(off, data, enc)
	}); a != 0 {
		t.Fatalf("%v allocations per run", a)
	}
}

func BenchmarkDeltaLengthByteArray(b *testing.B) {
	const n = 4096
	vals := testStrings(rand.New(rand.NewPCG(37, 38)), n, 0)
	off, data := testFlatten[int32](vals, 0)
	enc, _ := AppendDeltaLengthByteArray(nil, off, data)
	for _, dir := range []string{"decode", "encode"} {
		b.Run(fmt.Sprintf("%s/len=0-11", dir), func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, 2*len(enc))
			if dir == "decode" {
				b.SetBytes(int64(len(data) + 4*n))
			} else {
				b.SetBytes(int64(len(enc)))
			}
			for b.Loop() {
				var err error
				if dir == "decode" {
					_, _, err = DeltaLengthByteArray(off, data, enc)
				} else {
					_, err = AppendDeltaLengthByteArray(buf, off, data)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "values/s")
		})
	}
}
