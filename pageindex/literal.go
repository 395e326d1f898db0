package pageindex

import (
	"math"
	"strconv"
	"strings"
)

// Kind is the kind of a [Literal].
type Kind uint8

// Literal kinds.
const (
	KindInt   Kind = iota + 1 // integers, dates and timestamps in their stored unit
	KindFloat                 // floating point
	KindBytes                 // strings and binary values
	KindBool                  // booleans
)

// Literal is a typed constant a predicate compares a column with. Build
// one with [Int], [Float], [String], [Bytes] or [Bool].
type Literal struct {
	kind Kind
	i    int64
	f    float64
	b    []byte
}

// Int returns an integer literal. It compares with integer columns (and
// the dates, times and timestamps stored as them, in their stored unit) and
// with floating-point columns.
func Int(v int64) Literal { return Literal{kind: KindInt, i: v} }

// Float returns a floating-point literal, for FLOAT and DOUBLE columns.
func Float(v float64) Literal { return Literal{kind: KindFloat, f: v} }

// String returns a string literal, for string, binary and fixed-size
// binary columns.
func String(s string) Literal { return Literal{kind: KindBytes, b: []byte(s)} }

// Bytes returns a binary literal; it keeps b.
func Bytes(b []byte) Literal { return Literal{kind: KindBytes, b: b} }

// Bool returns a boolean literal.
func Bool(v bool) Literal {
	l := Literal{kind: KindBool}
	if v {
		l.i = 1
	}
	return l
}

// Kind returns the literal's kind.
func (l Literal) Kind() Kind { return l.kind }

// String formats the literal as the expression parser reads it.
func (l Literal) String() string {
	switch l.kind {
	case KindInt:
		return strconv.FormatInt(l.i, 10)
	case KindFloat:
		if math.IsInf(l.f, 0) || math.IsNaN(l.f) {
			return strings.ToLower(strconv.FormatFloat(l.f, 'g', -1, 64))
		}
		s := strconv.FormatFloat(l.f, 'g', -1, 64)
		for _, c := range s {
			if c == '.' || c == 'e' {
				return s
			}
		}
		return s + ".0"
	case KindBytes:
		return strconv.Quote(string(l.b))
	case KindBool:
		return strconv.FormatBool(l.i != 0)
	}
	return "<invalid literal>"
}
