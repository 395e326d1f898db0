//go:build duckdb_arrow

package duckdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio"
)

// openConn opens an in-memory DuckDB with the given number of threads (0:
// DuckDB's default) and returns one connection of it.
func openConn(tb testing.TB, threads int) *sql.Conn {
	tb.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	conn, err := db.Conn(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { conn.Close() })
	if threads > 0 {
		if _, err := conn.ExecContext(context.Background(), fmt.Sprintf("SET threads = %d", threads)); err != nil {
			tb.Fatal(err)
		}
	}
	return conn
}

// column is a column of a DuckDB relation: its name and DuckDB type.
type column struct{ name, typ string }

// describe returns the columns of the relation from (a table function call
// or a view name).
func describe(ctx context.Context, conn *sql.Conn, from string) ([]column, error) {
	rows, err := conn.QueryContext(ctx, "DESCRIBE SELECT * FROM "+from)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	names, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var cols []column
	for rows.Next() {
		vals := make([]sql.NullString, len(names))
		ptrs := make([]any, len(names))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		cols = append(cols, column{vals[0].String, vals[1].String})
	}
	return cols, rows.Err()
}

// sqlString quotes s as a DuckDB string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// digest is what the comparison looks at for one column: how many values
// are not null and the sum of their DuckDB hashes (nulls hash to a constant
// and count through the row count).
type digest struct{ count, hashSum string }

// digests runs one query over from that returns the row count and each
// column's digest; exprs are the column expressions (quoted names, or
// casts of them).
func digests(ctx context.Context, conn *sql.Conn, from string, exprs []string) (rows string, out []digest, err error) {
	var sb strings.Builder
	sb.WriteString("SELECT count(*)::VARCHAR")
	for _, e := range exprs {
		fmt.Fprintf(&sb, ", count(%s)::VARCHAR, sum(hash(%s))::VARCHAR", e, e)
	}
	sb.WriteString(" FROM " + from)
	vals := make([]sql.NullString, 1+2*len(exprs))
	ptrs := make([]any, len(vals))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := conn.QueryRowContext(ctx, sb.String()).Scan(ptrs...); err != nil {
		return "", nil, err
	}
	out = make([]digest, len(exprs))
	for i := range out {
		out[i] = digest{vals[1+2*i].String, vals[2+2*i].String}
	}
	return vals[0].String, out, nil
}

// registerFile reads p with Quiver and registers the stream as view name
// on conn. The returned function drops the view, releases the reader and
// closes the file.
func registerFile(ctx context.Context, conn *sql.Conn, name, p string, opts arrowio.ReadOptions) (func() error, error) {
	r, err := arrowio.OpenFile(p, opts)
	if err != nil {
		return nil, err
	}
	rr, err := r.RecordReader(ctx)
	if err != nil {
		return nil, errors.Join(err, r.Close())
	}
	release, err := RegisterView(ctx, conn, name, rr)
	rr.Release() // the view holds its own reference
	if err != nil {
		return nil, errors.Join(err, r.Close())
	}
	return func() error { return errors.Join(release(), r.Close()) }, nil
}
