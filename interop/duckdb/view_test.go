//go:build duckdb_arrow

package duckdb

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
)

// TestRegisterViewLifecycle follows a view from registration to release:
// the first scan reads every row (batches of several row groups, on two
// DuckDB threads), a second scan of the spent stream sees none, release
// drops the view, and the Reader then closes.
func TestRegisterViewLifecycle(t *testing.T) {
	p := salesFile(t, 50_000, 12_000)
	ctx := context.Background()
	conn := openConn(t, 2)
	r, err := arrowio.OpenFile(p, arrowio.ReadOptions{BatchSize: 5000})
	if err != nil {
		t.Fatal(err)
	}
	rr, err := r.RecordReader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	release, err := RegisterView(ctx, conn, `sales "2026"`, rr)
	rr.Release()
	if err != nil {
		t.Fatal(err)
	}
	var n, ids int64
	q := `SELECT count(*), sum(id) FROM "sales ""2026"""`
	if err := conn.QueryRowContext(ctx, q).Scan(&n, &ids); err != nil {
		t.Fatal(err)
	}
	if n != 50_000 || ids != 50_000*49_999/2 {
		t.Fatalf("first scan: %d rows summing ids to %d, want 50000 and %d", n, ids, 50_000*49_999/2)
	}
	var none sql.NullInt64
	if err := conn.QueryRowContext(ctx, q).Scan(&n, &none); err != nil {
		t.Fatal(err)
	}
	if n != 0 || none.Valid {
		t.Fatalf("second scan of the spent stream: %d rows, want 0", n)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if err := release(); err != nil {
		t.Fatalf("second release: %v", err)
	}
	if _, err := conn.ExecContext(ctx, q); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("query after release: %v, want an error that the view does not exist", err)
	}
	closed := make(chan error, 1)
	go func() { closed <- r.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Reader.Close still waiting 10s after the view was released")
	}
}

// TestRegisterViewQueries runs queries that name some columns, in any
// order, filter, group and join, over a view and over DuckDB's
// read_parquet of the same file, and requires the same answers. Over
// duckdb-go's Arrow.RegisterView directly, most of these return wrong
// values, ignore the WHERE clause or crash, because DuckDB pushes
// projections and filters into a stream that cannot apply them.
func TestRegisterViewQueries(t *testing.T) {
	p := salesFile(t, 30_000, 7_000)
	ctx := context.Background()
	queries := []string{
		"SELECT count(*), sum(qty), sum(price)::DECIMAL(18,2) FROM %s",
		"SELECT sum(price)::DECIMAL(18,2) FROM %s",
		"SELECT max(note), min(qty), max(id) FROM %s",
		"SELECT count(*), sum(id) FROM %s WHERE price > 50",
		"SELECT count(*), sum(qty) FROM %s WHERE qty < 300 AND region = 'east'",
		"SELECT count(*) FROM %s WHERE note IS NULL",
		"SELECT count(*) FROM %s WHERE note LIKE 'note 9%%'",
		"SELECT max(id) FROM %s WHERE price BETWEEN 10 AND 20",
		"SELECT sum(len(tags)) FROM %s WHERE list_contains(tags, 7)",
		"SELECT region, count(*), sum(price)::DECIMAL(18,2) FROM %s GROUP BY ALL ORDER BY ALL",
		"SELECT tags, note, id FROM %s WHERE id IN (3, 4, 29999) ORDER BY id",
		"SELECT a.region, count(*) FROM %[1]s a JOIN (SELECT DISTINCT region FROM (VALUES ('east'), ('west')) t(region)) b USING (region) GROUP BY ALL ORDER BY ALL",
	}
	for _, q := range queries {
		conn := openConn(t, 2)
		want := queryString(t, conn, fmt.Sprintf(q, "read_parquet("+sqlString(p)+")"))
		release, err := registerFile(ctx, conn, "sales", p, arrowio.ReadOptions{BatchSize: 3000})
		if err != nil {
			t.Fatal(err)
		}
		got := queryString(t, conn, fmt.Sprintf(q, "sales"))
		if err := release(); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s\nover Quiver's stream: %s\nover read_parquet:   %s", q, got, want)
		}
	}
}

