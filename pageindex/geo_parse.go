package pageindex

import (
	"math"
	"strings"
)

// geoCondition parses `intersects(col, xmin, ymin, xmax, ymax)` when the
// current token starts one (the word intersects, unquoted, then an
// opening parenthesis), and reports whether it did. A column named
// intersects is still a column everywhere else.
func (p *parser) geoCondition() (Predicate, bool) {
	if !p.keyword("intersects") || !strings.HasPrefix(strings.TrimLeft(p.src[p.pos:], " \t\r\n"), "(") {
		return nil, false
	}
	p.next()
	p.next()
	if p.tok.kind != tokIdent || p.src[p.tok.pos] != '`' && isKeyword(p.tok.text) {
		p.fail("expected a column in intersects, got %q", p.tok.text)
		return And(), true
	}
	col := p.tok.text
	p.next()
	var box [4]float64
	for i := range box {
		if !p.symbol(",") {
			p.fail("intersects takes a column and four numbers: xmin, ymin, xmax, ymax")
			return And(), true
		}
		p.next()
		at := p.tok
		v, ok := literalNumber(p.literal())
		if !ok && p.err == nil {
			p.tok = at
			p.fail("expected a number in intersects, got %q", at.text)
		}
		box[i] = v
	}
	if !p.symbol(")") {
		p.fail("missing ) after intersects")
		return And(), true
	}
	p.next()
	return Intersects(col, box[0], box[1], box[2], box[3]), true
}

// literalNumber returns the value of a numeric literal as a float64.
func literalNumber(l Literal) (float64, bool) {
	switch l.kind {
	case KindInt:
		return float64(l.i), true
	case KindFloat:
		return l.f, true
	case KindDecimal:
		return decimalFloat(l.d, l.scale), true
	}
	return math.NaN(), false
}
