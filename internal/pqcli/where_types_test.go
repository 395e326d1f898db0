package pqcli

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
)

// TestCatWhereTypedColumns filters a DECIMAL(12,2) and a FLOAT16 column
// with --where: decimal text compares exactly at the column's scale.
func TestCatWhereTypedColumns(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "price", Type: &arrow.Decimal128Type{Precision: 12, Scale: 2}},
		{Name: "h", Type: arrow.FixedWidthTypes.Float16},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := range 40 {
		b.Field(0).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(1200 + 5*i)))
		b.Field(1).(*array.Float16Builder).Append(float16.New(float32(i) / 4))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	path := writeTestFile(t, "typed.parquet", rec, arrowio.WriteOptions{DataPageRows: 8})
	for where, want := range map[string]string{
		"price >= 12.50 and price < 12.605": "{\"price\":\"12.5\",\"h\":2.5}\n{\"price\":\"12.55\",\"h\":2.75}\n{\"price\":\"12.6\",\"h\":3}\n",
		"price = 12.555 or h = 9.75":        "{\"price\":\"13.95\",\"h\":9.75}\n",
		"price in (12.00, 99999999999.99)":  "{\"price\":\"12\",\"h\":0}\n",
	} {
		if out := string(runPQ(t, "cat", "--where", where, path)); out != want {
			t.Errorf("pq cat --where %q:\n%s\nwant\n%s", where, out, want)
		}
	}
}
