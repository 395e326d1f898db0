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
	path := writeSample(t, "bench.txt", sample)
	var out bytes.Buffer
	if err := run(&out, "quiver", "median", []string{path}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	containsAll(t, "report", got,
		"BenchmarkUnpack32/width=3  110ns   1.91x",
		"BenchmarkUnpack32/width=4  100ns   8.00x",
		"geomean                            3.91x",
		"groups without quiver",
		"BenchmarkRead/dataset=taxi/config=plain  1.5ms      2.5ms",
	)
	if ratios, _, _ := strings.Cut(got, "groups without"); strings.Contains(ratios, "pqarrow") || strings.Contains(ratios, "taxi") {
		t.Errorf("the ratio table shows the group without quiver:\n%s", got)
	}
}

// TestReportMin checks -stat min: fastest runs 100 vs 200 ns.
func TestReportMin(t *testing.T) {
	path := writeSample(t, "bench.txt", sample)
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
	path := writeSample(t, "empty.txt", "PASS\n")
	if err := run(&bytes.Buffer{}, "quiver", "median", []string{path}); err == nil {
		t.Error("no error for a file without results")
	}
	if err := run(&bytes.Buffer{}, "quiver", "median", []string{filepath.Join(t.TempDir(), "missing")}); err == nil {
		t.Error("no error for a missing file")
	}
}

// pageSample has a read of two files, quiver's Parallelism 2 read, cold
// reads, a write and kernels, each file with its configuration lines.
var pageSample = map[string]string{
	"read.txt": `date: 2026-01-02
quiver: abc1234
go: go1.26.8
arrow-go: v18.8.0
parquet-go: v0.32.0
cores: 2
cpu: Test CPU
BenchmarkRead/dataset=lineitem/config=plain/impl=quiver  3  100000000 ns/op
BenchmarkRead/dataset=lineitem/config=plain/impl=quiver  3  120000000 ns/op
BenchmarkRead/dataset=lineitem/config=plain/impl=quiver  3  110000000 ns/op
BenchmarkRead/dataset=lineitem/config=plain/impl=quiver-stream  3  90000000 ns/op
BenchmarkRead/dataset=lineitem/config=plain/impl=pqarrow  3  440000000 ns/op
BenchmarkRead/dataset=lineitem/config=plain/impl=parquetgo  3  180000000 ns/op
BenchmarkRead/dataset=lineitem/config=plain/impl=parquetgo-table  3  330000000 ns/op
BenchmarkRead/dataset=lineitem/config=plain/impl=floor  3  55000000 ns/op
BenchmarkRead/dataset=taxi/config=delta/impl=quiver  3  50000000 ns/op
BenchmarkRead/dataset=taxi/config=delta/impl=pqarrow  3  100000000 ns/op
`,
	"parallel.txt": `date: 2026-01-02
quiver: abc1234
go: go1.26.8
arrow-go: v18.8.0
parquet-go: v0.32.0
cores: 2
cpu: Test CPU
BenchmarkRead/dataset=lineitem/config=plain/impl=quiver-2  3  150000000 ns/op
BenchmarkRead/dataset=lineitem/config=plain/impl=quiver-parallel-2  3  55000000 ns/op
`,
	"cold.txt": `date: 2026-01-02
quiver: abc1234
go: go1.26.8
arrow-go: v18.8.0
parquet-go: v0.32.0
cores: 2
cpu: Test CPU
BenchmarkReadCold/dataset=lineitem/config=plain/impl=quiver  1  130000000 ns/op  1.125 alloc/decoded  100 B/op
BenchmarkReadCold/dataset=lineitem/config=plain/impl=pqarrow  1  500000000 ns/op  3.5 alloc/decoded  100 B/op
`,
	"write.txt": `date: 2025-12-31
quiver: def5678
go: go1.26.8
arrow-go: v18.8.0
parquet-go: v0.32.0
cores: 2
cpu: Other CPU
note: Writes come from an older run.
BenchmarkWrite/dataset=lineitem/config=plain/impl=quiver  2  200000000 ns/op  1000000 file-bytes
BenchmarkWrite/dataset=lineitem/config=plain/impl=pqarrow  2  500000000 ns/op  1010000 file-bytes
BenchmarkWrite/dataset=taxi/config=plain/impl=quiver  2  100000000 ns/op  2000000 file-bytes
BenchmarkWrite/dataset=taxi/config=plain/impl=pqarrow  2  100000000 ns/op  2000010 file-bytes
BenchmarkWrite/dataset=taxi/config=zstd-v2/impl=quiver  2  300000000 ns/op  500000 file-bytes
BenchmarkWrite/dataset=taxi/config=zstd-v2/impl=pqarrow  2  540000000 ns/op  510000 file-bytes
BenchmarkWrite/dataset=taxi/config=zstd-v2/impl=floor  2  270000000 ns/op
`,
	"kernels.txt": `date: 2025-12-31
quiver: def5678
go: go1.26.8
arrow-go: v18.8.0
parquet-go: v0.32.0
cores: 2
cpu: Other CPU
BenchmarkUnpack32/width=1/impl=quiver  1000  100 ns/op  4e10 values/s
BenchmarkUnpack32/width=1/impl=parquetgo  1000  200 ns/op  2e10 values/s
BenchmarkUnpack32/width=2/impl=quiver  1000  100 ns/op  4e10 values/s
BenchmarkUnpack32/width=2/impl=parquetgo  1000  300 ns/op  1.33e10 values/s
BenchmarkUnpack32/width=3/impl=quiver  1000  100 ns/op  4e10 values/s
BenchmarkUnpack32/width=3/impl=parquetgo  1000  400 ns/op  1e10 values/s
BenchmarkUnpack32/width=4/impl=quiver  1000  100 ns/op  4e10 values/s
BenchmarkUnpack32/width=4/impl=parquetgo  1000  100 ns/op  4e10 values/s
BenchmarkDeltaInt32/values=65536/impl=quiver  1000  20000 ns/op  3.2e9 values/s
BenchmarkDeltaInt32/values=65536/impl=parquetgo  1000  50000 ns/op  1.3e9 values/s
`,
}

