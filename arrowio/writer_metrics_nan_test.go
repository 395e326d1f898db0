package arrowio_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/footer"
)

// TestMetricsNaNCounts checks the NaN counts of file metrics, which the
// column writers take in their statistics pass, on every way float values
// arrive: float32, float16, a dictionary of float64 (with a null slot
// whose index points at the NaN entry, which must not count), a list of
// float64 with null elements, and statistics turned off for a column
// (the count must not depend on them), across batches, pages and row
// groups, with and without dictionary encoding.
func TestMetricsNaNCounts(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "f16", Type: arrow.FixedWidthTypes.Float16, Nullable: true},
		{Name: "dict", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.PrimitiveTypes.Float64}, Nullable: true},
		{Name: "list", Type: arrow.ListOf(arrow.PrimitiveTypes.Float64), Nullable: true},
		{Name: "nostats", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	paths := []string{"f32", "f16", "dict", "list.list.element", "nostats"}
	for _, dictionary := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(9, 4))
		want := make([]int64, len(paths))
		nan := func() bool { return rng.IntN(5) == 0 }
		valid := func() bool { return rng.IntN(7) != 0 }
		var recs []arrow.RecordBatch
		for range 4 {
			mem := memory.DefaultAllocator
			f32 := array.NewFloat32Builder(mem)
			f16 := array.NewFloat16Builder(mem)
			list := array.NewListBuilder(mem, arrow.PrimitiveTypes.Float64)
			elems := list.ValueBuilder().(*array.Float64Builder)
			ns := array.NewFloat64Builder(mem)
			n := 1 + rng.IntN(3000)
			for range n {
				switch {
				case !valid():
					f32.AppendNull()
				case nan():
					f32.Append(float32(math.NaN()))
					want[0]++
				default:
					f32.Append(float32(rng.NormFloat64()))
				}
				switch {
				case !valid():
					f16.AppendNull()
				case nan():
					f16.Append(float16.NaN())
					want[1]++
				default:
					f16.Append(float16.New(float32(rng.NormFloat64())))
				}
				if !valid() {
					list.AppendNull()
				} else {
					list.Append(true)
					for range rng.IntN(4) {
						switch {
						case !valid():
							elems.AppendNull()
						case nan():
							elems.Append(math.NaN())
							want[3]++
						default:
							elems.Append(rng.NormFloat64())
						}
					}
				}
				switch {
				case !valid():
					ns.AppendNull()
				case nan():
					ns.Append(math.NaN())
					want[4]++
				default:
					ns.Append(rng.NormFloat64())
				}
			}
			// The dictionary's entry 0 is NaN; slot k holds entry k%3.
			dictVals := array.NewFloat64Builder(mem)
			dictVals.AppendValues([]float64{math.NaN(), 1.5, -2}, nil)
			dv := dictVals.NewArray()
			idx := array.NewInt32Builder(mem)
			for k := range n {
				if !valid() {
					idx.AppendNull() // its index is 0, the NaN entry
					continue
				}
				idx.Append(int32(k % 3))
				if k%3 == 0 {
					want[2]++
				}
			}
			d := array.NewDictionaryArray(schema.Field(2).Type, idx.NewArray(), dv)
			cols := []arrow.Array{f32.NewArray(), f16.NewArray(), d, list.NewArray(), ns.NewArray()}
			recs = append(recs, array.NewRecordBatch(schema, cols, int64(n)))
		}
		opts := arrowio.WriteOptions{
			MaxRowGroupRows: 2500,
			DataPageSize:    1024,
			Columns:         map[string]arrowio.ColumnOptions{"nostats": {Statistics: footer.Some(false)}},
		}
		if !dictionary {
			opts.DisableDictionary = true
		}
		w, _ := arrowiotest.WriteClosed(t, schema, opts, recs...)
		m := w.Metrics()
		for i, p := range paths {
			c := m.Column(p)
			if c == nil {
				t.Fatalf("dictionary %v: no metrics for %s", dictionary, p)
			}
			if got, ok := c.NaNs.Get(); !ok || got != want[i] || want[i] == 0 {
				t.Errorf("dictionary %v: %s: %d NaNs (set %v), want %d", dictionary, p, got, ok, want[i])
			}
		}
	}
}
