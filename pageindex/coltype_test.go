package pageindex

import (
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/tri"
)

// typedSchema has one optional column per annotation the typed test
// covers, all with TYPE_ORDER: DECIMAL(9,2) in INT32, DECIMAL(18,3) in
// INT64, DECIMAL(20,2) in FIXED_LEN_BYTE_ARRAY(9), DECIMAL(30,2) in
// BYTE_ARRAY, FLOAT16, INTERVAL and INT96.
func typedSchema(t testing.TB) *footer.Schema {
	opt := footer.Some(footer.RepetitionOptional)
	dec := func(p, s int32) footer.LogicalType {
		return footer.LogicalType{Kind: footer.LogicalDecimal, Decimal: footer.DecimalType{Precision: p, Scale: s}}
	}
	elems := []footer.SchemaElement{
		{Name: "root", NumChildren: footer.Some(int32(7))},
		{Name: "d32", Type: footer.Some(footer.TypeInt32), RepetitionType: opt, LogicalType: dec(9, 2)},
		{Name: "d64", Type: footer.Some(footer.TypeInt64), RepetitionType: opt, LogicalType: dec(18, 3)},
		{Name: "dfl", Type: footer.Some(footer.TypeFixedLenByteArray), TypeLength: footer.Some(int32(9)), RepetitionType: opt, LogicalType: dec(20, 2)},
		{Name: "dba", Type: footer.Some(footer.TypeByteArray), RepetitionType: opt, LogicalType: dec(30, 2)},
		{Name: "h", Type: footer.Some(footer.TypeFixedLenByteArray), TypeLength: footer.Some(int32(2)), RepetitionType: opt, LogicalType: footer.LogicalType{Kind: footer.LogicalFloat16}},
		{Name: "iv", Type: footer.Some(footer.TypeFixedLenByteArray), TypeLength: footer.Some(int32(12)), RepetitionType: opt, ConvertedType: footer.Some(footer.ConvertedInterval)},
		{Name: "t", Type: footer.Some(footer.TypeInt96), RepetitionType: opt},
	}
	orders := make([]footer.ColumnOrder, 7)
	for i := range orders {
		orders[i].Kind = footer.ColumnOrderTypeDefined
	}
	s, err := footer.NewSchema(elems, orders)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// typedCol describes one column of typedSchema for the typed test.
type typedCol struct {
	name  string
	scale int32 // DECIMAL scale
}

var typedCols = []typedCol{{"d32", 2}, {"d64", 3}, {"dfl", 2}, {"dba", 2}, {"h", 0}, {"iv", 0}, {"t", 0}}

// tval is one value of the typed test as the brute force sees it: an
// exact number (decimals, INT96 nanoseconds), a float (FLOAT16) or bytes
// (INTERVAL); null when all are unset.
type tval struct {
	r *big.Rat
	f float64
	b []byte
	h bool // f is set
}

func (v tval) null() bool { return v.r == nil && v.b == nil && !v.h }

// stored is a value as the file stores it: the PLAIN bytes (no length
// prefix) and the bloom hash.
type stored struct {
	plain []byte
	hash  uint64
}

// typedValue returns a random value of column c, as the brute force sees
// it, as stored, and appends it to the array builder.
func typedValue(rng *rand.Rand, c typedCol, bld array.Builder) (tval, stored) {
	switch c.name {
	case "h":
		f := float32(rng.IntN(33)-16) / 4
		switch rng.IntN(20) {
		case 0:
			f = float32(math.NaN())
		case 1:
			f = float32(math.Copysign(0, -1))
		}
		n := float16.New(f)
		bld.(*array.Float16Builder).Append(n)
		plain := binary.LittleEndian.AppendUint16(nil, n.Uint16())
		return tval{f: float64(n.Float32()), h: true}, stored{plain, HashBytes(plain)}
	case "iv":
		m, d, ms := uint32(rng.IntN(3)), uint32(rng.IntN(3)), uint32(rng.IntN(3))*500
		bld.(*array.MonthDayNanoIntervalBuilder).Append(arrow.MonthDayNanoInterval{Months: int32(m), Days: int32(d), Nanoseconds: int64(ms) * 1e6})
		plain := Interval(m, d, ms).b
		return tval{b: plain}, stored{plain, HashBytes(plain)}
	case "t":
		ns := int64(rng.IntN(7)-3)*nanosPerDay + int64(rng.IntN(5))*1e9
		bld.(*array.TimestampBuilder).Append(arrow.Timestamp(ns))
		plain := int96Bytes(ns)
		return tval{r: new(big.Rat).SetInt64(ns)}, stored{plain, HashBytes(plain)}
	}
	u := int64(rng.IntN(61)-30)*50 + int64(rng.IntN(3)-1)
	if rng.IntN(40) == 0 {
		u = []int64{math.MaxInt32, math.MinInt32, 1e17, -1e17}[rng.IntN(4)]
		if c.name == "d32" {
			u = int64(int32(u))
		}
	}
	bld.(*array.Decimal128Builder).Append(decimal128.FromI64(u))
	r := new(big.Rat).SetFrac(big.NewInt(u), pow10(int64(c.scale)))
	var plain []byte
	var h uint64
	switch c.name {
	case "d32":
		plain, h = binary.LittleEndian.AppendUint32(nil, uint32(u)), HashInt32(int32(u))
	case "d64":
		plain, h = binary.LittleEndian.AppendUint64(nil, uint64(u)), HashInt64(u)
	case "dfl":
		plain = signExtend(twosComplement(big.NewInt(u)), 9)
		h = HashBytes(plain)
	default: // BYTE_ARRAY: minimal or padded encodings of one number
		plain = twosComplement(big.NewInt(u))
		plain = signExtend(plain, len(plain)+rng.IntN(3))
		h = HashBytes(plain)
	}
	return tval{r: r}, stored{plain, h}
}

// typedBuilder returns the array builder of column c, typed as arrowio
// reads it.
func typedBuilder(mem memory.Allocator, c typedCol) array.Builder {
	switch c.name {
	case "h":
		return array.NewFloat16Builder(mem)
	case "iv":
		return array.NewMonthDayNanoIntervalBuilder(mem)
	case "t":
		return array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"})
	}
	return array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 30, Scale: c.scale})
}

