package levels

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/levels/levelstest"
)

// BenchmarkShred times shredding the benchmark fields' random rows
// (nulls and empty lists included) into levels and dense values, with
// the Shredder (impl=runs) and with the slot-by-slot reference
// (impl=ref, levels only).
func BenchmarkShred(b *testing.B) {
	mem := memory.NewGoAllocator()
	for _, f := range benchFields {
		const rows = 1 << 16
		r := rand.New(rand.NewPCG(5, 6))
		in := levelstest.RandArray(r, mem, f, rows, nil, false)
		sh, err := NewShredder(planFor(f))
		if err != nil {
			b.Fatal(err)
		}
		cols, err := sh.Shred(mem, in)
		if err != nil {
			b.Fatal(err)
		}
		entries := 0
		for _, c := range cols {
			entries += len(c.Def)
		}
		releaseColumns(cols)
		b.Run(f.Name+"/impl=runs", func(b *testing.B) {
			b.SetBytes(int64(4 * entries)) // the def and rep levels written
			b.ReportAllocs()
			for b.Loop() {
				cols, err := sh.Shred(mem, in)
				if err != nil {
					b.Fatal(err)
				}
				releaseColumns(cols)
			}
		})
		b.Run(f.Name+"/impl=ref", func(b *testing.B) {
			b.SetBytes(int64(4 * entries))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := refShred(sh, in); err != nil {
					b.Fatal(err)
				}
			}
		})
		in.Release()
	}
}
