package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// set is the result lines of one section of the page, with their groups
// in order of first appearance.
type set struct {
	lines  []result
	groups []string
}

// subset returns the lines keep accepts.
func (r *results) subset(keep func(result) bool) *set {
	s := &set{}
	for _, l := range r.lines {
		if keep(l) {
			s.lines = append(s.lines, l)
			if !slices.Contains(s.groups, l.group) {
				s.groups = append(s.groups, l.group)
			}
		}
	}
	return s
}

// values returns the samples of unit for group and impl.
func (s *set) values(group, impl, unit string) []float64 {
	var v []float64
	for _, l := range s.lines {
		if x, ok := l.values[unit]; ok && l.group == group && l.impl == impl {
			v = append(v, x)
		}
	}
	return v
}

// med returns the median of unit for group and impl, and whether there
// are any samples.
func (s *set) med(group, impl, unit string) (float64, bool) {
	v := s.values(group, impl, unit)
	if len(v) == 0 {
		return 0, false
	}
	return median(v), true
}

// samples describes how many samples each group and implementation of s
// has: "10", or "5-10" when they differ.
func (s *set) samples() string {
	type key struct {
		group, impl string
		procs       int
	}
	n := map[key]int{}
	for _, l := range s.lines {
		n[key{l.group, l.impl, l.procs}]++
	}
	lo, hi := math.MaxInt, 0
	for _, c := range n {
		lo, hi = min(lo, c), max(hi, c)
	}
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}

// notes writes the note lines ("note: ...") of s's files, once each.
func notes(w io.Writer, r *results, s *set) {
	var seen []string
	for _, i := range s.files() {
		if n := r.files[i].config["note"]; n != "" && !slices.Contains(seen, n) {
			seen = append(seen, n)
			fmt.Fprintf(w, "\nNote: %s\n", n)
		}
	}
}

// files returns the indexes of the files s's lines come from, in order.
func (s *set) files() []int {
	var f []int
	for _, l := range s.lines {
		if !slices.Contains(f, l.file) {
			f = append(f, l.file)
		}
	}
	slices.Sort(f)
	return f
}

// params returns a group's elements after the benchmark name, as key and
// value pairs: BenchmarkRead/dataset=taxi/config=plain gives dataset=taxi
// and config=plain.
func params(group string) [][2]string {
	parts := strings.Split(group, "/")[1:]
	out := make([][2]string, len(parts))
	for i, p := range parts {
		k, v, _ := strings.Cut(p, "=")
		out[i] = [2]string{k, v}
	}
	return out
}

// param returns the value of a group's parameter key, or "-".
func param(group, key string) string {
	for _, p := range params(group) {
		if p[0] == key {
			return p[1]
		}
	}
	return "-"
}

// label joins a group's parameter values: "taxi plain".
func label(group string) string {
	var v []string
	for _, p := range params(group) {
		v = append(v, p[1])
	}
	return strings.Join(v, " ")
}

