package main

import (
	"bufio"
	"io"
	"slices"
	"strconv"
	"strings"
)

// results holds the parsed result lines, and their ns/op samples by group
// and implementation in order of first appearance (the ratio report).
type results struct {
	groups []string
	impls  []string
	ns     map[string]map[string][]float64 // group -> impl -> samples
	lines  []result
	files  []file
}

// result is one benchmark result line.
type result struct {
	group  string             // the name without its impl element and GOMAXPROCS suffix
	impl   string             // the impl=NAME element's NAME
	procs  int                // the GOMAXPROCS suffix; 0 when the name has none
	values map[string]float64 // every metric by unit: "ns/op", "B/op", "file-bytes", ...
	file   int                // index into results.files
}

// family returns the benchmark function's name, the group's first element.
func (l result) family() string {
	f, _, _ := strings.Cut(l.group, "/")
	return f
}

// file is one parsed input and its configuration lines ("cpu: ...",
// "date: ...": lowercase key, colon, space, value), as benchstat reads them.
type file struct {
	name   string
	config map[string]string
}

func newResults() *results { return &results{ns: map[string]map[string][]float64{}} }

// parse reads one file of benchmark output from in: its result lines and
// configuration lines; other lines are ignored.
func (r *results) parse(name string, in io.Reader) error {
	r.files = append(r.files, file{name: name, config: map[string]string{}})
	fi := len(r.files) - 1
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		if k, v, ok := parseConfig(sc.Text()); ok {
			r.files[fi].config[k] = v
			continue
		}
		l, ok := parseResult(sc.Text())
		if !ok {
			continue
		}
		l.file = fi
		r.lines = append(r.lines, l)
		byImpl, seen := r.ns[l.group]
		if !seen {
			byImpl = map[string][]float64{}
			r.ns[l.group] = byImpl
			r.groups = append(r.groups, l.group)
		}
		if !slices.Contains(r.impls, l.impl) {
			r.impls = append(r.impls, l.impl)
		}
		byImpl[l.impl] = append(byImpl[l.impl], l.values["ns/op"])
	}
	return sc.Err()
}

// parseConfig splits a configuration line, "key: value", whose key starts
// with a lowercase letter and holds no space or uppercase letter.
func parseConfig(line string) (key, value string, ok bool) {
	key, value, ok = strings.Cut(line, ": ")
	if !ok || key == "" || key[0] < 'a' || key[0] > 'z' || strings.ContainsAny(key, " \t") || strings.ToLower(key) != key {
		return "", "", false
	}
	return key, strings.TrimSpace(value), true
}

// parseLine splits one result line, "BenchmarkX/a=1/impl=y-8  N  123 ns/op
// ...", into its group (the name without the impl element and the
// GOMAXPROCS suffix), implementation and ns/op.
func parseLine(line string) (group, impl string, ns float64, ok bool) {
	l, ok := parseResult(line)
	if !ok {
		return "", "", 0, false
	}
	return l.group, l.impl, l.values["ns/op"], true
}

// parseResult parses one result line with an impl element and an ns/op
// value; it keeps every value-unit pair of the line.
func parseResult(line string) (result, bool) {
	f := strings.Fields(line)
	if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
		return result{}, false
	}
	if _, err := strconv.Atoi(f[1]); err != nil {
		return result{}, false
	}
	values := map[string]float64{}
	for i := 2; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return result{}, false
		}
		values[f[i+1]] = v
	}
	if _, ok := values["ns/op"]; !ok {
		return result{}, false
	}
	name, procs := splitProcs(f[0])
	parts := strings.Split(name, "/")
	kept := parts[:0]
	impl := ""
	for _, p := range parts {
		if v, found := strings.CutPrefix(p, "impl="); found {
			impl = v
		} else {
			kept = append(kept, p)
		}
	}
	if impl == "" {
		return result{}, false
	}
	return result{group: strings.Join(kept, "/"), impl: impl, procs: procs, values: values}, true
}

// splitProcs removes the "-N" GOMAXPROCS suffix go test adds to names and
// returns N (0 when there is none).
func splitProcs(name string) (string, int) {
	i := strings.LastIndexByte(name, '-')
	if i < 0 || i == len(name)-1 {
		return name, 0
	}
	n, err := strconv.Atoi(name[i+1:])
	if err != nil {
		return name, 0
	}
	return name[:i], n
}

// stats are the ways -stat can summarise an implementation's runs.
var stats = map[string]func([]float64) float64{"median": median, "min": slices.Min[[]float64]}

// median returns the median of s (which it sorts).
func median(s []float64) float64 {
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
