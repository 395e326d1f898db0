package pageindex

// This file holds the DATE, TIME and TIMESTAMP literals: building them,
// reading and writing their SQL text, and binding them (and strings) to
// the unit of a date, time or timestamp column.

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/quiverio/quiver/footer"
)

// temporal is what a column of integers stores of time.
type temporal uint8

const (
	temporalNone      temporal = iota
	temporalDate               // days since 1970-01-01
	temporalTime               // time of day since midnight
	temporalTimestamp          // date and time since 1970-01-01 00:00 (UTC for instants)
)

var temporalNames = [...]string{temporalDate: "DATE", temporalTime: "TIME", temporalTimestamp: "TIMESTAMP"}

// Date returns a DATE literal: the calendar day of t in t's location. On
// a TIMESTAMP column it stands for midnight starting that day.
func Date(t time.Time) Literal {
	y, m, d := t.Date()
	return dateLiteral(y, m, d)
}

func dateLiteral(y int, m time.Month, d int) Literal {
	days := time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400
	return Literal{kind: KindDate, d: new(big.Int).Mul(big.NewInt(days), big.NewInt(nanosPerDay))}
}

// Timestamp returns a TIMESTAMP literal without time zone: the wall clock
// of t in t's location, to the nanosecond. On a column of instants
// (isAdjustedToUTC) it is read in UTC.
func Timestamp(t time.Time) Literal {
	wall := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	return Literal{kind: KindTimestamp, d: unixNanos(wall)}
}

// TimestampTZ returns a TIMESTAMP WITH TIME ZONE literal: the instant t.
// On a column of local date-times (not isAdjustedToUTC) it stands for
// t's UTC wall clock.
func TimestampTZ(t time.Time) Literal {
	return Literal{kind: KindTimestamp, d: unixNanos(t), zoned: true}
}

// TimeOfDay returns a TIME literal, d after midnight; d must lie in
// [0, 24h) for the literal to bind.
func TimeOfDay(d time.Duration) Literal {
	return Literal{kind: KindTime, d: big.NewInt(int64(d))}
}

// unixNanos returns the nanoseconds from the Unix epoch to t, beyond
// int64 if need be.
func unixNanos(t time.Time) *big.Int {
	n := new(big.Int).Mul(big.NewInt(t.Unix()), big.NewInt(1e9))
	return n.Add(n, big.NewInt(int64(t.Nanosecond())))
}

// formatTemporal writes a DATE, TIME or TIMESTAMP literal as SQL.
func (l Literal) formatTemporal() string {
	days, nanos := new(big.Int).DivMod(l.d, big.NewInt(nanosPerDay), new(big.Int))
	clock := func() string {
		ns := nanos.Int64()
		s := fmt.Sprintf("%02d:%02d:%02d", ns/3600e9, ns/60e9%60, ns/1e9%60)
		if frac := ns % 1e9; frac != 0 {
			s += strings.TrimRight(fmt.Sprintf(".%09d", frac), "0")
		}
		return s
	}
	date := func() string {
		y, m, d := time.Unix(days.Int64()*86400, 0).UTC().Date()
		if y < 0 {
			return fmt.Sprintf("-%04d-%02d-%02d", -y, m, d)
		}
		return fmt.Sprintf("%04d-%02d-%02d", y, m, d)
	}
	switch {
	case l.kind == KindDate:
		return "DATE '" + date() + "'"
	case l.kind == KindTime:
		if l.d.Sign() < 0 || l.d.Cmp(big.NewInt(nanosPerDay)) >= 0 {
			return "TIME '" + time.Duration(l.d.Int64()).String() + "'" // does not parse back: out of range
		}
		return "TIME '" + clock() + "'"
	case l.zoned:
		return "TIMESTAMPTZ '" + date() + " " + clock() + "+00:00'"
	}
	return "TIMESTAMP '" + date() + " " + clock() + "'"
}

// maxYearDigits bounds the digits of a year in a date's text, keeping its
// seconds within int64.
const maxYearDigits = 6

// The first and last nanoseconds of the years maxYearDigits hold.
var (
	minTimestamp = unixNanos(time.Date(-999_999, 1, 1, 0, 0, 0, 0, time.UTC))
	maxTimestamp = new(big.Int).Sub(unixNanos(time.Date(1_000_000, 1, 1, 0, 0, 0, 0, time.UTC)), big.NewInt(1))
)

// textScanner reads the text of a date, time or timestamp.
type textScanner struct {
	s   string
	pos int
	err *textError
}

// textError says what is wrong in the text of a date, time or timestamp,
// and at which byte.
type textError struct {
	text string
	pos  int
	msg  string
}

func (e *textError) Error() string { return fmt.Sprintf("at byte %d of %q: %s", e.pos, e.text, e.msg) }

func (t *textScanner) fail(format string, args ...any) {
	if t.err == nil {
		t.err = &textError{t.s, t.pos, fmt.Sprintf(format, args...)}
	}
}