// page writes the results page: how to reproduce it, the machine and
// versions, then one table each for reads, writes, kernels, reads from
// object stores and datasets against DuckDB (a section is left out when
// the files hold none of its benchmarks).
func page(w io.Writer, r *results) error {
	reads := r.subset(func(l result) bool { return l.family() == "BenchmarkRead" && l.procs <= 1 })
	parallel := r.subset(func(l result) bool { return l.family() == "BenchmarkRead" && l.procs > 1 })
	cold := r.subset(func(l result) bool { return l.family() == "BenchmarkReadCold" })
	writes := r.subset(func(l result) bool { return l.family() == "BenchmarkWrite" && l.procs <= 1 })
	kernels := r.subset(func(l result) bool { _, ok := l.values["values/s"]; return ok })
	remote := r.subset(func(l result) bool { return l.family() == "BenchmarkRemote" })
	datasets := r.subset(func(l result) bool { return l.family() == datasetFamily })
	if len(reads.lines)+len(writes.lines)+len(kernels.lines)+len(remote.lines)+len(datasets.lines) == 0 {
		return fmt.Errorf("-page: no BenchmarkRead, BenchmarkWrite, kernel (values/s), BenchmarkRemote or %s results in the files", datasetFamily)
	}
	readSrc := &set{lines: slices.Concat(reads.lines, parallel.lines, cold.lines)}

	fmt.Fprint(w, `# Benchmark results

Quiver beside arrow-go's pqarrow and parquet-go on the datasets of
bench/ (about 4 M rows per flat table; bench/README.md says what each
implementation does). Times are medians over each implementation's
samples, on one core (`+"`-cpu 1`"+`) unless a line says otherwise; a ratio
is the other's median time over quiver's, so above 1 means quiver is
faster.

`+"`make bench`"+` (scripts/bench-final.sh) runs the reads, the cold reads, the
writes, the kernels, the reads from object stores and the datasets
against DuckDB again and rewrites
this page from their raw output in results/. This page comes from the
files below:

`)
	fmt.Fprintf(w, "```sh\ncd bench && go run ./cmd/ratios -page %s > RESULTS.md\n```\n\n", strings.Join(fileNames(r), " \\\n    "))

	fmt.Fprint(w, "## Machine and versions\n\n")
	machines(w, r, []section{{"reads", readSrc}, {"writes", writes}, {"kernels", kernels}, {"object stores", remote}, {"datasets", datasets}})

	if len(reads.lines) > 0 {
		fmt.Fprint(w, "\n## Reads\n\n")
		readTable(w, reads, cold, parallel)
		notes(w, r, readSrc)
	}
	if len(writes.lines) > 0 {
		fmt.Fprint(w, "\n## Writes\n\n")
		writeTable(w, writes)
		notes(w, r, writes)
	}
	if len(kernels.lines) > 0 {
		fmt.Fprint(w, "\n## Kernels\n\n")
		kernelTable(w, kernels)
		notes(w, r, kernels)
	}
	if len(remote.lines) > 0 {
		fmt.Fprint(w, "\n## Reads from object stores\n\n")
		remoteTable(w, remote)
		notes(w, r, remote)
	}
	if len(datasets.lines) > 0 {
		fmt.Fprint(w, "\n## Datasets against DuckDB\n\n")
		datasetTable(w, datasets)
		notes(w, r, datasets)
	}
	return nil
}

// section is a named part of the page and the lines it shows.
type section struct {
	name string
	s    *set
}

// fileNames returns the names of the files r was parsed from.
func fileNames(r *results) []string {
	var names []string
	for _, f := range r.files {
		names = append(names, f.name)
	}
	return names
}

// machineKeys are the configuration lines the machine table shows, and
// its column headings.
var machineKeys = [][2]string{
	{"date", "date (UTC)"}, {"cpu", "cpu"}, {"cores", "cores"}, {"go", "Go"},
	{"arrow-go", "arrow-go"}, {"parquet-go", "parquet-go"}, {"quiver", "quiver commit"},
}

// machines writes one row per distinct machine and versions (the
// configuration lines of the files), naming the sections measured there.
func machines(w io.Writer, r *results, sections []section) {
	var rows [][]string
	var keys []string
	for _, sec := range sections {
		if len(sec.s.lines) == 0 {
			continue
		}
		row := []string{}
		for _, k := range machineKeys {
			var vals []string
			for _, i := range sec.s.files() {
				v := r.files[i].config[k[0]]
				if v == "" {
					v = "?"
				}
				if !slices.Contains(vals, v) {
					vals = append(vals, v)
				}
			}
			row = append(row, strings.Join(vals, ", "))
		}
		key := strings.Join(row, "\x00")
		if i := slices.Index(keys, key); i >= 0 {
			rows[i][0] += ", " + sec.name
			continue
		}
		keys = append(keys, key)
		rows = append(rows, append([]string{sec.name}, row...))
	}
	head := []string{"measured"}
	for _, k := range machineKeys {
		head = append(head, k[1])
	}
	table(w, head, rows)
}

