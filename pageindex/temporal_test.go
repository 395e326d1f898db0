package pageindex

import (
	"encoding/binary"
	"errors"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/footer"
)

// temporalCol is a date, time or timestamp column of temporalSchema.
type temporalCol struct {
	name      string
	kind      temporal
	unitNanos int64
	int32     bool
}

var temporalCols = []temporalCol{
	{"day", temporalDate, nanosPerDay, true},
	{"legacy_day", temporalDate, nanosPerDay, true},
	{"t_ms", temporalTime, 1e6, true},
	{"t_us", temporalTime, 1e3, false},
	{"t_ns", temporalTime, 1, false},
	{"ts_ms", temporalTimestamp, 1e6, false},
	{"ts_us", temporalTimestamp, 1e3, false},
	{"ts_ns", temporalTimestamp, 1, false},
	{"tsz_us", temporalTimestamp, 1e3, false},
	{"legacy_ts_ms", temporalTimestamp, 1e6, false},
}

func temporalSchema(t testing.TB) *footer.Schema {
	opt := footer.Some(footer.RepetitionOptional)
	i32, i64 := footer.Some(footer.TypeInt32), footer.Some(footer.TypeInt64)
	tm := func(u footer.TimeUnit) footer.LogicalType {
		return footer.LogicalType{Kind: footer.LogicalTime, Time: footer.TimeType{Unit: u}}
	}
	ts := func(u footer.TimeUnit, utc bool) footer.LogicalType {
		return footer.LogicalType{Kind: footer.LogicalTimestamp, Timestamp: footer.TimestampType{Unit: u, IsAdjustedToUTC: utc}}
	}
	elems := []footer.SchemaElement{
		{Name: "root", NumChildren: footer.Some(int32(len(temporalCols) + 1))},
		{Name: "day", Type: i32, RepetitionType: opt, LogicalType: footer.LogicalType{Kind: footer.LogicalDate}},
		{Name: "legacy_day", Type: i32, RepetitionType: opt, ConvertedType: footer.Some(footer.ConvertedDate)},
		{Name: "t_ms", Type: i32, RepetitionType: opt, LogicalType: tm(footer.TimeUnitMillis)},
		{Name: "t_us", Type: i64, RepetitionType: opt, LogicalType: tm(footer.TimeUnitMicros)},
		{Name: "t_ns", Type: i64, RepetitionType: opt, LogicalType: tm(footer.TimeUnitNanos)},
		{Name: "ts_ms", Type: i64, RepetitionType: opt, LogicalType: ts(footer.TimeUnitMillis, false)},
		{Name: "ts_us", Type: i64, RepetitionType: opt, LogicalType: ts(footer.TimeUnitMicros, false)},
		{Name: "ts_ns", Type: i64, RepetitionType: opt, LogicalType: ts(footer.TimeUnitNanos, false)},
		{Name: "tsz_us", Type: i64, RepetitionType: opt, LogicalType: ts(footer.TimeUnitMicros, true)},
		{Name: "legacy_ts_ms", Type: i64, RepetitionType: opt, ConvertedType: footer.Some(footer.ConvertedTimestampMillis)},
		{Name: "n", Type: i64, RepetitionType: opt},
	}
	orders := make([]footer.ColumnOrder, len(temporalCols)+1)
	for i := range orders {
		orders[i].Kind = footer.ColumnOrderTypeDefined
	}
	s, err := footer.NewSchema(elems, orders)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestTemporalLiteralText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"d = DATE '2023-11-14'", "d = DATE '2023-11-14'"},
		{"d = date '2024-2-29'", "d = DATE '2024-02-29'"},
		{"d < DATE '-0044-03-15'", "d < DATE '-0044-03-15'"},
		{"t = TIME '07:05'", "t = TIME '07:05:00'"},
		{"t = TIME '23:59:59.123456789'", "t = TIME '23:59:59.123456789'"},
		{"ts >= TIMESTAMP '2023-11-14 10:00:00.0005'", "ts >= TIMESTAMP '2023-11-14 10:00:00.0005'"},
		{"ts >= TIMESTAMP '2023-11-14T10:00:00'", "ts >= TIMESTAMP '2023-11-14 10:00:00'"},
		{"ts >= TIMESTAMP '2023-11-14'", "ts >= TIMESTAMP '2023-11-14 00:00:00'"},
		{"ts < TIMESTAMP '2023-11-14 01:00:00+02:00'", "ts < TIMESTAMPTZ '2023-11-13 23:00:00+00:00'"},
		{"ts < TIMESTAMP '2023-11-14 01:00:00 -0130'", "ts < TIMESTAMPTZ '2023-11-14 02:30:00+00:00'"},
		{"ts < TIMESTAMPTZ '2023-11-14 01:00:00Z'", "ts < TIMESTAMPTZ '2023-11-14 01:00:00+00:00'"},
		{"ts < TIMESTAMPTZ '2023-11-14 01:00:00'", "ts < TIMESTAMPTZ '2023-11-14 01:00:00+00:00'"},
		{"ts in (TIMESTAMP '2023-11-14 01:00:00 UTC', DATE '2020-01-01')", "ts in (TIMESTAMPTZ '2023-11-14 01:00:00+00:00', DATE '2020-01-01')"},
		{"date = DATE '2023-01-01'", "date = DATE '2023-01-01'"},
	} {
		p, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got := p.String(); got != c.want {
			t.Errorf("Parse(%q) = %s, want %s", c.in, got, c.want)
		}
		q, err := Parse(p.String())
		if err != nil || q.String() != p.String() {
			t.Errorf("%s parses back to %v, %v", p, q, err)
		}
	}
}

func TestTemporalLiteralErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"d = DATE '2023-02-29'", "offset 18: bad DATE literal \"2023-02-29\": day 29 is not 1 to 28"},
		{"d = DATE '2023-13-01'", "offset 15: bad DATE literal \"2023-13-01\": month 13 is not 1 to 12"},
		{"d = DATE '2023-11-14 10:00'", "a DATE holds no time of day"},
		{"d = DATE '2023/11/14'", "offset 14: bad DATE literal \"2023/11/14\": expected '-' after the year"},
		{"d = DATE 20231114", "offset 9: expected a quoted string after DATE"},
		{"t = TIME '24:00:00'", "offset 10: bad TIME literal \"24:00:00\": hour 24 is not below 24"},
		{"t = TIME '12:60'", "offset 13: bad TIME literal \"12:60\": minute 60 is not below 60"},
		{"t = TIME '12:00:00.1234567891'", "offset 28: bad TIME literal \"12:00:00.1234567891\": more than 9 digits"},
		{"t = TIME '12:00:00.'", "expected digits after the point"},
		{"ts = TIMESTAMP '2023-01-01 12:00 Europe/Oslo'", "offset 33: bad TIMESTAMP literal \"2023-01-01 12:00 Europe/Oslo\": expected a time zone"},
		{"ts = TIMESTAMP '2023-01-01 12:00+16:00'", "offset 33: bad TIMESTAMP literal \"2023-01-01 12:00+16:00\": offset 16:00 is beyond ±15:59"},
		{"ts = TIMESTAMP '2023-01-01 12:00:00x'", "offset 35: bad TIMESTAMP literal \"2023-01-01 12:00:00x\": expected a time zone"},
		{"d = DATE '2023-01-01x'", "offset 20: bad DATE literal \"2023-01-01x\": unexpected \"x\""},
		{"ts = TIMESTAMP '1234567-01-01'", "expected '-' after the year"},
	} {
		_, err := Parse(c.in)
		if err == nil || !errors.Is(err, ErrPredicate) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", c.in, err, c.want)
		}
	}
}