// TestPage checks each table of the page against the sample: medians,
// ratios, the one-core read the parallel read is set against (not the
// serial read at -cpu 2), allocation, file sizes, the write floor, the
// kernel row of ranges, the machine table's two rows and the note.
func TestPage(t *testing.T) {
	var paths []string
	for _, name := range []string{"read.txt", "parallel.txt", "cold.txt", "write.txt", "kernels.txt"} {
		paths = append(paths, writeSample(t, name, pageSample[name]))
	}
	got := pageOf(t, paths...)
	containsAll(t, "page", got,
		"go run ./cmd/ratios -page "+paths[0]+" \\\n",
		"| reads | 2026-01-02 | Test CPU | 2 | go1.26.8 | v18.8.0 | v0.32.0 | abc1234 |",
		"| writes, kernels | 2025-12-31 | Other CPU | 2 | go1.26.8 | v18.8.0 | v0.32.0 | def5678 |",
		"| lineitem plain | 110.0 | 440.0 | 4.00x | 330.0 | 3.00x | 90.0 | 180.0 | 2.00x | 55.0 | 2.00x | 1.12 (3.50) |",
		"| taxi delta | 50.0 | 100.0 | 2.00x | - | - | - | - | - | - | - | - |",
		"- quiver against pqarrow: faster on 2 of 2 rows, 2.00x-4.00x (geomean 2.83x)",
		"- Parallelism 2 (`-cpu 2`, 1 samples), lineitem plain: 55.0 ms against the one-core read's 110.0 ms, 2.00x",
		"| lineitem plain | 200.0 | 500.0 | 2.50x | - | - | 1.0 | 1.0 | -0.99% |",
		"| taxi plain | 100.0 | 100.0 | 1.00x | - | - | 2.0 | 2.0 | +0.00% |",
		"| taxi zstd-v2 | 300.0 | 540.0 | 1.80x | 270.0 | 2.00x | 0.5 | 0.5 | -1.96% |",
		"- quiver against pqarrow: faster on 2 of 3 rows, 1.00x-2.50x (geomean 1.65x)",
		"- quiver's files differ from pqarrow's by -1.96% to +0.00%",
		"Note: Writes come from an older run.",
		"| Unpack32 | 4 inputs, width 1-4 | 40.0 G | 10.0 G to 40.0 G | 1.00x-4.00x (geomean 2.21x) |",
		"| DeltaInt32 | values=65536 | 3.20 G | 1.30 G | 2.50x |",
	)
	if err := runPage(&bytes.Buffer{}, nil); err == nil {
		t.Error("no error for -page without files")
	}
}

