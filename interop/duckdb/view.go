//go:build duckdb_arrow

package duckdb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	duckdbgo "github.com/duckdb/duckdb-go/v2"
)

// RegisterView registers the batches of rr as a temporary DuckDB view
// called name on conn, a connection of duckdb-go's driver. Queries on conn
// read the view like a table, and DuckDB reads the arrays of each batch in
// place. rr is typically a Quiver reader's RecordReader; a dataset's, or a
// C stream imported with arrow-go's cdata package, work the same way.
//
// The view is a stream: the first query that scans it reads every batch
// and a later scan sees no rows, so register a fresh reader for each
// query. The reader decodes every column it has whatever the query names:
// project with arrowio.ReadOptions.Columns. RegisterView takes a reference
// to rr of its own; call release when done with the view (before closing
// the Reader behind rr): it drops the view and frees the stream.
//
// duckdb-go's own Arrow.RegisterView (DuckDB's duckdb_arrow_scan) returns
// wrong values, or crashes, for a query that does not read every column in
// order, and ignores its WHERE clause: DuckDB pushes projections and
// filters into a stream that cannot apply them (duckdb/duckdb#17012,
// duckdb/duckdb-go#24 and #28; still so in DuckDB 1.5.6). RegisterView
// avoids this by handing DuckDB each batch as one struct column (the same
// arrays, no copy) and defining the view as that struct's fields; DuckDB
// then picks columns and applies filters itself.
func RegisterView(ctx context.Context, conn *sql.Conn, name string, rr array.RecordReader) (release func() error, err error) {
	wrapped, err := newRowReader(rr)
	if err != nil {
		return nil, fmt.Errorf("duckdb: registering view %q: %w", name, err)
	}
	defer wrapped.Release() // the exported stream holds its own reference
	stream := "quiver_stream_" + strconv.FormatInt(streamSeq.Add(1), 10)
	var free func()
	err = conn.Raw(func(dc any) error {
		c, ok := dc.(driver.Conn)
		if !ok {
			return fmt.Errorf("%T is not a driver.Conn", dc)
		}
		a, err := duckdbgo.NewArrowFromConn(c)
		if err != nil {
			return err
		}
		free, err = a.RegisterView(wrapped, stream)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("duckdb: registering view %q: %w", name, err)
	}
	dropStream := func() error {
		_, err := conn.ExecContext(context.Background(), "DROP VIEW IF EXISTS "+quoteIdent(stream))
		free() // after the drop: the stream view points at the stream
		return err
	}
	_, err = conn.ExecContext(ctx, fmt.Sprintf("CREATE TEMP VIEW %s AS SELECT %s.* FROM %s", quoteIdent(name), quoteIdent(rowColumn), quoteIdent(stream)))
	if err != nil {
		return nil, fmt.Errorf("duckdb: registering view %q: %w", name, errors.Join(err, dropStream()))
	}
	done := false
	return func() error {
		if done {
			return nil
		}
		done = true
		_, err := conn.ExecContext(context.Background(), "DROP VIEW IF EXISTS "+quoteIdent(name))
		if err = errors.Join(err, dropStream()); err != nil {
			return fmt.Errorf("duckdb: releasing view %q: %w", name, err)
		}
		return nil
	}, nil
}

// streamSeq numbers the stream views, which live in the database's
// catalog (duckdb_arrow_scan makes them so) rather than the connection's.
var streamSeq atomic.Int64

// rowColumn names the one struct column the stream hands DuckDB.
const rowColumn = "quiver_row"

// rowReader presents each batch of a RecordReader as a batch of one
// non-null struct column whose fields are the batch's columns: the same
// arrays, referenced, not copied.
type rowReader struct {
	refs   atomic.Int64
	rr     array.RecordReader
	typ    *arrow.StructType
	strip  []bool // columns holding types DuckDB refuses, handed over as their storage (withoutRefused)
	schema *arrow.Schema
	cur    arrow.RecordBatch
}

func newRowReader(rr array.RecordReader) (*rowReader, error) {
	fields := rr.Schema().Fields()
	if len(fields) == 0 {
		return nil, errors.New("the reader has no columns")
	}
	fields = slices.Clone(fields)
	strip := make([]bool, len(fields))
	for i, f := range fields {
		fields[i].Type, strip[i] = withoutRefused(f.Type)
	}
	typ := arrow.StructOf(fields...)
	w := &rowReader{rr: rr, typ: typ, strip: strip, schema: arrow.NewSchema([]arrow.Field{{Name: rowColumn, Type: typ}}, nil)}
	w.refs.Store(1)
	rr.Retain()
	return w, nil
}

func (w *rowReader) Retain() { w.refs.Add(1) }

func (w *rowReader) Release() {
	if w.refs.Add(-1) != 0 {
		return
	}
	if w.cur != nil {
		w.cur.Release()
		w.cur = nil
	}
	w.rr.Release()
}

func (w *rowReader) Schema() *arrow.Schema { return w.schema }

func (w *rowReader) Next() bool {
	if w.cur != nil {
		w.cur.Release()
		w.cur = nil
	}
	if !w.rr.Next() {
		return false
	}
	rec := w.rr.RecordBatch()
	children := make([]arrow.ArrayData, rec.NumCols())
	for i, col := range rec.Columns() {
		children[i] = col.Data()
		if w.strip[i] {
			children[i] = retyped(col.Data(), w.typ.Field(i).Type)
			defer children[i].Release()
		}
	}
	data := array.NewData(w.typ, int(rec.NumRows()), []*memory.Buffer{nil}, children, 0, 0)
	row := array.MakeFromData(data)
	data.Release()
	w.cur = array.NewRecordBatch(w.schema, []arrow.Array{row}, rec.NumRows())
	row.Release()
	return true
}

func (w *rowReader) RecordBatch() arrow.RecordBatch { return w.cur }

// Record returns the current batch.
//
// Deprecated: use RecordBatch.
func (w *rowReader) Record() arrow.RecordBatch { return w.cur }

func (w *rowReader) Err() error { return w.rr.Err() }

// quoteIdent quotes name as a DuckDB identifier.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
