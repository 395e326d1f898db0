package arrowio_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/internal/corpus"
)

// FuzzReadFile reads arbitrary bytes as a whole Parquet file: seeds are the
// shipped fixture and small corpus files, with truncated and bit-flipped
// variants. Reading must return rows or an error, never panic, and free
// every buffer it allocated; the ways of reading (readEveryWay) must agree.
func FuzzReadFile(f *testing.F) {
	var seeds [][]byte
	if b, err := os.ReadFile(tripsFixture); err == nil {
		seeds = append(seeds, b)
	}
	if root, err := corpus.Lookup(); err == nil {
		files, err := corpus.List(root)
		if err != nil {
			f.Fatal(err)
		}
		// A few small files of varied shapes: each seed costs the fuzzer
		// a baseline run, and the short CI burst should reach mutations.
		for _, rel := range files {
			if b, err := os.ReadFile(filepath.Join(root, rel)); err == nil && len(b) < 4<<10 && len(seeds) < 16 {
				seeds = append(seeds, b)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, b := range seeds {
		f.Add(b)
		f.Add(b[:len(b)*3/4])
		flipped := append([]byte(nil), b...)
		for range 4 {
			flipped[rng.IntN(len(flipped))] ^= byte(1 << rng.IntN(8))
		}
		f.Add(flipped)
	}
	f.Fuzz(func(t *testing.T, file []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		readEveryWay(t, file, mem)
		mem.AssertSize(t, 0)
	})
}