// typedLiteral returns a random literal for column c and its value for
// the brute force; inf is ±1 for a literal beyond every number.
func typedLiteral(rng *rand.Rand, c typedCol) (l Literal, v tval, inf int) {
	switch c.name {
	case "h":
		switch rng.IntN(4) {
		case 0:
			l = Int(int64(rng.IntN(9) - 4))
		case 1:
			l, _ = ParseDecimal([]string{"0.25", "-1.75", "0.1", "3.999", "1e1"}[rng.IntN(5)])
		default:
			l = Float(float64(rng.IntN(35)-17) / 4)
			if rng.IntN(15) == 0 {
				l = Float(math.NaN())
			}
		}
		return l, tval{f: literalFloat(l), h: true}, 0
	case "iv":
		l = Interval(uint32(rng.IntN(3)), uint32(rng.IntN(3)), uint32(rng.IntN(4))*500)
		return l, tval{b: l.b}, 0
	case "t":
		ns := int64(rng.IntN(9)-4)*nanosPerDay + int64(rng.IntN(6))*1e9
		return Int(ns), tval{r: new(big.Rat).SetInt64(ns)}, 0
	}
	switch rng.IntN(6) {
	case 0:
		k := int64(rng.IntN(70) - 35)
		return Int(k), tval{r: new(big.Rat).SetInt64(k)}, 0
	case 1:
		f := float64(rng.IntN(280)-140) / 8
		l = Float(f)
		r, _ := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
		return l, tval{r: r}, 0
	case 2:
		s := []string{"1e40", "-1e40", "1e-40", "-1e-40", "99999999999999999999999", "0.0", "-0.001"}[rng.IntN(7)]
		l, _ = ParseDecimal(s)
		r, _ := new(big.Rat).SetString(s)
		return l, tval{r: r}, 0
	case 3:
		if rng.IntN(2) == 0 {
			return Float(math.Inf(1)), tval{}, 1
		}
		return Float(math.Inf(-1)), tval{}, -1
	}
	// Near the data, with up to 2 digits more than the column's scale:
	// some exact at the scale, some between two of its values.
	extra := rng.IntN(3)
	u := (int64(rng.IntN(61)-30)*50+int64(rng.IntN(3)-1))*int64(math.Pow10(extra)) + int64(rng.IntN(int(math.Pow10(extra))))
	s := c.scale + int32(extra)
	l = Decimal(big.NewInt(u), s)
	return l, tval{r: new(big.Rat).SetFrac(big.NewInt(u), pow10(int64(s)))}, 0
}

// literalFloat returns the float64 a numeric literal compares as on a
// float column.
func literalFloat(l Literal) float64 {
	switch l.kind {
	case KindInt:
		return float64(l.i)
	case KindDecimal:
		return decimalFloat(l.d, l.scale)
	}
	return l.f
}

