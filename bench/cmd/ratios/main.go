// Command ratios reads `go test -bench` output (the same text benchstat
// reads; several runs with -count are fine) and prints, per benchmark
// group, each implementation's time divided by the base implementation's
// time (quiver unless -base says otherwise): above 1 means the base is
// faster.
//
// A group is a benchmark name without its impl=NAME element, so
// BenchmarkRead/dataset=lineitem/config=plain/impl=pqarrow and
// .../impl=quiver form one group. Each implementation's time is the median
// ns/op of its runs (-stat min takes the fastest run instead, the steadier
// estimate on a machine shared with other work). Groups without the base
// implementation are listed after the ratio table with their times.
//
// With -page it prints bench/RESULTS.md instead: markdown tables of the
// reads (quiver against pqarrow, parquet-go and the decompression floor,
// with the cold reads' allocation and the Parallelism 2 read), the
// writes, the kernels and the reads from object stores (BenchmarkRemote:
// each reader's time per latency and query, quiver's requests and MB
// fetched) and the datasets against DuckDB (BenchmarkDatasetVsDuckDB:
// wall and CPU time per query, time per file, files opened) found in the
// files, with the machine and versions their
// configuration lines name (scripts/bench-final.sh writes those lines).
// The samples of all the files are pooled; medians throughout.
//
// Usage:
//
//	go run ./cmd/ratios [-base quiver] [-stat median|min] [file ...]
//	go run ./cmd/ratios -page file ... > RESULTS.md
//
// With no file it reads standard input.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	base := flag.String("base", "quiver", "implementation the others are divided by")
	stat := flag.String("stat", "median", "time of an implementation over its runs: median or min")
	pageMode := flag.Bool("page", false, "print the results page (bench/RESULTS.md) instead of the ratio tables")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: ratios [-base impl] [-stat median|min] [-page] [go-test-bench-output ...]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	var err error
	if *pageMode {
		err = runPage(os.Stdout, flag.Args())
	} else {
		err = run(os.Stdout, *base, *stat, flag.Args())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ratios:", err)
		os.Exit(1)
	}
}

// run parses the named files (standard input when there are none) and
// writes the ratio report to w.
func run(w io.Writer, base, stat string, paths []string) error {
	summary, ok := stats[stat]
	if !ok {
		return fmt.Errorf("-stat %q: want median or min", stat)
	}
	res, err := parseFiles(paths)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	report(bw, res, base, stat, summary)
	return bw.Flush()
}

// runPage parses the named files and writes the results page to w.
func runPage(w io.Writer, paths []string) error {
	if len(paths) == 0 {
		return fmt.Errorf("-page needs the raw files as arguments: the page names them")
	}
	res, err := parseFiles(paths)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	if err := page(bw, res); err != nil {
		return err
	}
	return bw.Flush()
}

// parseFiles parses the named files, or standard input when there are
// none, and fails when they hold no result with an impl= element.
func parseFiles(paths []string) (*results, error) {
	res := newResults()
	if len(paths) == 0 {
		if err := res.parse("stdin", os.Stdin); err != nil {
			return nil, fmt.Errorf("stdin: %w", err)
		}
	}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		err = res.parse(p, f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
	}
	if len(res.groups) == 0 {
		return nil, fmt.Errorf("no benchmark results with an impl= element found")
	}
	return res, nil
}
