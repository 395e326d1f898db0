package pageindex

import (
	"strings"
)

// Predicate is a condition on the rows of a file: build one with [Eq],
// [NotEq], [Less], [LessEq], [Greater], [GreaterEq], [In], [IsNull],
// [IsNotNull], [HasPrefix], [Intersects], [And], [Or] and [Not], or
// parse one with [Parse].
//
// Logic is SQL's three-valued one, as DuckDB and Arrow compute's filters
// follow it: a comparison, IN or prefix match on a null value is unknown,
// Not of unknown is unknown, And and Or combine unknowns as SQL does, and
// a row is selected where the predicate is true. So Not(Eq(c, 1)) holds
// where c is not null and differs from 1, as NotEq(c, 1) does, and
// Not(IsNull(c)) where c is not null. Floating-point NaN compares false
// (not unknown) with everything, so Not(Less(x, 1)) holds for a NaN.
type Predicate interface {
	// String formats the predicate as [Parse] reads it.
	String() string
	// appendColumns appends the dotted paths of the columns it reads.
	appendColumns(dst []string) []string
}

// Op is a comparison operator.
type Op uint8

// Comparison operators.
const (
	OpEq Op = iota + 1
	OpNotEq
	OpLess
	OpLessEq
	OpGreater
	OpGreaterEq
)

var opNames = [...]string{OpEq: "=", OpNotEq: "!=", OpLess: "<", OpLessEq: "<=", OpGreater: ">", OpGreaterEq: ">="}

// String returns the operator's symbol.
func (o Op) String() string {
	if o >= OpEq && o <= OpGreaterEq {
		return opNames[o]
	}
	return "?"
}

// holds reports whether c, the sign of value minus literal, satisfies o.
func (o Op) holds(c int) bool {
	switch o {
	case OpEq:
		return c == 0
	case OpNotEq:
		return c != 0
	case OpLess:
		return c < 0
	case OpLessEq:
		return c <= 0
	case OpGreater:
		return c > 0
	case OpGreaterEq:
		return c >= 0
	}
	return false
}

type comparison struct {
	col string
	op  Op
	lit Literal
}

type inList struct {
	col  string
	lits []Literal
}

type nullCheck struct {
	col     string
	notNull bool
}

type prefixMatch struct {
	col    string
	prefix []byte
}

type junction struct {
	or    bool
	terms []Predicate
}

type negation struct{ p Predicate }

// Eq holds where column col (a dotted path) equals v.
func Eq(col string, v Literal) Predicate { return &comparison{col, OpEq, v} }

// NotEq holds where col is not null and differs from v.
func NotEq(col string, v Literal) Predicate { return &comparison{col, OpNotEq, v} }

// Less holds where col is below v.
func Less(col string, v Literal) Predicate { return &comparison{col, OpLess, v} }

// LessEq holds where col is at most v.
func LessEq(col string, v Literal) Predicate { return &comparison{col, OpLessEq, v} }

// Greater holds where col is above v.
func Greater(col string, v Literal) Predicate { return &comparison{col, OpGreater, v} }

// GreaterEq holds where col is at least v.
func GreaterEq(col string, v Literal) Predicate { return &comparison{col, OpGreaterEq, v} }

// Compare holds where col compares with v as op says.
func Compare(col string, op Op, v Literal) Predicate { return &comparison{col, op, v} }

// In holds where col equals one of vs; with no vs it never holds.
func In(col string, vs ...Literal) Predicate {
	return &inList{col, append([]Literal(nil), vs...)}
}

// IsNull holds where col is null.
func IsNull(col string) Predicate { return &nullCheck{col: col} }

// IsNotNull holds where col is not null.
func IsNotNull(col string) Predicate { return &nullCheck{col: col, notNull: true} }

// HasPrefix holds where the string or binary column col starts with
// prefix.
func HasPrefix(col, prefix string) Predicate { return &prefixMatch{col, []byte(prefix)} }

// And holds where every term holds (always, with none).
func And(terms ...Predicate) Predicate { return &junction{false, append([]Predicate(nil), terms...)} }

// Or holds where some term holds (never, with none).
func Or(terms ...Predicate) Predicate { return &junction{true, append([]Predicate(nil), terms...)} }

// Not holds where p is false (not where it is unknown).
func Not(p Predicate) Predicate { return &negation{p} }

// Columns returns the dotted paths of the columns p reads, each once, in
// the order they first appear.
func Columns(p Predicate) []string {
	var out []string
	for _, c := range p.appendColumns(nil) {
		if !contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (c *comparison) appendColumns(dst []string) []string  { return append(dst, c.col) }
func (c *inList) appendColumns(dst []string) []string      { return append(dst, c.col) }
func (c *nullCheck) appendColumns(dst []string) []string   { return append(dst, c.col) }
func (c *prefixMatch) appendColumns(dst []string) []string { return append(dst, c.col) }
func (n *negation) appendColumns(dst []string) []string    { return n.p.appendColumns(dst) }
func (j *junction) appendColumns(dst []string) []string {
	for _, t := range j.terms {
		if t != nil {
			dst = t.appendColumns(dst)
		}
	}
	return dst
}

// quoteColumn writes a column path as an identifier, or in backquotes
// when it holds characters an identifier may not.
func quoteColumn(col string) string {
	for i, r := range col {
		if !(r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') || isKeyword(col) {
			return "`" + strings.ReplaceAll(col, "`", "``") + "`"
		}
	}
	if col == "" {
		return "``"
	}
	return col
}

func (c *comparison) String() string {
	return quoteColumn(c.col) + " " + c.op.String() + " " + c.lit.String()
}

func (c *inList) String() string {
	parts := make([]string, len(c.lits))
	for i, l := range c.lits {
		parts[i] = l.String()
	}
	return quoteColumn(c.col) + " in (" + strings.Join(parts, ", ") + ")"
}

func (c *nullCheck) String() string {
	if c.notNull {
		return quoteColumn(c.col) + " is not null"
	}
	return quoteColumn(c.col) + " is null"
}

func (c *prefixMatch) String() string {
	return quoteColumn(c.col) + " prefix " + String(string(c.prefix)).String()
}

func (n *negation) String() string { return "not (" + n.p.String() + ")" }

func (j *junction) String() string {
	if len(j.terms) == 0 {
		if j.or {
			return "false"
		}
		return "true"
	}
	sep := " and "
	if j.or {
		sep = " or "
	}
	parts := make([]string, len(j.terms))
	for i, t := range j.terms {
		parts[i] = "(" + t.String() + ")"
	}
	return strings.Join(parts, sep)
}
