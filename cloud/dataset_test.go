package cloud_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/cloud"
	"github.com/quiverio/quiver/dataset"
	"github.com/quiverio/quiver/pageindex"
)

// salesBatch returns n rows: id, a year of three and a city of four (one
// of them null), and an amount.
func salesBatch(n int) arrow.RecordBatch {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "year", Type: arrow.PrimitiveTypes.Int64},
		{Name: "city", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "amount", Type: arrow.PrimitiveTypes.Float64},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.Int64Builder).Append(int64(2022 + i%3))
		if c := i % 4; c == 3 {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.StringBuilder).Append([]string{"Oslo", "São Paulo", "a/b"}[c])
		}
		b.Field(3).(*array.Float64Builder).Append(float64(i) / 4)
	}
	return b.NewRecordBatch()
}

// writeSales writes salesBatch(n) under root of sink, partitioned by year
// and city, at most 100 rows a file.
func writeSales(sink dataset.Sink, root string, n int) ([]dataset.WrittenFile, error) {
	rec := salesBatch(n)
	defer rec.Release()
	rr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	return dataset.Write(context.Background(), sink, root, rr, dataset.WriteOptions{
		PartitionBy: []string{"year", "city"}, MaxRowsPerFile: 100, File: arrowio.WriteOptions{DataPageRows: 20}})
}

// datasetRows reads a dataset's id, year, city and amount as sorted text.
func datasetRows(t testing.TB, ds *dataset.Dataset) []string {
	rr, err := ds.RecordReader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	var out []string
	for rr.Next() {
		b := rr.RecordBatch()
		cols := make([]arrow.Array, 4)
		for i, name := range []string{"id", "year", "city", "amount"} {
			cols[i] = b.Column(b.Schema().FieldIndices(name)[0])
		}
		for r := range int(b.NumRows()) {
			var parts []string
			for _, c := range cols {
				parts = append(parts, c.ValueStr(r))
			}
			out = append(out, strings.Join(parts, ","))
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// A dataset written to S3 (SeaweedFS) through the bucket's Sink reads
// back through OpenDataset as the same dataset written locally reads:
// the same files, rows and filtered counts, hidden keys skipped.
func TestS3Dataset(t *testing.T) {
	bu := s3Bucket(t, "quiver-dataset")
	b := openBucket(t, bu)
	ctx := context.Background()
	const rows = 2000
	remote, err := writeSales(b.Dataset(), "sales", rows)
	if err != nil {
		t.Fatal(err)
	}
	local := t.TempDir()
	if _, err := writeSales(dataset.Local, local, rows); err != nil {
		t.Fatal(err)
	}
	put(t, b, "sales/_SUCCESS", nil)
	put(t, b, "sales/year=2022/.part.crc", []byte("x"))
	if len(remote) < 9 {
		t.Fatalf("%d files written, want one or more per partition", len(remote))
	}
	for _, where := range []string{"", "year = 2023", "not (city = 'Oslo')", "city is null and amount > 100", "year in (2022, 2024) and not (city prefix 'S' or id < 500)"} {
		opts := dataset.Options{}
		if where != "" {
			p, err := pageindex.Parse(where)
			if err != nil {
				t.Fatal(err)
			}
			opts.Filter = p
		}
		rds, rb, err := cloud.OpenDataset(ctx, objectURL(t, bu, "sales/"), opts)
		if err != nil {
			t.Fatalf("%q: %v", where, err)
		}
		lds, err := dataset.Open(ctx, nil, []string{local}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if where == "" && len(rds.Files()) != len(remote) {
			t.Errorf("%d files found, %d written", len(rds.Files()), len(remote))
		}
		got, want := datasetRows(t, rds), datasetRows(t, lds)
		if !slices.Equal(got, want) || where == "" && len(got) != rows {
			t.Errorf("%q: %d rows from S3, %d locally", where, len(got), len(want))
		}
		n, err := rds.CountRows(ctx)
		if err != nil || n != int64(len(want)) {
			t.Errorf("%q: CountRows = %d, %v; want %d", where, n, err, len(want))
		}
		rb.Close()
	}
	checkUploads(t, b, remote[0].Path, "sales/aborted.parquet")
}

// checkUploads checks that b's Sink refuses to overwrite the existing key
// and that an aborted upload to the key aborted leaves no object.
func checkUploads(t *testing.T, b *cloud.Bucket, existing, aborted string) {
	ctx := context.Background()
	up, err := b.Dataset().Create(ctx, existing)
	if err != nil {
		t.Fatal(err)
	}
	up.Write([]byte("PAR1"))
	if err := up.Commit(); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Commit over an existing key: %v, want fs.ErrExist", err)
	}
	up, err = b.Dataset().Create(ctx, aborted)
	if err != nil {
		t.Fatal(err)
	}
	up.Write([]byte("PAR1 partial"))
	if err := up.Abort(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Open(ctx, aborted); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an aborted upload left an object: %v", err)
	}
}

// The file:// bucket is a Sink that refuses to overwrite, and its Abort
// leaves nothing behind: the dataset reads as written.
func TestFileBucketDatasetSink(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	b, err := cloud.OpenBucket(ctx, "file://"+filepath.ToSlash(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	files, err := writeSales(b.Dataset(), "ds", 300)
	if err != nil {
		t.Fatal(err)
	}
	checkUploads(t, b, files[0].Path, "ds/year=2022/aborted.parquet")
	ds, err := dataset.Open(ctx, b.Dataset(), []string{"ds"}, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := ds.CountRows(ctx); err != nil || n != 300 || len(ds.Files()) != len(files) {
		t.Errorf("CountRows = %d, %v over %d files; want 300 over %d", n, err, len(ds.Files()), len(files))
	}
	if _, _, err := cloud.OpenDataset(ctx, "file:///", dataset.Options{}); err == nil {
		t.Error("OpenDataset of a URL without a bucket works")
	}
}

// OpenDataset reads a hive-partitioned dataset under a bucket prefix:
// s3://bucket/sales/?region=…, gs://…, azblob://… or, as here so that the
// example runs anywhere, a file:// bucket. Filters on partition keys skip
// objects without opening them.
func ExampleOpenDataset() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "bucket")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	bucketURL := "file://" + filepath.ToSlash(dir)
	b, err := cloud.OpenBucket(ctx, bucketURL)
	if err != nil {
		panic(err)
	}
	// Write one through the bucket: 1,200 rows by year and city.
	if _, err := writeSales(b.Dataset(), "sales", 1200); err != nil {
		panic(err)
	}
	b.Close()

	filter, err := pageindex.Parse("year = 2024 and not (city = 'Oslo')")
	if err != nil {
		panic(err)
	}
	ds, bucket, err := cloud.OpenDataset(ctx, bucketURL+"/sales/", dataset.Options{Filter: filter})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer bucket.Close()
	n, err := ds.CountRows(ctx)
	fmt.Println(n, err, len(ds.Files()), "files") // files of the partitions the filter keeps
	// Output: 200 <nil> 2 files
}
