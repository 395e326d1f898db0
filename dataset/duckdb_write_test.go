package dataset

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/duckdb"
)

// Datasets Quiver writes, hive-partitioned with each codec, read in DuckDB
// to the rows and filtered counts of the table they were written from;
// pqarrow reads every file.
func TestWriteDuckDBReads(t *testing.T) {
	duckdb.Script(t)
	src := filepath.Join(t.TempDir(), "src.parquet")
	const rows = 20000
	duckdb.Query(t, fmt.Sprintf("COPY (%s) TO %s (FORMAT parquet)", strings.Replace(duckSource, "ROWS", strconv.Itoa(rows), 1), duckdb.Quote(src)))
	configs := []struct {
		name string
		opts arrowio.WriteOptions
	}{
		{"zstd", arrowio.WriteOptions{Compression: footer.CodecZstd}},
		{"snappy-v2", arrowio.WriteOptions{Compression: footer.CodecSnappy, PageVersion: arrowio.PageV2}},
		{"gzip-nodict", arrowio.WriteOptions{Compression: footer.CodecGzip, DisableDictionary: true}},
		{"brotli", arrowio.WriteOptions{Compression: footer.CodecBrotli}},
		{"uncompressed", arrowio.WriteOptions{}},
	}
	if testing.Short() {
		configs = configs[:2]
	}
	for _, cfg := range configs {
		t.Run(cfg.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "ds")
			r, err := arrowio.OpenFile(src, arrowio.ReadOptions{BatchSize: 3000})
			if err != nil {
				t.Fatal(err)
			}
			rr, err := r.RecordReader(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			files, err := Write(context.Background(), nil, dir, rr, WriteOptions{
				PartitionBy: []string{"year", "day", "cat"}, MaxRowsPerFile: 300, RowGroupRows: 128, File: cfg.opts})
			rr.Release()
			r.Close()
			if err != nil {
				t.Fatal(err)
			}
			var written int64
			for _, f := range files {
				written += f.Rows
				if n := pqarrowRows(t, f.Path); n != f.Rows {
					t.Errorf("%s: pqarrow reads %d rows, %d written", f.Path, n, f.Rows)
				}
			}
			if written != rows {
				t.Fatalf("%d rows written", written)
			}
			cols := "i, year, day, cat, f, s, small, dec, ts, b, l"
			from := fmt.Sprintf("read_parquet(%s)", duckdb.Quote(src))
			ds := fmt.Sprintf("read_parquet(%s, hive_partitioning = true)", duckdb.Quote(dir+"/**/*.parquet"))
			sql := []string{
				fmt.Sprintf("(SELECT count(*) FROM %s) AS n", ds),
				fmt.Sprintf("(SELECT count(*) FROM (SELECT %s FROM %s EXCEPT ALL SELECT %s FROM %s)) AS missing", cols, from, cols, ds),
				fmt.Sprintf("(SELECT count(*) FROM (SELECT %s FROM %s EXCEPT ALL SELECT %s FROM %s)) AS extra", cols, ds, cols, from),
			}
			for i, f := range duckFilters {
				sql = append(sql, fmt.Sprintf("(SELECT count(*) FROM %s WHERE %s) AS want%d, (SELECT count(*) FROM %s WHERE %s) AS got%d", from, f[1], i, ds, f[1], i))
			}
			res := duckdb.QueryRow(t, "SELECT "+strings.Join(sql, ", "))
			if normDuck(res["n"]) != strconv.Itoa(rows) || normDuck(res["missing"]) != "0" || normDuck(res["extra"]) != "0" {
				t.Errorf("DuckDB reads %v rows; %v source rows missing, %v extra", res["n"], res["missing"], res["extra"])
			}
			for i, f := range duckFilters {
				if got, want := normDuck(res[fmt.Sprint("got", i)]), normDuck(res[fmt.Sprint("want", i)]); got != want {
					t.Errorf("%s: DuckDB counts %s in the written dataset, %s in the source", f[1], got, want)
				}
			}
			// The types DuckDB infers from the directories.
			types := duckdb.QueryRow(t, fmt.Sprintf("SELECT typeof(year) AS y, typeof(day) AS d, typeof(cat) AS c FROM %s LIMIT 1", ds))
			if fmt.Sprint(types) != "map[c:VARCHAR d:DATE y:BIGINT]" {
				t.Errorf("partition types %v", types)
			}
		})
	}
}
