package kernels

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// testDBA is the reference DELTA_BYTE_ARRAY writer: naive shared prefixes.
func testDBA(r *rand.Rand, vals [][]byte) []byte {
	prefix := make([]int, len(vals))
	suffix := make([]int, len(vals))
	var data []byte
	for i, v := range vals {
		p := 0
		if i > 0 {
			for p < len(v) && p < len(vals[i-1]) && v[p] == vals[i-1][p] {
				p++
			}
		}
		prefix[i], suffix[i] = p, len(v)-p
		data = append(data, v[p:]...)
	}
	return append(append(testLengthsStream(r, prefix), testLengthsStream(r, suffix)...), data...)
}

// testDecodeDBA runs both decoding steps.
func testDecodeDBA[O Offset](offsets []O, data []byte, prefix []int32, src []byte) (int, int, error) {
	dataLen, at, err := DeltaByteArrayOffsets(offsets, prefix, src)
	if err != nil {
		return 0, 0, err
	}
	if int(offsets[0])+dataLen > len(data) {
		return 0, 0, ErrShortBuffer
	}
	used, err := DeltaByteArrayData(data, offsets, prefix, src[at:])
	return dataLen, at + used, err
}

func TestDeltaByteArray(t *testing.T) {
	t.Run("int32", testDeltaByteArray[int32])
	t.Run("int64", testDeltaByteArray[int64])
}

func testDeltaByteArray[O Offset](t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	for _, n := range testLengths(t) {
		for kind := range 4 {
			vals := testStrings(r, n, kind)
			src := append(testDBA(r, vals), 9, 9)
			base := r.IntN(5)
			wantOff, wantData := testFlatten[O](vals, base)
			offsets := make([]O, n+1)
			offsets[0] = O(base)
			data := make([]byte, len(wantData)+20)
			copy(data, wantData[:base])
			for i := len(wantData); i < len(data); i++ {
				data[i] = 0xfe // canary: DeltaByteArrayData stays within the values
			}
			prefix := make([]int32, n)
			dataLen, used, err := testDecodeDBA(offsets, data, prefix, src)
			if err != nil {
				t.Fatalf("n=%d kind=%d: %v", n, kind, err)
			}
			if used != len(src)-2 || dataLen != len(wantData)-base {
				t.Fatalf("n=%d kind=%d: used %d of %d, data %d of %d", n, kind, used, len(src)-2, dataLen, len(wantData)-base)
			}
			if !slices.Equal(offsets, wantOff) || !bytes.Equal(data[:len(wantData)], wantData) {
				t.Fatalf("n=%d kind=%d: decoded values differ", n, kind)
			}
			if !bytes.Equal(data[len(wantData):], bytes.Repeat([]byte{0xfe}, 20)) {
				t.Fatalf("n=%d kind=%d: wrote past the values", n, kind)
			}
			enc, _, err := AppendDeltaByteArray(nil, wantOff, wantData, nil)
			if err != nil {
				t.Fatal(err)
			}
			clear(offsets[1:])
			if _, used, err := testDecodeDBA(offsets, data, prefix, enc); err != nil || used != len(enc) || !slices.Equal(offsets, wantOff) || !bytes.Equal(data[:len(wantData)], wantData) {
				t.Fatalf("n=%d kind=%d: round trip: used %d of %d, %v", n, kind, used, len(enc), err)
			}
		}
	}
}

func TestDeltaByteArrayFixed(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	for _, width := range []int{1, 3, 8, 16, 20, 33} {
		for _, n := range []int{0, 1, 2, 31, 32, 33, 128, 129, 500} {
			vals := make([][]byte, n)
			for i := range vals {
				vals[i] = randBytes(r, width)
				if i > 0 && r.IntN(2) == 0 {
					copy(vals[i], vals[i-1][:r.IntN(width+1)])
				}
			}
			want := bytes.Join(vals, nil)
			for _, src := range [][]byte{testDBA(r, vals), must(AppendDeltaByteArrayFixed(nil, want, width, nil))} {
				dst := make([]byte, len(want))
				used, err := DeltaByteArrayFixed(dst, width, make([]int32, 2*n), src)
				if err != nil || used != len(src) || !bytes.Equal(dst, want) {
					t.Fatalf("width=%d n=%d: used %d of %d, %v", width, n, used, len(src), err)
				}
			}
		}
	}
	// A value of the wrong length.
	src := testDBA(r, [][]byte{[]byte("abcd"), []byte("abcde")})
	if _, err := DeltaByteArrayFixed(make([]byte, 8), 4, make([]int32, 4), src); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("wrong width: %v", err)
	}
	if _, err := DeltaByteArrayFixed(make([]byte, 8), 4, make([]int32, 3), src); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("short scratch: %v", err)
	}
	if _, err := DeltaByteArrayFixed(make([]byte, 7), 4, make([]int32, 4), src); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("ragged dst: %v", err)
	}
	if _, _, err := AppendDeltaByteArrayFixed(nil, make([]byte, 7), 4, nil); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("ragged values: %v", err)
	}
}

