package arrowio_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/internal/tri"

	"github.com/quiverio/quiver/arrowio"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/quiverio/quiver/pageindex"
)

// typedFilterCol is a column of the typed filter test: its Arrow type and
// the scale of a decimal.
type typedFilterCol struct {
	name  string
	typ   arrow.DataType
	scale int32
}

// typedFilterCols returns the columns a writer stores: quiver writes
// decimal32 and decimal64 to INT32 and INT64, wider decimals to
// FIXED_LEN_BYTE_ARRAY, and intervals; arrow-go writes decimal128 to
// INT32, INT64 (WithStoreDecimalAsInteger) or FIXED_LEN_BYTE_ARRAY by
// precision, and nanosecond timestamps to INT96.
func typedFilterCols(quiver bool) []typedFilterCol {
	cols := []typedFilterCol{{"id", arrow.PrimitiveTypes.Int64, 0}}
	if quiver {
		return append(cols,
			typedFilterCol{"d32", &arrow.Decimal32Type{Precision: 9, Scale: 2}, 2},
			typedFilterCol{"d64", &arrow.Decimal64Type{Precision: 18, Scale: 3}, 3},
			typedFilterCol{"d128", &arrow.Decimal128Type{Precision: 20, Scale: 2}, 2},
			typedFilterCol{"d256", &arrow.Decimal256Type{Precision: 40, Scale: 3}, 3},
			typedFilterCol{"h", arrow.FixedWidthTypes.Float16, 0},
			typedFilterCol{"iv", arrow.FixedWidthTypes.MonthDayNanoInterval, 0})
	}
	return append(cols,
		typedFilterCol{"d32", &arrow.Decimal128Type{Precision: 9, Scale: 2}, 2},
		typedFilterCol{"d64", &arrow.Decimal128Type{Precision: 18, Scale: 3}, 3},
		typedFilterCol{"d128", &arrow.Decimal128Type{Precision: 20, Scale: 2}, 2},
		typedFilterCol{"h", arrow.FixedWidthTypes.Float16, 0},
		typedFilterCol{"ts", &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}, 0})
}

// typedFilterValue appends a random value of c to bld and returns it for
// the brute force: a *big.Rat for decimals, a float64 for float16, a
// string of the stored bytes for intervals, an int64 for timestamps.
func typedFilterValue(rng *rand.Rand, c typedFilterCol, bld array.Builder) any {
	switch c.name {
	case "h":
		f := float16.New(float32(rng.IntN(41)-20) / 4)
		if rng.IntN(25) == 0 {
			f = float16.NaN()
		}
		bld.(*array.Float16Builder).Append(f)
		return float64(f.Float32())
	case "iv":
		m, d, ms := int32(rng.IntN(3)), int32(rng.IntN(3)), int64(rng.IntN(3))*250
		bld.(*array.MonthDayNanoIntervalBuilder).Append(arrow.MonthDayNanoInterval{Months: m, Days: d, Nanoseconds: ms * 1e6})
		return pageindex.Interval(uint32(m), uint32(d), uint32(ms)).String()
	case "ts":
		ns := int64(rng.IntN(9)-4)*86_400_000_000_000 + int64(rng.IntN(4))*1_000_000_000
		bld.(*array.TimestampBuilder).Append(arrow.Timestamp(ns))
		return ns
	}
	u := int64(rng.IntN(81)-40)*25 + int64(rng.IntN(3)-1)
	switch b := bld.(type) {
	case *array.Decimal32Builder:
		b.Append(decimal.Decimal32(u))
	case *array.Decimal64Builder:
		b.Append(decimal.Decimal64(u))
	case *array.Decimal128Builder:
		b.Append(decimal128.FromI64(u))
	case *array.Decimal256Builder:
		b.Append(decimal256.FromI64(u))
	}
	return new(big.Rat).SetFrac(big.NewInt(u), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(c.scale)), nil))
}

