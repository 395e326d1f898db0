package main

import (
	"bufio"
	"io"
	"slices"
	"strconv"
	"strings"
)

// results holds ns/op samples by group and implementation, in order of
// first appearance.
type results struct {
	groups []string
	impls  []string
	ns     map[string]map[string][]float64 // group -> impl -> samples
}

func newResults() *results { return &results{ns: map[string]map[string][]float64{}} }

// parse reads benchmark result lines from r; other lines are ignored.
func (r *results) parse(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		group, impl, ns, ok := parseLine(sc.Text())
		if !ok {
			continue
		}
		byImpl, seen := r.ns[group]
		if !seen {
			byImpl = map[string][]float64{}
			r.ns[group] = byImpl
			r.groups = append(r.groups, group)
		}
		if !slices.Contains(r.impls, impl) {
			r.impls = append(r.impls, impl)
		}
		byImpl[impl] = append(byImpl[impl], ns)
	}
	return sc.Err()
}

// parseLine splits one result line, "BenchmarkX/a=1/impl=y-8  N  123 ns/op
// ...", into its group (the name without the impl element and the
// GOMAXPROCS suffix), implementation and ns/op.
func parseLine(line string) (group, impl string, ns float64, ok bool) {
	f := strings.Fields(line)
	if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
		return "", "", 0, false
	}
	if _, err := strconv.Atoi(f[1]); err != nil {
		return "", "", 0, false
	}
	for i := 2; i+1 < len(f); i += 2 {
		if f[i+1] == "ns/op" {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return "", "", 0, false
			}
			ns, ok = v, true
			break
		}
	}
	if !ok {
		return "", "", 0, false
	}
	parts := strings.Split(trimProcs(f[0]), "/")
	kept := parts[:0]
	for _, p := range parts {
		if v, found := strings.CutPrefix(p, "impl="); found {
			impl = v
		} else {
			kept = append(kept, p)
		}
	}
	if impl == "" {
		return "", "", 0, false
	}
	return strings.Join(kept, "/"), impl, ns, true
}

// trimProcs removes the "-N" GOMAXPROCS suffix go test adds to names.
func trimProcs(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 || i == len(name)-1 {
		return name
	}
	if _, err := strconv.Atoi(name[i+1:]); err != nil {
		return name
	}
	return name[:i]
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
