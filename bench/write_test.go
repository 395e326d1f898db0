package bench

import (
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverio/quiver/bench/datasets"
	"github.com/quiverio/quiver/bench/pqfiles"
	"github.com/quiverio/quiver/footer"
)

// writer is one implementation that writes a dataset's record batches as a
// Parquet file in a configuration.
type writer struct {
	name  string
	write func(w io.Writer, d *datasets.Dataset, s datasets.Size, c *pqfiles.Config, recs []arrow.RecordBatch) error
	// prepare, when set, does ahead of the timing what write needs done
	// once.
	prepare func(d *datasets.Dataset, s datasets.Size, c *pqfiles.Config, recs []arrow.RecordBatch) error
}

var writers = []writer{
	{name: "quiver", write: func(w io.Writer, d *datasets.Dataset, s datasets.Size, c *pqfiles.Config, recs []arrow.RecordBatch) error {
		return c.WriteQuiver(w, d, s, recs, 1)
	}},
	{name: "quiver-parallel", write: func(w io.Writer, d *datasets.Dataset, s datasets.Size, c *pqfiles.Config, recs []arrow.RecordBatch) error {
		return c.WriteQuiver(w, d, s, recs, 0)
	}},
	{name: "pqarrow", write: func(w io.Writer, d *datasets.Dataset, s datasets.Size, c *pqfiles.Config, recs []arrow.RecordBatch) error {
		return c.Write(w, d, s, recs)
	}},
	{name: "floor", write: writeFloor, prepare: prepareFloor},
}

// countingWriter discards what it is given and counts the bytes.
type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return len(p), nil
}

// BenchmarkWrite writes every dataset's batches in every configuration to
// a byte counter and reports the file size as file-bytes. The
// configurations that compress have a floor too (writeFloor): their
// pages' compression alone.
func BenchmarkWrite(b *testing.B) {
	s := size(b)
	for _, d := range datasets.All() {
		b.Run("dataset="+d.Name, func(b *testing.B) {
			recs := d.Generate(memory.DefaultAllocator, s)
			defer func() {
				for _, r := range recs {
					r.Release()
				}
			}()
			meta := pqfiles.MetaOf(recs)
			for _, c := range pqfiles.Configs(d) {
				for _, w := range writers {
					if w.name == "floor" && c.Codec() == footer.CodecUncompressed {
						continue // nothing to compress
					}
					b.Run(fmt.Sprintf("config=%s/impl=%s", c.Name, w.name), func(b *testing.B) {
						if w.prepare != nil {
							if err := w.prepare(d, s, c, recs); err != nil {
								b.Fatal(err)
							}
						}
						var out countingWriter
						measure(b, meta.ArrowBytes, meta.Rows, "rows/s", func() error {
							out.n = 0
							return w.write(&out, d, s, c, recs)
						})
						b.ReportMetric(float64(out.n), "file-bytes")
					})
				}
			}
		})
	}
}
