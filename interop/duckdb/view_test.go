//go:build duckdb_arrow

package duckdb

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	release, err := RegisterView(ctx, conn, `sales "2026"`, r)
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

// TestRegisterViewErrors checks that a cancelled read and a corrupt page
// reach the SQL caller as query errors carrying Quiver's message.
func TestRegisterViewErrors(t *testing.T) {
	p := salesFile(t, 10_000, 2_000)
	t.Run("cancelled", func(t *testing.T) {
		conn := openConn(t, 1)
		r, err := arrowio.OpenFile(p, arrowio.ReadOptions{BatchSize: 1000})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		ctx, cancel := context.WithCancel(context.Background())
		release, err := RegisterView(ctx, conn, "sales", r)
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
		// middle row group; with VerifyCRC its checksum fails when the
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
		r, err := arrowio.OpenFile(bad, arrowio.ReadOptions{VerifyCRC: true})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		release, err := RegisterView(context.Background(), conn, "sales", r)
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