// compareTyped returns the sign of a - b, or 2 when they do not compare
// (NaN); lit's inf is ±1 for a literal beyond every number.
func compareTyped(a, b tval, inf int) int {
	switch {
	case inf != 0:
		return -inf
	case a.h:
		switch {
		case a.f < b.f:
			return -1
		case a.f > b.f:
			return 1
		case a.f == b.f:
			return 0
		}
		return 2
	case a.b != nil:
		if string(a.b) == string(b.b) {
			return 0
		}
		return 2 // unordered: only = and != are asked
	}
	return a.r.Cmp(b.r)
}

// typedPred is a random predicate on the typed columns with a brute-force
// evaluator in SQL's three-valued logic.
type typedPred struct {
	p    Predicate
	eval func(row []tval) tri.Value
}

func randomTypedPred(rng *rand.Rand, depth int) typedPred {
	if depth > 0 && rng.IntN(3) == 0 {
		a, b := randomTypedPred(rng, depth-1), randomTypedPred(rng, depth-1)
		switch rng.IntN(3) {
		case 0:
			return typedPred{And(a.p, b.p), func(r []tval) tri.Value { return min(a.eval(r), b.eval(r)) }}
		case 1:
			return typedPred{Or(a.p, b.p), func(r []tval) tri.Value { return max(a.eval(r), b.eval(r)) }}
		}
		return typedPred{Not(a.p), func(r []tval) tri.Value { return tri.Not(a.eval(r)) }}
	}
	ci := rng.IntN(len(typedCols))
	c := typedCols[ci]
	switch rng.IntN(5) {
	case 0:
		return typedPred{IsNull(c.name), func(r []tval) tri.Value { return tri.Known(r[ci].null()) }}
	case 1:
		var lits []Literal
		var vals []tval
		var infs []int
		for range rng.IntN(4) {
			l, v, inf := typedLiteral(rng, c)
			lits, vals, infs = append(lits, l), append(vals, v), append(infs, inf)
		}
		return typedPred{In(c.name, lits...), func(r []tval) tri.Value {
			if r[ci].null() {
				return tri.Unknown
			}
			for i, v := range vals {
				if compareTyped(r[ci], v, infs[i]) == 0 {
					return tri.True
				}
			}
			return tri.False
		}}
	}
	op := Op(1 + rng.IntN(6))
	if c.name == "iv" {
		op = Op(1 + rng.IntN(2))
	}
	l, v, inf := typedLiteral(rng, c)
	return typedPred{Compare(c.name, op, l), func(r []tval) tri.Value {
		if r[ci].null() {
			return tri.Unknown
		}
		cmp := compareTyped(r[ci], v, inf)
		if cmp == 2 {
			return tri.Known(op == OpNotEq)
		}
		return tri.Known(op.holds(cmp))
	}}
}

