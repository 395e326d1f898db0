//go:build duckdb_arrow

package duckdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/quiverio/quiver/arrowio"
)

// benchRows is the size of the generated file: 4 Mi rows, or 128 Ki with
// QUIVER_BENCH_SIZE=small (the bench module's switch) for a quick run.
func benchRows() int {
	if os.Getenv("QUIVER_BENCH_SIZE") == "small" {
		return 128 << 10
	}
	return 4 << 20
}

// benchQuery is the aggregate both sides run; %s is the relation.
const benchQuery = `SELECT region, count(*), sum(qty), avg(price), count(note) FROM %s GROUP BY region`

// benchColumns are the columns benchQuery reads. DuckDB's Parquet scan
// reads only these by itself; Quiver is told so with ReadOptions.Columns.
var benchColumns = []string{"region", "qty", "price", "note"}

// BenchmarkAggregate times benchQuery over a generated snappy file of
// benchRows rows in row groups of 1 Mi rows, written by Quiver into
// b.TempDir, at 1 and 2 DuckDB threads:
//
//   - impl=quiver-stream: DuckDB reads Quiver's stream (open, register,
//     query, release), Quiver decoding on as many goroutines as DuckDB has
//     threads;
//   - impl=quiver-stream-dict: the same with region and note read as Arrow
//     dictionaries, which DuckDB takes as dictionary vectors;
//   - impl=duckdb-parquet: DuckDB's own Parquet scan of the file;
//   - impl=quiver-decode: Quiver's read of the same columns alone, no
//     DuckDB, to show how the stream's time divides.
//
// Bytes per operation are the file's size; allocations are the Go heap's
// only (DuckDB allocates outside it).
func BenchmarkAggregate(b *testing.B) {
	p := filepath.Join(b.TempDir(), "sales.parquet")
	writeSales(b, p, benchRows(), 1<<20)
	st, err := os.Stat(p)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	stream := func(threads int, opts arrowio.ReadOptions) func(*testing.B) {
		return func(b *testing.B) {
			conn := openConn(b, threads)
			b.SetBytes(st.Size())
			b.ReportAllocs()
			for b.Loop() {
				release, err := registerFile(ctx, conn, "sales", p, opts)
				if err != nil {
					b.Fatal(err)
				}
				groups := runAggregate(b, conn, "sales")
				if err := release(); err != nil {
					b.Fatal(err)
				}
				if groups != len(regions) {
					b.Fatalf("%d groups, want %d", groups, len(regions))
				}
			}
		}
	}
	for _, threads := range []int{1, 2} {
		opts := arrowio.ReadOptions{Columns: benchColumns, Parallelism: threads}
		dict := opts
		dict.Dictionary = []string{"region", "note"}
		b.Run(fmt.Sprintf("impl=quiver-stream/threads=%d", threads), stream(threads, opts))
		b.Run(fmt.Sprintf("impl=quiver-stream-dict/threads=%d", threads), stream(threads, dict))
		b.Run(fmt.Sprintf("impl=duckdb-parquet/threads=%d", threads), func(b *testing.B) {
			conn := openConn(b, threads)
			from := "read_parquet(" + sqlString(p) + ")"
			b.SetBytes(st.Size())
			b.ReportAllocs()
			for b.Loop() {
				if groups := runAggregate(b, conn, from); groups != len(regions) {
					b.Fatalf("%d groups, want %d", groups, len(regions))
				}
			}
		})
		b.Run(fmt.Sprintf("impl=quiver-decode/threads=%d", threads), func(b *testing.B) {
			b.SetBytes(st.Size())
			b.ReportAllocs()
			for b.Loop() {
				r, err := arrowio.OpenFile(p, opts)
				if err != nil {
					b.Fatal(err)
				}
				rr, err := r.RecordReader(ctx)
				if err != nil {
					b.Fatal(err)
				}
				var rows int64
				for rr.Next() {
					rows += rr.RecordBatch().NumRows()
				}
				err = errors.Join(rr.Err(), r.Close())
				rr.Release()
				if err != nil {
					b.Fatal(err)
				}
				if rows != int64(benchRows()) {
					b.Fatalf("%d rows, want %d", rows, benchRows())
				}
			}
		})
	}
}

// runAggregate runs benchQuery over from, reads every result row and
// returns the number of groups.
func runAggregate(b *testing.B, conn *sql.Conn, from string) int {
	rows, err := conn.QueryContext(context.Background(), fmt.Sprintf(benchQuery, from))
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var region string
		var count, qty, notes int64
		var price float64
		if err := rows.Scan(&region, &count, &qty, &price, &notes); err != nil {
			b.Fatal(err)
		}
		n++
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	return n
}