func TestTemporalBindErrors(t *testing.T) {
	schema := temporalSchema(t)
	for _, c := range []struct{ in, want string }{
		{"day = '2023-11-14 10:00'", `column "day": string for an INT32 DATE column is not a DATE: at byte 10 of "2023-11-14 10:00": a DATE holds no time of day`},
		{"day = 'yesterday'", `is not a DATE: at byte 0 of "yesterday": expected the year`},
		{"ts_us < '2023-11-14 25:00'", `string for an INT64 TIMESTAMP column is not a TIMESTAMP: at byte 11 of "2023-11-14 25:00": hour 25 is not below 24`},
		{"t_ms = '12:00:61'", "second 61 is not below 60"},
		{"t_ms = DATE '2023-01-01'", `column "t_ms": a DATE literal for an INT32 TIME column`},
		{"ts_us = TIME '12:00'", `a TIME literal for an INT64 TIMESTAMP column`},
		{"n = DATE '2023-01-01'", `column "n": a DATE literal for an INT64 column`},
	} {
		p, err := Parse(c.in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.in, err)
		}
		if _, err := Bind(p, schema); err == nil || !errors.Is(err, ErrPredicate) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Bind(%s) = %v, want an error with %q", p, err, c.want)
		}
	}
	if _, err := Bind(Eq("t_us", TimeOfDay(25*time.Hour)), schema); err == nil || !strings.Contains(err.Error(), "not within a day") {
		t.Errorf("a TIME of 25h binds: %v", err)
	}
}

// TestTemporalBindRounds checks literals finer than a column's unit on
// each side of a value, for every operator.
func TestTemporalBindRounds(t *testing.T) {
	schema := temporalSchema(t)
	const base = 1_699_956_000_000 // 2023-11-14 10:00:00 in milliseconds
	arr := func(vals ...int64) arrow.Array {
		b := array.NewInt64Builder(memory.DefaultAllocator)
		b.AppendValues(vals, nil)
		b.AppendNull()
		return b.NewArray()
	}
	col := arr(base-1, base, base+1) // ...59.999, 10:00:00.000, 10:00:00.001, null
	defer col.Release()
	for _, c := range []struct {
		pred, want string
	}{
		{"ts_ms > TIMESTAMP '2023-11-14 10:00:00.0005'", "0010"},
		{"ts_ms >= TIMESTAMP '2023-11-14 10:00:00.0005'", "0010"},
		{"ts_ms < TIMESTAMP '2023-11-14 10:00:00.0005'", "1100"},
		{"ts_ms <= TIMESTAMP '2023-11-14 10:00:00.0005'", "1100"},
		{"ts_ms = TIMESTAMP '2023-11-14 10:00:00.0005'", "0000"},
		{"ts_ms != TIMESTAMP '2023-11-14 10:00:00.0005'", "1110"},
		{"ts_ms > TIMESTAMP '2023-11-14 09:59:59.9995'", "0110"},
		{"ts_ms = '2023-11-14 10:00'", "0100"},
		{"ts_ms >= '2023-11-14'", "1110"},
		{"ts_ms = TIMESTAMPTZ '2023-11-14 11:00:00+01:00'", "0100"},
		{"ts_ms in (TIMESTAMP '2023-11-14 10:00:00.0005', '2023-11-14 10:00:00.001')", "0010"},
		{"ts_ms > DATE '2023-11-14'", "1110"},
		{"ts_ms < DATE '2023-11-15'", "1110"},
		{"ts_ms > DATE '9999-12-31'", "0000"},
		{"ts_ms < DATE '9999-12-31'", "1110"},
		{"not (ts_ms = TIMESTAMP '2023-11-14 10:00:00')", "1010"},
		{"ts_ms = 1699956000000", "0100"},
	} {
		p, err := Parse(c.pred)
		if err != nil {
			t.Fatal(err)
		}
		if got := selectOne(t, p, schema, col); got != c.want {
			t.Errorf("%s selects %s, want %s", p, got, c.want)
		}
	}
	// Beyond a nanosecond column's range (years 1677 to 2262) a literal is
	// constant, not an error.
	for pred, want := range map[string]Match{"ts_ns < DATE '3000-01-01'": MatchAll, "ts_ns = DATE '1000-01-01'": MatchNone} {
		p, _ := Parse(pred)
		b, err := Bind(p, schema)
		if err != nil {
			t.Fatalf("Bind(%s): %v", p, err)
		}
		st := Stats{Min: binary.LittleEndian.AppendUint64(nil, 5), Max: binary.LittleEndian.AppendUint64(nil, 9), HasNullCount: true, Values: 3}
		if got := b.Match(func(int) (Pages, bool) { return Pages{FirstRows: []int64{0}, Stats: []Stats{st}}, true }, 3); got != want {
			t.Errorf("%s: Match = %v, want %v", p, got, want)
		}
	}
}