// remoteSample is BenchmarkRemote output as go test prints it (custom
// metrics, B/op, the GOMAXPROCS suffix), cut to two latencies.
const remoteSample = `date: 2026-01-03
quiver: 0123abc
go: go1.26.8
arrow-go: v18.8.0
parquet-go: v0.32.0
cores: 2
cpu: Remote CPU
BenchmarkRemote/latency=5ms/query=whole/impl=quiver-2   1  400000000 ns/op  285.00 MB/s  114.2 MBfetched/op  114.1 MBpeak  17.00 requests/op  490809400 B/op  1182 allocs/op
BenchmarkRemote/latency=5ms/query=whole/impl=quiver-2   1  200000000 ns/op  570.00 MB/s  114.2 MBfetched/op  114.1 MBpeak  17.00 requests/op  418262880 B/op  1112 allocs/op
BenchmarkRemote/latency=5ms/query=whole/impl=quiver-2   1  250000000 ns/op  456.00 MB/s  114.2 MBfetched/op  114.1 MBpeak  19.00 requests/op  399360304 B/op  1089 allocs/op
BenchmarkRemote/latency=5ms/query=whole/impl=pqarrow-parallel-2   1  1000000000 ns/op  114.00 MB/s  114.1 MBfetched/op  14.32 MBpeak  66.00 requests/op  1194423552 B/op  96019 allocs/op
BenchmarkRemote/latency=5ms/query=whole/impl=pqarrow-parallel-buffered-2   1  750000000 ns/op  152.00 MB/s  114.1 MBfetched/op  5.606 MBpeak  154.0 requests/op  1125214128 B/op  95991 allocs/op
BenchmarkRemote/latency=5ms/query=whole/impl=parquetgo-async-2   1  2000000000 ns/op  57.00 MB/s  114.1 MBfetched/op  4.194 MBpeak  75.00 requests/op  69834992 B/op  4392 allocs/op
BenchmarkRemote/latency=20ms/query=2cols/impl=local-2   1  25000000 ns/op  4560.00 MB/s  0 MBfetched/op  0 MBpeak  0 requests/op  48257152 B/op  475 allocs/op
BenchmarkRemote/latency=20ms/query=2cols/impl=quiver-2   1  100000000 ns/op  1140.00 MB/s  31.38 MBfetched/op  31.31 MBpeak  17.00 requests/op  52337448 B/op  630 allocs/op
BenchmarkRemote/latency=20ms/query=2cols/impl=pqarrow-parallel-2   1  500000000 ns/op  228.00 MB/s  31.32 MBfetched/op  3.915 MBpeak  18.00 requests/op  180645344 B/op  5489 allocs/op
BenchmarkRemote/latency=20ms/query=2cols/impl=parquetgo-async-2   1  800000000 ns/op  142.50 MB/s  31.32 MBfetched/op  3.153 MBpeak  19.00 requests/op  31171400 B/op  1027 allocs/op
BenchmarkRemote/latency=20ms/query=lookup/impl=quiver-2   1  200000000 ns/op  570.00 MB/s  14.44 MBfetched/op  0 MBpeak  5.000 requests/op  62826664 B/op  1230 allocs/op
PASS
ok  	github.com/quiverio/quiver/bench	111.539s
`

