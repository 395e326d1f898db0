package pageindex

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/footer"
)

// BenchmarkSelectDecimal evaluates a range predicate row by row over
// 64 Ki decimal128 values of a DECIMAL stored in INT64 (compared as
// integers) and in FIXED_LEN_BYTE_ARRAY (compared as big-endian bytes),
// beside the same predicate on float64 values.
func BenchmarkSelectDecimal(b *testing.B) {
	const n = 1 << 16
	rng := rand.New(rand.NewPCG(1, 1))
	db := array.NewDecimal128Builder(memory.DefaultAllocator, &arrow.Decimal128Type{Precision: 18, Scale: 2})
	fb := array.NewFloat64Builder(memory.DefaultAllocator)
	for range n {
		u := int64(rng.IntN(1_000_000))
		db.Append(decimal128.FromI64(u))
		fb.Append(float64(u) / 100)
	}
	dec, flt := db.NewArray(), fb.NewArray()
	defer dec.Release()
	defer flt.Release()
	db.Release()
	fb.Release()
	lit, err := ParseDecimal("5000.005")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		p    Predicate
		arr  arrow.Array
		sch  func(testing.TB) *footer.Schema
	}{
		{"decimal=int64", GreaterEq("d64", lit), dec, typedSchema},
		{"decimal=flba", GreaterEq("dfl", lit), dec, typedSchema},
		{"float64", GreaterEq("f", Float(5000.005)), flt, testSchema},
	} {
		bound, err := Bind(c.p, c.sch(b))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(n)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bound.Select([]arrow.Array{c.arr}, n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
