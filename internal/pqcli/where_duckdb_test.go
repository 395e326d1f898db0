package pqcli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/internal/duckdb"
)

// whereFile writes 300 rows with nulls in every column but id: integers,
// strings, doubles, booleans, dates, local timestamps in microseconds,
// UTC timestamps in milliseconds and times of day, in pages of 16 rows
// with statistics and page indexes, so that pruning takes part.
func whereFile(t *testing.T) string {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
		{Name: "tsz", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, Nullable: true},
		{Name: "tm", Type: arrow.FixedWidthTypes.Time64us, Nullable: true},
	}, nil)
	bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer bld.Release()
	for id := range int64(300) {
		bld.Field(0).(*array.Int64Builder).Append(id)
		appendOr := func(col int, null bool, app func(array.Builder)) {
			if null {
				bld.Field(col).AppendNull()
				return
			}
			app(bld.Field(col))
		}
		appendOr(1, id%5 == 0, func(b array.Builder) { b.(*array.Int64Builder).Append(id*7%23 - 11) })
		appendOr(2, id%7 == 0, func(b array.Builder) { b.(*array.StringBuilder).Append([]string{"a", "b", "c", "ab"}[id%4]) })
		appendOr(3, id%3 == 0, func(b array.Builder) { b.(*array.Float64Builder).Append(float64(id%13) / 2) })
		appendOr(4, id%4 == 1, func(b array.Builder) { b.(*array.BooleanBuilder).Append(id%3 == 0) })
		appendOr(5, id%6 == 5, func(b array.Builder) { b.(*array.Date32Builder).Append(arrow.Date32(19_300 + id/8)) })
		appendOr(6, id%9 == 4, func(b array.Builder) {
			b.(*array.TimestampBuilder).Append(arrow.Timestamp(whereBase.UnixMicro() + id*37*60e6 + id*250))
		})
		appendOr(7, id%8 == 3, func(b array.Builder) {
			b.(*array.TimestampBuilder).Append(arrow.Timestamp(whereBase.UnixMilli() + id*3_600_001))
		})
		appendOr(8, id%10 == 7, func(b array.Builder) { b.(*array.Time64Builder).Append(arrow.Time64(id * 299_000_123)) })
	}
	rec := bld.NewRecordBatch()
	defer rec.Release()
	return writeTestFile(t, "where.parquet", rec, arrowio.WriteOptions{DataPageRows: 16, MaxRowGroupRows: 100})
}

// whereBase is the first timestamp of whereFile.
var whereBase = time.Date(2022, 11, 4, 0, 0, 0, 0, time.UTC)

// whereLeaves are conditions that read the same in Quiver and in DuckDB.
var whereLeaves = []string{
	"i = 1", "i != 2", "i <> -3", "i < 0", "i >= 5", "i IN (1, 2, 3, -11)", "i IS NULL", "i IS NOT NULL",
	"s = 'a'", "s > 'a'", "s IN ('b', 'ab')", "s IS NULL",
	"f < 3", "f >= 2.5", "f = 0", "f IS NULL",
	"b = true", "b != false", "b IS NULL",
	"d = DATE '2022-11-10'", "d < '2022-11-08'", "d >= DATE '2022-11-20'", "d <= TIMESTAMP '2022-11-12 00:00:00'",
	"d < TIMESTAMP '2022-11-12 00:00:01'", "d IS NULL",
	"ts > TIMESTAMP '2022-11-05 10:00:00'", "ts <= '2022-11-06 12:21:00.016'", "ts = TIMESTAMP '2022-11-04 00:37:00.00025'",
	"ts >= DATE '2022-11-07'", "ts < TIMESTAMPTZ '2022-11-05 12:00:00+02:00'",
	"tsz > TIMESTAMP '2022-11-10 00:00:00.0005'", "tsz >= TIMESTAMP '2022-11-10 00:00:00.0005'",
	"tsz < TIMESTAMPTZ '2022-11-06 01:00:00-03:00'", "tsz = '2022-11-04 01:00:00.001'", "tsz IS NULL",
	"tm < TIME '05:00:00'", "tm >= '10:30:00.5'", "tm = TIME '00:04:59.000123'",
}

