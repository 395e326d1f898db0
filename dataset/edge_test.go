package dataset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

// CountRows reads footers once: a second count opens nothing, and a
// filter the statistics decide opens no more than the footers.
func TestCountRowsFromMetadata(t *testing.T) {
	dir := t.TempDir()
	makePartitioned(t, dir, 6, 1000, arrowio.WriteOptions{MaxRowGroupRows: 100})
	ctx := context.Background()
	sc := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}, {Name: "y", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	for _, tc := range []struct {
		where        string
		rows         int64
		first, again int64 // opens by the first count and by a second
	}{
		{"", 6000, 6, 0},
		{"p = 2", 1000, 1, 0},
		{"x >= 1500 and x < 2500", 1000, 6, 0},     // whole row groups by statistics
		{"x >= 1550 and x < 2550", 1000, 6 + 2, 2}, // two row groups straddle the bounds
		{`y = "y3"`, 428, 6 + 6, 6},                // statistics cannot tell (x = 10 mod 14)
	} {
		var f pageindex.Predicate
		if tc.where != "" {
			f, _ = pageindex.Parse(tc.where)
		}
		src := &countingSource{Source: Local}
		ds, err := Open(ctx, src, []string{dir}, Options{Filter: f, Schema: sc})
		if err != nil {
			t.Fatal(err)
		}
		n, err := ds.CountRows(ctx)
		if err != nil || n != tc.rows {
			t.Errorf("%q: CountRows = %d, %v; want %d", tc.where, n, err, tc.rows)
		}
		if got := src.opens.Load(); got != tc.first {
			t.Errorf("%q: first count opened %d files, want %d", tc.where, got, tc.first)
		}
		src.opens.Store(0)
		if n, err := ds.CountRows(ctx); err != nil || n != tc.rows {
			t.Errorf("%q: second CountRows = %d, %v", tc.where, n, err)
		}
		if got := src.opens.Load(); got != tc.again {
			t.Errorf("%q: second count opened %d files, want %d", tc.where, got, tc.again)
		}
	}
}

// Files with no rows, and with no row groups, read as nothing; a zero-byte
// file under a directory is skipped.
func TestEmptyFiles(t *testing.T) {
	dir := t.TempDir()
	sc := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	writeParquet(t, filepath.Join(dir, "k=1/a.parquet"), arrowio.WriteOptions{}, int64Batch(sc, 0, 3))
	writeParquet(t, filepath.Join(dir, "k=2/empty.parquet"), arrowio.WriteOptions{}, int64Batch(sc, 0, 0)) // no row groups
	touch(t, dir, "k=3/zero.parquet")
	if err := os.Truncate(filepath.Join(dir, "k=3/zero.parquet"), 0); err != nil {
		t.Fatal(err)
	}
	if fm := readFooterOf(t, filepath.Join(dir, "k=2/empty.parquet")); len(fm.RowGroups) != 0 {
		t.Fatalf("%d row groups", len(fm.RowGroups))
	}
	ds, err := Open(context.Background(), nil, []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Files()) != 2 {
		t.Errorf("files: %v", ds.Files())
	}
	rr, _ := ds.RecordReader(context.Background())
	if rows := readRows(t, rr); len(rows) != 3 {
		t.Errorf("rows: %q", rows)
	}
	if n, err := ds.CountRows(context.Background()); n != 3 || err != nil {
		t.Errorf("CountRows: %d, %v", n, err)
	}
	// The empty file first: its schema is the dataset's.
	ds, err = Open(context.Background(), nil, []string{dir + "/k=2/empty.parquet", dir + "/k=1/a.parquet"}, Options{PartitionBase: dir})
	if err != nil {
		t.Fatal(err)
	}
	rr, _ = ds.RecordReader(context.Background())
	if rows := readRows(t, rr); len(rows) != 3 {
		t.Errorf("rows: %q", rows)
	}
}