func must(b []byte, _ []uint32, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func TestDeltaByteArrayErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(45, 46))
	build := func(prefix, suffix []int, data string) []byte {
		return append(append(testLengthsStream(r, prefix), testLengthsStream(r, suffix)...), data...)
	}
	cases := []struct {
		name string
		src  []byte
		n    int
	}{
		{"prefix on the first value", build([]int{1}, []int{2}, "ab"), 1},
		{"prefix past the previous value", build([]int{0, 3}, []int{2, 1}, "abc"), 2},
		{"negative prefix", build([]int{0, -1}, []int{2, 1}, "abc"), 2},
		{"negative suffix", build([]int{0, 0}, []int{2, -1}, "abc"), 2},
		{"suffixes past the page", build([]int{0, 1}, []int{2, 5}, "abc"), 2},
		{"missing suffix lengths", testLengthsStream(r, []int{0, 1}), 2},
		{"empty", nil, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := testDecodeDBA(make([]int64, c.n+1), make([]byte, 100), make([]int32, c.n), c.src)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("got %v", err)
			}
		})
	}
	// Truncating a good page anywhere is corrupt.
	vals := testStrings(r, 40, 1)
	good := testDBA(r, vals)
	for cut := range len(good) {
		_, _, err := testDecodeDBA(make([]int32, 41), make([]byte, 2000), make([]int32, 40), good[:cut])
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("cut=%d: %v", cut, err)
		}
	}
	// Inconsistent arguments to the second step are errors, not panics.
	off, data := testFlatten[int32](vals, 0)
	prefix := make([]int32, 40)
	_, at, err := DeltaByteArrayOffsets(off, prefix, good)
	if err != nil {
		t.Fatal(err)
	}
	bad := slices.Clone(off)
	bad[20] = bad[21] + 1
	if _, err := DeltaByteArrayData(data, bad, prefix, good[at:]); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("decreasing offsets: %v", err)
	}
	bad = slices.Clone(off)
	bad[20] = 1 << 30
	if _, err := DeltaByteArrayData(data, bad, prefix, good[at:]); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("offset past data: %v", err)
	}
	if _, err := DeltaByteArrayData(data[:10], off, prefix, good[at:]); !errors.Is(err, ErrShortBuffer) {
		t.Fatalf("short data: %v", err)
	}
	if _, err := DeltaByteArrayData(data, off, prefix[:3], good[at:]); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("short prefix: %v", err)
	}
	if _, _, err := DeltaByteArrayOffsets(off, prefix[:3], good); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("short prefix: %v", err)
	}
}

func TestDeltaByteArrayAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(47, 48))
	vals := testStrings(r, 1000, 2)
	off, data := testFlatten[int32](vals, 0)
	enc, shared, _ := AppendDeltaByteArray(nil, off, data, nil)
	prefix := make([]int32, 1000)
	buf := make([]byte, 0, 2*len(enc))
	if a := testing.AllocsPerRun(20, func() {
		_, _, _ = AppendDeltaByteArray(buf, off, data, shared)
		_, _, _ = testDecodeDBA(off, data, prefix, enc)
	}); a != 0 {
		t.Fatalf("%v allocations per run", a)
	}
}

func BenchmarkDeltaByteArray(b *testing.B) {
	const n = 4096
	vals := testStrings(rand.New(rand.NewPCG(49, 50)), n, 1)
	off, data := testFlatten[int32](vals, 0)
	enc, shared, _ := AppendDeltaByteArray(nil, off, data, nil)
	prefix := make([]int32, n)
	b.Run("decode/len=20", func(b *testing.B) {
		b.SetBytes(int64(len(data) + 4*n))
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := testDecodeDBA(off, data, prefix, enc); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "values/s")
	})
	b.Run("encode/len=20", func(b *testing.B) {
		buf := make([]byte, 0, 2*len(enc))
		b.SetBytes(int64(len(enc)))
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := AppendDeltaByteArray(buf, off, data, shared); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "values/s")
	})
}