// typedFilterLiteral returns a random literal for c and its value for the
// brute force (inf ±1 for one beyond every number).
func typedFilterLiteral(rng *rand.Rand, c typedFilterCol) (pageindex.Literal, any, int) {
	switch c.name {
	case "h":
		f := float64(rng.IntN(45)-22) / 4
		if rng.IntN(12) == 0 {
			return pageindex.Float(math.NaN()), math.NaN(), 0
		}
		return pageindex.Float(f), f, 0
	case "iv":
		l := pageindex.Interval(uint32(rng.IntN(3)), uint32(rng.IntN(3)), uint32(rng.IntN(4))*250)
		return l, l.String(), 0
	case "ts":
		ns := int64(rng.IntN(11)-5)*86_400_000_000_000 + int64(rng.IntN(5))*1_000_000_000
		return pageindex.Int(ns), ns, 0
	}
	switch rng.IntN(8) {
	case 0:
		k := int64(rng.IntN(24) - 12)
		return pageindex.Int(k), new(big.Rat).SetInt64(k), 0
	case 1:
		return pageindex.Float(math.Inf(1)), nil, 1
	case 2:
		s := []string{"1e30", "-1e30", "99999999999999999999.99", "-0.0001"}[rng.IntN(4)]
		l, _ := pageindex.ParseDecimal(s)
		r, _ := new(big.Rat).SetString(s)
		return l, r, 0
	}
	// Text as --where gives it: near the data, with up to two digits more
	// than the scale.
	extra := rng.IntN(3)
	u := (int64(rng.IntN(81)-40)*25+int64(rng.IntN(3)-1))*int64(math.Pow10(extra)) + int64(rng.IntN(int(math.Pow10(extra))))
	r := new(big.Rat).SetFrac(big.NewInt(u), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(c.scale)+int64(extra)), nil))
	l, err := pageindex.ParseDecimal(r.FloatString(int(c.scale) + extra))
	if err != nil {
		panic(err)
	}
	return l, r, 0
}

// compareTypedFilter returns the sign of a - b, or 2 when they do not
// compare (NaN); inf is ±1 for a literal b beyond every number.
func compareTypedFilter(a, b any, inf int) int {
	if inf != 0 {
		return -inf
	}
	if r, ok := a.(*big.Rat); ok {
		return r.Cmp(b.(*big.Rat))
	}
	return compareAny(a, b)
}

// randomTypedFilter returns a random predicate on cols and its brute
// force over rows (one value per column, nil for null), in SQL's
// three-valued logic.
func randomTypedFilter(rng *rand.Rand, cols []typedFilterCol, depth int) (pageindex.Predicate, func(row []any) tri.Value) {
	if depth > 0 && rng.IntN(3) == 0 {
		p, f := randomTypedFilter(rng, cols, depth-1)
		q, g := randomTypedFilter(rng, cols, depth-1)
		switch rng.IntN(3) {
		case 0:
			return pageindex.And(p, q), func(r []any) tri.Value { return min(f(r), g(r)) }
		case 1:
			return pageindex.Or(p, q), func(r []any) tri.Value { return max(f(r), g(r)) }
		}
		return pageindex.Not(p), func(r []any) tri.Value { return tri.Not(f(r)) }
	}
	ci := 1 + rng.IntN(len(cols)-1)
	c := cols[ci]
	switch rng.IntN(6) {
	case 0:
		return pageindex.IsNull(c.name), func(r []any) tri.Value { return tri.Known(r[ci] == nil) }
	case 1:
		var lits []pageindex.Literal
		var vals []any
		var infs []int
		for range rng.IntN(4) {
			l, v, inf := typedFilterLiteral(rng, c)
			lits, vals, infs = append(lits, l), append(vals, v), append(infs, inf)
		}
		return pageindex.In(c.name, lits...), func(r []any) tri.Value {
			if r[ci] == nil {
				return tri.Unknown
			}
			for i, v := range vals {
				if compareTypedFilter(r[ci], v, infs[i]) == 0 {
					return tri.True
				}
			}
			return tri.False
		}
	}
	op := pageindex.Op(1 + rng.IntN(6))
	if c.name == "iv" {
		op = pageindex.Op(1 + rng.IntN(2))
	}
	l, v, inf := typedFilterLiteral(rng, c)
	return pageindex.Compare(c.name, op, l), func(r []any) tri.Value {
		if r[ci] == nil {
			return tri.Unknown
		}
		return tri.Known(opHolds(op, compareTypedFilter(r[ci], v, inf)))
	}
}

