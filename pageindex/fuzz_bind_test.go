package pageindex

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// FuzzBind parses arbitrary text, binds it to the typed test schema and
// evaluates it on arbitrary statistics bounds and dictionary values (file
// bytes the statistics decoders read) and on one row of each column:
// nothing may panic, and a row Select keeps must lie in what the
// statistics of that one row allow.
func FuzzBind(f *testing.F) {
	for _, s := range []string{"d32 < 12.345", "dfl in (1e40, -0.5, 7)", "h >= 0.1 and not (iv = \"\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\")",
		"t > 1600000000000000000 or dba != -99999999999999999999999.999", "d64 = 1e-1048576", "h = nan or d32 > -inf", "t > TIMESTAMP '2023-01-01 00:00:00.5' or not (t = '1970-01-01')"} {
		f.Add(s, []byte{1, 2}, []byte{3, 4, 5, 6}, []byte{0xff})
	}
	schema := typedSchema(f)
	mem := memory.NewGoAllocator()
	arrs := map[string]arrow.Array{}
	for _, c := range typedCols {
		bld := typedBuilder(mem, c)
		switch b := bld.(type) {
		case *array.Decimal128Builder:
			b.Append(decimal128.FromI64(1234))
		case *array.Float16Builder:
			b.Append(float16.New(0.5))
		case *array.MonthDayNanoIntervalBuilder:
			b.Append(arrow.MonthDayNanoInterval{Months: 1, Nanoseconds: 2e6})
		case *array.TimestampBuilder:
			b.Append(5)
		}
		arrs[c.name] = bld.NewArray()
	}
	f.Fuzz(func(t *testing.T, s string, lo, hi, distinct []byte) {
		p, err := Parse(s)
		if err != nil {
			return
		}
		b, err := Bind(p, schema)
		if err != nil {
			return
		}
		cols := make([]arrow.Array, len(b.Leaves()))
		for i, l := range b.Leaves() {
			cols[i] = arrs[l.DottedPath()]
		}
		sel, err := b.Select(cols, 1)
		if err != nil {
			t.Fatalf("Select(%s): %v", p, err)
		}
		st := Stats{Min: lo, Max: hi, Distinct: [][]byte{distinct}}
		b.Match(func(int) (Pages, bool) { return Pages{FirstRows: []int64{0}, Stats: []Stats{st}}, true }, 1)
		// The statistics of the row itself never rule it out.
		src := func(col int) (Pages, bool) {
			ci := b.Leaves()[col].Column
			one := []stored{fuzzRowStored[ci]}
			return Pages{FirstRows: []int64{0}, Stats: []Stats{typedStats(b.cols[col].order, one, true)}}, true
		}
		if sel[0] && b.Match(src, 1) == MatchNone {
			t.Fatalf("%s: the row is selected, its statistics rule it out", p)
		}
	})
}

// fuzzRowStored is the row FuzzBind evaluates, as the file stores it.
var fuzzRowStored = []stored{
	{plain: []byte{0xd2, 0x04, 0, 0}},             // d32 12.34
	{plain: []byte{0xd2, 0x04, 0, 0, 0, 0, 0, 0}}, // d64 1.234
	{plain: []byte{0, 0, 0, 0, 0, 0, 0, 0x04, 0xd2}},
	{plain: []byte{0x04, 0xd2}},
	{plain: []byte{0x00, 0x38}}, // float16 0.5
	{plain: []byte{1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0}},
	{plain: int96Bytes(5)},
}
