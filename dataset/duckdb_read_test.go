package dataset

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/internal/duckdb"
	"github.com/quiverio/quiver/pageindex"
)

// duckText formats element i of a as the DuckDB helper's JSON gives the
// value (see normDuck), looking through dictionaries and run-end encoding.
func duckText(a arrow.Array, i int) string {
	switch a := a.(type) {
	case *array.Dictionary:
		if a.IsNull(i) {
			return "null"
		}
		return duckText(a.Dictionary(), a.GetValueIndex(i))
	case *array.RunEndEncoded:
		return duckText(a.Values(), a.GetPhysicalIndex(i))
	}
	if a.IsNull(i) {
		return "null"
	}
	switch a := a.(type) {
	case *array.Timestamp:
		return a.Value(i).ToTime(a.DataType().(*arrow.TimestampType).Unit).Format("2006-01-02 15:04:05.999999")
	case *array.Float64:
		return strconv.FormatFloat(a.Value(i), 'g', -1, 64)
	case *array.Decimal128:
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal128Type).Scale)
	case *array.List:
		start, end := a.ValueOffsets(i)
		var parts []string
		for j := start; j < end; j++ {
			parts = append(parts, duckText(a.ListValues(), int(j)))
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	return a.ValueStr(i)
}

// normDuck formats a value of the DuckDB helper's JSON output.
func normDuck(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = normDuck(x)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	return fmt.Sprint(v)
}

// duckRows runs a query and returns its rows as sorted "col=value;" lines
// over cols.
func duckRows(t *testing.T, cols []string, sql string) []string {
	var out []string
	for _, r := range duckdb.Query(t, sql) {
		var b strings.Builder
		for _, c := range cols {
			fmt.Fprintf(&b, "%s=%s;", c, normDuck(r[c]))
		}
		out = append(out, b.String())
	}
	slices.Sort(out)
	return out
}