// readTable writes the reads: quiver's whole-table read against pqarrow's
// and parquet-go's, quiver's streamed read against parquet-go's drain,
// the decompression floor, the cold reads' allocation and Parallelism.
func readTable(w io.Writer, reads, cold, parallel *set) {
	fmt.Fprintf(w, `Whole file, every column. quiver and pqarrow read it into an Arrow table
(`+"`ReadTable`"+`); parquet-go (table) reads every value into memory that holds
the whole file, its like of ReadTable. quiver-stream takes the file in
Arrow batches of 65,536 rows, each released by the next, and parquet-go
(drain) reads every page's values into reused buffers: the like of each
other. floor: footer, page headers and decompression only, which every
reader pays. allocated: bytes allocated per decoded Arrow byte by a
cold read (`+"`BenchmarkReadCold`"+`, no released buffers to reuse), quiver
(pqarrow). Times in ms, medians of %s samples (cold reads: %s).

`, reads.samples(), cold.samples())
	head := []string{"dataset / config", "quiver", "pqarrow", "vs pqarrow", "parquet-go (table)", "vs parquet-go (table)",
		"quiver-stream", "parquet-go (drain)", "stream vs drain", "floor", "quiver ÷ floor", "allocated"}
	var rows [][]string
	var vsPq, vsTable, vsDrain, overFloor, allocQ, allocP []float64
	for _, g := range reads.groups {
		q, okQ := reads.med(g, "quiver", "ns/op")
		row := []string{label(g), ms(q, okQ)}
		ratioCell := func(impl string, base float64, okBase bool, acc *[]float64) []string {
			t, ok := reads.med(g, impl, "ns/op")
			if !ok || !okBase {
				return []string{ms(t, ok), "-"}
			}
			*acc = append(*acc, t/base)
			return []string{ms(t, ok), fmt.Sprintf("%.2fx", t/base)}
		}
		row = append(row, ratioCell("pqarrow", q, okQ, &vsPq)...)
		row = append(row, ratioCell("parquetgo-table", q, okQ, &vsTable)...)
		s, okS := reads.med(g, "quiver-stream", "ns/op")
		row = append(row, ms(s, okS))
		row = append(row, ratioCell("parquetgo", s, okS, &vsDrain)...)
		if f, ok := reads.med(g, "floor", "ns/op"); ok && okQ {
			overFloor = append(overFloor, q/f)
			row = append(row, ms(f, true), fmt.Sprintf("%.2fx", q/f))
		} else {
			row = append(row, "-", "-")
		}
		cg := "BenchmarkReadCold/" + strings.TrimPrefix(g, "BenchmarkRead/")
		aq, okAQ := cold.med(cg, "quiver", "alloc/decoded")
		ap, okAP := cold.med(cg, "pqarrow", "alloc/decoded")
		switch {
		case okAQ && okAP:
			allocQ, allocP = append(allocQ, aq), append(allocP, ap)
			row = append(row, fmt.Sprintf("%.2f (%.2f)", aq, ap))
		case okAQ:
			allocQ = append(allocQ, aq)
			row = append(row, fmt.Sprintf("%.2f", aq))
		default:
			row = append(row, "-")
		}
		rows = append(rows, row)
	}
	table(w, head, rows)
	fmt.Fprintln(w)
	summary(w, "quiver against pqarrow", vsPq)
	summary(w, "quiver against parquet-go (table)", vsTable)
	summary(w, "quiver-stream against parquet-go (drain)", vsDrain)
	if len(overFloor) > 0 {
		fmt.Fprintf(w, "- quiver takes %s the floor's time on the %d files with a floor\n", span(overFloor, 2), len(overFloor))
	}
	if len(allocQ) > 0 {
		fmt.Fprintf(w, "- a cold read allocates %s the decoded bytes with quiver", span(allocQ, 2))
		if len(allocP) > 0 {
			fmt.Fprintf(w, ", %s with pqarrow", span(allocP, 2))
		}
		fmt.Fprintln(w)
	}
	for _, g := range parallel.groups {
		for _, impl := range []string{"quiver-parallel"} {
			p, ok := parallel.med(g, impl, "ns/op")
			q, okQ := reads.med(g, "quiver", "ns/op")
			if !ok || !okQ {
				continue
			}
			procs := 0
			for _, l := range parallel.lines {
				if l.group == g && l.impl == impl {
					procs = l.procs
				}
			}
			fmt.Fprintf(w, "- Parallelism %d (`-cpu %d`, %d samples), %s: %s ms against the one-core read's %s ms, %.2fx\n",
				procs, procs, len(parallel.values(g, impl, "ns/op")), label(g), ms(p, true), ms(q, true), q/p)
		}
	}
}

