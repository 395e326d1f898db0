package pageindex

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Kind is the kind of a [Literal].
type Kind uint8

// Literal kinds.
const (
	KindInt       Kind = iota + 1 // integers, dates and timestamps in their stored unit
	KindFloat                     // floating point
	KindBytes                     // strings and binary values
	KindBool                      // booleans
	KindDecimal                   // exact decimal numbers: an unscaled integer and a scale
	KindDate                      // calendar days (DATE '2024-03-01')
	KindTime                      // times of day (TIME '12:30:00')
	KindTimestamp                 // dates and times of day, local or instants (TIMESTAMP '2024-03-01 12:30:00')
)

// Literal is a typed constant a predicate compares a column with. Build
// one with [Int], [Float], [String], [Bytes], [Bool], [Decimal],
// [Decimal128], [Decimal256], [ParseDecimal], [Interval], [Date],
// [TimeOfDay], [Timestamp] or [TimestampTZ].
type Literal struct {
	kind  Kind
	i     int64
	f     float64
	b     []byte
	d     *big.Int // a decimal's unscaled value, or a date's, time's or timestamp's nanoseconds; never changed once set
	scale int32    // a decimal's scale: the value is d * 10^-scale
	zoned bool     // a timestamp given as an instant
}

// Int returns an integer literal. It compares with integer columns (and
// the dates, times and timestamps stored as them, in their stored unit;
// INT96 timestamps as nanoseconds since the Unix epoch, the unit arrowio
// reads them in by default), with DECIMAL columns (as the number v, not
// as an unscaled value) and with floating-point columns (FLOAT, DOUBLE,
// FLOAT16).
func Int(v int64) Literal { return Literal{kind: KindInt, i: v} }

// Float returns a floating-point literal, for FLOAT, DOUBLE and FLOAT16
// columns. On a DECIMAL column a finite v stands for the shortest decimal
// that rounds to it (Float(0.1) is 0.1), and an infinite one for a number
// beyond every value; NaN is an error there.
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

// Int64 returns the value of an integer literal ([KindInt]); ok is
// false for other kinds.
func (l Literal) Int64() (v int64, ok bool) { return l.i, l.kind == KindInt }

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
		// The shortest decimal that reads back as l.f, in the form a
		// decimal literal formats to, so the text parses to itself.
		d, _ := ParseDecimal(strconv.FormatFloat(l.f, 'g', -1, 64))
		s := d.String()
		if !strings.ContainsAny(s, ".e") {
			return s + ".0"
		}
		return s
	case KindDecimal:
		return formatDecimal(l.d, l.scale)
	case KindBytes:
		return strconv.Quote(string(l.b))
	case KindBool:
		return strconv.FormatBool(l.i != 0)
	case KindDate, KindTime, KindTimestamp:
		return l.formatTemporal()
	}
	return "<invalid literal>"
}
