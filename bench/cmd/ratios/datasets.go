package main

// This file holds the page's "Datasets against DuckDB" table, made from
// BenchmarkDatasetVsDuckDB.

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// datasetFamily is the benchmark the datasets table shows.
const datasetFamily = "BenchmarkDatasetVsDuckDB"

// datasetTable writes the dataset queries (BenchmarkDatasetVsDuckDB):
// per dataset, thread count and query, the wall and CPU times of quiver
// (and quiver-tuned for whole scans) and DuckDB, DuckDB's time over
// quiver's, quiver's time per file and the files it opened; then the
// whole scans against DuckDB's (quiver's and quiver-tuned's), the
// per-file overhead of the pruned
// query and the files the partition filter opened.
func datasetTable(w io.Writer, ds *set) {
	fmt.Fprintf(w, `Many files read as one table (package dataset) against DuckDB's
`+"`read_parquet`"+` over the same hive-partitioned glob, each side with the
thread count of its row (`+"`BenchmarkDatasetVsDuckDB`"+`; its doc comment says
what each query computes). The dataset is opened anew for every query,
as DuckDB reads the footers anew; DuckDB's times are its own per-query
clock and its process's CPU time, without node's startup. Times in ms,
medians of %s samples; a ratio is DuckDB's time over quiver's, above 1
when quiver is faster; quiver-tuned reads strings as dictionaries with
the recycling allocator.

`, ds.samples())
	head := []string{"files", "threads", "query", "quiver", "quiver-tuned", "DuckDB", "DuckDB/quiver",
		"quiver CPU", "DuckDB CPU", "DuckDB/quiver CPU", "quiver µs/file", "files opened"}
	var rows [][]string
	var wall, cpu, tunedWall []float64
	var perFile, opened []string
	for _, g := range ds.groups {
		files, query := param(g, "files"), param(g, "query")
		row := []string{files, param(g, "threads"), query}
		q, okQ := ds.med(g, "quiver", "ns/op")
		d, okD := ds.med(g, "duckdb", "ns/op")
		t, okT := ds.med(g, "quiver-tuned", "ns/op")
		row = append(row, ms(q, okQ), ms(t, okT), ms(d, okD), ratio(d, okD, q, okQ))
		qc, okQC := ds.med(g, "quiver", "cpu-ns/op")
		dc, okDC := ds.med(g, "duckdb", "cpu-ns/op")
		row = append(row, ms(qc, okQC), ms(dc, okDC), ratio(dc, okDC, qc, okQC))
		nsFile, okF := ds.med(g, "quiver", "ns/file")
		row = append(row, "-", "-")
		if okF {
			row[len(row)-2] = fmt.Sprintf("%.0f", nsFile/1e3)
		}
		if n, ok := ds.med(g, "quiver", "files-opened"); ok {
			row[len(row)-1] = fmt.Sprintf("%.0f of %d", n, fileCount(files))
			if query == "partition" {
				opened = append(opened, fmt.Sprintf("%.0f of %d (%s)", n, fileCount(files), where(g)))
			}
		}
		rows = append(rows, row)
		switch {
		case query == "whole-scan" && okQ && okD:
			wall = append(wall, d/q)
			if okQC && okDC {
				cpu = append(cpu, dc/qc)
			}
			if okT {
				tunedWall = append(tunedWall, d/t)
			}
		case query == "pruned" && okF:
			f := fmt.Sprintf("%.0f µs", nsFile/1e3)
			if okQC {
				f += fmt.Sprintf(" (%.0f µs CPU)", qc/1e3/float64(fileCount(files)))
			}
			perFile = append(perFile, f+" per file ("+where(g)+")")
		}
	}
	table(w, head, rows)
	fmt.Fprintln(w)
	summary(w, "quiver's whole scans against DuckDB's, wall time", wall)
	summary(w, "quiver's whole scans against DuckDB's, CPU time", cpu)
	summary(w, "quiver-tuned's whole scans against DuckDB's, wall time", tunedWall)
	if len(perFile) > 0 {
		fmt.Fprintf(w, "- quiver's per-file overhead (pruned: open, footer, plan, nothing decoded): %s\n", strings.Join(perFile, "; "))
	}
	if len(opened) > 0 {
		fmt.Fprintf(w, "- files the partition filter let quiver open: %s\n", strings.Join(opened, "; "))
	}
}

// where names a group's dataset and thread count: "1000x1000, threads 2".
func where(group string) string {
	return param(group, "files") + ", threads " + param(group, "threads")
}

// ratio formats num/den as "1.23x", or "-" unless both are there.
func ratio(num float64, okNum bool, den float64, okDen bool) string {
	if !okNum || !okDen || den == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", num/den)
}

// spanOf formats the range of v with format f: one value, or "lo-hi".
func spanOf(v []float64, f string) string {
	lo, hi := fmt.Sprintf(f, slices.Min(v)), fmt.Sprintf(f, slices.Max(v))
	if lo == hi {
		return lo
	}
	return lo + "-" + hi
}

// fileCount returns the number of files a files=NxR parameter names, or
// 0 when it names none.
func fileCount(files string) int {
	n, _ := strconv.Atoi(strings.SplitN(files, "x", 2)[0])
	return n
}
