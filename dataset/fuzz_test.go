package dataset

import (
	"slices"
	"strings"
	"testing"

	"github.com/quiverio/quiver/pageindex"
)

// Every predicate pageindex parses comes apart into a tree on the same
// columns, whose own tree is itself: NOT pushed down once is down.
func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{
		`x = 1`, `a > 2 and (b < "x" or not c is null)`, "`we ird`` col` in (1, 2.5, -3e10)",
		`s prefix "a\"b" or t = 'q(' and u != inf`, `not not (x <= -9223372036854775808)`, `true or false`,
		`d = 12.3450 and e in ()`, `x = nan`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := pageindex.Parse(s)
		if err != nil {
			return
		}
		n, err := parseFilter(p)
		if err != nil {
			t.Fatalf("%q (%s): %v", s, p, err)
		}
		q := n.predicate()
		again, err := parseFilter(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if got := again.predicate().String(); got != q.String() {
			t.Fatalf("%q: the tree of %s is %s", s, q, got)
		}
		if n.kind != nodeTrue && n.kind != nodeFalse && !slices.Equal(slices.Sorted(slices.Values(pageindex.Columns(q))), slices.Sorted(slices.Values(pageindex.Columns(p)))) {
			t.Fatalf("%q: the tree %s reads %v, the predicate %v", s, q, pageindex.Columns(q), pageindex.Columns(p))
		}
	})
}

// Directory names never panic the partition parser, and escaped values
// come back unescaped.
func FuzzParseHive(f *testing.F) {
	for _, s := range []string{"a=1/b=2/f", "a=%2F/f", "=x/f", "a=1/a=2/f", "k=" + HiveDefaultPartition + "/f", "%zz=%/f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		parseHive(s)
		v := strings.ReplaceAll(s, "/", "")
		if got := unescapePart(escapePart(v)); got != v {
			t.Fatalf("escape round trip of %q: %q", v, got)
		}
	})
}
