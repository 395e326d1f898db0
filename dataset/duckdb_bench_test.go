package dataset

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

	"github.com/quiverio/quiver/internal/duckdb"
	"github.com/quiverio/quiver/pageindex"
)

// BenchmarkVsDuckDB runs the same queries over the same hive-partitioned
// glob in Quiver and in DuckDB's read_parquet (hive_partitioning), with 1
// and 2 threads: count(*); the sum of a column over the rows a filter on
// another data column selects (half the rows, by id); and a whole scan, an
// aggregate over every column (see wholeScan). Quiver runs with GOMAXPROCS
// at the thread count and opens the dataset anew for every query, as
// DuckDB reads the footers anew. DuckDB's ns/op is the median of its own
// per-query wall times, without node's startup; both report rows/s over
// the rows the dataset holds, and both answers are checked.
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
		want := wantAggregate(set)
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
				duckBench(b, threads, total, fmt.Sprintf("SELECT count(*) AS n FROM read_parquet(%s, hive_partitioning = true)", duckdb.Quote(glob)),
					aggregate{n: total}.check("n"))
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
				duckBench(b, threads, total, fmt.Sprintf("SELECT sum(v) AS sv FROM read_parquet(%s, hive_partitioning = true) WHERE id < %d", duckdb.Quote(glob), half),
					aggregate{sv: wantSum}.check("sv"))
			})
			b.Run(name+"/whole-scan/quiver", func(b *testing.B) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(threads))
				b.ReportAllocs()
				for b.Loop() {
					ds, err := Open(context.Background(), nil, []string{glob}, Options{Unordered: true})
					if err != nil {
						b.Fatal(err)
					}
					got, err := wholeScan(ds)
					if err != nil {
						b.Fatal(err)
					}
					if !got.equal(want) {
						b.Fatalf("whole scan %+v, want %+v", got, want)
					}
				}
				b.ReportMetric(float64(total)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			})
			b.Run(name+"/whole-scan/duckdb", func(b *testing.B) {
				duckBench(b, threads, total, fmt.Sprintf("SELECT %s FROM read_parquet(%s, hive_partitioning = true)", wholeScanSQL, duckdb.Quote(glob)),
					want.check("n", "sp", "sid", "sv", "ss"))
			})
		}
	}
}

// duckRepeat matches the summary line the DuckDB helper prints for
// --repeat.
var duckRepeat = regexp.MustCompile(`# repeat=\d+ min=([0-9.]+) median=([0-9.]+)`)

// duckBench runs sql b.N times in one DuckDB process with threads threads,
// checks the row it returns, and reports the median time of one run as
// ns/op (and rows/s over rows), replacing the wall time that includes
// starting node.
func duckBench(b *testing.B, threads int, rows int64, sql string, check func(duckdb.Row) error) {
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

// wholeScanSQL is DuckDB's side of the whole scan: an aggregate over every
// column, which its optimizer cannot answer from metadata (EXPLAIN
// ANALYZE shows READ_PARQUET projecting p, id, v and s and returning
// every row). Quiver's side, wholeScan, decodes every column of every row
// into Arrow arrays (strings as offsets and bytes, where DuckDB may keep
// dictionary vectors) and computes the same aggregate from them, so both
// read, decompress and decode all the data and touch every value.
const wholeScanSQL = "count(*) AS n, sum(p) AS sp, sum(id) AS sid, sum(v) AS sv, sum(strlen(s)) AS ss"

// aggregate is the result of wholeScanSQL: rows, the sums of p, id and v,
// and the total length of s.
type aggregate struct {
	n, sp, sid, ss int64
	sv             float64
}

// wantAggregate computes the whole-scan aggregate of set from the rows
// benchRow generates.
func wantAggregate(set benchSet) aggregate {
	var a aggregate
	for i := range set.files * set.rows {
		p, id, v, s := benchRow(i, set.rows)
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
// aggregate of wholeScanSQL. The benchmark datasets hold no nulls; a null
// is an error rather than a sum that skips it.
func wholeScan(ds *Dataset) (aggregate, error) {
	var a aggregate
	rr, err := ds.RecordReader(context.Background())
	if err != nil {
		return a, err
	}
	defer rr.Release()
	s := rr.Schema()
	col := func(name string) int {
		if idx := s.FieldIndices(name); len(idx) == 1 {
			return idx[0]
		}
		return -1
	}
	cp, cid, cv, cs := col("p"), col("id"), col("v"), col("s")
	if min(cp, cid, cv, cs) < 0 {
		return a, fmt.Errorf("schema %s lacks one of p, id, v, s", s)
	}
	for rr.Next() {
		b := rr.RecordBatch()
		for _, c := range b.Columns() {
			if c.NullN() != 0 {
				return a, fmt.Errorf("unexpected nulls in %s", c.DataType())
			}
		}
		a.n += b.NumRows()
		sp, err := sumInt64(b.Column(cp))
		if err != nil {
			return a, err
		}
		sid, err := sumInt64(b.Column(cid))
		if err != nil {
			return a, err
		}
		a.sp += sp
		a.sid += sid
		v, ok := b.Column(cv).(*array.Float64)
		str, ok2 := b.Column(cs).(*array.String)
		if !ok || !ok2 {
			return a, fmt.Errorf("v is %s and s %s, want float64 and utf8", b.Column(cv).DataType(), b.Column(cs).DataType())
		}
		for _, x := range v.Float64Values() {
			a.sv += x
		}
		off := str.ValueOffsets()
		for i := 1; i < len(off); i++ {
			a.ss += int64(off[i] - off[i-1])
		}
	}
	return a, rr.Err()
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