// number reads 1 to maxDigits decimal digits.
func (t *textScanner) number(what string, maxDigits int) int {
	start := t.pos
	for t.pos < len(t.s) && t.s[t.pos] >= '0' && t.s[t.pos] <= '9' && t.pos-start < maxDigits {
		t.pos++
	}
	if t.pos == start {
		t.fail("expected the %s", what)
		return 0
	}
	n, _ := strconv.Atoi(t.s[start:t.pos])
	return n
}

// expect reads byte c.
func (t *textScanner) expect(c byte, after string) {
	if t.err != nil {
		return
	}
	if t.pos >= len(t.s) || t.s[t.pos] != c {
		t.fail("expected %q after the %s", c, after)
		return
	}
	t.pos++
}

// date reads [-]YYYY-MM-DD and returns its days since 1970-01-01.
func (t *textScanner) date() int64 {
	neg := t.pos < len(t.s) && t.s[t.pos] == '-'
	if neg {
		t.pos++
	}
	y := t.number("year", maxYearDigits)
	t.expect('-', "year")
	monthAt := t.pos
	m := t.number("month", 2)
	t.expect('-', "month")
	start := t.pos
	d := t.number("day", 2)
	if t.err != nil {
		return 0
	}
	if neg {
		y = -y
	}
	if m < 1 || m > 12 {
		t.pos = monthAt
		t.fail("month %d is not 1 to 12", m)
		return 0
	}
	if last := time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day(); d < 1 || d > last {
		t.pos = start
		t.fail("day %d is not 1 to %d", d, last)
		return 0
	}
	return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Unix() / 86400
}

// clock reads HH:MM[:SS[.fraction]] and returns its nanoseconds since
// midnight.
func (t *textScanner) clock() int64 {
	field := func(what string, limit int) int64 {
		start := t.pos
		n := t.number(what, 2)
		if t.err == nil && n >= limit {
			t.pos = start
			t.fail("%s %d is not below %d", what, n, limit)
		}
		return int64(n)
	}
	h := field("hour", 24)
	t.expect(':', "hour")
	m := field("minute", 60)
	ns := (h*60 + m) * 60e9
	if t.err != nil || t.pos >= len(t.s) || t.s[t.pos] != ':' {
		return ns
	}
	t.pos++
	ns += field("second", 60) * 1e9
	if t.err != nil || t.pos >= len(t.s) || t.s[t.pos] != '.' {
		return ns
	}
	t.pos++
	start := t.pos
	for t.pos < len(t.s) && t.s[t.pos] >= '0' && t.s[t.pos] <= '9' {
		t.pos++
	}
	switch digits := t.pos - start; {
	case digits == 0:
		t.fail("expected digits after the point")
	case digits > 9:
		t.pos = start + 9
		t.fail("more than 9 digits of a second (nanoseconds are the finest unit)")
	default:
		frac, _ := strconv.ParseInt(t.s[start:t.pos]+strings.Repeat("0", 9-digits), 10, 64)
		ns += frac
	}
	return ns
}

// zone reads an optional time zone: Z, UTC, or an offset ±HH[[:]MM].
// It returns the offset in seconds and whether there was one.
func (t *textScanner) zone() (offset int64, ok bool) {
	for t.pos < len(t.s) && t.s[t.pos] == ' ' {
		t.pos++
	}
	switch rest := t.s[t.pos:]; {
	case rest == "":
		return 0, false
	case rest == "Z" || strings.EqualFold(rest, "UTC"):
		t.pos = len(t.s)
		return 0, true
	case rest[0] != '+' && rest[0] != '-':
		t.fail("expected a time zone: Z, UTC or an offset such as +02:00 (zone names are not known)")
		return 0, false
	}
	sign := int64(1)
	if t.s[t.pos] == '-' {
		sign = -1
	}
	t.pos++
	start := t.pos
	h := t.number("offset hours", 2)
	var m int
	if t.pos < len(t.s) && t.s[t.pos] == ':' {
		t.pos++
	}
	if t.err == nil && t.pos < len(t.s) {
		m = t.number("offset minutes", 2)
	}
	if t.err == nil && (h > 15 || m > 59) {
		t.pos = start
		t.fail("offset %02d:%02d is beyond ±15:59", h, m)
	}
	return sign * int64(h*3600+m*60), true
}

// end fails unless the text is used up.
func (t *textScanner) end() {
	if t.err == nil && t.pos != len(t.s) {
		t.fail("unexpected %q", t.s[t.pos:])
	}
}

