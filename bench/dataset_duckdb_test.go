package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/dataset"
	"github.com/quiverio/quiver/internal/cputime"
	"github.com/quiverio/quiver/internal/duckdb"
	"github.com/quiverio/quiver/pageindex"
)

// BenchmarkDatasetVsDuckDB runs the same queries over the same
// hive-partitioned glob in Quiver (package dataset) and in DuckDB's
// read_parquet (hive_partitioning), with 1 and 2 threads:
//
//   - count: count(*), from the footers;
//   - pruned: count(*) WHERE id < 0, which opens every file, reads its
//     footer and plans its read, and rules every row group out by
//     statistics, so that nothing is decoded: the per-file overhead
//     (ns/file);
//   - partition: the whole-scan aggregate WHERE p < files/100 (at least
//     1), a partition filter selecting 1% of the files (one of the 20
//     large ones); the first file, whose footer gives the dataset's
//     schema, is one of them;
//   - sum-where: the sum of a column over the rows a filter on another
//     data column selects (half the rows, by id);
//   - whole-scan: an aggregate over every column (see wholeScan), by
//     Quiver's default read and, as quiver-tuned, with strings read as
//     dictionary arrays and the recycling allocator.
//
// Quiver runs with GOMAXPROCS at the thread count (Read.Parallelism left
// to the scan, which shares it between the files read at once) and opens
// the dataset anew for every query, as DuckDB reads the footers anew.
// DuckDB's ns/op is the median of its own per-query wall times, without
// node's startup, and its cpu-ns/op the median CPU time of its process per
// query; both sides report rows/s over the rows the dataset holds and
// ns/file over its files, and both answers are checked. Quiver's side
// reports the distinct files it opened (files-opened: a failure when it
// differs from those the query must open, the files its partition
// conditions select) and its calls to Source.Open (opens/op: the schema's
// file is opened once more, to read it). cmd/ratios -page
// renders the results as the page's "Datasets against DuckDB" table.
func BenchmarkDatasetVsDuckDB(b *testing.B) {
	small, large := dsSets(b)
	for _, set := range []dsSet{small, large} {
		dir := set.dir(b)
		glob := dir + "/**/*.parquet"
		from := fmt.Sprintf("FROM read_parquet(%s, hive_partitioning = true)", duckdb.Quote(glob))
		total := int64(set.files * set.rows)
		half := total / 2
		var wantSum float64 // v = (id % 977) / 2 over id < half
		for id := range half {
			wantSum += float64(id%977) * 0.5
		}
		want := wantAggregate(set, set.files)
		parts := max(1, set.files/100)
		wantParts := wantAggregate(set, parts)
		sumWhere := parse(b, fmt.Sprintf("id < %d", half))
		none := parse(b, "id < 0")
		inParts := parse(b, fmt.Sprintf("p < %d", parts))
		for _, threads := range []int{1, 2} {
			name := fmt.Sprintf("%s/threads=%d", set.name, threads)
			quiver := func(query, impl string, opts dataset.Options, wantFiles int, run func(*dataset.Dataset) error) {
				b.Run(name+"/query="+query+"/impl="+impl, func(b *testing.B) {
					defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(threads))
					b.ReportAllocs()
					src := &openCounter{Source: dataset.Local}
					cpu, ok := cputime.Process()
					for b.Loop() {
						ds, err := dataset.Open(context.Background(), src, []string{glob}, opts)
						if err != nil {
							b.Fatal(err)
						}
						if err := run(ds); err != nil {
							b.Fatal(err)
						}
					}
					cputime.Report(b, cpu, ok)
					if files := src.files(); wantFiles >= 0 && files != wantFiles {
						b.Fatalf("%d files opened, want %d", files, wantFiles)
					}
					ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
					b.ReportMetric(float64(total)/(ns/1e9), "rows/s")
					b.ReportMetric(ns/float64(set.files), "ns/file")
					b.ReportMetric(float64(src.files()), "files-opened")
					b.ReportMetric(float64(src.opens.Load())/float64(b.N), "opens/op")
				})
			}
			duck := func(query, sql string, check func(duckdb.Row) error) {
				b.Run(name+"/query="+query+"/impl=duckdb", func(b *testing.B) {
					duckBench(b, threads, set.files, total, sql, check)
				})
			}
			aggregates := func(want aggregate) func(*dataset.Dataset) error {
				return func(ds *dataset.Dataset) error {
					if got, err := wholeScan(ds); err != nil || !got.equal(want) {
						return fmt.Errorf("got %+v, %v; want %+v", got, err, want)
					}
					return nil
				}
			}
			quiver("count", "quiver", dataset.Options{}, -1, func(ds *dataset.Dataset) error {
				if n, err := ds.CountRows(context.Background()); err != nil || n != total {
					return fmt.Errorf("CountRows = %d, %v; want %d", n, err, total)
				}
				return nil
			})
			duck("count", "SELECT count(*) AS n "+from, aggregate{n: total}.check("n"))
			quiver("pruned", "quiver", dataset.Options{Filter: none, Columns: []string{"id"}, Unordered: true}, set.files, aggregates(aggregate{}))
			duck("pruned", "SELECT count(*) AS n "+from+" WHERE id < 0", aggregate{}.check("n"))
			quiver("partition", "quiver", dataset.Options{Filter: inParts, Unordered: true}, parts, aggregates(wantParts))
			duck("partition", fmt.Sprintf("SELECT %s %s WHERE p < %d", wholeScanSQL, from, parts), wantParts.check("n", "sp", "sid", "sv", "ss"))
			quiver("sum-where", "quiver", dataset.Options{Filter: sumWhere, Columns: []string{"v"}, Unordered: true}, set.files, aggregates(aggregate{n: half, sv: wantSum}))
			duck("sum-where", fmt.Sprintf("SELECT sum(v) AS sv %s WHERE id < %d", from, half), aggregate{sv: wantSum}.check("sv"))
			quiver("whole-scan", "quiver", dataset.Options{Unordered: true}, set.files, aggregates(want))
			// With two of arrowio's opt-in read options: s as dictionary
			// arrays (as DuckDB's dictionary vectors, which skip copying
			// each row's bytes) and buffers recycled between batches.
			tuned := arrowio.ReadOptions{Dictionary: []string{"s"}, Allocator: arrowio.NewRecyclingAllocator()}
			quiver("whole-scan", "quiver-tuned", dataset.Options{Unordered: true, Read: tuned}, set.files, aggregates(want))
			duck("whole-scan", "SELECT "+wholeScanSQL+" "+from, want.check("n", "sp", "sid", "sv", "ss"))
		}
	}
}

