package pageindex

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Parse reads a predicate written as in SQL: comparisons (=, !=, <>, <,
// <=, >, >=) of a column with a literal, `c in (l1, l2)`, `c is null`,
// `c is not null`, `c prefix "ab"`, `intersects(c, xmin, ymin, xmax,
// ymax)` (see [Intersects]), combined with and, or, not and
// parentheses (keywords in any case). Columns are dotted paths, in
// backquotes when they hold other characters; literals are integers (Go
// syntax, within int64), decimal numbers (with a point or exponent, or
// integers beyond int64: exact [Decimal] literals, so that `price >=
// 12.50` compares exactly with a DECIMAL column), other floats (hex
// floats, inf, nan), true, false, and strings in double or single quotes
// with Go escapes, and SQL's typed literals DATE 'YYYY-MM-DD', TIME
// 'HH:MM:SS[.fffffffff]' and TIMESTAMP 'YYYY-MM-DD HH:MM:SS[.fffffffff]'
// (a zone after it, Z, UTC or ±HH:MM, or TIMESTAMPTZ for TIMESTAMP, makes
// it an instant): see [Date], [TimeOfDay], [Timestamp], [TimestampTZ]. A
// syntax error, or a typed literal that is not a valid date or time, wraps ErrPredicate and gives the byte
// offset.
func Parse(s string) (Predicate, error) {
	p := &parser{src: s}
	p.next()
	e := p.or()
	if p.err == nil && p.tok.kind != tokEOF {
		p.fail("unexpected %q", p.tok.text)
	}
	if p.err != nil {
		return nil, p.err
	}
	return e, nil
}

type tokKind uint8

const (
	tokEOF tokKind = iota
	tokIdent
	tokNumber
	tokString
	tokSymbol
)

type token struct {
	kind tokKind
	text string // identifiers unquoted, strings unescaped
	pos  int
}

type parser struct {
	src   string
	pos   int
	tok   token
	err   error
	depth int // open parentheses and nots
}

var keywords = []string{"and", "or", "not", "in", "is", "null", "prefix", "true", "false"}

// isKeyword reports whether s is a keyword of the expression syntax.
func isKeyword(s string) bool {
	for _, k := range keywords {
		if strings.EqualFold(s, k) {
			return true
		}
	}
	return false
}

func (p *parser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("%w: offset %d: %s", ErrPredicate, p.tok.pos, fmt.Sprintf(format, args...))
	}
	p.tok = token{kind: tokEOF, pos: len(p.src)}
}

// next scans the next token into p.tok.
func (p *parser) next() {
	if p.err != nil {
		return
	}
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t' || p.src[p.pos] == '\n' || p.src[p.pos] == '\r') {
		p.pos++
	}
	start := p.pos
	if p.pos >= len(p.src) {
		p.tok = token{kind: tokEOF, pos: start}
		return
	}
	c := p.src[p.pos]
	switch {
	case c == '"' || c == '\'':
		p.scanString(c)
	case c == '`':
		end := p.pos + 1
		var b strings.Builder
		for {
			i := strings.IndexByte(p.src[end:], '`')
			if i < 0 {
				p.tok.pos = start
				p.fail("unterminated backquote")
				return
			}
			b.WriteString(p.src[end : end+i])
			end += i + 1
			if end < len(p.src) && p.src[end] == '`' {
				b.WriteByte('`')
				end++
				continue
			}
			break
		}
		p.pos = end
		p.tok = token{kind: tokIdent, text: b.String(), pos: start}
	case c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.':
		end := p.pos + 1
		for end < len(p.src) {
			d := p.src[end]
			if d >= '0' && d <= '9' || d == '.' || d == 'e' || d == 'E' || d == '_' || d == 'x' || d == 'X' ||
				d >= 'a' && d <= 'f' || d >= 'A' && d <= 'F' || d == 'i' || d == 'n' || d == 'I' || d == 'N' || (d == '-' || d == '+') && (p.src[end-1] == 'e' || p.src[end-1] == 'E') {
				end++
				continue
			}
			break
		}
		p.pos = end
		p.tok = token{kind: tokNumber, text: p.src[start:end], pos: start}
	case c == '_' || c < utf8.RuneSelf && unicode.IsLetter(rune(c)):
		end := p.pos + 1
		for end < len(p.src) {
			d := p.src[end]
			if d == '_' || d == '.' || d >= '0' && d <= '9' || d < utf8.RuneSelf && unicode.IsLetter(rune(d)) {
				end++
				continue
			}
			break
		}
		p.pos = end
		p.tok = token{kind: tokIdent, text: p.src[start:end], pos: start}
	default:
		for _, sym := range []string{"<=", ">=", "!=", "<>", "=", "<", ">", "(", ")", ","} {
			if strings.HasPrefix(p.src[p.pos:], sym) {
				p.pos += len(sym)
				p.tok = token{kind: tokSymbol, text: sym, pos: start}
				return
			}
		}
		p.tok.pos = start
		p.fail("unexpected character %q", c)
	}
}

