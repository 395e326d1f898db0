package dataset

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/internal/duckdb"
	"github.com/quiverio/quiver/pageindex"
)

// BenchmarkVsDuckDB runs the same queries over the same hive-partitioned
// glob in Quiver and in DuckDB's read_parquet (hive_partitioning), with 1
// and 2 threads: count(*), and the sum of a column over the rows a filter
// on another data column selects (half the rows, by id). Quiver runs with
// GOMAXPROCS at the thread count and opens the dataset anew for every
// query, as DuckDB reads the footers anew. DuckDB's ns/op is the median
// of its own per-query wall times, without node's startup; both report
// rows/s over the rows the dataset holds.
func BenchmarkVsDuckDB(b *testing.B) {
	for _, set := range []benchSet{benchSmall, benchLarge} {
		dir := benchDir(b, set.name, set.files, set.rows, set.opts)
		glob := dir + "/**/*.parquet"
		total := int64(set.files * set.rows)
		half := total / 2
		var wantSum float64 // v = (id % 977) / 2 over id < half
		for id := range half {
			wantSum += float64(id%977) * 0.5
		}
		for _, threads := range []int{1, 2} {
			name := fmt.Sprintf("%s/threads=%d", set.name, threads)
			b.Run(name+"/count/quiver", func(b *testing.B) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(threads))
				b.ReportAllocs()
				for b.Loop() {
					ds, err := Open(context.Background(), nil, []string{glob}, Options{})
					if err != nil {
						b.Fatal(err)
					}
					if n, err := ds.CountRows(context.Background()); err != nil || n != total {
						b.Fatal(n, err)
					}
				}
				b.ReportMetric(float64(total)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			})
			b.Run(name+"/count/duckdb", func(b *testing.B) {
				duckBench(b, threads, total, fmt.Sprintf("SELECT count(*) AS n FROM read_parquet(%s, hive_partitioning = true)", duckdb.Quote(glob)))
			})
			b.Run(name+"/sum-where/quiver", func(b *testing.B) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(threads))
				filter, err := pageindex.Parse(fmt.Sprintf("id < %d", half))
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					ds, err := Open(context.Background(), nil, []string{glob}, Options{Filter: filter, Columns: []string{"v"}, Unordered: true})
					if err != nil {
						b.Fatal(err)
					}
					rr, err := ds.RecordReader(context.Background())
					if err != nil {
						b.Fatal(err)
					}
					var sum float64
					for rr.Next() {
						for _, v := range rr.RecordBatch().Column(0).(*array.Float64).Float64Values() {
							sum += v
						}
					}
					if err := rr.Err(); err != nil {
						b.Fatal(err)
					}
					rr.Release()
					if math.Abs(sum-wantSum) > 1e-6*wantSum {
						b.Fatalf("sum %v, want %v", sum, wantSum)
					}
				}
				b.ReportMetric(float64(total)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			})
			b.Run(name+"/sum-where/duckdb", func(b *testing.B) {
				duckBench(b, threads, total, fmt.Sprintf("SELECT sum(v) AS s FROM read_parquet(%s, hive_partitioning = true) WHERE id < %d", duckdb.Quote(glob), half))
			})
		}
	}
}

// duckRepeat matches the summary line the DuckDB helper prints for
// --repeat.
var duckRepeat = regexp.MustCompile(`# repeat=\d+ min=([0-9.]+) median=([0-9.]+)`)

// duckBench runs sql b.N times in one DuckDB process with threads threads
// and reports the median time of one run as ns/op (and rows/s over rows),
// replacing the wall time that includes starting node.
func duckBench(b *testing.B, threads int, rows int64, sql string) {
	cmd := exec.Command(duckdb.Script(b), "--threads", strconv.Itoa(threads), "--repeat", strconv.Itoa(b.N), "--quiet", sql)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("duckdb: %v\n%s", err, stderr.Bytes())
	}
	m := duckRepeat.FindSubmatch(stderr.Bytes())
	if m == nil {
		if b.N != 1 {
			b.Fatalf("no timing in DuckDB's output:\n%s", stderr.Bytes())
		}
		m = regexp.MustCompile(`# ms=([0-9.]+)`).FindSubmatch(stderr.Bytes())
		if m == nil {
			b.Fatalf("no timing in DuckDB's output:\n%s", stderr.Bytes())
		}
		m = [][]byte{nil, m[1], m[1]}
	}
	ms, err := strconv.ParseFloat(string(m[2]), 64)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(ms*1e6, "ns/op")
	b.ReportMetric(float64(rows)/(ms/1e3), "rows/s")
}