// opHolds reports whether op holds for values whose comparison is c (2:
// unordered, where only != holds).
func opHolds(op pageindex.Op, c int) bool {
	switch op {
	case pageindex.OpEq:
		return c == 0
	case pageindex.OpNotEq:
		return c != 0
	case pageindex.OpLess:
		return c < 0
	case pageindex.OpLessEq:
		return c <= 0
	case pageindex.OpGreater:
		return c > 0 && c != 2
	}
	return c >= 0 && c != 2
}

// TestFilterTypedColumns writes random DECIMAL (INT32, INT64 and
// FIXED_LEN_BYTE_ARRAY), FLOAT16, INTERVAL and INT96 columns with quiver
// and arrow-go (page indexes and bloom filters on, small pages), reads
// them back with random predicates on those columns and checks that
// exactly the rows an exact brute force selects come back, in order.
func TestFilterTypedColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(8, 21))
	files, preds := 8, 40
	if testing.Short() {
		files, preds = 4, 20
	}
	for fi := range files {
		quiver := fi%2 == 0
		cols := typedFilterCols(quiver)
		fields := make([]arrow.Field, len(cols))
		for i, c := range cols {
			fields[i] = arrow.Field{Name: c.name, Type: c.typ, Nullable: i > 0}
		}
		schema := arrow.NewSchema(fields, nil)
		n := 50 + rng.IntN(500)
		nullRate := []float64{0, 0.2, 0.9}[rng.IntN(3)]
		rows := make([][]any, n)
		bld := array.NewRecordBuilder(mem, schema)
		for r := range rows {
			rows[r] = make([]any, len(cols))
			rows[r][0] = int64(r)
			bld.Field(0).(*array.Int64Builder).Append(int64(r))
			for ci := 1; ci < len(cols); ci++ {
				if rng.Float64() < nullRate {
					bld.Field(ci).AppendNull()
					continue
				}
				rows[r][ci] = typedFilterValue(rng, cols[ci], bld.Field(ci))
			}
		}
		rec := bld.NewRecordBatch()
		bld.Release()
		rgRows := int64(100 + rng.IntN(300))
		var buf []byte
		if quiver {
			colOpts := map[string]arrowio.ColumnOptions{}
			for _, c := range cols[1:] {
				colOpts[c.name] = arrowio.ColumnOptions{BloomFilter: &arrowio.BloomFilterOptions{FPP: 0.05}}
			}
			buf = arrowiotest.WriteFile(t, schema, arrowio.WriteOptions{DataPageRows: 1 + rng.IntN(50), MaxRowGroupRows: rgRows,
				DisableDictionary: rng.IntN(2) == 0, Columns: colOpts}, rec)
		} else {
			buf = writeArrowGoTyped(t, rec, rgRows)
		}
		rec.Release()
		for range preds {
			p, holds := randomTypedFilter(rng, cols, 3)
			var want []int64
			for r := range rows {
				if holds(rows[r]) == tri.True {
					want = append(want, int64(r))
				}
			}
			got := filteredIDs(t, mem, buf, p, [][]string{nil, {"id"}}[rng.IntN(2)], true, nil)
			if !slices.Equal(got, want) {
				t.Fatalf("quiver writer %v, file %d, filter %s: got %d rows %v, want %d rows %v", quiver, fi, p, len(got), got, len(want), want)
			}
		}
	}
}