// quiverRows reads the dataset's rows as duckRows formats them.
func quiverRows(t *testing.T, ds *Dataset, cols []string) []string {
	rr, err := ds.RecordReader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	var out []string
	for rr.Next() {
		b := rr.RecordBatch()
		idx := make([]int, len(cols))
		for j, c := range cols {
			k := b.Schema().FieldIndices(c)
			if len(k) == 0 {
				t.Fatalf("no column %q in %s", c, b.Schema())
			}
			idx[j] = k[0]
		}
		for i := range int(b.NumRows()) {
			var sb strings.Builder
			for j, c := range cols {
				fmt.Fprintf(&sb, "%s=%s;", c, duckText(b.Column(idx[j]), i))
			}
			out = append(out, sb.String())
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// duckSource is the query a DuckDB-written dataset is generated from: every
// type family, nulls, and partition values that need escaping, that are
// null (__HIVE_DEFAULT_PARTITION__) or empty.
const duckSource = `SELECT i, 2022 + (i % 3) AS year, DATE '2024-01-01' + (i % 4)::INTEGER AS day,
	CASE i % 5 WHEN 0 THEN 'alpha' WHEN 1 THEN 'x y=z/%' WHEN 2 THEN 'gamma δ' WHEN 3 THEN NULL ELSE '' END AS cat,
	((i * 0.37)::DOUBLE % 1) AS f, CASE WHEN i % 7 = 0 THEN NULL ELSE 's' || (i % 13) END AS s,
	(i % 17)::SMALLINT AS small, ((i % 1000)::DECIMAL(10,2) / 8)::DECIMAL(12,3) AS dec,
	TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i * 1001) MILLISECOND AS ts, i % 2 = 0 AS b,
	CASE WHEN i % 11 = 0 THEN NULL ELSE [i % 3, i % 5] END AS l
	FROM range(ROWS) t(i)`

// duckFilters are filters in pq --where syntax and their SQL.
var duckFilters = [][2]string{
	{`year = 2023`, `year = 2023`},
	{`cat = "x y=z/%"`, `cat = 'x y=z/%'`},
	{`cat is null`, `cat IS NULL`},
	{`cat = ""`, `cat = ''`},
	{`day >= "2024-01-03"`, `day >= DATE '2024-01-03'`},
	{`i < 5000 and year != 2022`, `i < 5000 AND year != 2022`},
	{`s prefix "s1"`, `starts_with(s, 's1')`},
	{`small in (1, 2, 3) or cat = "alpha"`, `small IN (1, 2, 3) OR cat = 'alpha'`},
	{`f > 0.5 and not (year = 2024)`, `f > 0.5 AND NOT (year = 2024)`},
	{`b = true and dec >= 60.5`, `b AND dec >= 60.5`},
	{`ts < 1704070000000000 and s is not null`, `ts < TIMESTAMP '2024-01-01 00:46:40' AND s IS NOT NULL`},
	{`year = 2024 and day = "2024-01-02" and i >= 100`, `year = 2024 AND day = DATE '2024-01-02' AND i >= 100`},
	// SQL's own literals, and NOT over nulls in partition keys (cat) and
	// data columns (s), in three-valued logic.
	{`day = DATE '2024-01-02' and ts >= TIMESTAMP '2024-01-01 00:46:40.5'`, `day = DATE '2024-01-02' AND ts >= TIMESTAMP '2024-01-01 00:46:40.5'`},
	{`not (ts > TIMESTAMP '2024-01-01 01:00:00.0005' or f < 0.3)`, `NOT (ts > TIMESTAMP '2024-01-01 01:00:00.0005' OR f < 0.3)`},
	{`not (cat = 'alpha')`, `NOT (cat = 'alpha')`},
	{`not (cat is null) and not (s = 's1')`, `NOT (cat IS NULL) AND NOT (s = 's1')`},
	{`not (cat in ('alpha', '') or s prefix 's1')`, `NOT (cat IN ('alpha', '') OR starts_with(s, 's1'))`},
	{`not (day < '2024-01-03' and cat != 'gamma δ')`, `NOT (day < DATE '2024-01-03' AND cat != 'gamma δ')`},
}

// Datasets DuckDB writes, hive-partitioned with each codec, read as DuckDB
// reads them: the same rows, per-column aggregates and filtered counts.
func TestReadDuckDBDatasets(t *testing.T) {
	duckdb.Script(t)
	codecs := []string{"zstd", "snappy", "gzip", "uncompressed", "lz4", "brotli"}
	if testing.Short() {
		codecs = codecs[:2]
	}
	const rows = 20000
	for _, codec := range codecs {
		t.Run(codec, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "ds")
			// DuckDB reads the data files by a glob that leaves out what
			// Quiver skips by itself in the directory.
			glob := duckdb.Quote(dir + "/year=*/**/*.parquet")
			src := strings.Replace(duckSource, "ROWS", strconv.Itoa(rows), 1)
			duckdb.Query(t, fmt.Sprintf("COPY (%s) TO %s (FORMAT parquet, PARTITION_BY (year, day, cat), COMPRESSION %s, ROW_GROUP_SIZE 700)", src, duckdb.Quote(dir), codec),
				fmt.Sprintf("COPY (SELECT * EXCLUDE (year, day, cat) FROM (%s) WHERE false) TO %s (FORMAT parquet, COMPRESSION %s)", src, duckdb.Quote(dir+"/year=2022/day=2024-01-01/cat=alpha/empty.parquet"), codec))
			// What Spark and Hadoop leave beside data files.
			touch(t, dir, "_SUCCESS", "year=2022/._SUCCESS.crc", "year=2022/day=2024-01-01/cat=alpha/.data_0.parquet.crc", "_temporary/0/x.parquet")

			ds, err := Open(context.Background(), nil, []string{dir}, Options{SchemaMode: SchemaUnify})
			if err != nil {
				t.Fatal(err)
			}
			read := "read_parquet(" + glob + ", hive_partitioning = true)"
			cols := []string{"i", "year", "day", "cat", "f", "s", "small", "dec", "ts", "b", "l"}
			want := duckRows(t, cols, "SELECT * FROM "+read)
			got := quiverRows(t, ds, cols)
			if len(want) != rows || !slices.Equal(got, want) {
				t.Errorf("rows differ: %d from quiver, %d from DuckDB", len(got), len(want))
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						t.Fatalf("first difference:\nquiver %s\nduckdb %s", got[i], want[i])
					}
				}
			}
			// Aggregates and filtered counts in one DuckDB run.
			sql := []string{"count(i) AS ci, sum(i) AS si, count(small) AS csmall, sum(small) AS ssmall, count(f) AS cf, sum(f) AS sf, " +
				"count(s) AS cs, min(s) AS mins, max(s) AS maxs, count(dec) AS cdec, count(ts) AS cts, count(b) AS cb, count(l) AS cl"}
			for i, f := range duckFilters {
				sql = append(sql, fmt.Sprintf("(SELECT count(*) FROM %s WHERE %s) AS c%d", read, f[1], i))
			}
			counts := duckdb.QueryRow(t, "SELECT "+strings.Join(sql, ", ")+" FROM "+read)
			checkAggregates(t, ds, counts)
			for i, f := range duckFilters {
				p, err := pageindex.Parse(f[0])
				if err != nil {
					t.Fatal(err)
				}
				fds, err := Open(context.Background(), nil, []string{dir}, Options{SchemaMode: SchemaUnify, Filter: p})
				if err != nil {
					t.Fatalf("%s: %v", f[0], err)
				}
				want := normDuck(counts[fmt.Sprintf("c%d", i)])
				n, err := fds.CountRows(context.Background())
				if err != nil || fmt.Sprint(n) != want {
					t.Errorf("%s: CountRows = %d, %v; DuckDB counts %s", f[0], n, err, want)
				}
				if got := len(quiverRows(t, fds, []string{"i"})); fmt.Sprint(got) != want {
					t.Errorf("%s: %d rows read; DuckDB counts %s", f[0], got, want)
				}
			}
		})
	}
}

