// Package duckdb runs SQL through DuckDB, an independent Parquet reader and
// writer, for interoperability tests. DuckDB comes from the npm registry
// through the helper script ../shared/tools/duckdb/duckdb beside the
// repository (`make test` installs it: scripts/deps.sh); where the script
// or node is missing, tests that need it skip with a message that says so.
package duckdb

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/quiverio/quiver/internal/corpus"
)

// EnvVar overrides where the DuckDB helper script is looked for.
const EnvVar = "QUIVER_DUCKDB"

// Script returns the path of the DuckDB helper script, or skips tb when it
// or node is absent.
func Script(tb testing.TB) string {
	tb.Helper()
	p := os.Getenv(EnvVar)
	if p == "" {
		var err error
		if p, err = corpus.Shared("tools/duckdb/duckdb"); err != nil {
			tb.Skipf("DuckDB helper not found (set %s to use another): %v", EnvVar, err)
		}
	}
	if _, err := exec.LookPath("node"); err != nil {
		tb.Skipf("DuckDB needs node, which is not on PATH: %v", err)
	}
	return p
}

// Row is one result row: column name to value as DuckDB's JSON output
// gives it (64-bit and wider integers, decimals, dates and timestamps as
// strings; doubles as numbers).
type Row map[string]any

// Query runs the SQL statements in order on one in-memory connection and
// returns the rows of the last one, failing tb on any error.
func Query(tb testing.TB, sql ...string) []Row {
	tb.Helper()
	cmd := exec.Command(Script(tb), append([]string{"--threads", "1"}, sql...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		tb.Fatalf("duckdb %q: %v\n%s", sql, err, stderr.Bytes())
	}
	var rows []Row
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r Row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			tb.Fatalf("duckdb output line %q: %v", sc.Bytes(), err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return rows
}

// QueryRow is Query for a statement that returns one row: it fails tb,
// rather than leave the caller to index nothing, when DuckDB returns
// another number of rows (as a DuckDB killed under memory pressure can).
func QueryRow(tb testing.TB, sql ...string) Row {
	tb.Helper()
	rows := Query(tb, sql...)
	if len(rows) != 1 {
		tb.Fatalf("duckdb %q: %d rows, want 1", sql, len(rows))
	}
	return rows[0]
}

// Quote returns s as a SQL string literal.
func Quote(s string) string {
	var b bytes.Buffer
	b.WriteByte('\'')
	for _, c := range []byte(s) {
		if c == '\'' {
			b.WriteByte('\'')
		}
		b.WriteByte(c)
	}
	b.WriteByte('\'')
	return b.String()
}
