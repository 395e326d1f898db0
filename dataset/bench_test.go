package dataset

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

// benchSchema is the schema of the benchmark datasets: a partition key p,
// a row number, a double and a low-cardinality string.
var benchSchema = arrow.NewSchema([]arrow.Field{
	{Name: "p", Type: arrow.PrimitiveTypes.Int64},
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "v", Type: arrow.PrimitiveTypes.Float64},
	{Name: "s", Type: arrow.BinaryTypes.String},
}, nil)

// benchBatches yields files*rows rows in batches of per rows, p the file
// number (so rows arrive sorted by partition).
func benchBatches(files, rows, per int) array.RecordReader {
	var out []arrow.RecordBatch
	b := array.NewRecordBuilder(memory.DefaultAllocator, benchSchema)
	defer b.Release()
	total := files * rows
	for i := range total {
		p, id, v, s := benchRow(i, rows)
		b.Field(0).(*array.Int64Builder).Append(p)
		b.Field(1).(*array.Int64Builder).Append(id)
		b.Field(2).(*array.Float64Builder).Append(v)
		b.Field(3).(*array.StringBuilder).Append(s)
		if (i+1)%per == 0 || i == total-1 {
			out = append(out, b.NewRecordBatch())
		}
	}
	rr, _ := array.NewRecordReader(benchSchema, out)
	for _, r := range out {
		r.Release()
	}
	return rr
}

// benchRow returns row i of the benchmark datasets with rows rows per
// file: its columns p, id, v and s.
func benchRow(i, rows int) (p, id int64, v float64, s string) {
	return int64(i / rows), int64(i), float64(i%977) * 0.5, fmt.Sprint("name-", i%100)
}

// benchDir returns a directory holding the benchmark dataset name, written
// once per machine under the temporary directory (it is reused when
// present: remove it to regenerate).
func benchDir(b *testing.B, name string, files, rows int, opts WriteOptions) string {
	dir := filepath.Join(os.TempDir(), "quiver-dataset-bench", name)
	if _, err := os.Stat(filepath.Join(dir, "_DONE")); err == nil {
		return filepath.ToSlash(dir)
	}
	os.RemoveAll(dir)
	rr := benchBatches(files, rows, min(rows, 100_000))
	defer rr.Release()
	if _, err := Write(context.Background(), nil, filepath.ToSlash(dir), rr, opts); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "_DONE"), nil, 0o666); err != nil {
		b.Fatal(err)
	}
	return filepath.ToSlash(dir)
}

// benchSet is a benchmark dataset: files of rows rows each, written with
// opts.
type benchSet struct {
	name        string
	files, rows int
	opts        WriteOptions
}

// The datasets the benchmarks share: 1,000 small files, one partition
// each, and 20 large ones in row groups of 50,000 rows.
var (
	benchFileOpts = arrowio.WriteOptions{Compression: footer.CodecSnappy}
	benchSmall    = benchSet{"small=1000x1000", 1000, 1000, WriteOptions{PartitionBy: []string{"p"}, File: benchFileOpts}}
	benchLarge    = benchSet{"large=20x250000", 20, 250_000, WriteOptions{PartitionBy: []string{"p"}, RowGroupRows: 50_000, File: benchFileOpts}}
)

// BenchmarkScan reads datasets of many small files and of a few large
// ones, whole and through filters, and reports rows/s, files opened per
// scan and the time per file opened. The baseline holds the rows of the
// small-files dataset in one file with row groups of the same size, so
// the difference between the two is the cost of having 1,000 files.
func BenchmarkScan(b *testing.B) {
	sets := []struct {
		benchSet
		partitioning Partitioning
		filters      []string
	}{
		{benchSmall, HivePartitioning, []string{"", "p < 10", "id < 10000"}},
		{benchSet{"baseline=1x1000000", 1, 1_000_000, WriteOptions{RowGroupRows: 1000, File: benchFileOpts}}, NoPartitioning, []string{""}},
		{benchLarge, HivePartitioning, []string{"", "p = 7", "id < 50000"}},
	}
	for _, set := range sets {
		dir := benchDir(b, set.name, set.files, set.rows, set.opts)
		for _, where := range set.filters {
			var pred pageindex.Predicate
			name := "full"
			if where != "" {
				pred, _ = pageindex.Parse(where)
				name = "where=" + where
			}
			opts := Options{Filter: pred, Partitioning: set.partitioning}
			b.Run(set.name+"/"+name, func(b *testing.B) {
				src := &countingSource{Source: Local}
				var rows int64
				b.ReportAllocs()
				for b.Loop() {
					ds, err := Open(context.Background(), src, []string{dir}, opts)
					if err != nil {
						b.Fatal(err)
					}
					rr, _ := ds.RecordReader(context.Background())
					rows = 0
					for rr.Next() {
						rows += rr.RecordBatch().NumRows()
					}
					if err := rr.Err(); err != nil {
						b.Fatal(err)
					}
					rr.Release()
				}
				opens := float64(src.opens.Load()) / float64(b.N)
				b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
				b.ReportMetric(opens, "opens/op")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/max(opens, 1), "ns/open")
			})
		}
		if set.partitioning == HivePartitioning {
			b.Run(set.name+"/count", func(b *testing.B) {
				src := &countingSource{Source: Local}
				for b.Loop() {
					ds, err := Open(context.Background(), src, []string{dir}, Options{})
					if err != nil {
						b.Fatal(err)
					}
					if n, err := ds.CountRows(context.Background()); err != nil || n != int64(set.files*set.rows) {
						b.Fatal(n, err)
					}
				}
				b.ReportMetric(float64(src.opens.Load())/float64(b.N), "opens/op")
			})
		}
	}
}
