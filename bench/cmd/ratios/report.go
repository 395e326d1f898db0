package main

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"
)

// report writes the ratio table for the groups that have base, a geometric
// mean row per peer, then the medians of the groups that lack base.
func report(w io.Writer, r *results, base, stat string, summary func([]float64) float64) {
	var with, without []string
	for _, g := range r.groups {
		if _, ok := r.ns[g][base]; ok {
			with = append(with, g)
		} else {
			without = append(without, g)
		}
	}

	if len(with) > 0 {
		peers := r.implsIn(with, base)
		fmt.Fprintf(w, "peer time / %s time (above 1: %s is faster), %s of each one's runs; %s column: its time per op\n\n", base, base, stat, base)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprint(tw, "group\t", base)
		for _, p := range peers {
			fmt.Fprint(tw, "\t", p)
		}
		fmt.Fprintln(tw, "\t")
		logSum := make([]float64, len(peers))
		logN := make([]int, len(peers))
		for _, g := range with {
			b := summary(r.ns[g][base])
			fmt.Fprint(tw, g, "\t", duration(b))
			for i, p := range peers {
				s, ok := r.ns[g][p]
				if !ok {
					fmt.Fprint(tw, "\t-")
					continue
				}
				ratio := summary(s) / b
				logSum[i] += math.Log(ratio)
				logN[i]++
				fmt.Fprintf(tw, "\t%.2fx", ratio)
			}
			fmt.Fprintln(tw, "\t")
		}
		fmt.Fprint(tw, "geomean\t")
		for i := range peers {
			if logN[i] == 0 {
				fmt.Fprint(tw, "\t-")
				continue
			}
			fmt.Fprintf(tw, "\t%.2fx", math.Exp(logSum[i]/float64(logN[i])))
		}
		fmt.Fprintln(tw, "\t")
		tw.Flush()
	}

	if len(without) > 0 {
		if len(with) > 0 {
			fmt.Fprintln(w)
		}
		peers := r.implsIn(without, base)
		fmt.Fprintf(w, "groups without %s: %s time per op\n\n", base, stat)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprint(tw, "group")
		for _, p := range peers {
			fmt.Fprint(tw, "\t", p)
		}
		fmt.Fprintln(tw, "\t")
		for _, g := range without {
			fmt.Fprint(tw, g)
			for _, p := range peers {
				if s, ok := r.ns[g][p]; ok {
					fmt.Fprint(tw, "\t", duration(summary(s)))
				} else {
					fmt.Fprint(tw, "\t-")
				}
			}
			fmt.Fprintln(tw, "\t")
		}
		tw.Flush()
	}
}

// duration formats ns with three significant digits and a unit.
func duration(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.3gs", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.3gms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.3gµs", ns/1e3)
	default:
		return fmt.Sprintf("%.3gns", ns)
	}
}

// implsIn returns the implementations other than base that appear in
// groups, in order of first appearance.
func (r *results) implsIn(groups []string, base string) []string {
	var out []string
	for _, im := range r.impls {
		if im == base {
			continue
		}
		for _, g := range groups {
			if _, ok := r.ns[g][im]; ok {
				out = append(out, im)
				break
			}
		}
	}
	return out
}