// TestTemporalAgreesWithBruteForce binds random DATE, TIME and TIMESTAMP
// literals (nanosecond precision) to every temporal column and checks
// Select against an exact comparison in nanoseconds, and that page
// statistics and bloom filters never rule out a selected row.
func TestTemporalAgreesWithBruteForce(t *testing.T) {
	schema := temporalSchema(t)
	rng := rand.New(rand.NewPCG(11, 25))
	iters := 2000
	if testing.Short() {
		iters = 400
	}
	for it := range iters {
		ci := rng.IntN(len(temporalCols))
		c := temporalCols[ci]
		n := 1 + rng.IntN(40)
		span := int64(1000) // values near a base, so that literals fall among them
		base := map[temporal]int64{temporalDate: 19_000, temporalTime: 40_000 * 1e9 / c.unitNanos, temporalTimestamp: 1_699_956_000 * 1e9 / c.unitNanos}[c.kind]
		vals := make([]int64, n)
		valid := make([]bool, n)
		for i := range vals {
			vals[i], valid[i] = base+rng.Int64N(span), rng.IntN(5) != 0
		}
		// A literal in nanoseconds, near the values, sometimes exactly on one.
		litNanos := (base + rng.Int64N(span+2) - 1) * c.unitNanos
		if rng.IntN(2) == 0 {
			litNanos += rng.Int64N(c.unitNanos)
		}
		var lit Literal
		switch c.kind {
		case temporalTime:
			lit = TimeOfDay(time.Duration(litNanos))
		case temporalDate:
			if rng.IntN(2) == 0 {
				litNanos -= litNanos % nanosPerDay
				lit = Date(time.Unix(0, litNanos).UTC())
				break
			}
			lit = Timestamp(time.Unix(0, litNanos).UTC())
		default:
			lit = Timestamp(time.Unix(0, litNanos).UTC())
			if rng.IntN(3) == 0 {
				lit = TimestampTZ(time.Unix(0, litNanos).In(time.FixedZone("", 3600*(rng.IntN(25)-12))))
			}
			if rng.IntN(3) == 0 { // the same as a string
				lit = String(strings.Trim(strings.TrimPrefix(lit.String(), "TIMESTAMP"), "TZ '"))
			}
		}
		op := Op(1 + rng.IntN(6))
		var p Predicate = Compare(c.name, op, lit)
		neg := rng.IntN(3) == 0
		if neg {
			p = Not(p)
		}
		b, err := Bind(p, schema)
		if err != nil {
			t.Fatalf("Bind(%s): %v", p, err)
		}
		var arr arrow.Array
		if c.int32 {
			bld := array.NewInt32Builder(memory.DefaultAllocator)
			for i, v := range vals {
				if valid[i] {
					bld.Append(int32(v))
				} else {
					bld.AppendNull()
				}
			}
			arr = bld.NewArray()
		} else {
			bld := array.NewInt64Builder(memory.DefaultAllocator)
			bld.AppendValues(vals, valid)
			arr = bld.NewArray()
		}
		sel, err := b.Select([]arrow.Array{arr}, n)
		arr.Release()
		if err != nil {
			t.Fatal(err)
		}
		ln := big.NewInt(litNanos)
		for i, v := range vals {
			want := false
			if valid[i] {
				vn := new(big.Int).Mul(big.NewInt(v), big.NewInt(c.unitNanos))
				want = op.holds(vn.Cmp(ln)) != neg
			}
			if sel[i] != want {
				t.Fatalf("iteration %d: %s: row %d (%d %s units, valid %v) selected %v, want %v", it, p, i, v, c.name, valid[i], sel[i], want)
			}
		}
		// Page statistics and bloom filters, one page per 7 rows.
		src := func(int) (Pages, bool) {
			var pg Pages
			pg.Bloom = NewBloom(256)
			for start := 0; start < n; start += 7 {
				st := Stats{HasNullCount: true}
				var lo, hi int64
				first := true
				for i := start; i < min(start+7, n); i++ {
					st.Values++
					if !valid[i] {
						st.NullCount++
						continue
					}
					if c.int32 {
						pg.Bloom.Insert(HashInt32(int32(vals[i])))
					} else {
						pg.Bloom.Insert(HashInt64(vals[i]))
					}
					if first || vals[i] < lo {
						lo = vals[i]
					}
					if first || vals[i] > hi {
						hi = vals[i]
					}
					first = false
				}
				st.AllNull = first
				if !first {
					if c.int32 {
						st.Min, st.Max = binary.LittleEndian.AppendUint32(nil, uint32(lo)), binary.LittleEndian.AppendUint32(nil, uint32(hi))
					} else {
						st.Min, st.Max = binary.LittleEndian.AppendUint64(nil, uint64(lo)), binary.LittleEndian.AppendUint64(nil, uint64(hi))
					}
				}
				pg.FirstRows, pg.Stats = append(pg.FirstRows, int64(start)), append(pg.Stats, st)
			}
			return pg, true
		}
		maybe := b.Ranges(src, int64(n))
		in := make([]bool, n)
		for _, r := range maybe {
			for k := r.Start; k < r.End; k++ {
				in[k] = true
			}
		}
		for i, s := range sel {
			if s && !in[i] {
				t.Fatalf("iteration %d: %s: row %d is selected but pruned (%v)", it, p, i, maybe)
			}
		}
	}
}

