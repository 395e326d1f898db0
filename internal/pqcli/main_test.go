package pqcli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const fixture = "../../testdata/trips.parquet"

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n%s", path, got)
	}
}

func runPQ(t *testing.T, args ...string) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := run(args, &out); err != nil {
		t.Fatalf("pq %s: %v", strings.Join(args, " "), err)
	}
	return out.Bytes()
}

func TestSchemaGolden(t *testing.T) {
	golden(t, "trips.schema.txt", runPQ(t, "schema", fixture))
}

func TestMetaGolden(t *testing.T) {
	golden(t, "trips.meta.txt", runPQ(t, "meta", fixture))
}

func TestMetaJSON(t *testing.T) {
	out := runPQ(t, "meta", "--json", fixture)
	golden(t, "trips.meta.json", out)
	var v struct {
		NumRows   int64 `json:"num_rows"`
		RowGroups []struct {
			Columns []struct {
				Path       string `json:"path"`
				Statistics *struct {
					Min *string `json:"min"`
				} `json:"statistics"`
			} `json:"columns"`
		} `json:"row_groups"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	if v.NumRows != 1000 || len(v.RowGroups) != 2 || v.RowGroups[0].Columns[1].Path != "vendor" {
		t.Errorf("unexpected JSON: %+v", v)
	}
	if s := v.RowGroups[0].Columns[5].Statistics; s == nil || s.Min == nil || *s.Min != "3.50" {
		t.Errorf("fare min statistic = %+v, want 3.50", s)
	}
}

func TestFlagAfterFile(t *testing.T) {
	if !bytes.Equal(runPQ(t, "meta", fixture, "--json"), runPQ(t, "meta", "--json", fixture)) {
		t.Error("--json after the file gives different output")
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"schema"},
		{"meta", "--nope", fixture},
		{"schema", fixture, fixture},
	} {
		err := run(args, new(bytes.Buffer))
		if !errors.Is(err, errUsage) {
			t.Errorf("pq %q: err = %v, want a usage error", args, err)
		}
	}
}

func TestNotParquet(t *testing.T) {
	err := run([]string{"meta", "pqcli.go"}, new(bytes.Buffer))
	if err == nil || !strings.Contains(err.Error(), "pqcli.go") || !strings.Contains(err.Error(), "magic") {
		t.Errorf("err = %v, want an error naming the file and the bad magic", err)
	}
}

func TestHeadGolden(t *testing.T) {
	golden(t, "trips.head.jsonl", runPQ(t, "head", fixture))
}

func TestCatCSVGolden(t *testing.T) {
	golden(t, "trips.cat.csv", runPQ(t, "cat", "--columns", "trip_id,vendor,fare,paid_card", "--limit", "25", "--format", "csv", fixture))
}

func TestCatAllRows(t *testing.T) {
	out := runPQ(t, "cat", "--columns", "trip_id", fixture)
	if n := bytes.Count(out, []byte("\n")); n != 1000 {
		t.Errorf("cat printed %d lines, want 1000", n)
	}
	if !bytes.HasPrefix(out, []byte(`{"trip_id":100000}`)) {
		t.Errorf("first line %q", out[:min(40, len(out))])
	}
}

func TestCatErrors(t *testing.T) {
	if err := run([]string{"cat", "--format", "xml", fixture}, new(bytes.Buffer)); !errors.Is(err, errUsage) {
		t.Errorf("--format xml: %v", err)
	}
	if err := run([]string{"cat", "--columns", "nope", fixture}, new(bytes.Buffer)); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("unknown column: %v", err)
	}
}

// TestEmptyGlob checks that a glob matching no file is an error, as in
// DuckDB, rather than an empty result that hides a typo.
func TestEmptyGlob(t *testing.T) {
	glob := filepath.Join(t.TempDir(), "*.parquet")
	for _, cmd := range []string{"cat", "head", "meta"} {
		err := run([]string{cmd, glob}, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), "no Parquet file found") {
			t.Errorf("pq %s on an empty glob: %v", cmd, err)
		}
	}
}

// TestSchemaDataset checks that pq schema reads a directory as a dataset:
// the file's columns, then the partition key.
func TestSchemaDataset(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "year=2024")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "part-0.parquet"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	out := string(runPQ(t, "schema", filepath.Dir(dir)))
	if !strings.HasPrefix(out, "  trip_id: int64\n") || !strings.HasSuffix(out, "  year: dictionary<values=int64, indices=int32, ordered=false>\n") {
		t.Errorf("pq schema DIR printed\n%s", out)
	}
}
