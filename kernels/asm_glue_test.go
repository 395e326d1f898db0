//go:build (amd64 || arm64) && !purego

package kernels

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"

	"golang.org/x/sys/cpu"
)

// The tests of each kernel run every entry of its impls slice; these check
// what the glue adds (no allocation, in particular the unpack wrappers'
// stack pad) and time the implementations side by side.

func TestDispatchAllocs(t *testing.T) {
	src := make([]byte, 8*1000)
	u32, u64 := make([]uint32, 1000), make([]uint64, 1000)
	for _, im := range unpack32Impls {
		for _, w := range []uint{1, 7, 13, 27, 32} {
			need := (len(u32)*int(w) + 7) / 8
			if a := testing.AllocsPerRun(10, func() { im.fn(u32, src[:need], w) }); a != 0 {
				t.Errorf("unpack32 %s width %d: %v allocations", im.name, w, a)
			}
		}
	}
	for _, im := range unpack64Impls {
		for _, w := range []uint{1, 13, 33, 63, 64} {
			need := (len(u64)*int(w) + 7) / 8
			if a := testing.AllocsPerRun(10, func() { im.fn(u64, src[:need], w) }); a != 0 {
				t.Errorf("unpack64 %s width %d: %v allocations", im.name, w, a)
			}
		}
	}
	b := make([]byte, 8*1000)
	for _, impls := range [][]impl[bssFunc]{bssDecode2Impls, bssDecode4Impls, bssDecode8Impls, bssEncode2Impls, bssEncode4Impls, bssEncode8Impls} {
		for _, im := range impls {
			if a := testing.AllocsPerRun(10, func() { im.fn(b, src[:len(b)]) }); a != 0 {
				t.Errorf("bss %s: %v allocations", im.name, a)
			}
		}
	}
	for _, im := range deltaPrefixSum32Impls {
		if a := testing.AllocsPerRun(10, func() { im.fn(u32, 1, 2) }); a != 0 {
			t.Errorf("prefix32 %s: %v allocations", im.name, a)
		}
	}
	for _, im := range deltaPrefixSum64Impls {
		if a := testing.AllocsPerRun(10, func() { im.fn(u64, 1, 2) }); a != 0 {
			t.Errorf("prefix64 %s: %v allocations", im.name, a)
		}
	}
	l16, l8 := make([]int16, 1000), make([]uint8, 1000)
	for _, im := range levelsToBitmap16Impls {
		if a := testing.AllocsPerRun(10, func() { im.fn(b, 3, l16, 1) }); a != 0 {
			t.Errorf("levels16 %s: %v allocations", im.name, a)
		}
	}
	for _, im := range levelsToBitmap8Impls {
		if a := testing.AllocsPerRun(10, func() { im.fn(b, 3, l8, 1) }); a != 0 {
			t.Errorf("levels8 %s: %v allocations", im.name, a)
		}
	}
	idx := make([]uint32, 1000)
	for _, im := range gather32Impls {
		if a := testing.AllocsPerRun(10, func() { im.fn(u32, u32, idx) }); a != 0 {
			t.Errorf("gather32 %s: %v allocations", im.name, a)
		}
	}
	for _, im := range gather64Impls {
		if a := testing.AllocsPerRun(10, func() { im.fn(u64, u64, idx) }); a != 0 {
			t.Errorf("gather64 %s: %v allocations", im.name, a)
		}
	}
}

// simdExpected reports whether this CPU (as GODEBUG leaves it) has the
// features the assembly kernels of this architecture need; popcnt adds
// POPCNT on amd64.
func simdExpected(popcnt bool) bool {
	if runtime.GOARCH == "arm64" {
		return cpu.ARM64.HasASIMD
	}
	return cpu.X86.HasAVX && cpu.X86.HasAVX2 && (cpu.X86.HasPOPCNT || !popcnt)
}

// checkChoice fails unless the dispatch variable v runs the last listed
// implementation, and unless an assembly one is listed exactly when the CPU
// has the features for it (want), so GODEBUG=cpu.avx2=off must leave "go".
func checkChoice[F any](t *testing.T, name string, v F, impls []impl[F], want bool) {
	t.Helper()
	last := impls[len(impls)-1]
	if reflect.ValueOf(v).Pointer() != reflect.ValueOf(last.fn).Pointer() {
		t.Errorf("%s: dispatch does not run %s, the last listed implementation", name, last.name)
	}
	if got := len(impls) > 1; got != want {
		t.Errorf("%s: assembly implementation listed: %v, CPU has its features: %v", name, got, want)
	}
}

func TestDispatchChoice(t *testing.T) {
	simd, simdPopcnt := simdExpected(false), simdExpected(true)
	checkChoice(t, "unpack32", unpack32, unpack32Impls, simd)
	checkChoice(t, "unpack64", unpack64, unpack64Impls, simd)
	checkChoice(t, "bssDecode8", bssDecode8, bssDecode8Impls, simd)
	checkChoice(t, "bssEncode2", bssEncode2, bssEncode2Impls, simd)
	checkChoice(t, "deltaPrefixSum32", deltaPrefixSum32, deltaPrefixSum32Impls, simd)
	checkChoice(t, "deltaPrefixSum64", deltaPrefixSum64, deltaPrefixSum64Impls, simd)
	checkChoice(t, "levelsToBitmap16", levelsToBitmap16, levelsToBitmap16Impls, simdPopcnt)
	checkChoice(t, "levelsToBitmap8", levelsToBitmap8, levelsToBitmap8Impls, simdPopcnt)
	checkChoice(t, "countAtLeast16", countAtLeast16, countAtLeast16Impls, simdPopcnt)
	checkChoice(t, "minMaxNaN32", minMaxNaN32, minMaxNaN32Impls, simd)
	checkChoice(t, "minMaxNaN64", minMaxNaN64, minMaxNaN64Impls, simd)
	if bloomSIMD != simd || (len(bloomInsertImpls) > 1) != simd {
		t.Errorf("bloom: block insert in use: %v, implementations listed: %d, CPU has its features: %v",
			bloomSIMD, len(bloomInsertImpls), simd)
	}
	if runtime.GOARCH == "amd64" {
		checkChoice(t, "gather32", gather32, gather32Impls, simd)
		checkChoice(t, "gather64", gather64, gather64Impls, simd)
	}
}