// TestTypedColumnsAgreeWithBruteForce binds random predicates on
// DECIMAL (every physical type), FLOAT16, INTERVAL and INT96 columns
// and checks, over random pages, that Select returns exactly the rows an
// exact brute force selects, and that statistics (with bounds of
// INTERVAL and INT96 in a misleading byte order they must ignore),
// dictionaries and bloom filters never rule out a selected row.
func TestTypedColumnsAgreeWithBruteForce(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	schema := typedSchema(t)
	rng := rand.New(rand.NewPCG(3, 14))
	iters := 1500
	if testing.Short() {
		iters = 300
	}
	pruned := 0
	for it := range iters {
		n, pages := 1+rng.IntN(200), 1+rng.IntN(12)
		nullRate := []float64{0, 0.2, 0.9}[rng.IntN(3)]
		rows := make([][]tval, n)
		plain := make([][]stored, len(typedCols))
		arrs := map[string]arrow.Array{}
		for ci, c := range typedCols {
			bld := typedBuilder(mem, c)
			for r := range n {
				if rows[r] == nil {
					rows[r] = make([]tval, len(typedCols))
				}
				if rng.Float64() < nullRate {
					bld.AppendNull()
					plain[ci] = append(plain[ci], stored{})
					continue
				}
				var s stored
				rows[r][ci], s = typedValue(rng, c, bld)
				plain[ci] = append(plain[ci], s)
			}
			arrs[c.name] = bld.NewArray()
			bld.Release()
		}
		tp := randomTypedPred(rng, 3)
		b, err := Bind(tp.p, schema)
		if err != nil {
			t.Fatalf("Bind(%s): %v", tp.p, err)
		}
		cols := make([]arrow.Array, len(b.Leaves()))
		for i, l := range b.Leaves() {
			cols[i] = arrs[l.DottedPath()]
		}
		sel, err := b.Select(cols, n)
		if err != nil {
			t.Fatalf("Select(%s): %v", tp.p, err)
		}
		for r := range n {
			if want := tp.eval(rows[r]) == tri.True; sel[r] != want {
				t.Fatalf("iteration %d: %s: row %d (%v) selected %v, want %v", it, tp.p, r, rows[r], sel[r], want)
			}
		}
		withDict := rng.IntN(2) == 0
		src := func(col int) (Pages, bool) {
			leaf := b.Leaves()[col]
			ci := leaf.Column
			per := (n + pages - 1) / pages
			p := Pages{Bloom: NewBloom(1024)}
			for _, s := range plain[ci] {
				if s.plain != nil {
					p.Bloom.Insert(s.hash)
				}
			}
			for lo := 0; lo < n; lo += per {
				hi := min(n, lo+per)
				p.FirstRows = append(p.FirstRows, int64(lo))
				p.Stats = append(p.Stats, typedStats(b.cols[col].order, plain[ci][lo:hi], withDict))
			}
			return p, true
		}
		maybe := b.Ranges(src, int64(n))
		pruned += n - int(maybe.Rows())
		kept := 0
		for r, s := range sel {
			if s {
				kept++
				if !slices.ContainsFunc(maybe, func(x Range) bool { return x.Start <= int64(r) && int64(r) < x.End }) {
					t.Fatalf("iteration %d: %s: row %d is selected but pruned (ranges %v)", it, tp.p, r, maybe)
				}
			}
		}
		switch m := b.Match(src, int64(n)); {
		case m == MatchNone && kept > 0, m == MatchAll && kept < n:
			t.Fatalf("iteration %d: %s: Match says %d, %d of %d rows selected", it, tp.p, m, kept, n)
		}
		for _, a := range arrs {
			a.Release()
		}
	}
	if pruned == 0 {
		t.Error("no row was ever pruned")
	}
}

// typedStats returns the statistics of stored values (nil plain for
// null) as a writer computes them in order o: numeric bounds for numbers,
// the least and greatest bytes for INTERVAL and INT96 (an order that is
// not theirs, which must not be used), and the distinct values when
// dict is set.
func typedStats(o valueOrder, vals []stored, dict bool) Stats {
	st := Stats{HasNullCount: true, Values: int64(len(vals))}
	ct := &colType{order: o}
	for _, s := range vals {
		if s.plain == nil {
			st.NullCount++
			continue
		}
		if dict && !slices.ContainsFunc(st.Distinct, func(d []byte) bool { return string(d) == string(s.plain) }) {
			st.Distinct = append(st.Distinct, s.plain)
		}
		var less func(a, b []byte) bool
		switch {
		case len(s.plain) == 2 && o == orderFloat:
			if math.IsNaN(float64(float16.FromLEBytes(s.plain).Float32())) {
				continue // NaN is left out of bounds
			}
			less = func(a, b []byte) bool { return float16.FromLEBytes(a).Float32() < float16.FromLEBytes(b).Float32() }
		case o == orderSigned && len(s.plain) == 4:
			less = func(a, b []byte) bool {
				return int32(binary.LittleEndian.Uint32(a)) < int32(binary.LittleEndian.Uint32(b))
			}
		case o == orderSigned && len(s.plain) == 8:
			less = func(a, b []byte) bool {
				return int64(binary.LittleEndian.Uint64(a)) < int64(binary.LittleEndian.Uint64(b))
			}
		default:
			less = func(a, b []byte) bool { return ct.compare(value{b: a}, value{b: b}) < 0 }
		}
		if st.Min == nil || less(s.plain, st.Min) {
			st.Min = s.plain
		}
		if st.Max == nil || less(st.Max, s.plain) {
			st.Max = s.plain
		}
	}
	st.AllNull = st.NullCount == st.Values
	return st
}

