package pageindex

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/quiverio/quiver/internal/corpus"
)

func TestBloomBytes(t *testing.T) {
	cases := []struct {
		ndv  int64
		fpp  float64
		want int
	}{
		{0, 0.01, MinBloomBytes},
		{1, 0.5, MinBloomBytes},
		{1000, 0.01, 2048},         // ~10.5 bits per value: 1313 bytes, rounded up
		{1_000_000, 0.01, 2 << 20}, // 1.31 MB
		{1_000_000, 0.001, 2 << 20},
		{1 << 40, 0.01, MaxBloomBytes},
		{1000, -1, 2048}, // a bad fpp counts as 0.01
	}
	for _, c := range cases {
		if got := BloomBytes(c.ndv, c.fpp); got != c.want {
			t.Errorf("BloomBytes(%d, %g) = %d, want %d", c.ndv, c.fpp, got, c.want)
		}
	}
	for _, n := range []int{0, 1, 32, 33, 1000, 1 << 30} {
		b := NewBloom(n)
		if s := b.NumBytes(); s&(s-1) != 0 || s < MinBloomBytes || s > MaxBloomBytes || s < min(n, MaxBloomBytes) {
			t.Errorf("NewBloom(%d) has %d bytes", n, s)
		}
	}
}

// TestBloomFPR inserts random values into a filter sized for them and
// checks that absent values pass at most 1.5 times the requested rate.
func TestBloomFPR(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	for _, fpp := range []float64{0.01, 0.05, 0.001} {
		rng := rand.New(rand.NewPCG(1, uint64(fpp*1e6)))
		b := NewBloom(BloomBytes(int64(n), fpp))
		for range n {
			b.Insert(HashInt64(int64(rng.Uint64() >> 1))) // non-negative
		}
		false := 0
		for range n {
			if b.Check(HashInt64(-1 - int64(rng.Uint64()>>1))) { // negative: never inserted
				false++
			}
		}
		rate := float64(false) / float64(n)
		t.Logf("fpp %g: %d bytes, measured %.5f", fpp, b.NumBytes(), rate)
		if rate > 1.5*fpp {
			t.Errorf("fpp %g: measured false-positive rate %.5f", fpp, rate)
		}
	}
}

func TestBloomInsertCheck(t *testing.T) {
	b := NewBloom(1024)
	for i := range int32(1000) {
		b.Insert(HashInt32(i))
	}
	for i := range int32(1000) {
		if !b.Check(HashInt32(i)) {
			t.Fatalf("inserted %d is not found", i)
		}
	}
	enc := b.Append([]byte("xx"))
	got, n, err := ParseBloom(enc[2:])
	if err != nil || n != len(enc)-2 || !bytes.Equal(got.Append(nil), enc[2:]) {
		t.Fatalf("ParseBloom(Append) = %v, %d, %v", got, n, err)
	}
}

func TestReadBloom(t *testing.T) {
	b := NewBloom(64)
	b.Insert(HashBytes([]byte("x")))
	enc := append(append([]byte("PAR1"), b.Append(nil)...), "footer"...)
	r := bytes.NewReader(enc)
	limit := int64(len(enc) - len("footer"))
	for _, length := range []int32{0, int32(limit - 4)} {
		got, err := ReadBloom(r, 4, length, limit)
		if err != nil || !got.Check(HashBytes([]byte("x"))) {
			t.Errorf("length %d: %v", length, err)
		}
	}
	bad := []struct {
		off    int64
		length int32
	}{{-1, 0}, {limit, 0}, {4, int32(limit)}, {5, 0}, {4, 10}}
	for _, c := range bad {
		if _, err := ReadBloom(r, c.off, c.length, limit); !errors.Is(err, ErrCorrupt) {
			t.Errorf("ReadBloom(%d, %d) = %v, want ErrCorrupt", c.off, c.length, err)
		}
	}
}

// TestBloomCorpusFiles reads the two raw filters of parquet-testing: the
// current layout holds the four strings its README lists, and the legacy
// Murmur3 layout is refused as unsupported.
func TestBloomCorpusFiles(t *testing.T) {
	dir := filepath.Join(corpus.Dir(t), "data")
	src, err := os.ReadFile(filepath.Join(dir, "bloom_filter.xxhash.bin"))
	if err != nil {
		t.Fatal(err)
	}
	b, n, err := ParseBloom(src)
	if err != nil || n != len(src) {
		t.Fatalf("ParseBloom: %d of %d bytes, %v", n, len(src), err)
	}
	for _, s := range []string{"hello", "parquet", "bloom", "filter"} {
		if !b.Check(HashBytes([]byte(s))) {
			t.Errorf("%q is not in the filter", s)
		}
	}
	absent := 0
	for _, s := range []string{"Hello", "arrow", "quiver", "x", "parquet2", "blooms"} {
		if !b.Check(HashBytes([]byte(s))) {
			absent++
		}
	}
	if absent < 5 {
		t.Errorf("only %d of 6 strings never inserted are absent", absent)
	}
	legacy, err := os.ReadFile(filepath.Join(dir, "bloom_filter.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ParseBloom(legacy); !errors.Is(err, ErrUnsupported) {
		t.Errorf("legacy filter: %v, want ErrUnsupported", err)
	}
}

func BenchmarkBloomCheck(b *testing.B) {
	f := NewBloom(1 << 20)
	hs := make([]uint64, 4096)
	for i := range hs {
		hs[i] = HashInt64(int64(i))
	}
	f.InsertHashes(hs[:2048])
	b.SetBytes(int64(8 * len(hs)))
	b.ReportAllocs()
	for b.Loop() {
		for _, h := range hs {
			if f.Check(h) {
				sinkBool = !sinkBool
			}
		}
	}
}

var sinkBool bool

// BenchmarkBloomInsertHashes times the writer's path: a chunk's hashes
// inserted in one call, into a filter in L1 (1 KiB) and ones of 1 and
// 16 MiB.
func BenchmarkBloomInsertHashes(b *testing.B) {
	hs := make([]uint64, 4096)
	for i := range hs {
		hs[i] = HashInt64(int64(i))
	}
	for _, size := range []int{1 << 10, 1 << 20, 16 << 20} {
		b.Run(fmt.Sprintf("size=%d", size), func(b *testing.B) {
			f := NewBloom(size)
			b.SetBytes(int64(8 * len(hs)))
			b.ReportAllocs()
			for b.Loop() {
				f.InsertHashes(hs)
			}
		})
	}
}

// BenchmarkAnyInBloom times the pruning check of = and IN: n literals, none
// of them in a 1 MiB filter holding 4096 other values, so every one is
// checked.
func BenchmarkAnyInBloom(b *testing.B) {
	f := NewBloom(1 << 20)
	for i := range 4096 {
		f.Insert(HashInt64(int64(i)))
	}
	for _, n := range []int{1, 4, 16, 64, 1000} {
		hs := make([]uint64, n)
		for i := range hs {
			hs[i] = HashInt64(int64(1<<40 + i))
		}
		if anyInBloom(f, hs) {
			b.Fatal("a literal may be in the filter; pick others")
		}
		b.Run(fmt.Sprintf("literals=%d", n), func(b *testing.B) {
			b.SetBytes(int64(8 * n))
			b.ReportAllocs()
			for b.Loop() {
				sinkBool = anyInBloom(f, hs)
			}
		})
	}
}
