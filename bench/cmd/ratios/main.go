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
// Usage:
//
//	go run ./cmd/ratios [-base quiver] [-stat median|min] [file ...]
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
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: ratios [-base impl] [-stat median|min] [go-test-bench-output ...]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := run(os.Stdout, *base, *stat, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "ratios:", err)
		os.Exit(1)
	}
}

// run parses the named files (standard input when there are none) and
// writes the report to w.
func run(w io.Writer, base, stat string, paths []string) error {
	summary, ok := stats[stat]
	if !ok {
		return fmt.Errorf("-stat %q: want median or min", stat)
	}
	res := newResults()
	if len(paths) == 0 {
		if err := res.parse(os.Stdin); err != nil {
			return fmt.Errorf("stdin: %w", err)
		}
	}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		err = res.parse(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
	}
	if len(res.groups) == 0 {
		return fmt.Errorf("no benchmark results with an impl= element found")
	}
	bw := bufio.NewWriter(w)
	report(bw, res, base, stat, summary)
	return bw.Flush()
}
