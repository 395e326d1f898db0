package bench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/bench/datasets"
	"github.com/quiverio/quiver/dataset"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

// dsSchema is the schema of the dataset benchmarks' tables: a partition
// key p, a row number, a double and a low-cardinality string.
var dsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "p", Type: arrow.PrimitiveTypes.Int64},
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "v", Type: arrow.PrimitiveTypes.Float64},
	{Name: "s", Type: arrow.BinaryTypes.String},
}, nil)

// dsBatches yields files*rows rows in batches of per rows, p the file
// number (so rows arrive sorted by partition).
func dsBatches(files, rows, per int) array.RecordReader {
	var out []arrow.RecordBatch
	b := array.NewRecordBuilder(memory.DefaultAllocator, dsSchema)
	defer b.Release()
	total := files * rows
	for i := range total {
		p, id, v, s := dsRow(i, rows)
		b.Field(0).(*array.Int64Builder).Append(p)
		b.Field(1).(*array.Int64Builder).Append(id)
		b.Field(2).(*array.Float64Builder).Append(v)
		b.Field(3).(*array.StringBuilder).Append(s)
		if (i+1)%per == 0 || i == total-1 {
			out = append(out, b.NewRecordBatch())
		}
	}
	rr, _ := array.NewRecordReader(dsSchema, out)
	for _, r := range out {
		r.Release()
	}
	return rr
}

// dsRow returns row i of the benchmark datasets with rows rows per file:
// its columns p, id, v and s.
func dsRow(i, rows int) (p, id int64, v float64, s string) {
	return int64(i / rows), int64(i), float64(i%977) * 0.5, fmt.Sprint("name-", i%100)
}

// dsSet is a benchmark dataset: files of rows rows each, written with
// opts.
type dsSet struct {
	name        string
	files, rows int
	opts        dataset.WriteOptions
}

// dir returns a directory holding the dataset, written once per machine
// under the temporary directory and reused while the writer would write
// it the same: its _DONE file holds the fingerprint of the writer's
// output (see fingerprint), and a directory whose fingerprint differs,
// or that has none, is written anew.
func (set dsSet) dir(b *testing.B) string {
	dir := filepath.Join(os.TempDir(), "quiver-dataset-bench", set.name)
	print, err := set.fingerprint()
	if err != nil {
		b.Fatal(err)
	}
	if done, err := os.ReadFile(filepath.Join(dir, "_DONE")); err == nil && string(done) == print {
		return filepath.ToSlash(dir)
	}
	os.RemoveAll(dir)
	rr := dsBatches(set.files, set.rows, min(set.rows, 100_000))
	defer rr.Release()
	if _, err := dataset.Write(context.Background(), nil, filepath.ToSlash(dir), rr, set.opts); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "_DONE"), []byte(print), 0o666); err != nil {
		b.Fatal(err)
	}
	return filepath.ToSlash(dir)
}

// fingerprint returns the SHA-256, in hex, of the file quiver's writer
// makes now of the dataset's first 20,000 rows with the dataset's file
// options: a change to the writer's encodings, pages or metadata
// changes it, and the dataset is then written again, so that readers are
// not timed on files an older writer made.
func (set dsSet) fingerprint() (string, error) {
	rr := dsBatches(1, min(set.rows, 20_000), 20_000)
	defer rr.Release()
	h := sha256.New()
	w, err := arrowio.NewWriter(h, dsSchema, set.opts.File)
	if err != nil {
		return "", err
	}
	for rr.Next() {
		if err := w.Write(rr.RecordBatch()); err != nil {
			w.Close()
			return "", err
		}
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// dsFileOpts is how the benchmark datasets' files are written.
var dsFileOpts = arrowio.WriteOptions{Compression: footer.CodecSnappy}

// dsSets returns the datasets the benchmarks share at the selected size:
// many small files, one partition each (1,000 of 1,000 rows), and a few
// large ones in row groups of 50,000 rows (20 of 250,000 rows); a tenth
// of the files, and a fifth of the rows, at the small size.
func dsSets(b *testing.B) (small, large dsSet) {
	smallFiles, largeRows := 1000, 250_000
	if size(b) == datasets.Small {
		smallFiles, largeRows = 100, 50_000
	}
	small = dsSet{fmt.Sprintf("files=%dx1000", smallFiles), smallFiles, 1000, dataset.WriteOptions{PartitionBy: []string{"p"}, File: dsFileOpts}}
	large = dsSet{fmt.Sprintf("files=20x%d", largeRows), 20, largeRows, dataset.WriteOptions{PartitionBy: []string{"p"}, RowGroupRows: 50_000, File: dsFileOpts}}
	return small, large
}

// openCounter is a dataset.Source that counts the files opened: the
// calls to Open, and the distinct paths.
type openCounter struct {
	dataset.Source
	opens atomic.Int64
	mu    sync.Mutex
	paths map[string]bool
}

func (c *openCounter) Open(ctx context.Context, p string) (dataset.File, error) {
	c.opens.Add(1)
	c.mu.Lock()
	if c.paths == nil {
		c.paths = map[string]bool{}
	}
	c.paths[p] = true
	c.mu.Unlock()
	return c.Source.Open(ctx, p)
}

// files returns the number of distinct files opened.
func (c *openCounter) files() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.paths)
}

// BenchmarkDatasetScan reads datasets of many small files and of a few
// large ones, whole and through filters, and reports rows/s, files opened
// per scan and the time per file opened. The baseline holds the rows of
// the small-files dataset in one file with row groups of the same size,
// so the difference between the two is the cost of having that many
// files.
func BenchmarkDatasetScan(b *testing.B) {
	small, large := dsSets(b)
	sets := []struct {
		dsSet
		partitioning dataset.Partitioning
		filters      []string
	}{
		{small, dataset.HivePartitioning, []string{"", fmt.Sprintf("p < %d", small.files/100), "id < 10000"}},
		{dsSet{fmt.Sprintf("baseline=1x%d", small.files*small.rows), 1, small.files * small.rows, dataset.WriteOptions{RowGroupRows: int64(small.rows), File: dsFileOpts}}, dataset.NoPartitioning, []string{""}},
		{large, dataset.HivePartitioning, []string{"", "p = 7", "id < 50000"}},
	}
	for _, set := range sets {
		dir := set.dir(b)
		for _, where := range set.filters {
			var pred pageindex.Predicate
			name := "full"
			if where != "" {
				pred, _ = pageindex.Parse(where)
				name = "where=" + where
			}
			opts := dataset.Options{Filter: pred, Partitioning: set.partitioning}
			b.Run(set.name+"/"+name, func(b *testing.B) {
				src := &openCounter{Source: dataset.Local}
				var rows int64
				b.ReportAllocs()
				for b.Loop() {
					ds, err := dataset.Open(context.Background(), src, []string{dir}, opts)
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
		if set.partitioning == dataset.HivePartitioning {
			b.Run(set.name+"/count", func(b *testing.B) {
				src := &openCounter{Source: dataset.Local}
				for b.Loop() {
					ds, err := dataset.Open(context.Background(), src, []string{dir}, dataset.Options{})
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
