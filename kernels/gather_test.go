package kernels

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func testIndices(r *rand.Rand, n, dictLen int) []uint32 {
	idx := make([]uint32, n)
	for i := range idx {
		idx[i] = uint32(r.IntN(dictLen))
	}
	return idx
}

func TestGatherImpls(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 72))
	dict32 := make([]uint32, 300)
	dict64 := make([]uint64, 300)
	for i := range dict32 {
		dict32[i], dict64[i] = r.Uint32(), r.Uint64()
	}
	for _, im := range gather32Impls {
		t.Run("32/"+im.name, func(t *testing.T) {
			for _, n := range testLengths(t) {
				idx := testIndices(r, n, len(dict32))
				dst := make([]uint32, n+1)
				dst[n] = 0xfefefefe
				if k := im.fn(dst[:n], dict32, idx); k != n {
					t.Fatalf("n=%d: gathered %d", n, k)
				}
				for i, ix := range idx {
					if dst[i] != dict32[ix] {
						t.Fatalf("n=%d: value %d differs", n, i)
					}
				}
				if dst[n] != 0xfefefefe {
					t.Fatalf("n=%d: wrote past dst", n)
				}
				if n > 0 {
					bad := r.IntN(n)
					idx[bad] = uint32(len(dict32)) + uint32(r.IntN(1000))
					if k := im.fn(dst[:n], dict32, idx); k > bad {
						t.Fatalf("n=%d: bad index at %d, gathered %d", n, bad, k)
					}
				}
			}
		})
	}
	for _, im := range gather64Impls {
		t.Run("64/"+im.name, func(t *testing.T) {
			for _, n := range testLengths(t) {
				idx := testIndices(r, n, len(dict64))
				dst := make([]uint64, n)
				if k := im.fn(dst, dict64, idx); k != n {
					t.Fatalf("n=%d: gathered %d", n, k)
				}
				for i, ix := range idx {
					if dst[i] != dict64[ix] {
						t.Fatalf("n=%d: value %d differs", n, i)
					}
				}
				if n > 0 {
					bad := r.IntN(n)
					idx[bad] = 1 << 31
					if k := im.fn(dst, dict64, idx); k > bad {
						t.Fatalf("n=%d: bad index at %d, gathered %d", n, bad, k)
					}
				}
			}
		})
	}
}

func testGatherOf[T any](t *testing.T, r *rand.Rand, mk func() T) {
	dict := make([]T, 50)
	for i := range dict {
		dict[i] = mk()
	}
	for _, n := range []int{0, 1, 7, 64, 333} {
		idx := testIndices(r, n, len(dict))
		dst := make([]T, n)
		if err := Gather(dst, dict, idx); err != nil {
			t.Fatal(err)
		}
		for i, ix := range idx {
			if fmt.Sprint(dst[i]) != fmt.Sprint(dict[ix]) {
				t.Fatalf("%T n=%d: value %d differs", dst[i], n, i)
			}
		}
	}
	err := Gather(make([]T, 3), dict, []uint32{1, 2, 50})
	if !errors.Is(err, ErrOutOfRange) || !strings.Contains(err.Error(), "index 50 at position 2") {
		t.Fatalf("%T: bad index: %v", dict[0], err)
	}
	if err := Gather(make([]T, 2), dict, []uint32{1, 2, 3}); !errors.Is(err, ErrShortBuffer) {
		t.Fatalf("%T: short dst: %v", dict[0], err)
	}
}

func TestGather(t *testing.T) {
	r := rand.New(rand.NewPCG(73, 74))
	testGatherOf(t, r, func() uint8 { return uint8(r.Uint32()) })
	testGatherOf(t, r, func() int16 { return int16(r.Uint32()) })
	testGatherOf(t, r, func() float32 { return r.Float32() })
	testGatherOf(t, r, func() [4]byte { return [4]byte(randBytes(r, 4)) })
	testGatherOf(t, r, func() int64 { return r.Int64() })
	testGatherOf(t, r, func() [12]byte { return [12]byte(randBytes(r, 12)) })
	testGatherOf(t, r, func() [16]byte { return [16]byte(randBytes(r, 16)) })
}

