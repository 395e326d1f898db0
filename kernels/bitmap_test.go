package kernels

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBitmapHelpers checks FillBits, CopyBits and CountSetBits against bit
// loops at every offset 0-17 and lengths across byte and word boundaries,
// with the bits around the range left untouched.
func TestBitmapHelpers(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	const size = 48
	rnd := func() []byte {
		b := make([]byte, size)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	lengths := []int{0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 56, 63, 64, 65, 100, 127, 128, 129, 200, 250}
	for dOff := range 18 {
		for _, n := range lengths {
			for _, v := range []bool{false, true} {
				dst := rnd()
				want := slices.Clone(dst)
				for i := dOff; i < dOff+n; i++ {
					setBit(want, uint(i), v)
				}
				if err := FillBits(dst, dOff, n, v); err != nil || !slices.Equal(dst, want) {
					t.Fatalf("FillBits(%d, %d, %v) = %x, %v; want %x", dOff, n, v, dst, err, want)
				}
			}
			for sOff := range 18 {
				src, dst := rnd(), rnd()
				want := slices.Clone(dst)
				for i := range n {
					setBit(want, uint(dOff+i), bitmapRef(src, sOff+i))
				}
				// The source is cut right after the copied bits, so any
				// read past them would fail.
				srcCut := src[:(sOff+n+7)/8]
				if err := CopyBits(dst, dOff, srcCut, sOff, n); err != nil || !slices.Equal(dst, want) {
					t.Fatalf("CopyBits(%d, %d, %d) = %x, %v; want %x", dOff, sOff, n, dst, err, want)
				}
			}
			src := rnd()
			want := 0
			for i := dOff; i < dOff+n; i++ {
				if bitmapRef(src, i) {
					want++
				}
			}
			if got, err := CountSetBits(src[:(dOff+n+7)/8], dOff, n); got != want || err != nil {
				t.Fatalf("CountSetBits(%d, %d) = %d, %v; want %d", dOff, n, got, err, want)
			}
		}
	}
	for name, err := range map[string]error{
		"fill":      FillBits(make([]byte, 2), 9, 8, true),
		"fill neg":  FillBits(make([]byte, 2), -1, 1, true),
		"copy dst":  CopyBits(make([]byte, 1), 1, make([]byte, 2), 0, 8),
		"copy src":  CopyBits(make([]byte, 2), 0, make([]byte, 1), 1, 8),
		"count":     func() error { _, err := CountSetBits(make([]byte, 1), 0, 9); return err }(),
		"count neg": func() error { _, err := CountSetBits(make([]byte, 1), 0, -1); return err }(),
		"levels":    func() error { _, err := LevelsToBitmap(make([]byte, 1), 1, make([]int16, 8), 1); return err }(),
		"levels8":   func() error { _, err := LevelsToBitmapUint8(make([]byte, 1), 2, make([]uint8, 7), 1); return err }(),
		"bitmap dec": func() error {
			var d RLEDecoder
			d.Reset([]byte{16, 1}, 1)
			_, err := d.DecodeBitmap(nil, 0, 1)
			return err
		}(),
	} {
		if !errors.Is(err, ErrShortBuffer) {
			t.Errorf("%s: %v, want ErrShortBuffer", name, err)
		}
	}
}

// testLevelsToBitmap checks one levels-to-bitmap implementation against a
// bit loop at several offsets and thresholds.
func testLevelsToBitmap[T levelType](t *testing.T, fn func([]byte, uint, []T, T) int) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, n := range bpLengths() {
		levels := make([]T, n)
		for i := range levels {
			levels[i] = T(r.IntN(4))
		}
		for _, off := range []int{0, 1, 7, 8, 13} {
			for _, th := range []T{0, 1, 3, 4} {
				dst := make([]byte, (off+n)/8+2)
				for i := range dst {
					dst[i] = byte(r.Uint32())
				}
				want := slices.Clone(dst)
				nulls := 0
				for i, l := range levels {
					setBit(want, uint(off+i), l >= th)
					if l < th {
						nulls++
					}
				}
				if got := fn(dst, uint(off), levels, th); got != nulls || !slices.Equal(dst, want) {
					t.Fatalf("n %d off %d threshold %d: %d nulls, bitmap %x; want %d, %x", n, off, th, got, dst, nulls, want)
				}
			}
		}
	}
}

// TestClearBitsFrom checks ClearBitsFrom against a bit loop at every
// start from before the bitmap to past its end.
func TestClearBitsFrom(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for size := range 4 {
		for n := -1; n <= 8*size+9; n++ {
			dst := make([]byte, size)
			for i := range dst {
				dst[i] = byte(r.Uint32())
			}
			want := slices.Clone(dst)
			for i := max(n, 0); i < 8*size; i++ {
				setBit(want, uint(i), false)
			}
			if ClearBitsFrom(dst, n); !slices.Equal(dst, want) {
				t.Fatalf("ClearBitsFrom(%d bytes, %d) = %x, want %x", size, n, dst, want)
			}
		}
	}
}

func TestLevelsToBitmap(t *testing.T) {
	for _, im := range levelsToBitmap16Impls {
		t.Run("int16/"+im.name, func(t *testing.T) { testLevelsToBitmap(t, im.fn) })
	}
	for _, im := range levelsToBitmap8Impls {
		t.Run("uint8/"+im.name, func(t *testing.T) { testLevelsToBitmap(t, im.fn) })
	}
	bm := make([]byte, 2)
	if n, err := LevelsToBitmap(bm, 3, []int16{2, 1, 0, 2, 2}, 2); n != 2 || err != nil || bm[0] != 0b11001000 {
		t.Errorf("LevelsToBitmap = %d, %v, %08b", n, err, bm[0])
	}
	if n, err := LevelsToBitmapUint8(bm, 0, []uint8{1, 0}, 1); n != 1 || err != nil || bm[0]&3 != 1 {
		t.Errorf("LevelsToBitmapUint8 = %d, %v, %08b", n, err, bm[0])
	}
	levels, dst := make([]int16, 4096), make([]byte, 513)
	if a := testing.AllocsPerRun(10, func() { LevelsToBitmap(dst, 5, levels, 1) }); a != 0 {
		t.Errorf("LevelsToBitmap allocates %v times", a)
	}
}

func BenchmarkLevelsToBitmap(b *testing.B) {
	levels := make([]int16, 64*1024)
	for i := range levels {
		levels[i] = int16(i * 7 % 3)
	}
	dst := make([]byte, len(levels)/8+1)
	b.SetBytes(int64(len(dst)))
	b.ReportAllocs()
	for b.Loop() {
		LevelsToBitmap(dst, 0, levels, 2)
	}
	b.ReportMetric(float64(b.N*len(levels))/b.Elapsed().Seconds(), "values/s")
}