// writeArrowGoTyped writes rec with pqarrow: small pages, page index and
// bloom filters on, small decimals as integers, timestamps as INT96.
func writeArrowGoTyped(t testing.TB, rec arrow.RecordBatch, rgRows int64) []byte {
	tbl := array.NewTableFromRecords(rec.Schema(), []arrow.RecordBatch{rec})
	defer tbl.Release()
	var buf bytes.Buffer
	props := parquet.NewWriterProperties(parquet.WithPageIndexEnabled(true), parquet.WithBloomFilterEnabled(true),
		parquet.WithDataPageSize(128), parquet.WithBatchSize(32), parquet.WithMaxRowGroupLength(rgRows), parquet.WithStoreDecimalAsInteger(true), parquet.WithBloomFilterNDV(600))
	if err := pqarrow.WriteTable(tbl, &buf, rgRows, props, pqarrow.NewArrowWriterProperties(pqarrow.WithDeprecatedInt96Timestamps(true))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestFilterInt96Unit checks that a filter on an INT96 column needs the
// nanosecond read unit its literals are in.
func TestFilterInt96Unit(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	ts := &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "ts", Type: ts, Nullable: true}}, nil)
	bld := array.NewRecordBuilder(mem, schema)
	for i := range 10 {
		bld.Field(0).(*array.Int64Builder).Append(int64(i))
		bld.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(int64(i) * 1_500_000_000))
	}
	rec := bld.NewRecordBatch()
	bld.Release()
	buf := writeArrowGoTyped(t, rec, 10)
	rec.Release()
	if got := filteredIDs(t, mem, buf, pageindex.GreaterEq("ts", pageindex.Int(6_000_000_000)), nil, true, nil); !slices.Equal(got, []int64{4, 5, 6, 7, 8, 9}) {
		t.Errorf("ts >= 6e9 read ids %v", got)
	}
	_, err := arrowio.Open(bytes.NewReader(buf), int64(len(buf)), arrowio.ReadOptions{Filter: pageindex.Eq("ts", pageindex.Int(0)),
		Mapping: arrowio.SchemaOptions{Int96: &arrow.TimestampType{Unit: arrow.Millisecond}}})
	if !errors.Is(err, arrowio.ErrUnsupported) {
		t.Errorf("filter on INT96 read in milliseconds: %v, want ErrUnsupported", err)
	}
	if _, err := arrowio.Open(bytes.NewReader(buf), int64(len(buf)), arrowio.ReadOptions{Filter: pageindex.Eq("id", pageindex.Int(0)),
		Mapping: arrowio.SchemaOptions{Int96: &arrow.TimestampType{Unit: arrow.Millisecond}}}); err != nil {
		t.Errorf("filter on another column of a file read with INT96 in milliseconds: %v", err)
	}
}

