package dataset_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/dataset"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

// sales returns a batch of sales: a year, a city and an amount per row.
func sales() arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "year", Type: arrow.PrimitiveTypes.Int64},
		{Name: "city", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "amount", Type: arrow.PrimitiveTypes.Float64},
	}, nil)
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, schema, strings.NewReader(`[
		{"year": 2023, "city": "Oslo", "amount": 10.5},
		{"year": 2024, "city": "Oslo", "amount": 7},
		{"year": 2024, "city": "São Paulo", "amount": 3.25},
		{"year": 2024, "city": null, "amount": 1},
		{"year": 2025, "city": "Oslo", "amount": 2}
	]`))
	if err != nil {
		panic(err)
	}
	return rec
}

// writeSales writes sales partitioned by year and city under a new
// temporary directory, which it returns.
func writeSales() string {
	dir, err := os.MkdirTemp("", "sales")
	if err != nil {
		panic(err)
	}
	rec := sales()
	defer rec.Release()
	rr, _ := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
	defer rr.Release()
	opts := dataset.WriteOptions{PartitionBy: []string{"year", "city"}, FileName: "part-{n}.parquet"}
	if _, err := dataset.Write(context.Background(), nil, filepath.ToSlash(dir), rr, opts); err != nil {
		panic(err)
	}
	return filepath.ToSlash(dir)
}

// printRows prints the rows of rr as name=value pairs, looking through
// dictionary arrays.
func printRows(rr array.RecordReader) {
	for rr.Next() {
		b := rr.RecordBatch()
		for i := range int(b.NumRows()) {
			var cells []string
			for c, col := range b.Columns() {
				if d, ok := col.(*array.Dictionary); ok && d.IsValid(i) {
					cells = append(cells, b.ColumnName(c)+"="+d.Dictionary().ValueStr(d.GetValueIndex(i)))
				} else {
					cells = append(cells, b.ColumnName(c)+"="+col.ValueStr(i))
				}
			}
			fmt.Println(strings.Join(cells, " "))
		}
	}
	if err := rr.Err(); err != nil {
		fmt.Println(err)
	}
}

