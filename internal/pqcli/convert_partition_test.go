package pqcli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quiverio/quiver/internal/duckdb"
)

// pq convert --partition-by writes a hive-partitioned directory that pq
// reads back with partition filters, and that DuckDB reads to the same
// counts and sums.
func TestConvertPartitionBy(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	var csv strings.Builder
	csv.WriteString("id,year,month,city,amount\n")
	for i := range 200 {
		city := []string{"Oslo", "São Paulo", "a/b=c", ""}[i%4] // escaped in directory names; empty is null
		fmt.Fprintf(&csv, "%d,%d,%d,%s,%d.5\n", i, 2023+i%2, 1+i%3, city, i)
	}
	if err := os.WriteFile(in, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "ds")
	msg := string(runPQ(t, "convert", "--partition-by", "year,month", "--max-rows-per-file", "20", "--codec", "zstd", in, out))
	if !strings.HasPrefix(msg, "wrote 200 rows to ") || !strings.HasSuffix(msg, " files in 6 partitions under "+out+"\n") {
		t.Errorf("pq convert says %q", msg)
	}
	var files []string
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(out, p)
			files = append(files, filepath.Dir(rel))
		}
		return nil
	})
	slices.Sort(files)
	files = slices.Compact(files)
	want := []string{"year=2023/month=1", "year=2023/month=2", "year=2023/month=3", "year=2024/month=1", "year=2024/month=2", "year=2024/month=3"}
	if !slices.Equal(files, want) {
		t.Errorf("partition directories %v, want %v", files, want)
	}
	rows := decodeLines(t, string(runPQ(t, "cat", "--limit", "-1", "--columns", "id", "--where", "year = 2024 and month = 2 and not (city = 'Oslo')", out)))
	var ids []int
	for _, r := range rows {
		ids = append(ids, int(r.(map[string]any)["id"].(float64)))
	}
	slices.Sort(ids)
	var wantIDs []int
	for i := range 200 {
		if 2023+i%2 == 2024 && 1+i%3 == 2 && i%4 != 0 && i%4 != 3 { // city null is unknown, so NOT excludes it too
			wantIDs = append(wantIDs, i)
		}
	}
	if !slices.Equal(ids, wantIDs) {
		t.Errorf("filtered ids %v, want %v", ids, wantIDs)
	}

	duckdb.Script(t)
	r := duckdb.Query(t, fmt.Sprintf("SELECT count(*) AS n, sum(amount) AS s, count(DISTINCT year * 100 + month) AS parts, count(city) AS cities FROM read_parquet(%s, hive_partitioning = true)",
		duckdb.Quote(out+"/**/*.parquet")))[0]
	if got := fmt.Sprint(r["n"], " ", r["s"], " ", r["parts"], " ", r["cities"]); got != "200 20000 6 150" {
		t.Errorf("DuckDB reads count, sum, partitions, cities = %s, want 200 20000 6 150", got)
	}
}

func TestConvertPartitionByErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(in, []byte("a,b\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	err := run([]string{"convert", "--partition-by", "c", in, filepath.Join(dir, "ds")}, &out)
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), `--partition-by "c": no such column`) {
		t.Errorf("unknown partition column: %v", err)
	}
	err = run([]string{"convert", "--max-rows-per-file", "5", in, filepath.Join(dir, "x.parquet")}, &out)
	if !errors.Is(err, errUsage) {
		t.Errorf("--max-rows-per-file without --partition-by: %v", err)
	}
}