// TestPageRemote checks the object-store section of a page made from
// BenchmarkRemote output alone: medians of time, requests and MB fetched,
// "-" for the readers a row lacks, the faster pqarrow read taken, and the
// other sections left out.
func TestPageRemote(t *testing.T) {
	got := pageOf(t, writeSample(t, "remote.txt", remoteSample))
	containsAll(t, "page", got,
		"| object stores | 2026-01-03 | Remote CPU | 2 | go1.26.8 | v18.8.0 | v0.32.0 | 0123abc |",
		"## Reads from object stores",
		"medians of 1-3 samples at GOMAXPROCS 2.",
		"| latency | query | quiver | local | pqarrow | pqarrow (buffered) | parquet-go | quiver requests | quiver MB fetched |",
		"| 5ms | whole | 250.0 | - | 1000.0 | 750.0 | 2000.0 | 17 | 114.2 |",
		"| 20ms | 2cols | 100.0 | 25.0 | 500.0 | - | 800.0 | 17 | 31.4 |",
		"| 20ms | lookup | 200.0 | - | - | - | - | 5 | 14.4 |",
		"- quiver against the faster pqarrow read: faster on 2 of 2 rows, 3.00x-5.00x (geomean 3.87x)",
		"- quiver against parquet-go: faster on 2 of 2 rows, 8.00x (geomean 8.00x)",
	)
	for _, absent := range []string{"## Reads\n", "## Writes", "## Kernels"} {
		if strings.Contains(got, absent) {
			t.Errorf("page has %q without its results:\n%s", absent, got)
		}
	}
}

// pageOf returns the page made from the files at paths.
func pageOf(t *testing.T, paths ...string) string {
	t.Helper()
	var out bytes.Buffer
	if err := runPage(&out, paths); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// containsAll reports each of wants that got (the output of what) lacks.
func containsAll(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(got, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, got)
		}
	}
}

