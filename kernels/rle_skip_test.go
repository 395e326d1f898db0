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
// words matters), at odd lengths: as int16 levels, which skip, and as
// uint32 values, which do not, the bytes are the same; and a level too
// wide for the width, wherever it is, fails at the same index.
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
		want, err := AppendRLE(nil, u32, width)
		if err != nil {
			t.Fatal(err)
		}
		got, err := AppendRLE(nil, lv, width)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("case %d (width %d, %d levels): levels encode differently from values (%v)", c, width, n, err)
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

// BenchmarkAppendRLELevels encodes the repetition levels of lists of 0
// to 8 elements (runs of ones between single zeros) as int16 levels,
// which skip whole words, and as uint32 values, which walk every run.
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
	dst := make([]byte, 0, MaxRLEEncodedLen(len(lv), 1))
	b.Run("impl=levels", func(b *testing.B) {
		b.SetBytes(int64(2 * len(lv)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := AppendRLE(dst[:0], lv, 1); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=values", func(b *testing.B) {
		b.SetBytes(int64(2 * len(lv)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := AppendRLE(dst[:0], u32, 1); err != nil {
				b.Fatal(err)
			}
		}
	})
}