// queryString runs q and returns its rows as one string, or the error.
func queryString(t *testing.T, conn *sql.Conn, q string) string {
	t.Helper()
	var s sql.NullString
	if err := conn.QueryRowContext(context.Background(), "SELECT string_agg(x::VARCHAR, '; ') FROM ("+q+") x").Scan(&s); err != nil {
		return "error: " + firstLine(err)
	}
	return s.String
}

// TestRegisterViewErrors checks that a cancelled read and a corrupt page
// reach the SQL caller as query errors carrying Quiver's message.
func TestRegisterViewErrors(t *testing.T) {
	p := salesFile(t, 10_000, 2_000)
	t.Run("cancelled", func(t *testing.T) {
		conn := openConn(t, 1)
		ctx, cancel := context.WithCancel(context.Background())
		release, err := registerFile(ctx, conn, "sales", p, arrowio.ReadOptions{BatchSize: 1000})
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		cancel()
		var n int64
		err = conn.QueryRowContext(context.Background(), "SELECT count(*) FROM sales").Scan(&n)
		if err == nil || !strings.Contains(err.Error(), "context canceled") {
			t.Fatalf("query over a cancelled stream: %v (%d rows), want an error naming the cancellation", err, n)
		}
	})
	t.Run("corrupt page", func(t *testing.T) {
		// A flipped byte halfway through the file lands in a page of a
		// middle row group; by default its checksum fails when the
		// stream reaches it.
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b[len(b)/2] ^= 0x5a
		bad := filepath.Join(t.TempDir(), "bad.parquet")
		if err := os.WriteFile(bad, b, 0o644); err != nil {
			t.Fatal(err)
		}
		conn := openConn(t, 1)
		release, err := registerFile(context.Background(), conn, "sales", bad, arrowio.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		var n int64
		err = conn.QueryRowContext(context.Background(), "SELECT count(*) FROM sales").Scan(&n)
		if err == nil || !strings.Contains(err.Error(), "arrowio: corrupt file, row group") {
			t.Fatalf("query over a corrupt file: %v (%d rows), want Quiver's error naming the row group", err, n)
		}
		t.Log(firstLine(err))
	})
}

// TestRegisterViewNestedVariant hands DuckDB VARIANT values inside a
// struct and a list: DuckDB's Arrow scan does not know the extension (it
// crashed on it), so they reach it as their storage struct at any depth,
// the arrays themselves, and queries read their fields.
func TestRegisterViewNestedVariant(t *testing.T) {
	vt := extensions.NewDefaultVariantType()
	st := arrow.StructOf(arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int64}, arrow.Field{Name: "v", Type: vt, Nullable: true})
	lt := arrow.ListOf(vt)
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: st, Nullable: true}, {Name: "l", Type: lt, Nullable: true}}, nil)
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, schema, strings.NewReader(`[
		{"s": {"id": 1, "v": {"a": 1}}, "l": [1, "two", null]},
		{"s": {"id": 2, "v": null}, "l": []},
		{"s": null, "l": null},
		{"s": {"id": 4, "v": [true, 2.5]}, "l": [{"b": "c"}]}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	rr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn := openConn(t, 1)
	release, err := RegisterView(ctx, conn, "nested", rr)
	rr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	var ids, values, elems, lists int64
	q := `SELECT sum(s.id), count(s.v.value), sum(len(l)), count(l) FROM nested`
	if err := conn.QueryRowContext(ctx, q).Scan(&ids, &values, &elems, &lists); err != nil {
		t.Fatal(err)
	}
	// JSON null parses as the variant null, a value (row 2's v and an
	// element of row 1's list); s.v is SQL NULL only under row 3's null
	// struct.
	if ids != 7 || values != 3 || elems != 4 || lists != 3 {
		t.Errorf("sum(id) %d, count(v.value) %d, sum(len(l)) %d, count(l) %d; want 7, 3, 4, 3", ids, values, elems, lists)
	}
}
