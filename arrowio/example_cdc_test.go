package arrowio_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
)

// Write 200,000 readings with content-defined chunking, then the same
// readings with 500 more inserted in the middle: most data pages of the
// second file are byte for byte pages of the first, which a deduplicating
// store keeps once. (The chunks here are 16-64 KiB; the defaults, 256 KiB
// to 1 MiB, suit larger tables.)
func ExampleCDCOptions() {
	schema := arrow.NewSchema([]arrow.Field{{Name: "reading", Type: arrow.PrimitiveTypes.Int64}}, nil)
	opts := arrowio.WriteOptions{ContentDefinedChunking: &arrowio.CDCOptions{MinChunkSize: 16 << 10, MaxChunkSize: 64 << 10}}
	value := func(i int) int64 { return int64(i*i) % 1_000_003 }
	original, edited := make([]int64, 200_000), make([]int64, 0, 200_500)
	for i := range original {
		original[i] = value(i)
	}
	edited = append(edited, original[:100_000]...)
	for i := range 500 {
		edited = append(edited, -value(i))
	}
	edited = append(edited, original[100_000:]...)

	write := func(vals []int64) []byte {
		b := array.NewInt64Builder(memory.DefaultAllocator)
		defer b.Release()
		b.AppendValues(vals, nil)
		col := b.NewArray()
		defer col.Release()
		rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(len(vals)))
		defer rec.Release()
		var buf bytes.Buffer
		w, err := arrowio.NewWriter(&buf, schema, opts)
		if err != nil {
			log.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			log.Fatal(err)
		}
		if err := w.Close(); err != nil {
			log.Fatal(err)
		}
		return buf.Bytes()
	}
	// pages returns the data pages of the file, from its offset index.
	pages := func(file []byte) []string {
		r, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{})
		if err != nil {
			log.Fatal(err)
		}
		defer r.Close()
		_, oi, err := r.PageIndex(0, "reading")
		if err != nil {
			log.Fatal(err)
		}
		var out []string
		for _, l := range oi.PageLocations {
			out = append(out, string(file[l.Offset:l.Offset+int64(l.CompressedPageSize)]))
		}
		return out
	}

	before, after := pages(write(original)), pages(write(edited))
	seen := map[string]bool{}
	for _, p := range before {
		seen[p] = true
	}
	shared := 0
	for _, p := range after {
		if seen[p] {
			shared++
		}
	}
	fmt.Printf("%d pages, then %d pages, %d of them unchanged\n", len(before), len(after), shared)
	// Output:
	// 49 pages, then 49 pages, 48 of them unchanged
}