// scanString scans a string literal in quote q.
func (p *parser) scanString(q byte) {
	start := p.pos
	end := p.pos + 1
	for end < len(p.src) && p.src[end] != q {
		if p.src[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(p.src) {
		p.tok.pos = start
		p.fail("unterminated string")
		return
	}
	body := p.src[start+1 : end]
	if q == '\'' {
		body = strings.ReplaceAll(strings.ReplaceAll(body, `\'`, `'`), `"`, `\"`)
	}
	s, err := strconv.Unquote(`"` + body + `"`)
	if err != nil {
		p.tok.pos = start
		p.fail("bad string literal: %v", err)
		return
	}
	p.pos = end + 1
	p.tok = token{kind: tokString, text: s, pos: start}
}

// keyword reports whether the current token is keyword k.
func (p *parser) keyword(k string) bool {
	return p.tok.kind == tokIdent && strings.EqualFold(p.tok.text, k) && p.src[p.tok.pos] != '`'
}

func (p *parser) symbol(s string) bool { return p.tok.kind == tokSymbol && p.tok.text == s }

func (p *parser) or() Predicate {
	terms := []Predicate{p.and()}
	for p.keyword("or") {
		p.next()
		terms = append(terms, p.and())
	}
	if len(terms) == 1 {
		return terms[0]
	}
	return Or(terms...)
}

func (p *parser) and() Predicate {
	terms := []Predicate{p.unary()}
	for p.keyword("and") {
		p.next()
		terms = append(terms, p.unary())
	}
	if len(terms) == 1 {
		return terms[0]
	}
	return And(terms...)
}

// maxParseDepth bounds the nesting of not and parentheses.
const maxParseDepth = 200

func (p *parser) unary() Predicate {
	nots := 0
	for p.keyword("not") {
		if nots++; nots > maxParseDepth {
			p.fail("more than %d nots in a row", maxParseDepth)
			return And()
		}
		p.next()
	}
	var e Predicate
	switch {
	case p.symbol("("):
		p.depth++
		defer func() { p.depth-- }()
		if p.depth+nots > maxParseDepth {
			p.fail("nesting deeper than %d", maxParseDepth)
			return And()
		}
		p.next()
		e = p.or()
		if !p.symbol(")") {
			p.fail("missing )")
			return And()
		}
		p.next()
	case p.keyword("true"):
		p.next()
		e = And()
	case p.keyword("false"):
		p.next()
		e = Or()
	default:
		e = p.condition()
	}
	for range nots {
		e = Not(e)
	}
	return e
}

// condition parses a column and what is said of it.
func (p *parser) condition() Predicate {
	if e, ok := p.geoCondition(); ok {
		return e
	}
	if p.tok.kind != tokIdent || p.src[p.tok.pos] != '`' && isKeyword(p.tok.text) {
		p.fail("expected a column, got %q", p.tok.text)
		return And()
	}
	col := p.tok.text
	p.next()
	switch {
	case p.keyword("is"):
		p.next()
		not := p.keyword("not")
		if not {
			p.next()
		}
		if !p.keyword("null") {
			p.fail("expected null after is")
			return And()
		}
		p.next()
		if not {
			return IsNotNull(col)
		}
		return IsNull(col)
	case p.keyword("in"):
		p.next()
		if !p.symbol("(") {
			p.fail("expected ( after in")
			return And()
		}
		p.next()
		var lits []Literal
		for !p.symbol(")") && p.err == nil {
			lits = append(lits, p.literal())
			if p.symbol(",") {
				p.next()
			} else if !p.symbol(")") {
				p.fail("expected , or ) in the in list")
			}
		}
		p.next()
		return In(col, lits...)
	case p.keyword("prefix"):
		p.next()
		if p.tok.kind != tokString {
			p.fail("expected a string after prefix")
			return And()
		}
		s := p.tok.text
		p.next()
		return HasPrefix(col, s)
	case p.tok.kind == tokSymbol:
		ops := map[string]Op{"=": OpEq, "!=": OpNotEq, "<>": OpNotEq, "<": OpLess, "<=": OpLessEq, ">": OpGreater, ">=": OpGreaterEq}
		op, ok := ops[p.tok.text]
		if !ok {
			p.fail("expected a comparison, got %q", p.tok.text)
			return And()
		}
		p.next()
		return Compare(col, op, p.literal())
	}
	p.fail("expected a comparison, in, is or prefix after %q", col)
	return And()
}

// typedKind returns the kind of a typed literal's type name, or 0.
func typedKind(name string) Kind {
	for _, t := range []struct {
		name string
		kind Kind
	}{{"date", KindDate}, {"time", KindTime}, {"timestamp", KindTimestamp}, {"timestamptz", KindTimestamp}} {
		if strings.EqualFold(name, t.name) {
			return t.kind
		}
	}
	return 0
}

// typedLiteral parses a type name and the string that follows it.
func (p *parser) typedLiteral() Literal {
	name := p.tok
	p.next()
	str := p.tok
	if str.kind != tokString {
		p.fail("expected a quoted string after %s", strings.ToUpper(name.text))
		return Literal{}
	}
	p.next()
	l, err := parseTemporal(typedKind(name.text), str.text, strings.EqualFold(name.text, "timestamptz"))
	if err != nil {
		p.tok.pos = str.pos + 1 + err.pos // exact unless the string has escapes
		p.fail("bad %s literal %q: %s", strings.ToUpper(name.text), str.text, err.msg)
		return Literal{}
	}
	return l
}

// literal parses a literal.
func (p *parser) literal() Literal {
	t := p.tok
	switch {
	case t.kind == tokString:
		p.next()
		return String(t.text)
	case p.keyword("true"), p.keyword("false"):
		p.next()
		return Bool(strings.EqualFold(t.text, "true"))
	case t.kind == tokNumber:
		p.next()
		if i, err := strconv.ParseInt(t.text, 0, 64); err == nil {
			return Int(i)
		}
		if d, err := ParseDecimal(t.text); err == nil {
			return d // exact, until Bind knows the column's type
		}
		if f, err := strconv.ParseFloat(t.text, 64); err == nil {
			return Float(f)
		}
		p.tok = t
		p.fail("bad number %q", t.text)
	case t.kind == tokIdent && typedKind(t.text) != 0:
		return p.typedLiteral()
	case t.kind == tokIdent && (strings.EqualFold(t.text, "nan") || strings.EqualFold(t.text, "inf")):
		p.next()
		f, _ := strconv.ParseFloat(t.text, 64)
		return Float(f)
	default:
		p.fail("expected a literal, got %q", t.text)
	}
	return Literal{}
}