// parseTemporal reads s as a literal of kind k: a DATE ([-]YYYY-MM-DD),
// a TIME (HH:MM[:SS[.fffffffff]]) or a TIMESTAMP (a date, then optionally
// a space or T and a time, then optionally a zone: Z, UTC, or ±HH[:MM]).
// zoned marks a TIMESTAMPTZ, whose text without a zone is read in UTC.
func parseTemporal(k Kind, s string, zoned bool) (Literal, *textError) {
	t := &textScanner{s: s}
	l := Literal{kind: k}
	switch k {
	case KindDate:
		days := t.date()
		if t.err == nil && t.pos < len(s) && (s[t.pos] == ' ' || s[t.pos] == 'T') {
			t.fail("a DATE holds no time of day (compare with TIMESTAMP '%s' for one)", s)
		}
		l.d = new(big.Int).Mul(big.NewInt(days), big.NewInt(nanosPerDay))
	case KindTime:
		l.d = big.NewInt(t.clock())
	case KindTimestamp:
		days := t.date()
		var ns int64
		if t.err == nil && t.pos < len(s) && (s[t.pos] == ' ' || s[t.pos] == 'T') && t.pos+1 < len(s) && s[t.pos+1] >= '0' && s[t.pos+1] <= '9' {
			t.pos++
			ns = t.clock()
		}
		var offset int64
		if t.err == nil {
			var hasZone bool
			offset, hasZone = t.zone()
			zoned = zoned || hasZone
		}
		l.d = new(big.Int).Mul(big.NewInt(days), big.NewInt(nanosPerDay))
		l.d.Add(l.d, big.NewInt(ns-offset*1e9))
		l.zoned = zoned
		if t.err == nil && (l.d.Cmp(minTimestamp) < 0 || l.d.Cmp(maxTimestamp) > 0) {
			t.fail("the time zone moves the date beyond the years %d digits hold", maxYearDigits)
		}
	}
	t.end()
	if t.err != nil {
		return Literal{}, t.err
	}
	return l, nil
}

// initTemporal notes what c, a column of integers, stores of time: the
// kind and how many nanoseconds one unit holds.
func (c *colType) initTemporal() {
	leaf := c.leaf
	lt := leaf.Logical()
	conv, hasConv := leaf.Converted().Get()
	legacy := hasConv && (lt.Kind == footer.LogicalNone || lt.Kind == footer.LogicalUnrecognized)
	unit := func(u footer.TimeUnit) int64 {
		return map[footer.TimeUnit]int64{footer.TimeUnitMillis: 1e6, footer.TimeUnitMicros: 1e3, footer.TimeUnitNanos: 1}[u]
	}
	var k temporal
	var ns int64
	switch {
	case c.logical == logicalInt96:
		k, ns = temporalTimestamp, 1
	case c.logical != logicalPlain || c.order != orderSigned:
		return
	case lt.Kind == footer.LogicalDate || legacy && conv == footer.ConvertedDate:
		k, ns = temporalDate, nanosPerDay
	case lt.Kind == footer.LogicalTime:
		k, ns = temporalTime, unit(lt.Time.Unit)
	case lt.Kind == footer.LogicalTimestamp:
		k, ns = temporalTimestamp, unit(lt.Timestamp.Unit)
	case legacy && conv == footer.ConvertedTimeMillis:
		k, ns = temporalTime, 1e6
	case legacy && conv == footer.ConvertedTimeMicros:
		k, ns = temporalTime, 1e3
	case legacy && conv == footer.ConvertedTimestampMillis:
		k, ns = temporalTimestamp, 1e6
	case legacy && conv == footer.ConvertedTimestampMicros:
		k, ns = temporalTimestamp, 1e3
	}
	wantInt32 := k == temporalDate || k == temporalTime && ns == 1e6
	if ns == 0 || c.logical == logicalPlain && (c.physical == footer.TypeInt32) != wantInt32 {
		return // a unit the format does not define, or the wrong width for it
	}
	c.temporal, c.unitNanos = k, ns
}

// temporalUnits returns l, a DATE, TIME or TIMESTAMP literal or a string
// in the text of the column's type, in the column's unit: rounded down,
// and whether exactly.
func (c *colType) temporalUnits(l Literal) (q *big.Int, exact bool, err error) {
	name := temporalNames[c.temporal]
	if l.kind == KindBytes {
		k := map[temporal]Kind{temporalDate: KindDate, temporalTime: KindTime, temporalTimestamp: KindTimestamp}[c.temporal]
		var terr *textError
		if l, terr = parseTemporal(k, string(l.b), false); terr != nil {
			return nil, false, fmt.Errorf("string for %s %s column is not a %s: %w", c.describe(), name, name, terr)
		}
	}
	if (l.kind == KindTime) != (c.temporal == temporalTime) {
		return nil, false, fmt.Errorf("a %s literal for %s %s column", l.kindName(), c.describe(), name)
	}
	if l.kind == KindTime && (l.d.Sign() < 0 || l.d.Cmp(big.NewInt(nanosPerDay)) >= 0) {
		return nil, false, fmt.Errorf("TIME literal %v is not within a day", time.Duration(l.d.Int64()))
	}
	q, r := new(big.Int).DivMod(l.d, big.NewInt(c.unitNanos), new(big.Int)) // Euclidean: floor for a positive divisor
	return q, r.Sign() == 0, nil
}
