package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseLine(t *testing.T) {
	for _, tc := range []struct {
		line, group, impl string
		ns                float64
		ok                bool
	}{
		{"BenchmarkRead/dataset=lineitem/config=plain/impl=pqarrow-2   \t 3\t 123456 ns/op\t 10.5 MB/s\t 7 allocs/op",
			"BenchmarkRead/dataset=lineitem/config=plain", "pqarrow", 123456, true},
		{"BenchmarkUnpack32/width=7/impl=quiver-16  1000000  812.5 ns/op", "BenchmarkUnpack32/width=7", "quiver", 812.5, true},
		{"BenchmarkX/impl=pqarrow-parallel-8 5 1 ns/op", "BenchmarkX", "pqarrow-parallel", 1, true},
		{"BenchmarkX/impl=a 5 2 ns/op", "BenchmarkX", "a", 2, true}, // no GOMAXPROCS suffix
		{"BenchmarkNoImpl/width=3-2 10 5 ns/op", "", "", 0, false},  // nothing to compare against
		{"BenchmarkX/impl=a-2 --- FAIL", "", "", 0, false},          // not a result
		{"BenchmarkX/impl=a-2 10 17 B/op", "", "", 0, false},        // no ns/op
		{"ok  github.com/quiverio/quiver/bench 12.3s", "", "", 0, false},
	} {
		g, im, ns, ok := parseLine(tc.line)
		if g != tc.group || im != tc.impl || ns != tc.ns || ok != tc.ok {
			t.Errorf("parseLine(%q) = %q, %q, %v, %v; want %q, %q, %v, %v", tc.line, g, im, ns, ok, tc.group, tc.impl, tc.ns, tc.ok)
		}
	}
}

func TestMedian(t *testing.T) {
	if m := median([]float64{5, 1, 3}); m != 3 {
		t.Errorf("median of 5,1,3 = %v", m)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median of 4,1,3,2 = %v", m)
	}
}

const sample = `goos: linux
pkg: github.com/quiverio/quiver/bench
BenchmarkUnpack32/width=3/impl=quiver-2     1000  100 ns/op  16 MB/s
BenchmarkUnpack32/width=3/impl=quiver-2     1000  120 ns/op  16 MB/s
BenchmarkUnpack32/width=3/impl=quiver-2     1000  110 ns/op  16 MB/s
BenchmarkUnpack32/width=3/impl=parquetgo-2  1000  220 ns/op  8 MB/s
BenchmarkUnpack32/width=3/impl=parquetgo-2  1000  200 ns/op  8 MB/s
BenchmarkUnpack32/width=3/impl=parquetgo-2  1000  210 ns/op  8 MB/s
BenchmarkUnpack32/width=4/impl=quiver-2     1000  100 ns/op
BenchmarkUnpack32/width=4/impl=parquetgo-2  1000  800 ns/op
BenchmarkRead/dataset=taxi/config=plain/impl=pqarrow-2  3  2500000 ns/op
BenchmarkRead/dataset=taxi/config=plain/impl=parquetgo-2  3  1500000 ns/op
PASS
`

// TestReport checks the ratios (medians: 110 vs 210 ns, 100 vs 800 ns),
// their geometric mean (sqrt(210/110 * 8) = 3.91) and the listing of a
// group without the base implementation.
func TestReport(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bench.txt")
	if err := os.WriteFile(path, []byte(sample), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(&out, "quiver", "median", []string{path}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"BenchmarkUnpack32/width=3  110ns   1.91x",
		"BenchmarkUnpack32/width=4  100ns   8.00x",
		"geomean                            3.91x",
		"groups without quiver",
		"BenchmarkRead/dataset=taxi/config=plain  1.5ms      2.5ms",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	if ratios, _, _ := strings.Cut(got, "groups without"); strings.Contains(ratios, "pqarrow") || strings.Contains(ratios, "taxi") {
		t.Errorf("the ratio table shows the group without quiver:\n%s", got)
	}
}

// TestReportMin checks -stat min: fastest runs 100 vs 200 ns.
func TestReportMin(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bench.txt")
	if err := os.WriteFile(path, []byte(sample), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(&out, "quiver", "min", []string{path}); err != nil {
		t.Fatal(err)
	}
	if want := "BenchmarkUnpack32/width=3  100ns   2.00x"; !strings.Contains(out.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, out.String())
	}
	if err := run(&bytes.Buffer{}, "quiver", "mean", []string{path}); err == nil {
		t.Error("no error for an unknown -stat")
	}
}

func TestRunNoResults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.txt")
	if err := os.WriteFile(path, []byte("PASS\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(&bytes.Buffer{}, "quiver", "median", []string{path}); err == nil {
		t.Error("no error for a file without results")
	}
	if err := run(&bytes.Buffer{}, "quiver", "median", []string{filepath.Join(t.TempDir(), "missing")}); err == nil {
		t.Error("no error for a missing file")
	}
}
