package dataset

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/pageindex"
)

// The String form of every kind of predicate comes apart and back to
// itself.
func TestParseFilter(t *testing.T) {
	for _, s := range []string{
		`x = 1`,
		`(x = 1) and (y != "a b")`,
		"(`odd col` >= 2.5) or (not ((s prefix \"(\") and (s in (\"a\", \"b,)\"))))",
		`(x is null) or (x is not null) or (x in ())`,
		`true`, `false`, `not (true)`,
		`(((a < -1) and (b > 1e+300)) or (c = inf)) and (d = 'q\'uote')`,
		"`and` = 1",
	} {
		p, err := pageindex.Parse(s)
		if err != nil {
			t.Fatal(s, err)
		}
		n, err := parseFilter(p)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if got := n.predicate().String(); got != p.String() {
			t.Errorf("%s: %s, want %s", s, got, p.String())
		}
	}
}

// makePartitioned writes nfiles files of rows rows each under
// dir/p=<i>/q=<i%2>/, with x = the row's global number, and y set on even
// rows only.
func makePartitioned(t testing.TB, dir string, nfiles, rows int, wo arrowio.WriteOptions) {
	sc := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}, {Name: "y", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	for f := range nfiles {
		xb := array.NewInt64Builder(memory.DefaultAllocator)
		yb := array.NewStringBuilder(memory.DefaultAllocator)
		for r := range rows {
			x := int64(f*rows + r)
			xb.Append(x)
			if x%2 == 0 {
				yb.Append(fmt.Sprint("y", x%7))
			} else {
				yb.AppendNull()
			}
		}
		xa, ya := xb.NewArray(), yb.NewArray()
		rec := array.NewRecordBatch(sc, []arrow.Array{xa, ya}, int64(rows))
		writeParquet(t, filepath.Join(dir, fmt.Sprintf("p=%d/q=%d/part-0.parquet", f, f%2)), wo, rec)
		rec.Release()
		xa.Release()
		ya.Release()
		xb.Release()
		yb.Release()
	}
}

// Conditions on partition keys rule files out without opening them;
// conditions on data columns prune and filter inside the files.
func TestFilterOpens(t *testing.T) {
	dir := t.TempDir()
	makePartitioned(t, dir, 10, 100, arrowio.WriteOptions{MaxRowGroupRows: 25})
	ctx := context.Background()
	for _, tc := range []struct {
		where string
		files int // files a scan opens
		rows  int64
	}{
		{`p = 3`, 1, 100},
		{`p in (1, 4, 7) and q = 0`, 1, 100},
		{`p >= 8 or (p = 2 and x < 250)`, 3, 250},
		{`p = 3 and x < 0`, 1, 0},
		{`x >= 990`, 10, 10},
		{`q = 1 and y is not null`, 5, 250},
		{`not (p < 9)`, 1, 100},
		{`p = 11`, 0, 0},
		{`p = 5 or x = 12`, 10, 101},
	} {
		t.Run(tc.where, func(t *testing.T) {
			f, err := pageindex.Parse(tc.where)
			if err != nil {
				t.Fatal(err)
			}
			src := &countingSource{Source: Local}
			ds, err := Open(ctx, src, []string{dir}, Options{Filter: f, Schema: arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}, {Name: "y", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)})
			if err != nil {
				t.Fatal(err)
			}
			if src.opens.Load() != 0 {
				t.Errorf("Open opened %d files", src.opens.Load())
			}
			rr, _ := ds.RecordReader(ctx)
			rows := readRows(t, rr)
			if int64(len(rows)) != tc.rows {
				t.Errorf("%d rows, want %d", len(rows), tc.rows)
			}
			if got := src.opens.Load(); got != int64(tc.files) || len(ds.Files()) != tc.files {
				t.Errorf("opened %d files (Files: %d), want %d: %q", got, len(ds.Files()), tc.files, src.paths)
			}
			n, err := ds.CountRows(ctx)
			if err != nil || n != tc.rows {
				t.Errorf("CountRows = %d, %v; want %d", n, err, tc.rows)
			}
		})
	}
	f, _ := pageindex.Parse(`nope = 1`)
	if _, err := Open(ctx, nil, []string{dir}, Options{Filter: f}); !errors.Is(err, ErrFilter) {
		t.Errorf("unknown column: %v", err)
	}
	f, _ = pageindex.Parse(`p = "x"`)
	if _, err := Open(ctx, nil, []string{dir}, Options{Filter: f}); !errors.Is(err, ErrFilter) || !errors.Is(err, pageindex.ErrPredicate) {
		t.Errorf("string literal on an int key: %v", err)
	}
}