// TestDecimalRounding checks comparisons with literals that the column's
// scale cannot hold or its type cannot reach, on a DECIMAL(9,2) INT32.
func TestDecimalRounding(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	schema := typedSchema(t)
	bld := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 9, Scale: 2})
	for _, u := range []int64{1234, 1235, 1230, -1235, math.MaxInt32, math.MinInt32} {
		bld.Append(decimal128.FromI64(u))
	}
	bld.AppendNull()
	arr := bld.NewArray()
	defer arr.Release()
	bld.Release()
	dec := func(s string) Literal {
		l, err := ParseDecimal(s)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	for _, c := range []struct {
		p    Predicate
		want string // one letter per row: 1 selected, 0 not
	}{
		{Less("d32", dec("12.345")), "1011010"},
		{LessEq("d32", dec("12.345")), "1011010"},
		{Greater("d32", dec("12.345")), "0100100"},
		{GreaterEq("d32", dec("12.345")), "0100100"},
		{Eq("d32", dec("12.345")), "0000000"},
		{NotEq("d32", dec("12.345")), "1111110"},
		{Eq("d32", dec("12.340")), "1000000"},
		{Eq("d32", Float(12.35)), "0100000"},
		{Eq("d32", Int(-12)), "0000000"},
		{Less("d32", dec("-12.355")), "0000010"},
		{GreaterEq("d32", dec("-12.355")), "1111100"},
		{Less("d32", dec("1e40")), "1111110"},
		{Greater("d32", dec("1e40")), "0000000"},
		{GreaterEq("d32", dec("-1e40")), "1111110"},
		{Eq("d32", dec("21474836.47")), "0000100"},
		{Greater("d32", dec("21474836.465")), "0000100"},
		{Greater("d32", dec("21474836.475")), "0000000"},
		{Less("d32", Float(math.Inf(1))), "1111110"},
		{In("d32", dec("12.345"), dec("12.3"), dec("1e40")), "0010000"},
		{Not(Eq("d32", dec("12.345"))), "1111110"},
		{Not(Less("d32", dec("1e40"))), "0000000"},
		{Not(Greater("d32", dec("21474836.465"))), "1111010"},
	} {
		if got := selectOne(t, c.p, schema, arr); got != c.want {
			t.Errorf("%s selects %s, want %s", c.p, got, c.want)
		}
	}
	// Statistics of 12.30 to 12.35 rule out = 12.345 and a literal beyond
	// the type, and hold < 12.355 for every row.
	st := Stats{Min: binary.LittleEndian.AppendUint32(nil, 1230), Max: binary.LittleEndian.AppendUint32(nil, 1235), HasNullCount: true, Values: 4}
	one := func(int) (Pages, bool) { return Pages{FirstRows: []int64{0}, Stats: []Stats{st}}, true }
	for p, want := range map[Predicate]Match{
		Eq("d32", dec("12.345")): MatchNone, Eq("d32", dec("12.34")): MatchSome, Less("d32", dec("12.355")): MatchAll,
		Greater("d32", dec("12.35")): MatchNone, Greater("d32", dec("12.349")): MatchSome, Greater("d32", Float(math.Inf(-1))): MatchAll,
	} {
		b, err := Bind(p, schema)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.Match(one, 4); got != want {
			t.Errorf("Match(%s) = %d, want %d", p, got, want)
		}
	}
}

func TestParseDecimal(t *testing.T) {
	for in, want := range map[string]string{
		"12.50": "12.50", "-3": "-3", ".5": "0.5", "5.": "5", "+1.5e-3": "0.0015", "1.5E3": "15e2",
		"0.00000000123": "123e-11", "-0.0": "0.0", "1e-1048576": "1e-1048576", "123456789012345678901234567890": "123456789012345678901234567890",
	} {
		l, err := ParseDecimal(in)
		if err != nil {
			t.Errorf("ParseDecimal(%q): %v", in, err)
			continue
		}
		if got := l.String(); got != want {
			t.Errorf("ParseDecimal(%q) = %s, want %s", in, got, want)
		}
		back, err := ParseDecimal(l.String())
		if err != nil || back.d.Cmp(l.d) != 0 || back.scale != l.scale {
			t.Errorf("%s reads back as %v (%v)", l, back, err)
		}
	}
	for _, in := range []string{"", "-", ".", "e5", "1e", "1e+", "1.2.3", "0x10", "1_000", "1e1048577", "nan", "1e99999999999999999999"} {
		if _, err := ParseDecimal(in); !errors.Is(err, ErrPredicate) {
			t.Errorf("ParseDecimal(%q) = %v, want ErrPredicate", in, err)
		}
	}
	n := decimal128.FromI64(-1250)
	if got := Decimal128(n, 2).String(); got != "-12.50" {
		t.Errorf("Decimal128 = %s", got)
	}
	if got := Decimal256(decimal256.FromI64(7), -3).String(); got != "7e3" {
		t.Errorf("Decimal256 = %s", got)
	}
	if got := Float(-300).String(); got != "-300.0" {
		t.Errorf("Float(-300) = %s", got)
	}
}