// Write a dataset partitioned by year and city, then read it back with a
// filter: the condition on year picks the files, the one on amount the
// rows inside them.
func Example() {
	dir := writeSales()
	defer os.RemoveAll(dir)
	ctx := context.Background()
	where, _ := pageindex.Parse(`year >= 2024 and amount > 1.5`)
	ds, err := dataset.Open(ctx, nil, []string{dir}, dataset.Options{Filter: where})
	if err != nil {
		fmt.Println(err)
		return
	}
	rr, err := ds.RecordReader(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rr.Release()
	printRows(rr)
	// Output:
	// amount=7 year=2024 city=Oslo
	// amount=3.25 year=2024 city=São Paulo
	// amount=2 year=2025 city=Oslo
}

// Open a directory: its files, their partitions and the schema.
func ExampleOpen() {
	dir := writeSales()
	defer os.RemoveAll(dir)
	ds, err := dataset.Open(context.Background(), nil, []string{dir}, dataset.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range ds.Files() {
		fmt.Println(strings.TrimPrefix(f.Path, dir+"/"), f.Partitions)
	}
	for _, f := range ds.Schema().Fields() {
		fmt.Println(f.Name, f.Type)
	}
	// Output:
	// year=2023/city=Oslo/part-0.parquet [{year 2023 false} {city Oslo false}]
	// year=2024/city=Oslo/part-1.parquet [{year 2024 false} {city Oslo false}]
	// year=2024/city=São%20Paulo/part-2.parquet [{year 2024 false} {city São Paulo false}]
	// year=2024/city=__HIVE_DEFAULT_PARTITION__/part-3.parquet [{year 2024 false} {city  true}]
	// year=2025/city=Oslo/part-4.parquet [{year 2025 false} {city Oslo false}]
	// amount float64
	// year dictionary<values=int64, indices=int32, ordered=false>
	// city dictionary<values=utf8, indices=int32, ordered=false>
}

// Open files by a glob: "**" matches any number of directories. Columns
// selects and orders columns, partition keys included.
func ExampleOpen_glob() {
	dir := writeSales()
	defer os.RemoveAll(dir)
	ds, err := dataset.Open(context.Background(), nil, []string{dir + "/**/city=Oslo/*.parquet"},
		dataset.Options{Columns: []string{"year", "amount"}, PartitionEncoding: dataset.PartitionPlain})
	if err != nil {
		fmt.Println(err)
		return
	}
	rr, _ := ds.RecordReader(context.Background())
	defer rr.Release()
	printRows(rr)
	// Output:
	// year=2023 amount=10.5
	// year=2024 amount=7
	// year=2025 amount=2
}

// Schema is the data columns, from the first file by default, then the
// partition keys.
func ExampleDataset_Schema() {
	dir := writeSales()
	defer os.RemoveAll(dir)
	ds, err := dataset.Open(context.Background(), nil, []string{dir}, dataset.Options{
		PartitionTypes:    map[string]arrow.DataType{"year": arrow.PrimitiveTypes.Int16},
		PartitionEncoding: dataset.PartitionRunEndEncoded,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.Schema())
	// Output:
	// schema:
	//   fields: 3
	//     - amount: type=float64
	//     - year: type=run_end_encoded<run_ends: int32, values: int16>, nullable
	//     - city: type=run_end_encoded<run_ends: int32, values: utf8>, nullable
}

// Files lists the files a scan reads: a filter on partition keys leaves
// the others out without opening them.
func ExampleDataset_Files() {
	dir := writeSales()
	defer os.RemoveAll(dir)
	where, _ := pageindex.Parse(`city = "Oslo" and year != 2024`)
	ds, err := dataset.Open(context.Background(), nil, []string{dir}, dataset.Options{Filter: where})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range ds.Files() {
		fmt.Println(strings.TrimPrefix(f.Path, dir+"/"))
	}
	// Output:
	// year=2023/city=Oslo/part-0.parquet
	// year=2025/city=Oslo/part-4.parquet
}

// RecordReader streams the rows, reading several files at once within a
// bound on buffered batches; Unordered gives batches as files produce
// them.
func ExampleDataset_RecordReader() {
	dir := writeSales()
	defer os.RemoveAll(dir)
	where, _ := pageindex.Parse(`city is null or amount >= 10`)
	ds, err := dataset.Open(context.Background(), nil, []string{dir}, dataset.Options{
		Filter: where, MaxOpenFiles: 2, MaxBufferedBytes: 1 << 20,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	rr, err := ds.RecordReader(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rr.Release()
	printRows(rr)
	// Output:
	// amount=10.5 year=2023 city=Oslo
	// amount=1 year=2024 city=(null)
}

// ReadTable reads everything selected into one table.
func ExampleDataset_ReadTable() {
	dir := writeSales()
	defer os.RemoveAll(dir)
	ds, err := dataset.Open(context.Background(), nil, []string{dir}, dataset.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	tbl, err := ds.ReadTable(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tbl.Release()
	fmt.Println(tbl.NumRows(), "rows,", tbl.NumCols(), "columns")
	// Output: 5 rows, 3 columns
}

// CountRows answers from the footers when the statistics decide the
// filter for whole row groups.
func ExampleDataset_CountRows() {
	dir := writeSales()
	defer os.RemoveAll(dir)
	for _, w := range []string{"", "year = 2024", "amount < 5"} {
		var where pageindex.Predicate
		if w != "" {
			where, _ = pageindex.Parse(w)
		}
		ds, err := dataset.Open(context.Background(), nil, []string{dir}, dataset.Options{Filter: where})
		if err != nil {
			fmt.Println(err)
			return
		}
		n, err := ds.CountRows(context.Background())
		fmt.Printf("%q: %d %v\n", w, n, err)
	}
	// Output:
	// "": 5 <nil>
	// "year = 2024": 3 <nil>
	// "amount < 5": 3 <nil>
}

// Splits plans a distributed scan: each split is JSON a worker reads with
// ReadSplit, without the dataset.
func ExampleDataset_Splits() {
	dir := writeSales()
	defer os.RemoveAll(dir)
	where, _ := pageindex.Parse(`year = 2024 and amount > 2`)
	ds, err := dataset.Open(context.Background(), nil, []string{dir}, dataset.Options{Filter: where})
	if err != nil {
		fmt.Println(err)
		return
	}
	splits, err := ds.Splits(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range splits {
		fmt.Println(strings.TrimPrefix(s.Path, dir+"/"), s.RowGroups, s.Rows, s.Partitions, s.Filter)
	}
	// Output:
	// year=2024/city=Oslo/part-1.parquet [0] 1 [{year 2024 false} {city Oslo false}] amount > 2
	// year=2024/city=São%20Paulo/part-2.parquet [0] 1 [{year 2024 false} {city São Paulo false}] amount > 2
}

// ReadSplit reads one split, here after a round trip through JSON as if
// on another machine.
func ExampleReadSplit() {
	dir := writeSales()
	defer os.RemoveAll(dir)
	ds, err := dataset.Open(context.Background(), nil, []string{dir}, dataset.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	splits, err := ds.Splits(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	msg, _ := json.Marshal(splits[2])

	var s dataset.Split
	if err := json.Unmarshal(msg, &s); err != nil {
		fmt.Println(err)
		return
	}
	rr, err := dataset.ReadSplit(context.Background(), nil, s, dataset.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rr.Release()
	printRows(rr)
	// Output: amount=3.25 year=2024 city=São Paulo
}

// Write record batches as a partitioned dataset: one directory per value
// of the PartitionBy columns, files of at most MaxRowsPerFile rows, each
// written with the same arrowio options.
func ExampleWrite() {
	dir, _ := os.MkdirTemp("", "write")
	defer os.RemoveAll(dir)
	rec := sales()
	defer rec.Release()
	rr, _ := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
	defer rr.Release()
	files, err := dataset.Write(context.Background(), nil, filepath.ToSlash(dir), rr, dataset.WriteOptions{
		PartitionBy:    []string{"city"},
		MaxRowsPerFile: 2,
		FileName:       "data-{n}.parquet",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	for _, f := range files {
		fmt.Println(strings.TrimPrefix(f.Path, filepath.ToSlash(dir)+"/"), f.Rows)
	}
	// Output:
	// city=Oslo/data-0.parquet 2
	// city=Oslo/data-3.parquet 1
	// city=São%20Paulo/data-1.parquet 1
	// city=__HIVE_DEFAULT_PARTITION__/data-2.parquet 1
}

// A Writer takes batches one at a time; files appear, whole, as they are
// completed, and Close completes the rest.
func ExampleNewWriter() {
	dir, _ := os.MkdirTemp("", "writer")
	defer os.RemoveAll(dir)
	rec := sales()
	defer rec.Release()
	w, err := dataset.NewWriter(context.Background(), nil, filepath.ToSlash(dir), rec.Schema(), dataset.WriteOptions{
		PartitionBy: []string{"year"},
		File:        arrowio.WriteOptions{Compression: footer.CodecZstd},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 3 {
		if err := w.Write(rec); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
		return
	}
	var rows int64
	for _, f := range w.Files() {
		rows += f.Rows
	}
	fmt.Println(len(w.Files()), "files,", rows, "rows")
	// Output: 3 files, 15 rows
}

// Abort discards the files not yet complete: nothing partial is left.
func ExampleWriter_Abort() {
	dir, _ := os.MkdirTemp("", "abort")
	defer os.RemoveAll(dir)
	rec := sales()
	defer rec.Release()
	w, _ := dataset.NewWriter(context.Background(), nil, filepath.ToSlash(dir), rec.Schema(), dataset.WriteOptions{PartitionBy: []string{"year"}})
	w.Write(rec)
	w.Abort()
	var left []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			left = append(left, p)
		}
		return nil
	})
	err := w.Close()
	fmt.Println(len(left), "files left;", strings.HasPrefix(err.Error(), "dataset: write: aborted"))
	// Output: 0 files left; true
}

// Hidden says which files a dataset skips, as Spark and pyarrow do.
func ExampleHidden() {
	for _, p := range []string{"part-0.parquet", "_SUCCESS", ".part-0.parquet.crc", "_temporary/0/part-0.parquet", "_k=1/part-0.parquet"} {
		fmt.Println(p, dataset.Hidden(p))
	}
	// Output:
	// part-0.parquet false
	// _SUCCESS true
	// .part-0.parquet.crc true
	// _temporary/0/part-0.parquet true
	// _k=1/part-0.parquet false
}

// LocalFS lists with object-store semantics: every file under a prefix.
func ExampleLocalFS_List() {
	dir := writeSales()
	defer os.RemoveAll(dir)
	for fi, err := range dataset.Local.List(context.Background(), dir+"/year=2024/") {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(strings.TrimPrefix(fi.Path, dir+"/"), fi.Size > 0)
	}
	// Unordered output:
	// year=2024/city=Oslo/part-1.parquet true
	// year=2024/city=São%20Paulo/part-2.parquet true
	// year=2024/city=__HIVE_DEFAULT_PARTITION__/part-3.parquet true
}

// LocalFS opens files as a File: ReaderAt, Closer and Size, what arrowio
// needs.
func ExampleLocalFS_Open() {
	dir := writeSales()
	defer os.RemoveAll(dir)
	f, err := dataset.Local.Open(context.Background(), dir+"/year=2023/city=Oslo/part-0.parquet")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	ft, err := footer.ReadFooter(f, f.Size())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ft.Meta.NumRows, "row")
	// Output: 1 row
}

// LocalFS creates files under a hidden name and shows them only on Commit.
func ExampleLocalFS_Create() {
	dir, _ := os.MkdirTemp("", "create")
	defer os.RemoveAll(dir)
	up, err := dataset.Local.Create(context.Background(), filepath.ToSlash(dir)+"/a/b.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	io.WriteString(up, "hello")
	_, err = os.Stat(filepath.Join(dir, "a", "b.txt"))
	fmt.Println("before commit:", os.IsNotExist(err))
	if err := up.Commit(); err != nil {
		fmt.Println(err)
		return
	}
	b, _ := os.ReadFile(filepath.Join(dir, "a", "b.txt"))
	fmt.Println("after commit:", string(b))
	// Output:
	// before commit: true
	// after commit: hello
}

// A FooterCache shared between datasets over the same files saves reading
// their footers again.
func ExampleNewFooterCache() {
	dir := writeSales()
	defer os.RemoveAll(dir)
	cache := dataset.NewFooterCache(8 << 20)
	for range 2 {
		ds, err := dataset.Open(context.Background(), nil, []string{dir}, dataset.Options{FooterCache: cache})
		if err != nil {
			fmt.Println(err)
			return
		}
		ds.CountRows(context.Background())
	}
	hits, misses := cache.Stats()
	fmt.Println(hits, "hits,", misses, "misses")
	// Output: 7 hits, 5 misses
}

// memSource is a Source over files in memory: what a bucket adapter
// implements (the cloud module's Bucket.Dataset is one).
type memSource map[string][]byte

type memFile struct{ *bytes.Reader }

func (memFile) Close() error { return nil }

func (m memSource) Open(ctx context.Context, p string) (dataset.File, error) {
	b, ok := m[p]
	if !ok {
		return nil, os.ErrNotExist
	}
	return memFile{bytes.NewReader(b)}, nil
}

func (m memSource) List(ctx context.Context, prefix string) iter.Seq2[dataset.FileInfo, error] {
	return func(yield func(dataset.FileInfo, error) bool) {
		for p, b := range m {
			if strings.HasPrefix(p, prefix) && !yield(dataset.FileInfo{Path: p, Size: int64(len(b))}, nil) {
				return
			}
		}
	}
}

// Any Source serves: here files held in memory, under keys as a bucket
// names its objects.
func ExampleSource() {
	dir := writeSales()
	defer os.RemoveAll(dir)
	src := memSource{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			src[path.Join("bucket/sales", filepath.ToSlash(rel))] = b
		}
		return nil
	})
	where, _ := pageindex.Parse(`city = "Oslo"`)
	ds, err := dataset.Open(context.Background(), src, []string{"bucket/sales"}, dataset.Options{Filter: where})
	if err != nil {
		fmt.Println(err)
		return
	}
	n, err := ds.CountRows(context.Background())
	fmt.Println(n, err)
	// Output: 3 <nil>
}
