//go:build !duckdb_arrow

package duckdb

import "testing"

// Without the tag duckdb-go leaves out its Arrow API, and with it
// RegisterView and every test that runs DuckDB.
func TestNeedsDuckDBArrowTag(t *testing.T) {
	t.Skip("DuckDB tests need the duckdb_arrow build tag: go test -tags duckdb_arrow ./...")
}