func TestBindTypedErrors(t *testing.T) {
	schema := typedSchema(t)
	for _, c := range []struct {
		p    Predicate
		want error
	}{
		{HasPrefix("dba", "x"), ErrPredicate},
		{HasPrefix("iv", "x"), ErrPredicate},
		{Less("iv", Interval(1, 2, 3)), ErrPredicate},
		{Eq("iv", Int(1)), ErrPredicate},
		{Eq("d64", String("1")), ErrPredicate},
		{Eq("d64", Float(math.NaN())), ErrPredicate},
		{Eq("t", Float(1)), ErrPredicate},
		{Eq("h", String("1")), ErrPredicate},
		{Eq("d32", Bool(true)), ErrPredicate},
	} {
		if _, err := Bind(c.p, schema); !errors.Is(err, c.want) {
			t.Errorf("Bind(%s) = %v, want %v", c.p, err, c.want)
		}
	}
	opt := footer.Some(footer.RepetitionOptional)
	for _, e := range []footer.SchemaElement{
		{Name: "x", Type: footer.Some(footer.TypeInt32), RepetitionType: opt, LogicalType: footer.LogicalType{Kind: footer.LogicalDecimal, Decimal: footer.DecimalType{Precision: 4, Scale: 5}}},
		{Name: "x", Type: footer.Some(footer.TypeDouble), RepetitionType: opt, LogicalType: footer.LogicalType{Kind: footer.LogicalDecimal, Decimal: footer.DecimalType{Precision: 4, Scale: 2}}},
		{Name: "x", Type: footer.Some(footer.TypeByteArray), RepetitionType: opt, ConvertedType: footer.Some(footer.ConvertedDecimal), Scale: footer.Some(int32(-1)), Precision: footer.Some(int32(3))},
	} {
		s, err := footer.NewSchema([]footer.SchemaElement{{Name: "root", NumChildren: footer.Some(int32(1))}, e}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Bind(Eq("x", Int(1)), s); !errors.Is(err, ErrUnsupported) {
			t.Errorf("Bind on %v = %v, want ErrUnsupported", e, err)
		}
	}
}

// selectOne binds p, a predicate on one column, to schema and returns
// the rows it selects over arr as a string of 0s and 1s.
func selectOne(t *testing.T, p Predicate, schema *footer.Schema, arr arrow.Array) string {
	t.Helper()
	b, err := Bind(p, schema)
	if err != nil {
		t.Fatalf("Bind(%s): %v", p, err)
	}
	sel, err := b.Select([]arrow.Array{arr}, arr.Len())
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	for _, s := range sel {
		got += map[bool]string{true: "1", false: "0"}[s]
	}
	return got
}

// TestInt96NanosRange checks that INT96 bounds decode exactly inside the
// int64-nanosecond span, at both of its edges, and not at all outside it,
// so that a dictionary or statistics holding a date past the span (which
// arrowio refuses to read in nanoseconds) never prunes by a wrapped value.
func TestInt96NanosRange(t *testing.T) {
	at := func(days, nanos int64) []byte {
		b := binary.LittleEndian.AppendUint64(nil, uint64(nanos))
		return binary.LittleEndian.AppendUint32(b, uint32(days+julianUnixEpoch))
	}
	maxDay, minDay := int64(math.MaxInt64/nanosPerDay), int64(math.MinInt64/nanosPerDay-1)
	for _, c := range []struct {
		raw  []byte
		want int64
		ok   bool
	}{
		{int96Bytes(0), 0, true},
		{int96Bytes(math.MaxInt64), math.MaxInt64, true},
		{int96Bytes(math.MinInt64), math.MinInt64, true},
		{at(maxDay, math.MaxInt64%nanosPerDay+1), 0, false},
		{at(minDay, nanosPerDay+math.MinInt64%nanosPerDay-1), 0, false},
		{at(2_932_896, 3*3600*1e9), 0, false}, // 9999-12-31T03:00
		{at(-julianUnixEpoch, 0), 0, false},   // Julian day 0, 4713 BC
	} {
		ct := colType{logical: logicalInt96, order: orderSigned, physical: footer.TypeInt96}
		v, ok := ct.decode(c.raw)
		if ok != c.ok || ok && v.i != c.want {
			t.Errorf("% x: got %d, %v; want %d, %v", c.raw, v.i, ok, c.want, c.ok)
		}
	}
}
