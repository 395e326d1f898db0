package arrowio_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/internal/corpus"
)

// FuzzReadVariantFile reads arbitrary files seeded with the shredded
// variant corpus (when present) and a shredded variant Quiver writes, so
// that mutations reach the VARIANT mapping and the shredding checks:
// reading must return rows or an error, never panic, and free what it
// allocates. Reconstruction is arrow-go's and is not exercised here.
func FuzzReadVariantFile(f *testing.F) {
	var seeds [][]byte
	if root, err := corpus.Lookup(); err == nil {
		files, _ := filepath.Glob(filepath.Join(root, "shredded_variant", "*.parquet"))
		for i, p := range files {
			if b, err := os.ReadFile(p); err == nil && i%8 == 0 {
				seeds = append(seeds, b)
			}
		}
	}
	vt := extensions.NewShreddedVariantType(arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: "b", Type: arrow.ListOf(arrow.BinaryTypes.String)}))
	b := extensions.NewVariantBuilder(memory.DefaultAllocator, vt)
	if err := b.UnmarshalJSON([]byte(`[{"a": 1, "b": ["x"], "c": 2}, 3, null, {"b": []}]`)); err != nil {
		f.Fatal(err)
	}
	arr := b.NewArray()
	b.Release()
	sc := arrow.NewSchema([]arrow.Field{{Name: "v", Type: vt, Nullable: true}}, nil)
	rec := array.NewRecordBatch(sc, []arrow.Array{arr}, int64(arr.Len()))
	arr.Release()
	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, sc, arrowio.WriteOptions{})
	if err == nil {
		err = w.Write(rec)
	}
	if err == nil {
		err = w.Close()
	}
	rec.Release()
	if err != nil {
		f.Fatal(err)
	}
	seeds = append(seeds, buf.Bytes())
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range seeds {
		f.Add(s)
		flipped := append([]byte(nil), s...)
		for range 4 {
			flipped[rng.IntN(len(flipped))] ^= byte(1 << rng.IntN(8))
		}
		f.Add(flipped)
	}
	f.Fuzz(func(t *testing.T, file []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		for _, batch := range []int{0, 1} {
			rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Allocator: mem, BatchSize: batch, Parallelism: 1})
			if err != nil {
				return
			}
			if tbl, err := arrowiotest.ReadBatches(rd); err == nil {
				tbl.Release()
			}
			rd.Close()
		}
	})
}