// FuzzTemporalText reads arbitrary text as each typed literal: it is an
// error or a literal whose SQL text reads back to itself.
func FuzzTemporalText(f *testing.F) {
	for _, s := range []string{"2023-11-14", "23:59:59.999999999", "2023-11-14T10:00:00.5-03:30", "-0044-03-15 00:00 UTC", "999999-12-31 23:59"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, k := range []Kind{KindDate, KindTime, KindTimestamp} {
			l, err := parseTemporal(k, s, false)
			if err != nil {
				if err.pos < 0 || err.pos > len(s) {
					t.Fatalf("%q: error at byte %d", s, err.pos)
				}
				continue
			}
			p, perr := Parse("c = " + l.String())
			if perr != nil || p.String() != "c = "+l.String() {
				t.Fatalf("%q: %s reads back as %v, %v", s, l, p, perr)
			}
		}
	})
}

// INT96 timestamps bind typed literals and strings as nanoseconds since
// the epoch, as arrowio reads them.
func TestTemporalInt96(t *testing.T) {
	b := array.NewTimestampBuilder(memory.DefaultAllocator, &arrow.TimestampType{Unit: arrow.Nanosecond})
	defer b.Release()
	b.AppendValues([]arrow.Timestamp{3, 4, 5, 86_400_000_000_000}, nil)
	b.AppendNull()
	arr := b.NewArray()
	defer arr.Release()
	for where, want := range map[string]string{
		"t > TIMESTAMP '1970-01-01 00:00:00.000000004'":               "00110",
		"t <= '1970-01-01 00:00:00.000000004'":                        "11000",
		"t = DATE '1970-01-02'":                                       "00010",
		"not (t < TIMESTAMPTZ '1970-01-01 01:00:00.000000005+01:00')": "00110",
	} {
		p, err := Parse(where)
		if err != nil {
			t.Fatal(err)
		}
		if got := selectOne(t, p, typedSchema(t), arr); got != want {
			t.Errorf("%s selects %s, want %s", where, got, want)
		}
	}
}