// TestFilterCorpusTypedColumns filters the corpus files of DECIMAL (in
// INT32, INT64, FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY), FLOAT16 and INT96
// columns with comparisons and IN lists of literals at, between and
// beyond their values, and checks the rows read against an exact brute
// force over the whole file.
func TestFilterCorpusTypedColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for _, f := range []struct{ name, col string }{
		{"int32_decimal.parquet", "value"}, {"int64_decimal.parquet", "value"}, {"fixed_length_decimal.parquet", "value"},
		{"fixed_length_decimal_legacy.parquet", "value"}, {"byte_array_decimal.parquet", "value"},
		{"float16_nonzeros_and_nans.parquet", "x"}, {"float16_zeros_and_nans.parquet", "x"},
		// int96_from_spark.parquet is not here: predicates bind INT96 in
		// nanoseconds, which cannot hold two of its values (reading it
		// that way is an error: TestInt96FromSparkCorpus); TestFilterInt96Unit
		// filters INT96 columns.
	} {
		buf := readCorpus(t, f.name)
		all := filteredRows(t, buf, arrowio.ReadOptions{})
		vals := corpusValues(t, buf)
		var lits []pageindex.Literal
		var exact []any
		for _, v := range vals {
			switch v := v.(type) {
			case *big.Rat:
				for _, d := range []string{"0", "0.005", "-0.01", "1e-9"} {
					r, _ := new(big.Rat).SetString(d)
					x := new(big.Rat).Add(v, r)
					l, err := pageindex.ParseDecimal(x.FloatString(12))
					if err != nil {
						t.Fatal(err)
					}
					lits, exact = append(lits, l), append(exact, x)
				}
			case float64:
				lits, exact = append(lits, pageindex.Float(v), pageindex.Float(v+0.5)), append(exact, v, v+0.5)
			case int64:
				lits, exact = append(lits, pageindex.Int(v), pageindex.Int(v+1)), append(exact, v, v+1)
			}
		}
		for range 40 {
			op := pageindex.Op(1 + rng.IntN(6))
			k := rng.IntN(len(lits))
			p := pageindex.Compare(f.col, op, lits[k])
			k2 := rng.IntN(len(lits))
			in := rng.IntN(3) == 0
			if in {
				p = pageindex.In(f.col, lits[k], lits[k2])
			}
			var want []string
			for r, v := range vals {
				if v == nil {
					continue
				}
				c := compareTypedFilter(v, exact[k], 0)
				hold := opHolds(op, c)
				if in {
					hold = c == 0 || compareTypedFilter(v, exact[k2], 0) == 0
				}
				if hold {
					want = append(want, all[r])
				}
			}
			if got := filteredRows(t, buf, arrowio.ReadOptions{Filter: p}); !slices.Equal(got, want) {
				t.Fatalf("%s: %s: got %q, want %q", f.name, p, got, want)
			}
		}
	}
}

