package pageindex

// Form is the outermost operator of a predicate, as [Inspect] tells it.
type Form uint8

// Forms of predicates.
const (
	FormCompare   Form = iota + 1 // a column compared with a literal
	FormIn                        // a column IN a list of literals
	FormIsNull                    // a column IS NULL
	FormIsNotNull                 // a column IS NOT NULL
	FormPrefix                    // a string column starting with a prefix
	FormAnd                       // every term holds (true with none)
	FormOr                        // some term holds (false with none)
	FormNot                       // the negation of one predicate
)

var formNames = [...]string{FormCompare: "compare", FormIn: "in", FormIsNull: "is null", FormIsNotNull: "is not null",
	FormPrefix: "prefix", FormAnd: "and", FormOr: "or", FormNot: "not"}

// String names the form.
func (f Form) String() string {
	if f >= FormCompare && f <= FormNot {
		return formNames[f]
	}
	return "?"
}

// Parts is a predicate taken apart by one level.
type Parts struct {
	Form Form
	// Column is the dotted path of a condition's column (Compare, In,
	// IsNull, IsNotNull, Prefix).
	Column string
	// Op is the operator of a comparison.
	Op Op
	// Literals holds a comparison's literal, an IN list, or a prefix as a
	// [String] literal.
	Literals []Literal
	// Terms holds the terms of an And or Or, or the one predicate a Not
	// negates.
	Terms []Predicate
}

// Inspect takes p apart by one level: its form, and its column and
// literals or its terms. Building the form again from the parts (with
// [Compare], [In], [IsNull], [IsNotNull], [HasPrefix], [And], [Or] or
// [Not]) gives a predicate equal to p. A Predicate not built by this
// package has the zero Parts.
func Inspect(p Predicate) Parts {
	switch p := p.(type) {
	case *comparison:
		return Parts{Form: FormCompare, Column: p.col, Op: p.op, Literals: []Literal{p.lit}}
	case *inList:
		return Parts{Form: FormIn, Column: p.col, Literals: append([]Literal(nil), p.lits...)}
	case *nullCheck:
		if p.notNull {
			return Parts{Form: FormIsNotNull, Column: p.col}
		}
		return Parts{Form: FormIsNull, Column: p.col}
	case *prefixMatch:
		return Parts{Form: FormPrefix, Column: p.col, Literals: []Literal{Bytes(p.prefix)}}
	case *junction:
		f := FormAnd
		if p.or {
			f = FormOr
		}
		return Parts{Form: f, Terms: append([]Predicate(nil), p.terms...)}
	case *negation:
		return Parts{Form: FormNot, Terms: []Predicate{p.p}}
	}
	return Parts{}
}

// Conjuncts returns predicates whose AND is p: the terms of p's
// outermost ANDs, nested ANDs flattened, or p itself when it is no AND.
// True (the AND of nothing) has none. A reader can apply each conjunct
// where it applies (a partition key, a data column) and AND the rest.
func Conjuncts(p Predicate) []Predicate {
	j, ok := p.(*junction)
	if !ok || j.or {
		return []Predicate{p}
	}
	var out []Predicate
	for _, t := range j.terms {
		out = append(out, Conjuncts(t)...)
	}
	return out
}
