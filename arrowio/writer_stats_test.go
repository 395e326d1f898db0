package arrowio_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/quiverio/quiver/arrowio"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/footer"
)

// readMeta parses the footer of a file.
func readMeta(t *testing.T, buf []byte) *footer.FileMetaData {
	t.Helper()
	f, err := footer.ReadFooter(bytes.NewReader(buf), int64(len(buf)))
	if err != nil {
		t.Fatalf("footer: %v", err)
	}
	return f.Meta
}

// TestWriterStatisticsMatchArrowGo compares the column chunk statistics of
// every flat type pqarrow writes statistics for with pqarrow's own.
func TestWriterStatisticsMatchArrowGo(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(5, 5))
	var fields []arrow.Field
	var cols []arrow.Array
	for _, dt := range arrowiotest.FlatTypes {
		switch dt.ID() {
		case arrow.DURATION, arrow.NULL, arrow.INTERVAL_MONTH_DAY_NANO, arrow.DECIMAL32, arrow.DECIMAL64,
			arrow.STRING_VIEW, arrow.BINARY_VIEW:
			// pqarrow does not read durations back, writes no INTERVAL
			// or null statistics, stores decimal32/64 as
			// FIXED_LEN_BYTE_ARRAY where Quiver uses INT32/INT64, and
			// does not write view types.
			continue
		}
		for _, frac := range []float64{0, 0.3, 1} {
			fields = append(fields, arrow.Field{Name: fmt.Sprintf("%s_%v", dt, frac), Type: dt, Nullable: true})
			cols = append(cols, arrowiotest.RandomArray(t, mem, dt, 2000, frac, frac == 0.3, rng))
		}
	}
	defer releaseAll(cols)
	rec := record(fields, cols)
	defer rec.Release()
	ours := readMeta(t, arrowiotest.WriteFile(t, rec.Schema(), arrowio.WriteOptions{StatisticsTruncate: -1}, rec))
	theirs := readMeta(t, arrowiotest.WritePqarrow(t, rec))
	for i, f := range fields {
		a, b := ours.RowGroups[0].Columns[i].MetaData, theirs.RowGroups[0].Columns[i].MetaData
		if a.Type != b.Type {
			t.Errorf("%s: physical type %s, arrow-go %s", f.Name, a.Type, b.Type)
			continue
		}
		sa, sb := a.Statistics, b.Statistics
		if sa == nil || sb == nil {
			t.Errorf("%s: statistics %v, arrow-go %v", f.Name, sa, sb)
			continue
		}
		if sa.NullCount != sb.NullCount {
			t.Errorf("%s: null count %v, arrow-go %v", f.Name, sa.NullCount, sb.NullCount)
		}
		if d, ok := cols[i].(*array.Dictionary); ok && d.Dictionary().DataType().ID() == arrow.STRING {
			// arrow-go leaves empty strings out of the bounds of
			// dictionary arrays; compare with the values themselves.
			lo, hi, any := "", "", false
			for k := range d.Len() {
				if d.IsValid(k) {
					v := arrowiotest.Canonical(d, k)
					if !any || v < lo {
						lo = v
					}
					if !any || v > hi {
						hi = v
					}
					any = true
				}
			}
			if any && (string(sa.MinValue) != lo || string(sa.MaxValue) != hi) {
				t.Errorf("%s: min %q max %q, want %q %q", f.Name, sa.MinValue, sa.MaxValue, lo, hi)
			}
			continue
		}
		if !bytes.Equal(sa.MinValue, sb.MinValue) || !bytes.Equal(sa.MaxValue, sb.MaxValue) {
			t.Errorf("%s: min %x max %x, arrow-go min %x max %x", f.Name, sa.MinValue, sa.MaxValue, sb.MinValue, sb.MaxValue)
		}
		if !bytes.Equal(sa.Min, sb.Min) || !bytes.Equal(sa.Max, sb.Max) {
			t.Errorf("%s: deprecated min %x max %x, arrow-go min %x max %x", f.Name, sa.Min, sa.Max, sb.Min, sb.Max)
		}
	}
	for i, o := range ours.ColumnOrders {
		if o.Kind != footer.ColumnOrderTypeDefined {
			t.Errorf("column %d: order %v", i, o.Kind)
		}
	}
}

// statsOf writes one float64 column and returns its chunk statistics.
func statsOf(t *testing.T, opts arrowio.WriteOptions, arr arrow.Array) *footer.Statistics {
	t.Helper()
	fields := []arrow.Field{{Name: "x", Type: arr.DataType(), Nullable: true}}
	rec := record(fields, []arrow.Array{arr})
	defer rec.Release()
	return readMeta(t, arrowiotest.WriteFile(t, rec.Schema(), opts, rec)).RowGroups[0].Columns[0].MetaData.Statistics
}

