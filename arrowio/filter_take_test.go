package arrowio

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestTakeSpans takes random spans of sliced random arrays of every flat
// type (with and without nulls) and checks each row against the source.
func TestTakeSpans(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(4, 4))
	r := &Reader{opts: ReadOptions{Allocator: mem}}
	types := append([]arrow.DataType{arrow.BinaryTypes.LargeString, arrow.BinaryTypes.LargeBinary, arrow.FixedWidthTypes.Boolean}, flatTypes...)
	for _, dt := range types {
		for _, nulls := range []float64{0, 0.3} {
			full := randomArray(t, mem, dt, 500, nulls, false, rng)
			src := array.NewSlice(full, 7, 480)
			full.Release()
			var spans []span
			for at := int64(rng.IntN(5)); at < int64(src.Len()); {
				end := min(int64(src.Len()), at+1+int64(rng.IntN(12)))
				spans = append(spans, span{at, end})
				at = end + 1 + int64(rng.IntN(9))
			}
			src.Retain()
			got, err := takeSpans(src, spans, r)
			if err != nil {
				t.Fatalf("%s: %v", dt, err)
			}
			k := 0
			for _, s := range spans {
				for i := s.start; i < s.end; i++ {
					if got.IsNull(k) != src.IsNull(int(i)) || !src.IsNull(int(i)) && canonical(got, k) != canonical(src, int(i)) {
						t.Fatalf("%s: row %d (source %d) differs", dt, k, i)
					}
					k++
				}
			}
			if k != got.Len() {
				t.Fatalf("%s: %d rows, want %d", dt, got.Len(), k)
			}
			got.Release()
			src.Release()
		}
	}
}