// parse parses a predicate, failing b on an error.
func parse(b *testing.B, where string) pageindex.Predicate {
	p, err := pageindex.Parse(where)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// duckRepeat matches the summary line the DuckDB helper prints for
// --repeat, and duckOnce the line of a single run.
var (
	duckRepeat = regexp.MustCompile(`# repeat=\d+ min=[0-9.]+ median=([0-9.]+) max=[0-9.]+ cpu_median=([0-9.]+)`)
	duckOnce   = regexp.MustCompile(`# ms=([0-9.]+) cpu_ms=([0-9.]+)`)
)

// duckBench runs sql b.N times in one DuckDB process with threads threads,
// checks the row it returns, and reports the median wall time of one run
// as ns/op and its median CPU time as cpu-ns/op (and rows/s over rows,
// ns/file over files), replacing the wall time that includes starting
// node.
func duckBench(b *testing.B, threads, files int, rows int64, sql string, check func(duckdb.Row) error) {
	cmd := exec.Command(duckdb.Script(b), "--threads", strconv.Itoa(threads), "--repeat", strconv.Itoa(b.N), sql)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("duckdb: %v\n%s", err, stderr.Bytes())
	}
	var row duckdb.Row
	if err := json.Unmarshal(stdout.Bytes(), &row); err != nil {
		b.Fatalf("duckdb output %q: %v", stdout.Bytes(), err)
	}
	if err := check(row); err != nil {
		b.Fatalf("duckdb: %v", err)
	}
	re := duckRepeat
	if b.N == 1 {
		re = duckOnce
	}
	m := re.FindSubmatch(stderr.Bytes())
	if m == nil {
		b.Fatalf("no timing in DuckDB's output:\n%s", stderr.Bytes())
	}
	ms, err1 := strconv.ParseFloat(string(m[1]), 64)
	cpu, err2 := strconv.ParseFloat(string(m[2]), 64)
	if err1 != nil || err2 != nil {
		b.Fatalf("timing in DuckDB's output: %v, %v", err1, err2)
	}
	b.ReportMetric(ms*1e6, "ns/op")
	b.ReportMetric(cpu*1e6, "cpu-ns/op")
	b.ReportMetric(float64(rows)/(ms/1e3), "rows/s")
	b.ReportMetric(ms*1e6/float64(files), "ns/file")
}

// wholeScanSQL is DuckDB's side of the whole scan: an aggregate over every
// column, which its optimizer cannot answer from metadata (EXPLAIN
// ANALYZE shows READ_PARQUET projecting p, id, v and s and returning
// every row). Quiver's side, wholeScan, decodes every column of every row
// into Arrow arrays (strings as offsets and bytes by default, where DuckDB
// keeps dictionary vectors; as dictionary arrays in the tuned case) and
// computes the same aggregate from them, value by value, so both read,
// decompress and decode all the data and touch every value.
const wholeScanSQL = "count(*) AS n, sum(p) AS sp, sum(id) AS sid, sum(v) AS sv, sum(strlen(s)) AS ss"

// aggregate is the result of wholeScanSQL: rows, the sums of p, id and v,
// and the total length of s.
type aggregate struct {
	n, sp, sid, ss int64
	sv             float64
}