func TestGatherFixed(t *testing.T) {
	r := rand.New(rand.NewPCG(75, 76))
	for i := range 16 {
		// Widths 4 and 8 take word gathers on aligned buffers and byte
		// arrays on others: shift both buffers off alignment every other
		// time.
		width := []int{1, 2, 3, 4, 8, 12, 16, 17}[i/2]
		shift := i % 2
		dict := randBytes(r, 40*width+shift)[shift:]
		idx := testIndices(r, 100, 40)
		dst := make([]byte, 100*width+shift)[shift:]
		if err := GatherFixed(dst, dict, width, idx); err != nil {
			t.Fatal(err)
		}
		for i, ix := range idx {
			if !bytes.Equal(dst[i*width:(i+1)*width], dict[int(ix)*width:(int(ix)+1)*width]) {
				t.Fatalf("width=%d: value %d differs", width, i)
			}
		}
		if err := GatherFixed(dst, dict, width, []uint32{0, 40}); !errors.Is(err, ErrOutOfRange) {
			t.Fatalf("width=%d: bad index: %v", width, err)
		}
		if err := GatherFixed(dst[:width], dict, width, []uint32{0, 1}); !errors.Is(err, ErrShortBuffer) {
			t.Fatalf("width=%d: short dst: %v", width, err)
		}
	}
	if err := GatherFixed(make([]byte, 8), make([]byte, 7), 4, nil); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("ragged dictionary: %v", err)
	}
	if err := GatherFixed(make([]byte, 8), make([]byte, 8), 0, nil); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("zero width: %v", err)
	}
}

func TestGatherAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(79, 80))
	dict := make([]float64, 100)
	idx := testIndices(r, 1000, 100)
	dst := make([]float64, 1000)
	dictVals := testStrings(r, 100, 0)
	bd := testByteArrayDict(t, dictVals)
	offsets := make([]int64, 1001)
	data := make([]byte, 20000)
	if a := testing.AllocsPerRun(20, func() {
		_ = Gather(dst, dict, idx)
		_, _ = GatherByteArraySize(&bd, idx)
		_, _ = GatherByteArray(offsets, data, &bd, idx)
	}); a != 0 {
		t.Fatalf("%v allocations per run", a)
	}
}

func benchGather[T any](b *testing.B, width int) {
	const n = 4096
	idx := testIndices(rand.New(rand.NewPCG(81, 82)), n, 1000)
	dict := make([]T, 1000)
	dst := make([]T, n)
	b.Run(fmt.Sprintf("width=%d", width), func(b *testing.B) {
		b.SetBytes(int64(n * width))
		b.ReportAllocs()
		for b.Loop() {
			if err := Gather(dst, dict, idx); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "values/s")
	})
}

func BenchmarkGather(b *testing.B) {
	benchGather[uint8](b, 1)
	benchGather[uint16](b, 2)
	benchGather[uint32](b, 4)
	benchGather[uint64](b, 8)
	benchGather[[12]byte](b, 12)
	benchGather[[16]byte](b, 16)
}

func TestSequential(t *testing.T) {
	for n := range 40 {
		for _, base := range []uint32{0, 7, math.MaxUint32 - uint32(n), math.MaxUint32 - uint32(n) + 1} {
			idx := make([]uint32, n)
			for i := range idx {
				idx[i] = base + uint32(i)
			}
			// Runs that would wrap past the largest uint32 are not runs.
			want := n == 0 || uint64(base)+uint64(n)-1 <= math.MaxUint32
			if got := Sequential(idx); got != want {
				t.Fatalf("n=%d base=%d: Sequential = %v, want %v", n, base, got, want)
			}
			if !want {
				continue
			}
			for j := range n {
				for _, bad := range []uint32{idx[j] + 1, idx[j] - 1, 0} {
					if bad == idx[j] {
						continue
					}
					old := idx[j]
					idx[j] = bad
					if Sequential(idx) && (n > 1) {
						t.Fatalf("n=%d base=%d: index %d changed to %d still sequential", n, base, j, bad)
					}
					idx[j] = old
				}
			}
		}
	}
}