// writeTable writes the writes: time and file size against pqarrow, and
// the compression floor of the configurations that compress.
func writeTable(w io.Writer, writes *set) {
	fmt.Fprintf(w, `The dataset's Arrow batches written in each configuration to a byte
counter, quiver and pqarrow with the same settings (one row group per
batch). floor: the compression alone of quiver's pages with the same
library and level (klauspost/compress, which both writers use), which
every writer pays; pqarrow ÷ floor is thus about the most any writer
could beat pqarrow by with that codec. Times in ms, medians of %s
samples; sizes in MB (10^6 bytes).

`, writes.samples())
	head := []string{"dataset / config", "quiver", "pqarrow", "vs pqarrow", "floor", "pqarrow ÷ floor", "quiver size", "pqarrow size", "size vs pqarrow"}
	var rows [][]string
	var vsPq, size []float64
	for _, g := range writes.groups {
		q, okQ := writes.med(g, "quiver", "ns/op")
		p, okP := writes.med(g, "pqarrow", "ns/op")
		f, okF := writes.med(g, "floor", "ns/op")
		row := []string{label(g), ms(q, okQ), ms(p, okP), "-", ms(f, okF), "-"}
		if okQ && okP {
			vsPq = append(vsPq, p/q)
			row[3] = fmt.Sprintf("%.2fx", p/q)
		}
		if okF && okP {
			row[5] = fmt.Sprintf("%.2fx", p/f)
		}
		qb, okQB := writes.med(g, "quiver", "file-bytes")
		pb, okPB := writes.med(g, "pqarrow", "file-bytes")
		row = append(row, mb(qb, okQB), mb(pb, okPB), "-")
		if okQB && okPB {
			size = append(size, (qb/pb-1)*100)
			row[8] = pct((qb/pb - 1) * 100)
		}
		rows = append(rows, row)
	}
	table(w, head, rows)
	fmt.Fprintln(w)
	summary(w, "quiver against pqarrow", vsPq)
	if len(size) > 0 {
		fmt.Fprintf(w, "- quiver's files differ from pqarrow's by %s to %s\n", pct(slices.Min(size)), pct(slices.Max(size)))
	}
}

// kernelTable writes the kernels: values decoded per second by quiver and
// each other implementation on the same input. A kernel timed on more
// than three inputs (bit widths) gets one row of ranges.
func kernelTable(w io.Writer, kernels *set) {
	fmt.Fprintf(w, `Each kernel decodes the same bytes with quiver's kernels package and
parquet-go's (bitpack, encoding/...). Values per second, medians of %s
samples (G = 10^9, M = 10^6); a kernel timed on more than three inputs
(bit widths) gets one row of ranges over them.

`, kernels.samples())
	var peers []string
	for _, l := range kernels.lines {
		if l.impl != "quiver" && !slices.Contains(peers, l.impl) {
			peers = append(peers, l.impl)
		}
	}
	head := []string{"kernel", "input", "quiver"}
	for _, p := range peers {
		head = append(head, display(p), "vs "+display(p))
	}
	var families []string
	byFamily := map[string][]string{}
	for _, g := range kernels.groups {
		f, _, _ := strings.Cut(g, "/")
		if _, ok := byFamily[f]; !ok {
			families = append(families, f)
		}
		byFamily[f] = append(byFamily[f], g)
	}
	var rows [][]string
	for _, f := range families {
		name := strings.TrimPrefix(f, "Benchmark")
		groups := byFamily[f]
		if len(groups) <= 3 {
			for _, g := range groups {
				row := []string{name, strings.ReplaceAll(strings.TrimPrefix(g, f+"/"), "/", " "), rate(kernels, []string{g}, "quiver")}
				for _, p := range peers {
					row = append(row, rate(kernels, []string{g}, p), ratios(kernels, []string{g}, p))
				}
				rows = append(rows, row)
			}
			continue
		}
		row := []string{name, inputs(groups), rate(kernels, groups, "quiver")}
		for _, p := range peers {
			row = append(row, rate(kernels, groups, p), ratios(kernels, groups, p))
		}
		rows = append(rows, row)
	}
	table(w, head, rows)
}

