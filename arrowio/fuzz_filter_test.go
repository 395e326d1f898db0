package arrowio_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
	"github.com/quiverio/quiver/pageindex"
)

// FuzzFilteredRead reads arbitrary bytes as a Parquet file with a filter
// on its first top-level leaf, so that statistics, bloom filters, column
// and offset indexes and the page selection they lead to all take
// mutated input. Seeds are small files with page indexes and bloom
// filters. Reading must return rows or an error, never panic, and free
// every buffer it allocated.
func FuzzFilteredRead(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 6))
	rec := indexTestBatch(memory.DefaultAllocator, 300, rng)
	bloom := &arrowio.BloomFilterOptions{Bytes: 64}
	var seeds [][]byte
	for _, v := range []arrowio.PageVersion{arrowio.PageV1, arrowio.PageV2} {
		seeds = append(seeds, arrowiotest.WriteFile(f, rec.Schema(), arrowio.WriteOptions{DataPageRows: 40, PageVersion: v, MaxRowGroupRows: 200,
			Columns: map[string]arrowio.ColumnOptions{"id": {BloomFilter: bloom}, "s": {BloomFilter: bloom}}}, rec))
	}
	rec.Release()
	seeds = append(seeds, typedFuzzSeeds(f, rng)...)
	if root, err := corpus.Lookup(); err == nil {
		for _, name := range []string{"data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet"} {
			if b, err := os.ReadFile(filepath.Join(root, "data", name)); err == nil {
				seeds = append(seeds, b)
			}
		}
	}
	for _, b := range seeds {
		f.Add(b, uint8(0))
		f.Add(b, uint8(3))
		flipped := append([]byte(nil), b...)
		for range 4 {
			flipped[rng.IntN(len(flipped))] ^= byte(1 << rng.IntN(8))
		}
		f.Add(flipped, uint8(1))
	}
	f.Fuzz(func(t *testing.T, file []byte, which uint8) {
		ft, err := footer.ReadFooter(bytes.NewReader(file), int64(len(file)))
		if err != nil || len(ft.Schema.Root.Children) == 0 || !ft.Schema.Root.Children[0].IsLeaf() {
			return
		}
		leaf := ft.Schema.Root.Children[0]
		var lit pageindex.Literal
		switch lt := leaf.Logical().Kind; {
		case lt == footer.LogicalDecimal:
			lit, _ = pageindex.ParseDecimal("1.505")
		case lt == footer.LogicalFloat16:
			lit = pageindex.Float(0.5)
		case leaf.Physical == footer.TypeByteArray, leaf.Physical == footer.TypeFixedLenByteArray:
			lit = pageindex.String("Hello")
		case leaf.Physical == footer.TypeFloat, leaf.Physical == footer.TypeDouble:
			lit = pageindex.Float(0.5)
		case leaf.Physical == footer.TypeBoolean:
			lit = pageindex.Bool(true)
		default:
			lit = pageindex.Int(150)
		}
		preds := []pageindex.Predicate{
			pageindex.Eq(leaf.Name, lit),
			pageindex.Not(pageindex.Less(leaf.Name, lit)),
			pageindex.Or(pageindex.IsNull(leaf.Name), pageindex.In(leaf.Name, lit)),
			pageindex.NotEq(leaf.Name, lit),
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		r, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Filter: preds[int(which)%len(preds)], Allocator: mem, Parallelism: 1})
		if err != nil {
			return
		}
		for g := range r.NumRowGroups() {
			if rec, err := r.ReadRowGroup(context.Background(), g); err == nil {
				rec.Release()
			}
		}
		r.Close()
		mem.AssertSize(t, 0)
	})
}
