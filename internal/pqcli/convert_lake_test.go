package pqcli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/duckdb"
)

// TestConvertRowGroupAndSortFlags converts a CSV file with
// --row-group-bytes, --row-group-rows and --sort-by, checks the row
// groups and sorting columns in the footer, and checks that DuckDB and
// arrow-go read each file to the rows of the file written with defaults.
func TestConvertRowGroupAndSortFlags(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	var csvText strings.Builder
	csvText.WriteString("id,name,price\n")
	for i := range 20000 {
		fmt.Fprintf(&csvText, "%d,name %d,%d.%02d\n", i, (i*7919)%5000, i%977, i%100)
	}
	if err := os.WriteFile(in, []byte(csvText.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(dir, "ref.parquet")
	runPQ(t, "convert", in, ref)
	cases := []struct {
		name  string
		flags []string
		check func(t *testing.T, fm *footer.FileMetaData)
	}{
		{"row-group-bytes", []string{"--row-group-bytes", "32768", "--codec", "zstd"}, func(t *testing.T, fm *footer.FileMetaData) {
			if len(fm.RowGroups) < 3 {
				t.Errorf("%d row groups, want several of about 32 KiB", len(fm.RowGroups))
			}
			// The first row group counts its unwritten pages
			// uncompressed, so it ends early; later ones estimate them
			// with each column's compression ratio so far, which the
			// first row group's small pages overstate (zstd shrinks
			// the names of the second one more): within 60-125% of
			// the target.
			for i, rg := range fm.RowGroups[:len(fm.RowGroups)-1] {
				if size := rg.TotalCompressedSize.Value; size > 40<<10 || (i > 0 && size < 20<<10) {
					t.Errorf("row group %d: %d bytes", i, size)
				}
			}
		}},
		{"row-group-rows", []string{"--row-group-rows", "3333"}, func(t *testing.T, fm *footer.FileMetaData) {
			for i, rg := range fm.RowGroups {
				if want := min(3333, 20000-int64(i)*3333); rg.NumRows != want {
					t.Errorf("row group %d: %d rows, want %d", i, rg.NumRows, want)
				}
			}
		}},
		{"sort-by", []string{"--sort-by", "id:desc:nulls_first,name", "--row-group-rows", "5000"}, func(t *testing.T, fm *footer.FileMetaData) {
			want := []footer.SortingColumn{{ColumnIdx: 0, Descending: true, NullsFirst: true}, {ColumnIdx: 1}}
			for i, rg := range fm.RowGroups {
				if fmt.Sprint(rg.SortingColumns) != fmt.Sprint(want) {
					t.Errorf("row group %d: sorting columns %v, want %v", i, rg.SortingColumns, want)
				}
			}
			meta := string(runPQ(t, "meta", filepath.Join(dir, "sort-by.parquet")))
			if n := strings.Count(meta, "sorted by id desc nulls first, name\n"); n != 4 {
				t.Errorf("pq meta shows the sorting columns of %d row groups, want 4:\n%s", n, meta)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, c.name+".parquet")
			runPQ(t, append(append([]string{"convert"}, c.flags...), in, out)...)
			ft, err := readFooter(out, &keyFlags{})
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, ft.Meta)
			a, b := readTable(t, ref), readTable(t, out)
			defer a.Release()
			defer b.Release()
			if !array.TableEqual(a, b) {
				t.Error("Quiver reads the file differently from the one written with defaults")
			}
			file, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			mem := memory.NewGoAllocator()
			pq, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(file), parquet.NewReaderProperties(mem), pqarrow.ArrowReadProperties{}, mem)
			if err != nil {
				t.Fatalf("arrow-go cannot read the file: %v", err)
			}
			defer pq.Release()
			for i := range int(a.NumCols()) { // arrow-go adds field_id -1 metadata to the fields
				if !array.ChunkedEqual(a.Column(i).Data(), pq.Column(i).Data()) {
					t.Errorf("arrow-go reads column %s differently from Quiver", a.Schema().Field(i).Name)
				}
			}
			rows := duckdb.Query(t, fmt.Sprintf(`select
				(select count(*) from read_parquet(%[1]s)) as n,
				(select count(*) from (select * from read_parquet(%[1]s) except all select * from read_parquet(%[2]s))) as only_ours,
				(select count(*) from (select * from read_parquet(%[2]s) except all select * from read_parquet(%[1]s))) as only_ref`,
				duckdb.Quote(out), duckdb.Quote(ref)))
			if len(rows) != 1 || fmt.Sprint(rows[0]["n"]) != "20000" || fmt.Sprint(rows[0]["only_ours"]) != "0" || fmt.Sprint(rows[0]["only_ref"]) != "0" {
				t.Errorf("DuckDB: %v", rows)
			}
		})
	}
}

func TestParseSortBy(t *testing.T) {
	got, err := parseSortBy("a.b:DESC,c:nulls_first:asc,d")
	if err != nil {
		t.Fatal(err)
	}
	if s := fmt.Sprint(got); s != "[{a.b true false} {c false true} {d false false}]" {
		t.Errorf("parsed %s", s)
	}
	for _, bad := range []string{"a:up", ",a", "a,"} {
		if _, err := parseSortBy(bad); err == nil {
			t.Errorf("--sort-by %q: no error", bad)
		}
	}
}
