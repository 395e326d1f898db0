//go:build duckdb_arrow

package duckdb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"

	duckdbgo "github.com/duckdb/duckdb-go/v2"

	"github.com/quiverio/quiver/arrowio"
)

// RegisterView registers the batches r reads as a temporary DuckDB view
// called name on conn, a connection of duckdb-go's driver; queries on conn
// read it like a table, and DuckDB reads the arrays Quiver decoded in place.
//
// The view is a stream: the first query that scans it reads every batch
// and a later scan sees no rows, so register the file again (or a fresh
// Reader) for each query that reads it. Only conn sees the view. Call
// release when done with it, before r.Close: it drops the view and
// releases the stream and its record reader.
func RegisterView(ctx context.Context, conn *sql.Conn, name string, r *arrowio.Reader) (release func() error, err error) {
	rr, err := r.RecordReader(ctx)
	if err != nil {
		return nil, err
	}
	defer rr.Release() // the exported stream holds its own reference
	var free func()
	err = conn.Raw(func(dc any) error {
		c, ok := dc.(driver.Conn)
		if !ok {
			return fmt.Errorf("duckdb: %T is not a driver.Conn", dc)
		}
		a, err := duckdbgo.NewArrowFromConn(c)
		if err != nil {
			return err
		}
		free, err = a.RegisterView(rr, name)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("duckdb: registering view %q: %w", name, err)
	}
	return func() error {
		if free == nil {
			return nil
		}
		// Drop the view before freeing the stream it points at.
		_, err := conn.ExecContext(context.Background(), "DROP VIEW IF EXISTS "+quoteIdent(name))
		free()
		free = nil
		if err != nil {
			return fmt.Errorf("duckdb: dropping view %q: %w", name, err)
		}
		return nil
	}, nil
}

// quoteIdent quotes name as a DuckDB identifier.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
