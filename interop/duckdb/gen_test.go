//go:build duckdb_arrow

package duckdb

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
)

// salesSchema is the schema of the generated files: flat columns of the
// common kinds, a nullable string, and a list.
var salesSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "region", Type: arrow.BinaryTypes.String},
	{Name: "qty", Type: arrow.PrimitiveTypes.Int32},
	{Name: "price", Type: arrow.PrimitiveTypes.Float64},
	{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "tags", Type: arrow.ListOf(arrow.PrimitiveTypes.Int16), Nullable: true},
}, nil)

var regions = []string{"north", "south", "east", "west", "centre"}

// writeSales writes rows generated rows to path with Quiver's writer, in
// row groups of at most groupRows, snappy-compressed.
func writeSales(tb testing.TB, path string, rows, groupRows int) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	w, err := arrowio.NewWriter(f, salesSchema, arrowio.WriteOptions{Compression: footer.CodecSnappy, MaxRowGroupRows: int64(groupRows)})
	if err != nil {
		tb.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, salesSchema)
	defer b.Release()
	id := b.Field(0).(*array.Int64Builder)
	region := b.Field(1).(*array.StringBuilder)
	qty := b.Field(2).(*array.Int32Builder)
	price := b.Field(3).(*array.Float64Builder)
	note := b.Field(4).(*array.StringBuilder)
	tags := b.Field(5).(*array.ListBuilder)
	tagv := tags.ValueBuilder().(*array.Int16Builder)
	for start := 0; start < rows; start += groupRows {
		n := min(groupRows, rows-start)
		for i := start; i < start+n; i++ {
			id.Append(int64(i))
			region.Append(regions[(i*7)%len(regions)])
			qty.Append(int32(i % 1000))
			price.Append(float64(i%10007) / 100)
			if i%5 == 0 {
				note.AppendNull()
			} else {
				note.Append(fmt.Sprintf("note %d", i%997))
			}
			if i%3 == 0 {
				tags.AppendNull()
			} else {
				tags.Append(true)
				for k := range i % 4 {
					tagv.Append(int16(i + k))
				}
			}
		}
		rec := b.NewRecordBatch()
		err := w.Write(rec)
		rec.Release()
		if err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}

// salesFile writes a small generated file into a temporary directory and
// returns its path.
func salesFile(tb testing.TB, rows, groupRows int) string {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), "sales.parquet")
	writeSales(tb, p, rows, groupRows)
	return p
}