// wantAggregate computes the whole-scan aggregate of the first files
// files of set from the rows dsRow generates.
func wantAggregate(set dsSet, files int) aggregate {
	var a aggregate
	for i := range files * set.rows {
		p, id, v, s := dsRow(i, set.rows)
		a.n++
		a.sp += p
		a.sid += id
		a.sv += v
		a.ss += int64(len(s))
	}
	return a
}

// equal compares the integer sums exactly and sv within rounding, since
// the order of the additions differs.
func (a aggregate) equal(b aggregate) bool {
	return a.n == b.n && a.sp == b.sp && a.sid == b.sid && a.ss == b.ss && math.Abs(a.sv-b.sv) <= 1e-9*math.Abs(b.sv)
}

// check returns a function that compares the named columns of DuckDB's
// result row with a (integers come as strings, doubles as numbers).
func (a aggregate) check(cols ...string) func(duckdb.Row) error {
	ints := map[string]int64{"n": a.n, "sp": a.sp, "sid": a.sid, "ss": a.ss}
	return func(r duckdb.Row) error {
		for _, c := range cols {
			if c == "sv" {
				got, ok := r[c].(float64)
				if !ok || !(aggregate{sv: got}).equal(aggregate{sv: a.sv}) {
					return fmt.Errorf("%s = %v, want %v", c, r[c], a.sv)
				}
				continue
			}
			if got := fmt.Sprint(r[c]); got != strconv.FormatInt(ints[c], 10) {
				return fmt.Errorf("%s = %s, want %d", c, got, ints[c])
			}
		}
		return nil
	}
}

// wholeScan reads every column of every row of ds and returns the
// aggregate of wholeScanSQL over the columns p, id, v and s it has (the
// sums of the others stay 0). The benchmark datasets hold no nulls; a
// null is an error rather than a sum that skips it.
func wholeScan(ds *dataset.Dataset) (aggregate, error) {
	var a aggregate
	rr, err := ds.RecordReader(context.Background())
	if err != nil {
		return a, err
	}
	defer rr.Release()
	col := func(name string) int {
		if idx := rr.Schema().FieldIndices(name); len(idx) == 1 {
			return idx[0]
		}
		return -1
	}
	cp, cid, cv, cs := col("p"), col("id"), col("v"), col("s")
	for rr.Next() {
		b := rr.RecordBatch()
		for _, c := range b.Columns() {
			if c.NullN() != 0 {
				return a, fmt.Errorf("unexpected nulls in %s", c.DataType())
			}
		}
		a.n += b.NumRows()
		for _, c := range []struct {
			i   int
			sum *int64
		}{{cp, &a.sp}, {cid, &a.sid}} {
			if c.i >= 0 {
				s, err := sumInt64(b.Column(c.i))
				if err != nil {
					return a, err
				}
				*c.sum += s
			}
		}
		if cv >= 0 {
			v, ok := b.Column(cv).(*array.Float64)
			if !ok {
				return a, fmt.Errorf("v is %s, want float64", b.Column(cv).DataType())
			}
			// A local sum: adding to a.sv in the loop keeps it in memory,
			// a store and a load per value.
			var sv float64
			for _, x := range v.Float64Values() {
				sv += x
			}
			a.sv += sv
		}
		if cs >= 0 {
			ss, err := sumLen(b.Column(cs))
			if err != nil {
				return a, err
			}
			a.ss += ss
		}
	}
	return a, rr.Err()
}

// sumLen sums the byte lengths of a string array, or of a dictionary
// array of strings with int32 indices (Options.Read.Dictionary), value by
// value.
func sumLen(c arrow.Array) (int64, error) {
	var s int64
	switch c := c.(type) {
	case *array.String:
		off := c.ValueOffsets()
		for i := 1; i < len(off); i++ {
			s += int64(off[i] - off[i-1])
		}
		return s, nil
	case *array.Dictionary:
		vals, ok := c.Dictionary().(*array.String)
		idx, ok2 := c.Indices().(*array.Int32)
		if ok && ok2 {
			lens := make([]int64, vals.Len())
			for i := range lens {
				lens[i] = int64(vals.ValueLen(i))
			}
			for _, i := range idx.Int32Values() {
				s += lens[i]
			}
			return s, nil
		}
	}
	return 0, fmt.Errorf("lengths of %s: want utf8 or dictionary<int32, utf8>", c.DataType())
}

// sumInt64 sums an int64 array, or a dictionary array of int64 values
// with int32 indices (a partition column).
func sumInt64(c arrow.Array) (int64, error) {
	var s int64
	switch c := c.(type) {
	case *array.Int64:
		for _, x := range c.Int64Values() {
			s += x
		}
		return s, nil
	case *array.Dictionary:
		vals, ok := c.Dictionary().(*array.Int64)
		idx, ok2 := c.Indices().(*array.Int32)
		if ok && ok2 {
			v := vals.Int64Values()
			for _, i := range idx.Int32Values() {
				s += v[i]
			}
			return s, nil
		}
	}
	return 0, fmt.Errorf("sum of %s: want int64 or dictionary<int32, int64>", c.DataType())
}
