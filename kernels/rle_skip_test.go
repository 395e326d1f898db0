package kernels

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestAppendRLELevelSkip encodes level streams whose runs are mostly
// shorter than eight, with runs of 7 to 20 between (where skipping
// quads matters), at odd lengths: as int16 levels and as uint32 values,
// both of which skip, the bytes are those of encoding the values without
// skipping; and a level too wide for the width, wherever it is, fails at
// the same index.
func TestAppendRLELevelSkip(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	cases := 400
	if testing.Short() {
		cases = 80
	}
	for c := range cases {
		width := uint(1 + c%4)
		n := r.IntN(300)
		lv := make([]int16, 0, n+20)
		for len(lv) < n {
			run := 1 + r.IntN(4)
			if r.IntN(6) == 0 {
				run = 7 + r.IntN(14)
			}
			v := int16(r.IntN(1 << width))
			for range run {
				lv = append(lv, v)
			}
		}
		lv = lv[:n]
		u32 := make([]uint32, n)
		for i, v := range lv {
			u32[i] = uint32(v)
		}
		want, err := appendRLE(nil, u32, width, false)
		if err != nil {
			t.Fatal(err)
		}
		got, err := AppendRLE(nil, lv, width)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("case %d (width %d, %d levels): levels encode differently from values (%v)", c, width, n, err)
		}
		got, err = AppendRLE(nil, u32, width)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("case %d (width %d, %d values): values encode differently skipping (%v)", c, width, n, err)
		}
		if n == 0 {
			continue
		}
		at := r.IntN(n)
		bad := []int16{-1, int16(1 << width)}[c%2]
		lv[at], u32[at] = bad, uint32(1<<width)
		_, err16 := AppendRLE(nil, lv, width)
		_, err32 := AppendRLE(nil, u32, width)
		if err16 == nil || err32 == nil {
			t.Fatalf("case %d: level %d at %d of width %d: errors %v, %v", c, bad, at, width, err16, err32)
		}
		if where := fmt.Sprintf(" at %d ", at); !strings.Contains(err16.Error(), where) || !strings.Contains(err32.Error(), where) {
			t.Fatalf("case %d: errors %q and %q, want both%q", c, err16, err32, where)
		}
	}
}

// TestAppendRLEValueSkip encodes uint32 values of every width from 1 to
// 32, as dictionary indices come: runs mostly shorter than eight, runs
// of 7 to 20 between, at odd lengths; skipping gives the bytes of not
// skipping, and a value too wide fails at its index either way.
func TestAppendRLEValueSkip(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 11))
	for c := range 640 {
		width := uint(1 + c%32)
		n := r.IntN(200)
		vals := make([]uint32, 0, n+20)
		for len(vals) < n {
			run := 1 + r.IntN(3)
			if r.IntN(5) == 0 {
				run = 7 + r.IntN(14)
			}
			v := uint32(r.Uint64() & (1<<width - 1))
			for range run {
				vals = append(vals, v)
			}
		}
		vals = vals[:n]
		want, err := appendRLE(nil, vals, width, false)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := AppendRLE(nil, vals, width); err != nil || !slices.Equal(got, want) {
			t.Fatalf("case %d (width %d, %d values): skipping encodes differently (%v)", c, width, n, err)
		}
		if n == 0 || width == 32 {
			continue
		}
		at := r.IntN(n)
		vals[at] = 1 << width
		_, err = AppendRLE(nil, vals, width)
		if where := fmt.Sprintf(" at %d ", at); err == nil || !strings.Contains(err.Error(), where) {
			t.Fatalf("case %d: value %d at %d of width %d: error %v", c, vals[at], at, width, err)
		}
	}
}

// BenchmarkAppendRLELevels encodes the repetition levels of lists of 0
// to 8 elements (runs of ones between single zeros) as int16 levels and
// as uint32 values, which skip whole quads, and as values walking every
// run.
func BenchmarkAppendRLELevels(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	lv := make([]int16, 0, 64*1024+8)
	for len(lv) < 64*1024 {
		lv = append(lv, 0)
		for range r.IntN(8) {
			lv = append(lv, 1)
		}
	}
	u32 := make([]uint32, len(lv))
	for i, v := range lv {
		u32[i] = uint32(v)
	}
	benchAppendRLE(b, lv, u32, 1)
}

// BenchmarkAppendRLEIndices encodes the dictionary indices of a page of
// 20,000 values drawn from 3,000 (runs of one, bar chance), as a column
// of prices or distances has them.
func BenchmarkAppendRLEIndices(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	u32 := make([]uint32, 20000)
	for i := range u32 {
		u32[i] = uint32(r.IntN(3000))
	}
	benchAppendRLE(b, nil, u32, 12)
}

// benchAppendRLE times AppendRLE on lv (when not nil) and u32, and the
// walk of u32 without skipping.
func benchAppendRLE(b *testing.B, lv []int16, u32 []uint32, width uint) {
	dst := make([]byte, 0, MaxRLEEncodedLen(len(u32), width))
	run := func(name string, enc func() ([]byte, error)) {
		b.Run("impl="+name, func(b *testing.B) {
			b.SetBytes(int64(len(u32)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := enc(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*len(u32))/b.Elapsed().Seconds(), "values/s")
		})
	}
	if lv != nil {
		run("levels", func() ([]byte, error) { return AppendRLE(dst[:0], lv, width) })
	}
	run("values", func() ([]byte, error) { return AppendRLE(dst[:0], u32, width) })
	run("noskip", func() ([]byte, error) { return appendRLE(dst[:0], u32, width, false) })
}
