package kernels

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// testBitmap returns a random validity bitmap of off+n bits (plus slack)
// with roughly the given density of set bits, using runs so that all-set
// and all-clear words appear.
func testBitmap(r *rand.Rand, off, n int, density float64) []byte {
	bm := make([]byte, (off+n+7)/8+r.IntN(3))
	for i := 0; i < off+n; {
		run := 1 + r.IntN(150)
		set := r.Float64() < density
		for j := i; j < min(i+run, off+n); j++ {
			if set || r.IntN(8) == 0 {
				bm[j/8] |= 1 << (j % 8)
			}
		}
		i += run
	}
	return bm
}

func bitAt(bm []byte, i int) bool { return bm[i/8]>>(i%8)&1 != 0 }

func TestSpreadCompact(t *testing.T) {
	r := rand.New(rand.NewPCG(91, 92))
	for _, n := range testLengths(t) {
		for _, off := range []int{0, 3, 64, 71} {
			bm := testBitmap(r, off, n, []float64{0, 0.5, 0.9, 1}[n%4])
			var dense []uint64
			want := make([]uint64, n)
			for i := range n {
				if bitAt(bm, off+i) {
					v := r.Uint64() | 1
					dense = append(dense, v)
					want[i] = v
				}
			}
			dst := make([]uint64, n)
			for i := range dst {
				dst[i] = 0xfefe // null slots must come out zero
			}
			if k, err := Spread(dst, dense, bm, off); err != nil || k != len(dense) || !slices.Equal(dst, want) {
				t.Fatalf("n=%d off=%d: spread %d, %v", n, off, k, err)
			}
			// In place: dense values at the front of the spaced buffer.
			inPlace := make([]uint64, n)
			copy(inPlace, dense)
			if _, err := Spread(inPlace, inPlace[:len(dense)], bm, off); err != nil || !slices.Equal(inPlace, want) {
				t.Fatalf("n=%d off=%d: in-place spread differs, %v", n, off, err)
			}
			back := make([]uint64, len(dense))
			if k, err := Compact(back, want, bm, off); err != nil || k != len(dense) || !slices.Equal(back, dense) {
				t.Fatalf("n=%d off=%d: compact %d, %v", n, off, k, err)
			}
			if k, err := Compact(inPlace, inPlace, bm, off); err != nil || !slices.Equal(inPlace[:k], dense) {
				t.Fatalf("n=%d off=%d: in-place compact differs, %v", n, off, err)
			}
			// 12-byte values go through the same generic code.
			d12 := make([][12]byte, len(dense))
			for i := range d12 {
				d12[i] = [12]byte(randBytes(r, 12))
			}
			sp12 := make([][12]byte, n)
			if _, err := Spread(sp12, d12, bm, off); err != nil {
				t.Fatal(err)
			}
			c12 := make([][12]byte, len(dense))
			if _, err := Compact(c12, sp12, bm, off); err != nil || !slices.Equal(c12, d12) {
				t.Fatalf("n=%d off=%d: 12-byte round trip differs, %v", n, off, err)
			}
			if len(dense) > 0 {
				if _, err := Spread(dst, dense[1:], bm, off); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("n=%d: too few values: %v", n, err)
				}
				if _, err := Compact(back[1:], want, bm, off); !errors.Is(err, ErrShortBuffer) {
					t.Fatalf("n=%d: short dst: %v", n, err)
				}
			}
		}
	}
	if _, err := Spread(make([]int32, 20), nil, make([]byte, 2), 0); !errors.Is(err, ErrShortBuffer) {
		t.Fatalf("short bitmap: %v", err)
	}
}

