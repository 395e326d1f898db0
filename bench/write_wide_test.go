package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
)

// Rows and batch size of BenchmarkWriteWideMemory's tables.
const (
	wideMemRows  = 100_000
	wideMemBatch = 10_000
)

// wideMemBatches returns cols columns of wideMemRows rows in batches of
// wideMemBatch rows: int64, float64, int32 and low-cardinality string
// columns in turn, every fifth one nullable.
func wideMemBatches(cols int) []arrow.RecordBatch {
	types := []arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64, arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String}
	fields := make([]arrow.Field, cols)
	for i := range fields {
		fields[i] = arrow.Field{Name: fmt.Sprintf("c%04d", i), Type: types[i%len(types)], Nullable: i%5 == 0}
	}
	schema := arrow.NewSchema(fields, nil)
	rng := rand.New(rand.NewPCG(506, 10071))
	var out []arrow.RecordBatch
	for range wideMemRows / wideMemBatch {
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for c := range cols {
			fb := b.Field(c)
			for range wideMemBatch {
				if c%5 == 0 && rng.IntN(10) == 0 {
					fb.AppendNull()
					continue
				}
				switch fb := fb.(type) {
				case *array.Int64Builder:
					fb.Append(rng.Int64N(1 << 32))
				case *array.Float64Builder:
					fb.Append(float64(rng.IntN(100_000)) / 100)
				case *array.Int32Builder:
					fb.Append(int32(rng.IntN(1000)))
				case *array.StringBuilder:
					fb.Append(fmt.Sprint("word", rng.IntN(16)))
				}
			}
		}
		out = append(out, b.NewRecordBatch())
		b.Release()
	}
	return out
}

// BenchmarkWriteWideMemory writes 10, 100 and 1,000 columns of 100k rows,
// in 10k-row batches, as one dictionary+snappy row group, with quiver and
// with pqarrow's buffered writer at equal settings, and reports the peak
// heap (above the batches) as peak-heap-MB and the file size. quiver-128MiB
// keeps quiver's default MaxRowGroupBytes, which cuts the row group.
func BenchmarkWriteWideMemory(b *testing.B) {
	for _, cols := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("cols=%d", cols), func(b *testing.B) {
			recs := wideMemBatches(cols)
			defer func() {
				for _, r := range recs {
					r.Release()
				}
			}()
			schema := recs[0].Schema()
			bytes := int64(0)
			for _, r := range recs {
				for _, c := range r.Columns() {
					for _, buf := range c.Data().Buffers() {
						if buf != nil {
							bytes += int64(buf.Len())
						}
					}
				}
			}
			quiver := func(maxBytes int64) func(out *countingWriter) error {
				return func(out *countingWriter) error {
					w, err := arrowio.NewWriter(out, schema, arrowio.WriteOptions{Compression: footer.CodecSnappy,
						MaxRowGroupRows: wideMemRows, MaxRowGroupBytes: maxBytes, DisableCRC: true, Parallelism: 1})
					if err != nil {
						return err
					}
					for _, r := range recs {
						if err := w.Write(r); err != nil {
							return err
						}
					}
					return w.Close()
				}
			}
			impls := []struct {
				name  string
				write func(out *countingWriter) error
			}{
				{"quiver", quiver(-1)},
				{"quiver-128MiB", quiver(0)},
				{"pqarrow", func(out *countingWriter) error {
					props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy),
						parquet.WithDictionaryDefault(true), parquet.WithMaxRowGroupLength(wideMemRows))
					fw, err := pqarrow.NewFileWriter(schema, out, props, pqarrow.DefaultWriterProps())
					if err != nil {
						return err
					}
					for _, r := range recs {
						if err := fw.WriteBuffered(r); err != nil {
							return err
						}
					}
					return fw.Close()
				}},
			}
			for _, impl := range impls {
				b.Run("impl="+impl.name, func(b *testing.B) {
					var out countingWriter
					measure(b, bytes, wideMemRows, "rows/s", func() error {
						out.n = 0
						return impl.write(&out)
					})
					b.ReportMetric(float64(out.n), "file-bytes")
				})
			}
		})
	}
}