// Date and timestamp keys compare with string literals.
func TestFilterDates(t *testing.T) {
	dir := t.TempDir()
	sc := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	for i, d := range []string{"day=2024-02-28/ts=2024-02-28 10%3A00%3A00", "day=2024-02-29/ts=2024-02-29 10%3A00%3A00", "day=2024-03-01/ts=2024-03-01 00%3A00%3A00.5"} {
		writeParquet(t, filepath.Join(dir, d, "f.parquet"), arrowio.WriteOptions{}, int64Batch(sc, int64(i), 1))
	}
	for where, want := range map[string]int{
		`day >= '2024-02-29'`:                      2,
		`day = "2024-02-29"`:                       1,
		`day in ("2024-02-28", "2024-03-01")`:      2,
		`ts > "2024-02-29 10:00:00"`:               1,
		`ts <= "2024-03-01T00:00:00.5"`:            3,
		`day = 19782`:                              1, // 2024-02-28 in days
		`day > "2024-02-28" and ts < "2024-03-01"`: 1,
	} {
		f, err := pageindex.Parse(where)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := Open(context.Background(), nil, []string{dir}, Options{Filter: f})
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if got := len(ds.Files()); got != want {
			t.Errorf("%s: %d files, want %d", where, got, want)
		}
	}
	f, _ := pageindex.Parse(`day = "yesterday"`)
	if _, err := Open(context.Background(), nil, []string{dir}, Options{Filter: f}); !errors.Is(err, ErrFilter) {
		t.Errorf("bad date: %v", err)
	}
}

// A condition on a column a file lacks holds as for a null; an integer
// literal outside a file's narrower column type folds instead of failing.
func TestFilterPerFile(t *testing.T) {
	dir := t.TempDir()
	mem := memory.DefaultAllocator
	write := func(name string, fields []arrow.Field, json string) {
		rec, _, err := array.RecordFromJSON(mem, arrow.NewSchema(fields, nil), strings.NewReader(json))
		if err != nil {
			t.Fatal(err)
		}
		writeParquet(t, filepath.Join(dir, name), arrowio.WriteOptions{}, rec)
	}
	n32 := arrow.Field{Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: true}
	n64 := arrow.Field{Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true}
	s := arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}
	write("a.parquet", []arrow.Field{n32, s}, `[{"n": 1, "s": "a"}, {"n": null, "s": "b"}, {"n": 2147483647, "s": null}]`)
	write("b.parquet", []arrow.Field{n64}, `[{"n": 5000000000}, {"n": -5000000000}, {"n": 7}]`)
	for where, want := range map[string][]string{
		`s is null`:                       {"n=-5000000000;s=null;", "n=2147483647;s=null;", "n=5000000000;s=null;", "n=7;s=null;"},
		`s = "a" or n = 7`:                {"n=1;s=a;", "n=7;s=null;"},
		`n > 3000000000`:                  {"n=5000000000;s=null;"},
		`n < 3000000000`:                  {"n=-5000000000;s=null;", "n=1;s=a;", "n=2147483647;s=null;", "n=7;s=null;"},
		`n != 5000000000`:                 {"n=-5000000000;s=null;", "n=1;s=a;", "n=2147483647;s=null;", "n=7;s=null;"},
		`n in (5000000000, 1, -1)`:        {"n=1;s=a;", "n=5000000000;s=null;"},
		`n = -5000000000 or s = "b"`:      {"n=-5000000000;s=null;", "n=null;s=b;"},
		`not (s is not null) and n >= -1`: {"n=2147483647;s=null;", "n=5000000000;s=null;", "n=7;s=null;"},
	} {
		f, err := pageindex.Parse(where)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := Open(context.Background(), nil, []string{dir}, Options{Filter: f, SchemaMode: SchemaUnify})
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		rr, _ := ds.RecordReader(context.Background())
		if got := readRows(t, rr); !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", where, got, want)
		}
		if n, err := ds.CountRows(context.Background()); err != nil || n != int64(len(want)) {
			t.Errorf("%s: CountRows = %d, %v", where, n, err)
		}
	}
}