func TestWriterFloatStatistics(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	nan, negZero := math.NaN(), math.Copysign(0, -1)
	cases := []struct {
		vals     []float64
		min, max float64
		none     bool
	}{
		{vals: []float64{nan, 1, nan, -2, 3}, min: -2, max: 3},
		{vals: []float64{0, 1}, min: negZero, max: 1},
		{vals: []float64{-1, negZero}, min: -1, max: 0},
		{vals: []float64{0, negZero}, min: negZero, max: 0},
		{vals: []float64{nan, nan}, none: true},
		{vals: []float64{math.Inf(-1), math.Inf(1)}, min: math.Inf(-1), max: math.Inf(1)},
	}
	for _, c := range cases {
		b := array.NewFloat64Builder(mem)
		b.AppendValues(c.vals, nil)
		arr := b.NewArray()
		b.Release()
		st := statsOf(t, arrowio.WriteOptions{}, arr)
		arr.Release()
		if c.none {
			if st.MinValue != nil || st.MaxValue != nil {
				t.Errorf("%v: min %x max %x, want none", c.vals, st.MinValue, st.MaxValue)
			}
			continue
		}
		if got := binary.LittleEndian.AppendUint64(nil, math.Float64bits(c.min)); !bytes.Equal(st.MinValue, got) {
			t.Errorf("%v: min %x, want %x", c.vals, st.MinValue, got)
		}
		if got := binary.LittleEndian.AppendUint64(nil, math.Float64bits(c.max)); !bytes.Equal(st.MaxValue, got) {
			t.Errorf("%v: max %x, want %x", c.vals, st.MaxValue, got)
		}
	}
}

// TestWriterFloat16ZeroBounds checks that FLOAT16 statistics, like
// FLOAT's and DOUBLE's, write a zero min as -0 and a zero max as +0,
// whichever zero the values hold.
func TestWriterFloat16ZeroBounds(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	negZero, posZero := []byte{0, 0x80}, []byte{0, 0}
	cases := []struct {
		vals     []float32
		min, max []byte
	}{
		{vals: []float32{0, 1}, min: negZero, max: []byte{0, 0x3c}},
		{vals: []float32{-1, float32(math.Copysign(0, -1))}, min: []byte{0, 0xbc}, max: posZero},
		{vals: []float32{0, 0}, min: negZero, max: posZero},
		{vals: []float32{float32(math.Copysign(0, -1))}, min: negZero, max: posZero},
	}
	for _, c := range cases {
		b := array.NewFloat16Builder(mem)
		for _, v := range c.vals {
			b.Append(float16.New(v))
		}
		arr := b.NewArray()
		b.Release()
		st := statsOf(t, arrowio.WriteOptions{}, arr)
		arr.Release()
		if !bytes.Equal(st.MinValue, c.min) || !bytes.Equal(st.MaxValue, c.max) {
			t.Errorf("%v: min %x max %x, want %x %x", c.vals, st.MinValue, st.MaxValue, c.min, c.max)
		}
	}
}

func TestWriterStatisticsTruncation(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	long := func(s string, n int) string { return string(bytes.Repeat([]byte(s), n)) }
	cases := []struct {
		name     string
		dt       arrow.DataType
		vals     []string
		min, max string
		exact    [2]bool
	}{
		{"short", arrow.BinaryTypes.String, []string{"b", "a", "c"}, "a", "c", [2]bool{true, true}},
		{"long text", arrow.BinaryTypes.String, []string{long("a", 70), long("z", 70)}, long("a", 8), long("z", 7) + "{", [2]bool{false, false}},
		{"text cut between characters", arrow.BinaryTypes.String, []string{long("é", 40)}, long("é", 4), long("é", 3) + "ê", [2]bool{false, false}},
		{"binary max of 0xff", arrow.BinaryTypes.Binary, []string{"\x01" + long("\xff", 70)}, "\x01" + long("\xff", 7), "\x02", [2]bool{false, false}},
		{"binary all 0xff", arrow.BinaryTypes.Binary, []string{long("\xff", 70)}, long("\xff", 8), long("\xff", 70), [2]bool{false, true}},
		{"empty", arrow.BinaryTypes.String, []string{"", "x"}, "", "x", [2]bool{true, true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := array.NewBuilder(mem, c.dt)
			for _, v := range c.vals {
				switch b := b.(type) {
				case *array.StringBuilder:
					b.Append(v)
				case *array.BinaryBuilder:
					b.Append([]byte(v))
				}
			}
			arr := b.NewArray()
			b.Release()
			defer arr.Release()
			st := statsOf(t, arrowio.WriteOptions{StatisticsTruncate: 8}, arr)
			if string(st.MinValue) != c.min || string(st.MaxValue) != c.max {
				t.Errorf("min %q max %q, want %q %q", st.MinValue, st.MaxValue, c.min, c.max)
			}
			if st.MinValue == nil || st.MaxValue == nil {
				t.Errorf("bounds left out: min %v max %v", st.MinValue, st.MaxValue)
			}
			if st.IsMinValueExact != footer.Some(c.exact[0]) || st.IsMaxValueExact != footer.Some(c.exact[1]) {
				t.Errorf("exact %v %v, want %v", st.IsMinValueExact, st.IsMaxValueExact, c.exact)
			}
		})
	}
}