// writeSample writes text to a file name in a new temporary directory and
// returns its path.
func writeSample(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseConfig(t *testing.T) {
	for _, tc := range []struct {
		line, key, value string
		ok               bool
	}{
		{"cpu: AMD EPYC  ", "cpu", "AMD EPYC", true},
		{"arrow-go: v18.8.0", "arrow-go", "v18.8.0", true},
		{"note: a: b", "note", "a: b", true},
		{"Benchmark: x", "", "", false},
		{"two words: x", "", "", false},
		{"PASS", "", "", false},
	} {
		k, v, ok := parseConfig(tc.line)
		if k != tc.key || v != tc.value || ok != tc.ok {
			t.Errorf("parseConfig(%q) = %q, %q, %v; want %q, %q, %v", tc.line, k, v, ok, tc.key, tc.value, tc.ok)
		}
	}
}

// datasetSample is BenchmarkDatasetVsDuckDB output as go test prints it,
// cut to two queries of one dataset at one thread count, with two
// samples of quiver's pruned count.
const datasetSample = `date: 2026-01-04
quiver: 4567def
go: go1.26.8
arrow-go: v18.8.0
parquet-go: v0.32.0
cores: 2
cpu: Dataset CPU
BenchmarkDatasetVsDuckDB/files=1000x1000/threads=1/query=pruned/impl=quiver-2   20  60000000 ns/op  50000000 cpu-ns/op  60000 ns/file  1000 files-opened  16666666 rows/s  9000000 B/op  90000 allocs/op
BenchmarkDatasetVsDuckDB/files=1000x1000/threads=1/query=pruned/impl=quiver-2   20  80000000 ns/op  70000000 cpu-ns/op  80000 ns/file  1000 files-opened  12500000 rows/s  9000000 B/op  90000 allocs/op
BenchmarkDatasetVsDuckDB/files=1000x1000/threads=1/query=pruned/impl=duckdb-2   20  90000000 ns/op  75000000 cpu-ns/op  90000 ns/file  11111111 rows/s
BenchmarkDatasetVsDuckDB/files=1000x1000/threads=1/query=partition/impl=quiver-2   100  2000000 ns/op  2000000 cpu-ns/op  2000 ns/file  10 files-opened  500000000 rows/s  900000 B/op  9000 allocs/op
BenchmarkDatasetVsDuckDB/files=1000x1000/threads=1/query=partition/impl=duckdb-2   100  4000000 ns/op  3000000 cpu-ns/op  4000 ns/file  250000000 rows/s
BenchmarkDatasetVsDuckDB/files=1000x1000/threads=1/query=whole-scan/impl=quiver-2   10  100000000 ns/op  110000000 cpu-ns/op  100000 ns/file  1000 files-opened  10000000 rows/s  90000000 B/op  900000 allocs/op
BenchmarkDatasetVsDuckDB/files=1000x1000/threads=1/query=whole-scan/impl=quiver-tuned-2   10  90000000 ns/op  95000000 cpu-ns/op  90000 ns/file  1000 files-opened  11111111 rows/s  50000000 B/op  900000 allocs/op
BenchmarkDatasetVsDuckDB/files=1000x1000/threads=1/query=whole-scan/impl=duckdb-2   10  125000000 ns/op  121000000 cpu-ns/op  125000 ns/file  8000000 rows/s
PASS
`

// TestPageDatasets checks the datasets section of a page made from
// BenchmarkDatasetVsDuckDB output alone: median wall and CPU times, the
// ratios, the time per file and the files opened, "-" for what a row
// lacks, the summaries, and the other sections left out.
func TestPageDatasets(t *testing.T) {
	got := pageOf(t, writeSample(t, "datasets.txt", datasetSample))
	containsAll(t, "page", got,
		"| datasets | 2026-01-04 | Dataset CPU | 2 | go1.26.8 | v18.8.0 | v0.32.0 | 4567def |",
		"## Datasets against DuckDB",
		"medians of 1-2 samples;",
		"| files | threads | query | quiver | quiver-tuned | DuckDB | DuckDB/quiver | quiver CPU | DuckDB CPU | DuckDB/quiver CPU | quiver µs/file | files opened |",
		"| 1000x1000 | 1 | pruned | 70.0 | - | 90.0 | 1.29x | 60.0 | 75.0 | 1.25x | 70 | 1000 of 1000 |",
		"| 1000x1000 | 1 | partition | 2.0 | - | 4.0 | 2.00x | 2.0 | 3.0 | 1.50x | 2 | 10 of 1000 |",
		"| 1000x1000 | 1 | whole-scan | 100.0 | 90.0 | 125.0 | 1.25x | 110.0 | 121.0 | 1.10x | 100 | 1000 of 1000 |",
		"- quiver's whole scans against DuckDB's, wall time: faster on 1 of 1 rows, 1.25x (geomean 1.25x)",
		"- quiver's whole scans against DuckDB's, CPU time: faster on 1 of 1 rows, 1.10x (geomean 1.10x)",
		"- quiver-tuned's whole scans against DuckDB's, wall time: faster on 1 of 1 rows, 1.39x (geomean 1.39x)",
		"- quiver's per-file overhead (pruned: open, footer, plan, nothing decoded): 70 µs (60 µs CPU) per file (1000x1000, threads 1)",
		"- files the partition filter let quiver open: 10 of 1000 (1000x1000, threads 1)",
	)
	for _, absent := range []string{"## Reads\n", "## Writes", "## Kernels", "## Reads from object stores"} {
		if strings.Contains(got, absent) {
			t.Errorf("page has %q without its results:\n%s", absent, got)
		}
	}
}
