package levels

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/levels/levelstest"
)

// benchFields are the nested fields the shredding and assembly
// benchmarks time.
var benchFields = []arrow.Field{
	{Name: "list", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
	{Name: "map", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64), Nullable: true},
	{Name: "list_struct", Type: arrow.ListOf(arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true})), Nullable: true},
}

// BenchmarkAssemble times building nested arrays from shredded levels:
// a list<int64>, a map<string,int64> and a list<struct{int32, list<int32>}>
// of random rows (nulls and empty lists included).
func BenchmarkAssemble(b *testing.B) {
	mem := memory.NewGoAllocator()
	for _, f := range benchFields {
		b.Run(f.Name, func(b *testing.B) {
			const rows = 1 << 16
			r := rand.New(rand.NewPCG(5, 6))
			in := levelstest.RandArray(r, mem, f, rows, nil, false)
			defer in.Release()
			root := planFor(f)
			sh, err := NewShredder(root)
			if err != nil {
				b.Fatal(err)
			}
			as, err := NewAssembler(root)
			if err != nil {
				b.Fatal(err)
			}
			cols, err := sh.Shred(mem, in)
			if err != nil {
				b.Fatal(err)
			}
			defer releaseColumns(cols)
			entries := 0
			for _, c := range cols {
				entries += len(c.Def)
			}
			b.SetBytes(int64(4 * entries)) // the def and rep levels read
			b.ReportAllocs()
			for b.Loop() {
				out, err := as.Assemble(mem, rows, cols)
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
			b.ReportMetric(float64(entries)*float64(b.N)/b.Elapsed().Seconds(), "levels/s")
		})
	}
}