// TestWhereMatchesDuckDB runs hand-written and random predicates over a
// file with nulls through pq cat --where and through DuckDB's WHERE
// (session time zone UTC): both select the same rows. SQL's three-valued
// logic decides what NOT selects where a value is null.
func TestWhereMatchesDuckDB(t *testing.T) {
	duckdb.Script(t)
	path := whereFile(t)
	preds := []string{
		"NOT (i = 1)", "NOT (i IS NULL)", "NOT (i IS NOT NULL)", "NOT (i > 0 AND s = 'a')", "NOT (i > 0 OR s = 'a')",
		"NOT (NOT (i < 3))", "i != 2 OR s IS NULL", "NOT (i IN (1, 2, 3))", "NOT (s IN ('a', 'b')) AND f > 1",
		"NOT (f < 3)", "NOT (b = true)", "NOT (d >= DATE '2022-11-10') OR NOT (s = 'c')", "NOT (i IN ())",
		"NOT (tsz > TIMESTAMP '2022-11-10 00:00:00.0005' AND tm < TIME '12:00:00')", "NOT (ts IS NULL OR i = 4)",
	}
	preds = slices.DeleteFunc(preds, func(p string) bool { return p == "NOT (i IN ())" }) // DuckDB has no empty IN list
	rng := rand.New(rand.NewPCG(25, 3))
	var random func(depth int) string
	random = func(depth int) string {
		if depth == 0 || rng.IntN(3) == 0 {
			return whereLeaves[rng.IntN(len(whereLeaves))]
		}
		switch rng.IntN(3) {
		case 0:
			return "NOT (" + random(depth-1) + ")"
		case 1:
			return "(" + random(depth-1) + ") AND (" + random(depth-1) + ")"
		}
		return "(" + random(depth-1) + ") OR (" + random(depth-1) + ")"
	}
	preds = append(preds, whereLeaves...)
	for range 80 {
		preds = append(preds, random(4))
	}

	var sql strings.Builder
	sql.WriteString("SELECT k, list(id ORDER BY id) AS ids FROM (")
	for k, p := range preds {
		if k > 0 {
			sql.WriteString(" UNION ALL ")
		}
		fmt.Fprintf(&sql, "SELECT %d AS k, id FROM read_parquet(%s) WHERE %s", k, duckdb.Quote(path), p)
	}
	sql.WriteString(") GROUP BY k")
	want := map[int][]int64{}
	for _, r := range duckdb.Query(t, "SET TimeZone = 'UTC'", sql.String()) {
		k := int(r["k"].(float64))
		for _, id := range r["ids"].([]any) {
			n, err := strconv.ParseInt(fmt.Sprint(id), 10, 64)
			if err != nil {
				t.Fatalf("DuckDB id %v: %v", id, err)
			}
			want[k] = append(want[k], n)
		}
	}
	selective := 0
	for k, p := range preds {
		out := runPQ(t, "cat", "--columns", "id", "--limit", "-1", "--where", p, path)
		var got []int64
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			var row struct{ ID json.Number }
			if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
				t.Fatalf("pq output %q: %v", sc.Bytes(), err)
			}
			n, _ := row.ID.Int64()
			got = append(got, n)
		}
		if !slices.Equal(got, want[k]) {
			t.Errorf("--where %q selects %d rows %v\nDuckDB's WHERE selects %d rows %v", p, len(got), got, len(want[k]), want[k])
		}
		if len(want[k]) > 0 && len(want[k]) < 300 {
			selective++
		}
	}
	if selective < len(preds)/2 {
		t.Errorf("only %d of %d predicates select some but not all rows: the test data do not exercise them", selective, len(preds))
	}
}