// remoteImpls are the columns of the object-store table: BenchmarkRemote's
// implementations and their headings.
var remoteImpls = [][2]string{
	{"quiver", "quiver"}, {"local", "local"}, {"pqarrow-parallel", "pqarrow"},
	{"pqarrow-parallel-buffered", "pqarrow (buffered)"}, {"parquetgo-async", "parquet-go"},
}

// remoteTable writes the reads from object stores (BenchmarkRemote): each
// reader's time per latency and query, quiver's requests and MB fetched,
// and quiver against the faster pqarrow read and against parquet-go.
func remoteTable(w io.Writer, remote *set) {
	fmt.Fprintf(w, `lineitem dict-snappy held in memory behind `+"`internal/latency.ReaderAt`"+`
(`+"`BenchmarkRemote`"+`): each request waits the latency, then its bytes at
100 MB/s, and requests overlap, as ranged GETs to S3 do. quiver reads
with the default ReadOptions and IOOptions; local is quiver's read of
the cached file, the time to approach (20 ms only); pqarrow reads with
Parallel, BufferedStream off and on (1 MiB), parquet-go with
ReadModeAsync and 4 MiB read buffers. The queries read every column, two
(l_extendedprice, l_shipdate), or one l_orderkey (quiver only; the file
has no page index, so its row group's chunks are read whole). Times in
ms, medians of %s samples at GOMAXPROCS %d.

`, remote.samples(), remote.lines[0].procs)
	head := []string{"latency", "query"}
	for _, impl := range remoteImpls {
		head = append(head, impl[1])
	}
	head = append(head, "quiver requests", "quiver MB fetched")
	var rows [][]string
	var vsPq, vsPg []float64
	for _, g := range remote.groups {
		row := []string{param(g, "latency"), param(g, "query")}
		for _, impl := range remoteImpls {
			row = append(row, ms(remote.med(g, impl[0], "ns/op")))
		}
		req, okReq := remote.med(g, "quiver", "requests/op")
		fetched, okF := remote.med(g, "quiver", "MBfetched/op")
		row = append(row, "-", "-")
		if okReq {
			row[len(row)-2] = fmt.Sprintf("%.0f", req)
		}
		if okF {
			row[len(row)-1] = fmt.Sprintf("%.1f", fetched)
		}
		rows = append(rows, row)
		q, okQ := remote.med(g, "quiver", "ns/op")
		if !okQ {
			continue
		}
		var best []float64
		for _, impl := range []string{"pqarrow-parallel", "pqarrow-parallel-buffered"} {
			if t, ok := remote.med(g, impl, "ns/op"); ok {
				best = append(best, t)
			}
		}
		if len(best) > 0 {
			vsPq = append(vsPq, slices.Min(best)/q)
		}
		if t, ok := remote.med(g, "parquetgo-async", "ns/op"); ok {
			vsPg = append(vsPg, t/q)
		}
	}
	table(w, head, rows)
	fmt.Fprintln(w)
	summary(w, "quiver against the faster pqarrow read", vsPq)
	summary(w, "quiver against parquet-go", vsPg)
}