// checkAggregates compares count, min, max and sum (where they apply) of
// every data column with DuckDB's over the same files, r.
func checkAggregates(t *testing.T, ds *Dataset, r duckdb.Row) {
	type agg struct {
		count    int64
		min, max string
		sum      float64
		isum     int64
	}
	aggs := map[string]*agg{}
	rr, _ := ds.RecordReader(context.Background())
	defer rr.Release()
	for rr.Next() {
		b := rr.RecordBatch()
		for c, col := range b.Columns() {
			name := b.ColumnName(c)
			a := aggs[name]
			if a == nil {
				a = &agg{}
				aggs[name] = a
			}
			for i := range col.Len() {
				if col.IsNull(i) {
					continue
				}
				a.count++
				switch col := col.(type) {
				case *array.Int64:
					a.isum += col.Value(i)
				case *array.Int16:
					a.isum += int64(col.Value(i))
				case *array.Float64:
					a.sum += col.Value(i)
				case *array.String:
					if v := col.Value(i); a.count == 1 || v < a.min {
						a.min = v
					}
					if v := col.Value(i); v > a.max {
						a.max = v
					}
				}
			}
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	check := func(what string, got any, want any) {
		if fmt.Sprint(got) != normDuck(want) {
			t.Errorf("%s: quiver %v, DuckDB %v", what, got, want)
		}
	}
	check("count(i)", aggs["i"].count, r["ci"])
	check("sum(i)", aggs["i"].isum, r["si"])
	check("count(small)", aggs["small"].count, r["csmall"])
	check("sum(small)", aggs["small"].isum, r["ssmall"])
	check("count(f)", aggs["f"].count, r["cf"])
	if sf := r["sf"].(float64); math.Abs(aggs["f"].sum-sf) > 1e-9*math.Abs(sf) {
		t.Errorf("sum(f): quiver %v, DuckDB %v", aggs["f"].sum, sf)
	}
	check("count(s)", aggs["s"].count, r["cs"])
	check("min(s)", aggs["s"].min, r["mins"])
	check("max(s)", aggs["s"].max, r["maxs"])
	check("count(dec)", aggs["dec"].count, r["cdec"])
	check("count(ts)", aggs["ts"].count, r["cts"])
	check("count(b)", aggs["b"].count, r["cb"])
	check("count(l)", aggs["l"].count, r["cl"])
}