// reportValues sets the output bytes and reports values/s once the loop ends.
func reportValues(b *testing.B, values, size int, loop func()) {
	b.SetBytes(int64(values * size))
	b.ReportAllocs()
	for b.Loop() {
		loop()
	}
	b.ReportMetric(float64(b.N)*float64(values)/b.Elapsed().Seconds(), "values/s")
}

// BenchmarkUnpack32Short times 32-value calls on exactly their bytes, the
// shape of DELTA_BINARY_PACKED miniblocks and short RLE bit-packed runs,
// where the assembly's end-of-input handling matters most.
func BenchmarkUnpack32Short(b *testing.B) {
	for _, w := range []uint{1, 4, 8, 10, 13, 17, 24, 31} {
		src := make([]byte, 128*int(w)/8*32)
		for i := range src {
			src[i] = byte(i * 7)
		}
		for _, im := range unpack32Impls {
			b.Run(fmt.Sprintf("width=%d/impl=%s", w, im.name), func(b *testing.B) {
				dst := make([]uint32, 32)
				step := 4 * int(w)
				reportValues(b, 128*32, 4, func() {
					for off := 0; off+step <= len(src); off += step {
						im.fn(dst, src[off:off+step], w)
					}
				})
			})
		}
	}
}

// BenchmarkBSSImpls times each byte-stream-split implementation on 4000
// values (a stream stride that is not a multiple of the page size).
func BenchmarkBSSImpls(b *testing.B) {
	const n = 4000
	for _, c := range []struct {
		op    string
		width int
		impls []impl[bssFunc]
	}{
		{"decode", 2, bssDecode2Impls}, {"decode", 4, bssDecode4Impls}, {"decode", 8, bssDecode8Impls},
		{"encode", 2, bssEncode2Impls}, {"encode", 4, bssEncode4Impls}, {"encode", 8, bssEncode8Impls},
	} {
		for _, im := range c.impls {
			b.Run(fmt.Sprintf("op=%s/width=%d/impl=%s", c.op, c.width, im.name), func(b *testing.B) {
				src, dst := make([]byte, n*c.width), make([]byte, n*c.width)
				reportValues(b, n, c.width, func() { im.fn(dst, src) })
			})
		}
	}
}

// BenchmarkDeltaPrefixSumImpls times each prefix sum over 4096 values.
func BenchmarkDeltaPrefixSumImpls(b *testing.B) {
	v32, v64 := make([]uint32, 4096), make([]uint64, 4096)
	for _, im := range deltaPrefixSum32Impls {
		b.Run("bits=32/impl="+im.name, func(b *testing.B) { reportValues(b, len(v32), 4, func() { im.fn(v32, 1, 2) }) })
	}
	for _, im := range deltaPrefixSum64Impls {
		b.Run("bits=64/impl="+im.name, func(b *testing.B) { reportValues(b, len(v64), 8, func() { im.fn(v64, 1, 2) }) })
	}
}

// BenchmarkGatherImpls times each gather of 4096 random indices into a
// dictionary of 1000 values.
func BenchmarkGatherImpls(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	idx := make([]uint32, 4096)
	for i := range idx {
		idx[i] = uint32(r.IntN(1000))
	}
	d32, o32 := make([]uint32, 1000), make([]uint32, len(idx))
	d64, o64 := make([]uint64, 1000), make([]uint64, len(idx))
	for _, im := range gather32Impls {
		b.Run("bits=32/impl="+im.name, func(b *testing.B) { reportValues(b, len(idx), 4, func() { im.fn(o32, d32, idx) }) })
	}
	for _, im := range gather64Impls {
		b.Run("bits=64/impl="+im.name, func(b *testing.B) { reportValues(b, len(idx), 8, func() { im.fn(o64, d64, idx) }) })
	}
}

// BenchmarkLevelsToBitmapImpls times each levels-to-bitmap implementation
// over 4096 levels (a third null) written at bit offset 3.
func BenchmarkLevelsToBitmapImpls(b *testing.B) {
	l16, l8, dst := make([]int16, 4096), make([]uint8, 4096), make([]byte, 513)
	for i := range l16 {
		l16[i], l8[i] = int16(i%3), uint8(i%3)
	}
	for _, im := range levelsToBitmap16Impls {
		b.Run("type=int16/impl="+im.name, func(b *testing.B) { reportValues(b, len(l16), 2, func() { im.fn(dst, 3, l16, 1) }) })
	}
	for _, im := range levelsToBitmap8Impls {
		b.Run("type=uint8/impl="+im.name, func(b *testing.B) { reportValues(b, len(l8), 1, func() { im.fn(dst, 3, l8, 1) }) })
	}
}