func readFooterOf(t *testing.T, path string) *footer.FileMetaData {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	ft, err := footer.ReadFooter(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	return ft.Meta
}

// A corrupt file is an error naming it, or with OnCorrupt is skipped and
// reported; nothing panics.
func TestCorruptFiles(t *testing.T) {
	dir := t.TempDir()
	makePartitioned(t, dir, 4, 500, arrowio.WriteOptions{MaxRowGroupRows: 100})
	good, err := os.ReadFile(filepath.Join(dir, "p=1/q=1/part-0.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	bad := map[string][]byte{
		"p=4/q=0/garbage.parquet":   []byte("this is not a parquet file at all"),
		"p=5/q=1/truncated.parquet": good[:len(good)-100],
		"p=6/q=0/pages.parquet":     flipMiddle(good),
	}
	for name, b := range bad {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	sc := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}, {Name: "y", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	for name := range bad {
		f, _ := pageindex.Parse("p = " + strings.TrimPrefix(name[:3], "p="))
		ds, err := Open(ctx, nil, []string{dir}, Options{Schema: sc, Filter: f, Read: arrowio.ReadOptions{}})
		if err != nil {
			t.Fatal(err)
		}
		rr, _ := ds.RecordReader(ctx)
		for rr.Next() {
		}
		err = rr.Err()
		rr.Release()
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := ds.CountRows(ctx); name != "p=6/q=0/pages.parquet" && (err == nil || !strings.Contains(err.Error(), name)) {
			t.Errorf("%s: CountRows: %v", name, err)
		}
	}
	var mu sync.Mutex
	var skipped []string
	onCorrupt := func(path string, err error) error {
		mu.Lock()
		defer mu.Unlock()
		skipped = append(skipped, strings.TrimPrefix(path, dir+"/"))
		return nil
	}
	ds, err := Open(ctx, nil, []string{dir}, Options{Schema: sc, OnCorrupt: onCorrupt, Read: arrowio.ReadOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	rr, _ := ds.RecordReader(ctx)
	rows := readRows(t, rr)
	slices.Sort(skipped)
	if want := []string{"p=4/q=0/garbage.parquet", "p=5/q=1/truncated.parquet", "p=6/q=0/pages.parquet"}; !slices.Equal(skipped, want) {
		t.Errorf("skipped %q, want %q", skipped, want)
	}
	// The page-corrupt file may give rows before its bad page.
	if len(rows) < 2000 {
		t.Errorf("%d rows", len(rows))
	}
	stop := errors.New("stop")
	ds, _ = Open(ctx, nil, []string{dir}, Options{Schema: sc, OnCorrupt: func(string, error) error { return stop }})
	if _, err := ds.CountRows(ctx); !errors.Is(err, stop) {
		t.Errorf("OnCorrupt error: %v", err)
	}
}

// flipMiddle returns b with bytes in the middle of its first column chunk
// inverted.
func flipMiddle(b []byte) []byte {
	c := slices.Clone(b)
	for i := 200; i < 400; i++ {
		c[i] ^= 0xff
	}
	return c
}

// With OnCorrupt, a corrupt first file does not stop Open from taking the
// schema of the next one, nor unification from using the others.
func TestCorruptFirstFile(t *testing.T) {
	dir := t.TempDir()
	makePartitioned(t, dir, 2, 10, arrowio.WriteOptions{})
	touch(t, dir, "p=0/q=0/a-corrupt.parquet")
	for _, mode := range []SchemaMode{SchemaFirstFile, SchemaUnify} {
		var skipped []string
		var mu sync.Mutex
		ds, err := Open(context.Background(), nil, []string{dir}, Options{SchemaMode: mode, OnCorrupt: func(p string, err error) error {
			mu.Lock()
			defer mu.Unlock()
			skipped = append(skipped, p)
			return nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		if ds.Schema().NumFields() != 4 {
			t.Errorf("mode %d: schema %s", mode, ds.Schema())
		}
		if n, err := ds.CountRows(context.Background()); n != 20 || err != nil {
			t.Errorf("mode %d: %d rows, %v", mode, n, err)
		}
		if len(skipped) != 2 || !strings.HasSuffix(skipped[0], "a-corrupt.parquet") {
			t.Errorf("mode %d: skipped %q", mode, skipped)
		}
		if _, err := Open(context.Background(), nil, []string{dir}, Options{SchemaMode: mode}); err == nil || !strings.Contains(err.Error(), "a-corrupt.parquet") {
			t.Errorf("mode %d without OnCorrupt: %v", mode, err)
		}
	}
}
