package arrowio_test

import (
	"bytes"
	"context"
	"fmt"
	"log"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
)

// Write two record batches to a zstd-compressed file, where their rows
// fill one row group, then read the file back.
func ExampleNewWriter() {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "city", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()

	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, schema, arrowio.WriteOptions{Compression: footer.CodecZstd})
	if err != nil {
		log.Fatal(err)
	}
	for _, cities := range [][]string{{"Oslo", "Lima", ""}, {"Oslo", "Pune"}} {
		for i, c := range cities {
			b.Field(0).(*array.Int64Builder).Append(int64(i))
			if c == "" {
				b.Field(1).AppendNull()
			} else {
				b.Field(1).(*array.StringBuilder).Append(c)
			}
		}
		rec := b.NewRecordBatch()
		err := w.Write(rec) // the rows join the current row group
		rec.Release()
		if err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	r, err := arrowio.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()), arrowio.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	fmt.Println("row groups:", r.NumRowGroups(), "rows:", r.NumRows())
	for g := range r.NumRowGroups() {
		rec, err := r.ReadRowGroup(context.Background(), g)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(rec.Column(1))
		rec.Release()
	}
	// Output:
	// row groups: 1 rows: 5
	// ["Oslo" "Lima" (null) "Oslo" "Pune"]
}
