package dataset

import (
	"strings"
	"testing"

	"github.com/quiverio/quiver/pageindex"
)

// Every predicate pageindex parses comes apart into a tree that rebuilds
// the same predicate.
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
		if got := n.predicate().String(); got != p.String() {
			t.Fatalf("%q: rebuilt %s, want %s", s, got, p)
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
