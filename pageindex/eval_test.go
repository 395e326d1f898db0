package pageindex

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/footer"
)

// testSchema has an optional int64 "i", an optional string "s", an
// optional double "f", a required boolean "b" and an optional unsigned
// INT32 "u".
func testSchema(t testing.TB) *footer.Schema {
	opt := footer.Some(footer.RepetitionOptional)
	elems := []footer.SchemaElement{
		{Name: "root", NumChildren: footer.Some(int32(5))},
		{Name: "i", Type: footer.Some(footer.TypeInt64), RepetitionType: opt},
		{Name: "s", Type: footer.Some(footer.TypeByteArray), RepetitionType: opt, LogicalType: footer.LogicalType{Kind: footer.LogicalString}},
		{Name: "f", Type: footer.Some(footer.TypeDouble), RepetitionType: opt},
		{Name: "b", Type: footer.Some(footer.TypeBoolean), RepetitionType: footer.Some(footer.RepetitionRequired)},
		{Name: "u", Type: footer.Some(footer.TypeInt32), RepetitionType: opt,
			LogicalType: footer.LogicalType{Kind: footer.LogicalInteger, Integer: footer.IntType{BitWidth: 32}}},
	}
	s, err := footer.NewSchema(elems, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// table is random test data for testSchema: the values, a page size, and
// the arrays.
type table struct {
	n     int
	i     []int64
	s     []string
	f     []float64
	b     []bool
	u     []uint32
	null  [4][]bool // i, s, f, u
	arrs  map[string]arrow.Array
	pages int
	dict  bool // pages list their distinct values, as a dictionary would
}

func randomTable(rng *rand.Rand, mem memory.Allocator) *table {
	t := &table{n: 1 + rng.IntN(300), pages: 1 + rng.IntN(20), arrs: map[string]arrow.Array{}, dict: rng.IntN(2) == 0}
	ib := array.NewInt64Builder(mem)
	sb := array.NewStringBuilder(mem)
	fb := array.NewFloat64Builder(mem)
	bb := array.NewBooleanBuilder(mem)
	ub := array.NewUint32Builder(mem)
	nullRate := []float64{0, 0.1, 0.9}[rng.IntN(3)]
	sorted := rng.IntN(2) == 0
	for k := range t.null {
		t.null[k] = make([]bool, t.n)
	}
	for r := range t.n {
		v := int64(rng.IntN(40) - 20)
		if sorted {
			v = int64(r / 3)
		}
		t.i = append(t.i, v)
		t.s = append(t.s, string(rune('a'+rng.IntN(4)))+string(rune('a'+rng.IntN(4))))
		f := float64(rng.IntN(20)) - 10
		if rng.IntN(30) == 0 {
			f = math.NaN()
		}
		t.f = append(t.f, f)
		t.b = append(t.b, rng.IntN(2) == 0)
		t.u = append(t.u, uint32(rng.IntN(10))<<28)
		for k := range t.null {
			t.null[k][r] = rng.Float64() < nullRate
		}
		appendOr(ib, t.null[0][r], func() { ib.Append(v) })
		appendOr(sb, t.null[1][r], func() { sb.Append(t.s[r]) })
		appendOr(fb, t.null[2][r], func() { fb.Append(f) })
		bb.Append(t.b[r])
		appendOr(ub, t.null[3][r], func() { ub.Append(t.u[r]) })
	}
	for name, b := range map[string]array.Builder{"i": ib, "s": sb, "f": fb, "b": bb, "u": ub} {
		t.arrs[name] = b.NewArray()
		b.Release()
	}
	return t
}

func appendOr(b array.Builder, null bool, add func()) {
	if null {
		b.AppendNull()
	} else {
		add()
	}
}

func (t *table) release() {
	for _, a := range t.arrs {
		a.Release()
	}
}

// source returns page statistics for the table cut into t.pages pages
// of equal rows.
func (t *table) source(b *Bound) Source {
	per := (t.n + t.pages - 1) / t.pages
	return func(col int) (Pages, bool) {
		name := b.Leaves()[col].DottedPath()
		var p Pages
		for lo := 0; lo < t.n; lo += per {
			hi := min(t.n, lo+per)
			p.FirstRows = append(p.FirstRows, int64(lo))
			p.Stats = append(p.Stats, t.stats(name, lo, hi))
		}
		return p, true
	}
}

// stats computes the statistics of column name over rows [lo, hi) as a
// writer would: bounds of the non-null, non-NaN values.
func (t *table) stats(name string, lo, hi int) Stats {
	st := Stats{HasNullCount: true, Values: int64(hi - lo)}
	var enc []([]byte)
	switch name {
	case "i":
		for r := lo; r < hi; r++ {
			if t.null[0][r] {
				st.NullCount++
			} else {
				enc = append(enc, binary.LittleEndian.AppendUint64(nil, uint64(t.i[r])))
			}
		}
		st.Min, st.Max = bounds(enc, func(a, b []byte) bool {
			return int64(binary.LittleEndian.Uint64(a)) < int64(binary.LittleEndian.Uint64(b))
		})
	case "s":
		for r := lo; r < hi; r++ {
			if t.null[1][r] {
				st.NullCount++
			} else {
				enc = append(enc, []byte(t.s[r]))
			}
		}
		st.Min, st.Max = bounds(enc, func(a, b []byte) bool { return string(a) < string(b) })
	case "f":
		for r := lo; r < hi; r++ {
			if t.null[2][r] {
				st.NullCount++
			} else if !math.IsNaN(t.f[r]) {
				enc = append(enc, binary.LittleEndian.AppendUint64(nil, math.Float64bits(t.f[r])))
			}
		}
		st.Min, st.Max = bounds(enc, func(a, b []byte) bool {
			return math.Float64frombits(binary.LittleEndian.Uint64(a)) < math.Float64frombits(binary.LittleEndian.Uint64(b))
		})
	case "b":
		for r := lo; r < hi; r++ {
			if t.b[r] {
				enc = append(enc, []byte{1})
			} else {
				enc = append(enc, []byte{0})
			}
		}
		st.Min, st.Max = bounds(enc, func(a, b []byte) bool { return a[0] < b[0] })
	case "u":
		for r := lo; r < hi; r++ {
			if t.null[3][r] {
				st.NullCount++
			} else {
				enc = append(enc, binary.LittleEndian.AppendUint32(nil, t.u[r]))
			}
		}
		st.Min, st.Max = bounds(enc, func(a, b []byte) bool { return binary.LittleEndian.Uint32(a) < binary.LittleEndian.Uint32(b) })
	}
	st.AllNull = st.NullCount == st.Values
	if t.dict && name != "f" {
		seen := map[string]bool{}
		for _, v := range enc {
			if !seen[string(v)] {
				seen[string(v)] = true
				st.Distinct = append(st.Distinct, v)
			}
		}
	}
	return st
}

func bounds(vals [][]byte, less func(a, b []byte) bool) (lo, hi []byte) {
	for _, v := range vals {
		if lo == nil || less(v, lo) {
			lo = v
		}
		if hi == nil || less(hi, v) {
			hi = v
		}
	}
	return lo, hi
}

// randomPredicate returns a random predicate on the test columns.
func randomPredicate(rng *rand.Rand, depth int) Predicate {
	if depth > 0 && rng.IntN(3) == 0 {
		var terms []Predicate
		for range 1 + rng.IntN(3) {
			terms = append(terms, randomPredicate(rng, depth-1))
		}
		switch rng.IntN(3) {
		case 0:
			return And(terms...)
		case 1:
			return Or(terms...)
		}
		return Not(terms[0])
	}
	col := []string{"i", "s", "f", "b", "u"}[rng.IntN(5)]
	switch rng.IntN(6) {
	case 0:
		return IsNull(col)
	case 1:
		return IsNotNull(col)
	case 2:
		var lits []Literal
		for range rng.IntN(4) {
			lits = append(lits, randomLiteral(rng, col))
		}
		return In(col, lits...)
	case 3:
		if col == "s" {
			return HasPrefix(col, string(rune('a' + rng.IntN(5)))[:rng.IntN(2)])
		}
	}
	return Compare(col, Op(1+rng.IntN(6)), randomLiteral(rng, col))
}

func randomLiteral(rng *rand.Rand, col string) Literal {
	switch col {
	case "i":
		return Int(int64(rng.IntN(50) - 25))
	case "s":
		return String(string(rune('a' + rng.IntN(5)))[:rng.IntN(2)] + string(rune('a'+rng.IntN(5))))
	case "f":
		if rng.IntN(10) == 0 {
			return Float(math.NaN())
		}
		return Float(float64(rng.IntN(24)-12) / 1)
	case "b":
		return Bool(rng.IntN(2) == 0)
	}
	return Int(int64(rng.IntN(11)) << 28)
}

// TestRangesAgreeWithSelect checks, for random pages of random values and
// random predicates, that every row Select keeps lies in the rows Ranges
// says may match, and that Match is never wrong about a whole row group.
func TestRangesAgreeWithSelect(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	schema := testSchema(t)
	rng := rand.New(rand.NewPCG(8, 8))
	iters := 3000
	if testing.Short() {
		iters = 500
	}
	pruned := 0
	for it := range iters {
		tb := randomTable(rng, mem)
		p := randomPredicate(rng, 3)
		b, err := Bind(p, schema)
		if err != nil {
			t.Fatalf("Bind(%s): %v", p, err)
		}
		cols := make([]arrow.Array, len(b.Leaves()))
		for i, l := range b.Leaves() {
			cols[i] = tb.arrs[l.DottedPath()]
		}
		sel, err := b.Select(cols, tb.n)
		if err != nil {
			t.Fatal(err)
		}
		maybe := b.Ranges(tb.source(b), int64(tb.n))
		pruned += tb.n - int(maybe.Rows())
		in := make([]bool, tb.n)
		for _, r := range maybe {
			for k := r.Start; k < r.End; k++ {
				in[k] = true
			}
		}
		kept := 0
		for r, s := range sel {
			if s && !in[r] {
				t.Fatalf("iteration %d: %s: row %d is selected but pruned (ranges %v)", it, p, r, maybe)
			}
			if s {
				kept++
			}
		}
		one := func(col int) (Pages, bool) {
			return Pages{FirstRows: []int64{0}, Stats: []Stats{tb.stats(b.Leaves()[col].DottedPath(), 0, tb.n)}}, true
		}
		switch m := b.Match(one, int64(tb.n)); {
		case m == MatchNone && kept > 0, m == MatchAll && kept < tb.n:
			t.Fatalf("iteration %d: %s: Match says %d, %d of %d rows selected", it, p, m, kept, tb.n)
		}
		tb.release()
	}
	if pruned == 0 {
		t.Error("no row was ever pruned")
	}
}

func TestBindErrors(t *testing.T) {
	schema := testSchema(t)
	for _, c := range []struct {
		p    Predicate
		want error
	}{
		{Eq("nope", Int(1)), ErrPredicate},
		{Eq("i", String("x")), ErrPredicate},
		{Eq("s", Int(1)), ErrPredicate},
		{Eq("b", Int(1)), ErrPredicate},
		{Eq("u", Int(-1)), ErrPredicate},
		{Eq("u", Int(1<<33)), ErrPredicate},
		{HasPrefix("i", "x"), ErrPredicate},
		{And(Eq("i", Int(1)), Not(Eq("f", Bool(true)))), ErrPredicate},
		{Eq("i", Literal{}), ErrPredicate},
	} {
		if _, err := Bind(c.p, schema); !errors.Is(err, c.want) {
			t.Errorf("Bind(%s) = %v, want %v", c.p, err, c.want)
		}
	}
}

func TestParse(t *testing.T) {
	good := map[string]string{
		`x > 5 and s = "a"`:                           `(x > 5) and (s = "a")`,
		`NOT a IN (1, 2.5, 'it''s') OR b is NOT null`: ``,
		"`a b` prefix 'p'":                            "`a b` prefix \"p\"",
		"x <> -3e2":                                   "x != -3e2",
		"price >= 12.50 and q < 1.5e-3":               "(price >= 12.50) and (q < 0.0015)",
		"d in (99999999999999999999, -0.5, 1e-30)":    "d in (99999999999999999999, -0.5, 1e-30)",
		"x = nan or y = -inf":                         "(x = nan) or (y = -inf)",
		"true and (false or c is null)":               "(true) and ((false) or (c is null))",
		"a.b >= 0x10":                                 "a.b >= 16",
	}
	for in, want := range good {
		p, err := Parse(in)
		if want == "" {
			if err == nil {
				t.Errorf("Parse(%q) = %s, want an error", in, p)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if got := p.String(); got != want {
			t.Errorf("Parse(%q) = %s, want %s", in, got, want)
		}
	}
	for _, in := range []string{"", "x >", "x = 'a", "(x = 1", "x in (1", "x is nul", "and = 1", "x ~ 1", strings.Repeat("(", 300) + "x=1" + strings.Repeat(")", 300)} {
		if _, err := Parse(in); !errors.Is(err, ErrPredicate) {
			t.Errorf("Parse(%q) = %v, want ErrPredicate", in, err)
		}
	}
	if got := Columns(And(Eq("a", Int(1)), Or(IsNull("b"), Eq("a", Int(2))))); strings.Join(got, ",") != "a,b" {
		t.Errorf("Columns = %v", got)
	}
}

// Over a dictionary array, a row is null where its index is null, or
// points to a null entry or none: IS NULL holds there, and a negated
// condition does not.
func TestSelectNegatedDictionary(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"a", "b", ""}, []bool{true, true, false}) // entry 2 is null
	dict := sb.NewArray()
	defer dict.Release()
	sb.Release()
	ib := array.NewInt32Builder(mem)
	ib.AppendValues([]int32{0, 1, 2, 0, 7}, []bool{true, true, true, false, true}) // row 3 null; row 4 out of range
	idx := ib.NewArray()
	defer idx.Release()
	ib.Release()
	arr := array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}, idx, dict)
	defer arr.Release()
	for where, want := range map[string]string{`s = "a"`: "10000", `not (s = "a")`: "01000", `not (s in ("b"))`: "10000", `not (s is null)`: "11000", `s is null`: "00111"} {
		p, err := Parse(where)
		if err != nil {
			t.Fatal(err)
		}
		if got := selectOne(t, p, testSchema(t), arr); got != want {
			t.Errorf("%s selects %s, want %s", where, got, want)
		}
	}
}