func TestSpreadOffsets(t *testing.T) {
	r := rand.New(rand.NewPCG(93, 94))
	for _, n := range testLengths(t) {
		off := n % 9
		bm := testBitmap(r, off, n, 0.7)
		var vals [][]byte
		wantSpaced := make([][]byte, n)
		for i := range n {
			if bitAt(bm, off+i) {
				v := randBytes(r, r.IntN(5))
				vals = append(vals, v)
				wantSpaced[i] = v
			}
		}
		dOff, data := testFlatten[int32](vals, 2)
		wantOff, _ := testFlatten[int32](wantSpaced, 2)
		dst := make([]int32, n+1)
		if k, err := SpreadOffsets(dst, dOff, bm, off); err != nil || k != len(vals) || !slices.Equal(dst, wantOff) {
			t.Fatalf("n=%d: spread offsets %d, %v", n, k, err)
		}
		inPlace := make([]int32, n+1)
		copy(inPlace, dOff)
		if _, err := SpreadOffsets(inPlace, inPlace[:len(dOff)], bm, off); err != nil || !slices.Equal(inPlace, wantOff) {
			t.Fatalf("n=%d: in-place spread offsets differs, %v", n, err)
		}
		// And back: the spaced values compact to the dense ones. Give null
		// slots some bytes of their own, as Arrow allows.
		spacedVals := slices.Clone(wantSpaced)
		for i := range spacedVals {
			if !bitAt(bm, off+i) {
				spacedVals[i] = []byte("null bytes")
			}
		}
		sOff, sData := testFlatten[int32](spacedVals, 0)
		cOff := make([]int32, len(vals)+1)
		cOff[0] = 2
		cData := make([]byte, len(data))
		copy(cData, data[:2])
		if k, err := CompactByteArray(cOff, cData, sOff, sData, bm, off); err != nil || k != len(vals) || !slices.Equal(cOff, dOff) || !bytes.Equal(cData, data) {
			t.Fatalf("n=%d: compact byte array %d, %v", n, k, err)
		}
	}
	bm := []byte{0xff}
	if _, err := SpreadOffsets([]int32{}, []int32{0}, bm, 0); !errors.Is(err, ErrShortBuffer) {
		t.Fatalf("empty dst: %v", err)
	}
	if _, err := SpreadOffsets(make([]int32, 4), []int32{0, 1}, bm, 0); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("too few values: %v", err)
	}
	if _, err := CompactByteArray(make([]int32, 3), make([]byte, 10), []int32{0, 4, 2}, make([]byte, 4), bm, 0); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("decreasing offsets: %v", err)
	}
	if _, err := CompactByteArray(make([]int32, 3), make([]byte, 10), []int32{0, 4, 9}, make([]byte, 4), bm, 0); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("offsets past data: %v", err)
	}
	if _, err := CompactByteArray(make([]int32, 3), make([]byte, 3), []int32{0, 2, 4}, make([]byte, 4), bm, 0); !errors.Is(err, ErrShortBuffer) {
		t.Fatalf("short data: %v", err)
	}
	if _, err := CompactByteArray(make([]int32, 2), make([]byte, 10), []int32{0, 2, 4}, make([]byte, 4), bm, 0); !errors.Is(err, ErrShortBuffer) {
		t.Fatalf("short offsets: %v", err)
	}
}

func TestSpacingAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(95, 96))
	bm := testBitmap(r, 5, 1000, 0.7)
	spaced := make([]float64, 1000)
	offs := make([]int64, 1001)
	data := make([]byte, 100)
	if a := testing.AllocsPerRun(20, func() {
		k, _ := Compact(spaced, spaced, bm, 5)
		_, _ = Spread(spaced, spaced[:k], bm, 5)
		_, _ = SpreadOffsets(offs, offs[:k+1], bm, 5)
		_, _ = CompactByteArray(offs, data, offs, data, bm, 5)
	}); a != 0 {
		t.Fatalf("%v allocations per run", a)
	}
}

func BenchmarkSpread(b *testing.B) {
	const n = 4096
	r := rand.New(rand.NewPCG(97, 98))
	// Runs of valid and null slots, then nulls scattered one by one (10%
	// of slots, as in a nullable column), which leave no word all valid.
	scattered := make([]byte, n/8)
	for i := range n {
		if r.IntN(10) != 0 {
			scattered[i/8] |= 1 << (i % 8)
		}
	}
	for _, c := range []struct {
		name string
		bm   []byte
	}{
		{"valid=0.5", testBitmap(r, 0, n, 0.5)},
		{"valid=0.99", testBitmap(r, 0, n, 0.99)},
		{"scattered-nulls=0.1", scattered},
	} {
		name, bm := "width=8/"+c.name, c.bm
		count, _ := CountSetBits(bm, 0, n)
		dst := make([]float64, n)
		src := make([]float64, count)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(8 * n)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Spread(dst, src, bm, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "values/s")
		})
	}
}

// TestSpreadBits checks SpreadBits against a bit-by-bit reference on
// random bitmaps, offsets and lengths, with garbage past the dense values
// and bits outside the slots left as they were.
func TestSpreadBits(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 3000 {
		n, offset := r.IntN(300), r.IntN(13)
		density := r.Float64()
		valid := make([]byte, (offset+n+7)/8+r.IntN(3))
		for i := range 8 * len(valid) {
			if r.Float64() < density {
				valid[i/8] |= 1 << (i % 8)
			}
		}
		dst := make([]byte, len(valid))
		for i := range dst {
			dst[i] = byte(r.Uint32())
		}
		orig := append([]byte(nil), dst...)
		bit := func(b []byte, i int) bool { return b[i/8]>>(i%8)&1 != 0 }
		want := append([]byte(nil), dst...)
		k := 0
		for i := range n {
			v := false
			if bit(valid, offset+i) {
				v = bit(orig, offset+k)
				k++
			}
			if v {
				want[(offset+i)/8] |= 1 << ((offset + i) % 8)
			} else {
				want[(offset+i)/8] &^= 1 << ((offset + i) % 8)
			}
		}
		got, err := SpreadBits(dst, offset, n, valid)
		if err != nil || got != k || !bytes.Equal(dst, want) {
			t.Fatalf("n=%d offset=%d: got %d, %v,\n%08b\nwant %d\n%08b", n, offset, got, err, dst, k, want)
		}
	}
	if _, err := SpreadBits(make([]byte, 1), 0, 9, make([]byte, 2)); !errors.Is(err, ErrShortBuffer) {
		t.Errorf("short destination: %v", err)
	}
}
