package datasets

import (
	"fmt"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// WideColumns is the number of columns of [Wide].
const WideColumns = 1000

// Wide is a 1,000-column table in ten row groups: int64, float64, int32
// and low-cardinality string columns in turn, every fifth one nullable.
// Its footer (1,000 columns x 10 row groups) is the footer-parse input.
var Wide = &Dataset{
	Name:      "wide",
	Schema:    wideSchema,
	RowGroups: 10,
	fullRows:  10_000,
	smallRows: 1_000,
	batch:     wideBatch,
}

var wideTypes = [...]arrow.DataType{
	arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64,
	arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String,
}

var wideSchema = func() *arrow.Schema {
	fields := make([]arrow.Field, WideColumns)
	for i := range fields {
		fields[i] = arrow.Field{Name: fmt.Sprintf("c%04d", i), Type: wideTypes[i%len(wideTypes)], Nullable: i%5 == 0}
	}
	return arrow.NewSchema(fields, nil)
}()

// wideBatch builds rows [start, start+n) of every column.
func wideBatch(mem memory.Allocator, rng *rand.Rand, _, n, _ int) arrow.RecordBatch {
	builders := make([]array.Builder, WideColumns)
	for c := range builders {
		b := array.NewBuilder(mem, wideSchema.Field(c).Type)
		defer b.Release()
		builders[c] = b
		for range n {
			if c%5 == 0 && rng.IntN(10) == 0 {
				b.AppendNull()
				continue
			}
			switch b := b.(type) {
			case *array.Int64Builder:
				b.Append(rng.Int64N(1 << 32))
			case *array.Float64Builder:
				b.Append(cents(rng.Float64() * 1000))
			case *array.Int32Builder:
				b.Append(int32(rng.IntN(1000)))
			case *array.StringBuilder:
				b.Append(words[rng.IntN(16)])
			}
		}
	}
	return record(wideSchema, int64(n), builders...)
}
