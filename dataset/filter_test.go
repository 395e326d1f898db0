package dataset

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
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

// Every kind of predicate comes apart into a tree with NOT pushed down
// to the conditions, as SQL's three-valued logic allows.
func TestParseFilter(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`x = 1`, `x = 1`},
		{`x = 1 and y != "a b"`, `(x = 1) and (y != "a b")`},
		{"`odd col` >= 2.5 or not (s prefix \"(\" and s in (\"a\", \"b,)\"))", "(`odd col` >= 2.5) or ((not (s prefix \"(\")) or (not (s in (\"a\", \"b,)\"))))"},
		{`x is null or not x is null or x in ()`, `(x is null) or (x is not null) or (x in ())`},
		{`not (x is not null and not y is null)`, `(x is null) or (y is null)`},
		{`true`, `true`}, {`false`, `false`}, {`not true`, `false`}, {`not (true or x = 1)`, `(false) and (not (x = 1))`},
		{`not not (a < -1)`, `a < -1`},
		{`not (a < -1 or d = DATE '2024-01-02')`, `(not (a < -1)) and (not (d = DATE '2024-01-02'))`},
		{"`and` = 1", "`and` = 1"},
	} {
		p, err := pageindex.Parse(c.in)
		if err != nil {
			t.Fatal(c.in, err)
		}
		n, err := parseFilter(p)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got := n.predicate().String(); got != c.want {
			t.Errorf("%s: %s, want %s", c.in, got, c.want)
		}
	}
}

// The tree of a random predicate selects the same rows as the predicate,
// nulls and NaNs included.
func TestParseFilterSelectsTheSame(t *testing.T) {
	// Every combination of a null and three values of each column.
	xb, fb, sb := array.NewInt64Builder(memory.DefaultAllocator), array.NewFloat64Builder(memory.DefaultAllocator), array.NewStringBuilder(memory.DefaultAllocator)
	for i := range 64 {
		if x := i % 4; x == 0 {
			xb.AppendNull()
		} else {
			xb.Append([]int64{-1, 0, 3}[x-1])
		}
		if f := i / 4 % 4; f == 0 {
			fb.AppendNull()
		} else {
			fb.Append([]float64{math.NaN(), 0.5, 2}[f-1])
		}
		if s := i / 16; s == 0 {
			sb.AppendNull()
		} else {
			sb.Append([]string{"", "a", "ab"}[s-1])
		}
	}
	cols := map[string]arrow.Array{"x": xb.NewArray(), "f": fb.NewArray(), "s": sb.NewArray()}
	fsch, err := partitionSchema([]partKey{{name: "x", typ: arrow.PrimitiveTypes.Int64}, {name: "f", typ: arrow.PrimitiveTypes.Float64}, {name: "s", typ: arrow.BinaryTypes.String}})
	if err != nil {
		t.Fatal(err)
	}
	leaves := []string{"x = 0", "x < 0", "x in (3, -1)", "x is null", "f > 0.5", "f = nan", "f != 2", "s prefix \"a\"", "s = ''", "s is not null"}
	rng := rand.New(rand.NewPCG(7, 7))
	var random func(depth int) string
	random = func(depth int) string {
		if depth == 0 || rng.IntN(3) == 0 {
			return leaves[rng.IntN(len(leaves))]
		}
		switch rng.IntN(3) {
		case 0:
			return "not (" + random(depth-1) + ")"
		case 1:
			return "(" + random(depth-1) + ") and (" + random(depth-1) + ")"
		}
		return "(" + random(depth-1) + ") or (" + random(depth-1) + ")"
	}
	sel := func(p pageindex.Predicate) []bool {
		b, err := pageindex.Bind(p, fsch)
		if err != nil {
			t.Fatalf("Bind(%s): %v", p, err)
		}
		var arrs []arrow.Array
		for _, l := range b.Leaves() {
			arrs = append(arrs, cols[l.DottedPath()])
		}
		out, err := b.Select(arrs, 64)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for range 500 {
		p, err := pageindex.Parse(random(4))
		if err != nil {
			t.Fatal(err)
		}
		n, err := parseFilter(p)
		if err != nil {
			t.Fatal(err)
		}
		if n.kind == nodeTrue || n.kind == nodeFalse {
			continue
		}
		if got, want := sel(n.predicate()), sel(p); !slices.Equal(got, want) {
			t.Fatalf("%s selects %v, its tree %s selects %v", p, want, n.predicate(), got)
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

// NOT follows SQL's three-valued logic over a null partition value, a
// column a file lacks, and integer literals beyond a file's narrower
// column: a condition unknown for a row stays unknown under NOT.
func TestFilterNullsThreeValued(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string, x arrow.Array, y arrow.Array) {
		fields := []arrow.Field{{Name: "x", Type: x.DataType()}}
		cols := []arrow.Array{x}
		if y != nil {
			fields, cols = append(fields, arrow.Field{Name: "y", Type: y.DataType(), Nullable: true}), append(cols, y)
		}
		rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(x.Len()))
		writeParquet(t, filepath.Join(dir, rel), arrowio.WriteOptions{}, rec)
		rec.Release()
	}
	x64 := func(from int64) arrow.Array {
		b := array.NewInt64Builder(memory.DefaultAllocator)
		for i := range int64(10) {
			b.Append(from + i)
		}
		return b.NewArray()
	}
	ys := func(v string, nullOdd bool) arrow.Array {
		b := array.NewStringBuilder(memory.DefaultAllocator)
		for i := range 10 {
			if nullOdd && i%2 == 1 {
				b.AppendNull()
			} else {
				b.Append(v)
			}
		}
		return b.NewArray()
	}
	x32 := array.NewInt32Builder(memory.DefaultAllocator)
	for i := range int32(10) {
		x32.Append(20 + i)
	}
	write("k=1/a.parquet", x64(0), ys("a", true))                          // y "a" on even rows, null on odd
	write("k="+HiveDefaultPartition+"/b.parquet", x64(10), ys("b", false)) // k null
	write("k=2/c.parquet", x32.NewArray(), nil)                            // no y; x is int32
	for where, want := range map[string]int64{
		`not (k = 1)`:                      10,
		`not (k is null)`:                  20,
		`not (y = "a")`:                    10,
		`not (y is null)`:                  15,
		`y is null`:                        15,
		`not (k = 1 or y = "b")`:           0,
		`not (k = 1 and y = "a")`:          20,
		`not (x = 5000000000)`:             30,
		`not (x in (5000000000, 25))`:      29,
		`x > 5000000000`:                   0,
		`not (x > 5000000000)`:             30,
		`not (x < -5000000000 or y = "a")`: 10,
	} {
		p, err := pageindex.Parse(where)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := Open(context.Background(), nil, []string{dir}, Options{SchemaMode: SchemaUnify, Filter: p})
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		n, err := ds.CountRows(context.Background())
		if err != nil || n != want {
			t.Errorf("%s: CountRows = %d, %v; want %d", where, n, err, want)
		}
		if got := len(quiverRows(t, ds, []string{"x"})); int64(got) != want {
			t.Errorf("%s: %d rows read, want %d", where, got, want)
		}
	}
}