// corpusValues reads the first column of a file whole, each value as the
// brute force compares it: decimals as *big.Rat, float16 as float64,
// timestamps as int64, nulls as nil.
func corpusValues(t *testing.T, buf []byte) []any {
	t.Helper()
	r, err := arrowio.Open(bytes.NewReader(buf), int64(len(buf)), arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []any
	for g := range r.NumRowGroups() {
		rec, err := r.ReadRowGroup(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		col := rec.Column(0)
		for k := range col.Len() {
			if col.IsNull(k) {
				out = append(out, nil)
				continue
			}
			switch a := col.(type) {
			case *array.Decimal128:
				scale := a.DataType().(*arrow.Decimal128Type).Scale
				out = append(out, new(big.Rat).SetFrac(a.Value(k).BigInt(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)))
			case *array.Float16:
				out = append(out, float64(a.Value(k).Float32()))
			case *array.Timestamp:
				out = append(out, int64(a.Value(k)))
			default:
				t.Fatalf("column of type %s", col.DataType())
			}
		}
		rec.Release()
	}
	return out
}

// typedFuzzSeeds returns small files whose first column is a DECIMAL in
// INT32 and in FIXED_LEN_BYTE_ARRAY, a FLOAT16 or an INTERVAL, with page
// indexes and bloom filters, for FuzzFilteredRead.
func typedFuzzSeeds(t testing.TB, rng *rand.Rand) [][]byte {
	var out [][]byte
	for _, c := range typedFilterCols(true)[1:] {
		if c.name == "d64" || c.name == "d256" {
			continue
		}
		schema := arrow.NewSchema([]arrow.Field{{Name: c.name, Type: c.typ, Nullable: true}}, nil)
		bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for range 120 {
			typedFilterValue(rng, c, bld.Field(0))
		}
		rec := bld.NewRecordBatch()
		bld.Release()
		out = append(out, arrowiotest.WriteFile(t, schema, arrowio.WriteOptions{DataPageRows: 30,
			Columns: map[string]arrowio.ColumnOptions{c.name: {BloomFilter: &arrowio.BloomFilterOptions{Bytes: 64}}}}, rec))
		rec.Release()
	}
	return out
}

// TestFilterByteArrayDecimal writes a DECIMAL(30,2) BYTE_ARRAY column
// with arrow-go's low-level writer (page index and bloom filter on, small
// pages), each value in its shortest two's complement or sign-extended by
// up to two bytes, and checks random filters on it against an exact brute
// force: bounds order the values as numbers, and the bloom filter, which
// holds whichever encoding was written, rules nothing out.
func TestFilterByteArrayDecimal(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(30, 2))
	dec, err := schema.NewPrimitiveNodeLogical("d", parquet.Repetitions.Optional, schema.NewDecimalLogicalType(30, 2), parquet.Types.ByteArray, -1, -1)
	if err != nil {
		t.Fatal(err)
	}
	id, err := schema.NewPrimitiveNode("id", parquet.Repetitions.Required, parquet.Types.Int64, -1, -1)
	if err != nil {
		t.Fatal(err)
	}
	root, err := schema.NewGroupNode("schema", parquet.Repetitions.Required, schema.FieldList{id, dec}, -1)
	if err != nil {
		t.Fatal(err)
	}
	files := 4
	if testing.Short() {
		files = 2
	}
	col := typedFilterCol{"d", nil, 2}
	cols := []typedFilterCol{{"id", nil, 0}, col}
	for range files {
		n := 100 + rng.IntN(400)
		rows := make([][]any, n)
		ids := make([]int64, n)
		var vals []parquet.ByteArray
		defs := make([]int16, n)
		for r := range rows {
			ids[r] = int64(r)
			rows[r] = []any{int64(r), nil}
			if rng.IntN(8) == 0 {
				continue
			}
			u := int64(rng.IntN(81)-40)*25 + int64(rng.IntN(3)-1)
			if rng.IntN(30) == 0 {
				u = []int64{1 << 40, -1 << 40, math.MaxInt64, math.MinInt64}[rng.IntN(4)]
			}
			defs[r] = 1
			rows[r][1] = new(big.Rat).SetFrac(big.NewInt(u), big.NewInt(100))
			vals = append(vals, bigEndianDecimalBytes(u, rng.IntN(3)))
		}
		var buf bytes.Buffer
		props := parquet.NewWriterProperties(parquet.WithPageIndexEnabled(true), parquet.WithBloomFilterEnabled(true),
			parquet.WithBloomFilterNDV(500), parquet.WithDataPageSize(96), parquet.WithBatchSize(16), parquet.WithDictionaryDefault(rng.IntN(2) == 0))
		w := file.NewParquetWriter(&buf, root, file.WithWriterProps(props))
		rgw := w.AppendRowGroup()
		cw, err := rgw.NextColumn()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cw.(*file.Int64ColumnChunkWriter).WriteBatch(ids, nil, nil); err != nil {
			t.Fatal(err)
		}
		cw.Close()
		if cw, err = rgw.NextColumn(); err != nil {
			t.Fatal(err)
		}
		if _, err := cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(vals, defs, nil); err != nil {
			t.Fatal(err)
		}
		cw.Close()
		rgw.Close()
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		for range 40 {
			p, holds := randomTypedFilter(rng, cols, 2)
			var want []int64
			for r := range rows {
				if holds(rows[r]) == tri.True {
					want = append(want, int64(r))
				}
			}
			if got := filteredIDs(t, mem, buf.Bytes(), p, nil, true, nil); !slices.Equal(got, want) {
				t.Fatalf("filter %s: got %d rows %v, want %d rows %v", p, len(got), got, len(want), want)
			}
		}
	}
}

// bigEndianDecimalBytes returns u in its shortest big-endian two's
// complement, sign-extended by pad bytes.
func bigEndianDecimalBytes(u int64, pad int) []byte {
	b := binary.BigEndian.AppendUint64(nil, uint64(u))
	for len(b) > 1 && (b[0] == 0 && b[1]&0x80 == 0 || b[0] == 0xff && b[1]&0x80 != 0) {
		b = b[1:]
	}
	fill := byte(0)
	if u < 0 {
		fill = 0xff
	}
	return append(bytes.Repeat([]byte{fill}, pad), b...)
}
