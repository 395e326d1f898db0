package pageindex

import (
	"math/rand/v2"
	"testing"
)

// rebuild builds a predicate again from the parts Inspect gives.
func rebuild(t *testing.T, p Predicate) Predicate {
	parts := Inspect(p)
	terms := make([]Predicate, len(parts.Terms))
	for i, k := range parts.Terms {
		terms[i] = rebuild(t, k)
	}
	switch parts.Form {
	case FormCompare:
		return Compare(parts.Column, parts.Op, parts.Literals[0])
	case FormIn:
		return In(parts.Column, parts.Literals...)
	case FormIsNull:
		return IsNull(parts.Column)
	case FormIsNotNull:
		return IsNotNull(parts.Column)
	case FormPrefix:
		return HasPrefix(parts.Column, string(parts.Literals[0].b))
	case FormAnd:
		return And(terms...)
	case FormOr:
		return Or(terms...)
	case FormNot:
		return Not(terms[0])
	}
	t.Fatalf("Inspect(%s) has form %v", p, parts.Form)
	return nil
}

// Random predicates come apart into parts that build them again, and
// their conjuncts AND back to an equal predicate.
func TestInspectRebuilds(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	for range 2000 {
		p := randomPredicate(rng, 4)
		if rng.IntN(4) == 0 {
			p = And(p, And(randomPredicate(rng, 2), randomPredicate(rng, 2)), And())
		}
		if got := rebuild(t, p); got.String() != p.String() {
			t.Fatalf("rebuilt %s, want %s", got, p)
		}
		cs := Conjuncts(p)
		for _, c := range cs {
			if Inspect(c).Form == FormAnd {
				t.Fatalf("conjunct %s of %s is an AND", c, p)
			}
		}
		if _, isAnd := p.(*junction); !isAnd || p.(*junction).or {
			if len(cs) != 1 || cs[0] != p {
				t.Fatalf("Conjuncts(%s) = %v, want itself", p, cs)
			}
		}
		// The conjuncts read the same columns as p.
		var cols []string
		for _, c := range cs {
			for _, col := range Columns(c) {
				if !contains(cols, col) {
					cols = append(cols, col)
				}
			}
		}
		if want := Columns(p); len(cols) != len(want) {
			t.Fatalf("conjuncts of %s read %v, want %v", p, cols, want)
		}
	}
	if len(Conjuncts(And())) != 0 || Inspect(nil).Form != 0 {
		t.Fatal("true has conjuncts, or nil has a form")
	}
}