// inputs describes many groups of one kernel: their number and, for a
// numeric parameter that varies, its range ("32 inputs, width 1-32").
func inputs(groups []string) string {
	desc := fmt.Sprintf("%d inputs", len(groups))
	first := params(groups[0])
	for i, p := range first {
		var nums []float64
		same := true
		for _, g := range groups {
			q := params(g)
			if i >= len(q) || q[i][0] != p[0] {
				return desc
			}
			same = same && q[i][1] == p[1]
			if v, err := strconv.ParseFloat(q[i][1], 64); err == nil {
				nums = append(nums, v)
			}
		}
		if !same && len(nums) == len(groups) {
			desc += fmt.Sprintf(", %s %g-%g", p[0], slices.Min(nums), slices.Max(nums))
		}
	}
	return desc
}

// rate formats impl's median values/s over groups: one value, or the
// range of the medians.
func rate(s *set, groups []string, impl string) string {
	var v []float64
	for _, g := range groups {
		if m, ok := s.med(g, impl, "values/s"); ok {
			v = append(v, m)
		}
	}
	switch len(v) {
	case 0:
		return "-"
	case 1:
		return si(v[0])
	}
	lo, hi := si(slices.Min(v)), si(slices.Max(v))
	if lo == hi {
		return lo
	}
	return lo + " to " + hi
}

// ratios formats impl's median time over quiver's for each group: one
// ratio, or their range and geometric mean.
func ratios(s *set, groups []string, impl string) string {
	var v []float64
	for _, g := range groups {
		q, okQ := s.med(g, "quiver", "ns/op")
		p, ok := s.med(g, impl, "ns/op")
		if ok && okQ {
			v = append(v, p/q)
		}
	}
	switch len(v) {
	case 0:
		return "-"
	case 1:
		return fmt.Sprintf("%.2fx", v[0])
	}
	return fmt.Sprintf("%s (geomean %.2fx)", span(v, 2), geomean(v))
}

// summary writes one line on a column of ratios (other's time / quiver's):
// on how many rows quiver is faster, their range and geometric mean.
func summary(w io.Writer, what string, v []float64) {
	if len(v) == 0 {
		return
	}
	faster := 0
	for _, x := range v {
		if x > 1 {
			faster++
		}
	}
	fmt.Fprintf(w, "- %s: faster on %d of %d rows, %s (geomean %.2fx)\n", what, faster, len(v), span(v, 2), geomean(v))
}

// span formats the range of v as "1.23x-4.56x" with prec decimals, or
// one value when they all round to it.
func span(v []float64, prec int) string { return spanOf(v, fmt.Sprintf("%%.%dfx", prec)) }

func geomean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(v)))
}

// ms formats ns as milliseconds, or "-" when !ok.
func ms(ns float64, ok bool) string {
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.1f", ns/1e6)
}

// pct formats a percentage with a sign and two decimals; what rounds to
// zero is "+0.00%", not "-0.00%".
func pct(v float64) string {
	v = math.Round(v*100) / 100
	if v == 0 {
		v = 0 // drops the sign of -0
	}
	return fmt.Sprintf("%+.2f%%", v)
}

// mb formats bytes as MB (10^6), or "-" when !ok.
func mb(b float64, ok bool) string {
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.1f", b/1e6)
}

// display returns the name the page gives an implementation.
func display(impl string) string {
	if impl == "parquetgo" {
		return "parquet-go"
	}
	return impl
}

// si formats a rate with three significant digits and G, M or k.
func si(v float64) string {
	unit := ""
	for _, u := range []struct {
		s string
		f float64
	}{{" G", 1e9}, {" M", 1e6}, {" k", 1e3}} {
		if v >= u.f {
			v, unit = v/u.f, u.s
			break
		}
	}
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f%s", v, unit)
	case v >= 10:
		return fmt.Sprintf("%.1f%s", v, unit)
	}
	return fmt.Sprintf("%.2f%s", v, unit)
}

// table writes a markdown table.
func table(w io.Writer, head []string, rows [][]string) {
	fmt.Fprintf(w, "| %s |\n|", strings.Join(head, " | "))
	for range head {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
	}
}
