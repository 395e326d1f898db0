package colwrite

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio/internal/errs"
)

// TestGearTables checks the generated gear tables against entries of
// Arrow C++'s chunker_internal_generated.h and an FNV-1a digest of all
// 2048 in order: a different table cuts different pages than Arrow C++
// and arrow-rs do.
func TestGearTables(t *testing.T) {
	h := uint64(1469598103934665603)
	for s := range gearTables {
		for _, v := range gearTables[s] {
			h = (h ^ v) * 1099511628211
		}
	}
	if h != 0xCA04E5DCF0E98D6D {
		t.Errorf("FNV-1a of the tables = %#x, want 0xca04e5dcf0e98d6d", h)
	}
	for _, c := range []struct {
		table, b int
		want     uint64
	}{
		{0, 0, 0xF09F35A563783945}, {1, 0, 0xECFCBA92FE5691A3}, {7, 255, 0x8DF9314914F0857E},
		{0, 137, 0x775866CE7C83C762}, {1, 137, 0xFC7DB8AA9ED67295}, {2, 137, 0x7A87CD2A93276B54},
		{3, 137, 0x206F336FCCA11320}, {4, 137, 0x7232653DA72FC7F6}, {5, 137, 0x908A581D57113718},
		{6, 137, 0x11CDAD9A76EE1DC4}, {7, 137, 0xBDB4A02A24D4DEE0},
	} {
		if got := gearTables[c.table][c.b]; got != c.want {
			t.Errorf("table %d entry %d = %#x, want %#x", c.table, c.b, got, c.want)
		}
	}
}

// TestCDCMask checks the masks Arrow C++'s RollingHashMaskCalculation
// test expects, and the parameters it rejects.
func TestCDCMask(t *testing.T) {
	const lo, hi = 256 << 10, 1 << 20
	for _, c := range []struct {
		s    CDCSettings
		want uint64
	}{
		{CDCSettings{lo, hi, 0}, 0xFFFE000000000000},
		{CDCSettings{lo, hi, 1}, 0xFFFC000000000000},
		{CDCSettings{lo, hi, 2}, 0xFFF8000000000000},
		{CDCSettings{lo, hi, 3}, 0xFFF0000000000000},
		{CDCSettings{lo, hi, -1}, 0xFFFF000000000000},
		{CDCSettings{0, 32, 0}, 0x8000000000000000},
		{CDCSettings{0, 64, 0}, 0xC000000000000000},
		{CDCSettings{0, 16, -1}, 0x8000000000000000},
	} {
		got, err := CDCMask(c.s)
		if err != nil || got != c.want {
			t.Errorf("CDCMask(%+v) = %#x, %v; want %#x", c.s, got, err, c.want)
		}
	}
	for _, s := range []CDCSettings{{0, 16, 0}, {0, 32, 1}, {128, 384, -60}, {10, 10, 0}, {-1, 10, 0}} {
		if _, err := CDCMask(s); !errors.Is(err, errs.ErrUnsupported) {
			t.Errorf("CDCMask(%+v) = %v, want ErrUnsupported", s, err)
		}
	}
}

// int64Values returns the cdcValues of vals as an Arrow int64 array.
func int64Values(t *testing.T, vals []int64) cdcValues {
	t.Helper()
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues(vals, nil)
	arr := b.NewArray()
	t.Cleanup(arr.Release)
	v, err := cdcValuesOf(arr, 0, arr.Len())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// seq returns n distinct pseudo-random int64s.
func seq(n int, seed uint64) []int64 {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]int64, n)
	for i := range out {
		out[i] = r.Int64()
	}
	return out
}

// cutsOf returns the cuts of a required int64 column of vals, by the
// fixed-width path (fast) or by the slot-by-slot one.
func cutsOf(t *testing.T, s CDCSettings, vals []int64, fast bool) []int {
	t.Helper()
	c, err := newChunker(&s)
	if err != nil {
		t.Fatal(err)
	}
	v := int64Values(t, vals)
	if fast {
		return c.fixedCuts(nil, &v, len(vals))
	}
	var cuts []int
	for i := range vals {
		if err := v.roll(c, i); err != nil {
			t.Fatal(err)
		}
		if c.cutHere() {
			cuts = append(cuts, i)
		}
	}
	return cuts
}

// TestCDCMaxSize checks the hard cut: a constant column never matches,
// so pages hold MaxSize bytes, except the first, one value short (the
// value that reaches the maximum begins the next page and is not counted
// in it), as Arrow C++ and arrow-rs cut it.
func TestCDCMaxSize(t *testing.T) {
	vals := make([]int64, 5000)
	for i := range vals {
		vals[i] = 7
	}
	for _, fast := range []bool{false, true} {
		cuts := cutsOf(t, CDCSettings{512, 4096, 0}, vals, fast)
		if len(cuts) < 2 || cuts[0] != 511 {
			t.Fatalf("fast %v: cuts %v, want the first at 511", fast, cuts)
		}
		for i := 1; i < len(cuts); i++ {
			if cuts[i]-cuts[i-1] != 512 {
				t.Fatalf("fast %v: page %d holds %d values, want 512", fast, i, cuts[i]-cuts[i-1])
			}
		}
	}
}

// TestCDCCutsResync checks that cuts depend on the values alone: the same
// values cut the same (by both paths), and after a value is inserted the
// cuts past it move by one.
func TestCDCCutsResync(t *testing.T) {
	s := CDCSettings{512, 4096, 0}
	base := seq(20000, 1)
	a := cutsOf(t, s, base, false)
	if b := cutsOf(t, s, base, true); !slices.Equal(a, b) {
		t.Fatalf("the fixed-width path cuts %v, the slot path %v", b, a)
	}
	if len(a) < 10 {
		t.Fatalf("%d cuts in 20000 values of 8 bytes between 512 and 4096 bytes", len(a))
	}
	for i := 1; i < len(a); i++ {
		if n := (a[i] - a[i-1]) * 8; n < 512 || n > 4096+8 {
			t.Errorf("page %d holds %d bytes, outside 512..4096", i, n)
		}
	}
	edited := slices.Insert(slices.Clone(base), 50, -999_999)
	b := cutsOf(t, s, edited, false)
	moved := map[int]bool{}
	for _, x := range b {
		moved[x-1] = true
	}
	kept, after := 0, 0
	for _, x := range a {
		if x > 1000 {
			after++
			if moved[x] {
				kept++
			}
		}
	}
	if after == 0 || kept != after {
		t.Errorf("%d of %d cuts past the insert moved by one value", kept, after)
	}
}

// TestCDCNullable checks that an optional column rolls its definition
// levels: the same values cut differently required and optional, and a
// null slot rolls its level alone.
func TestCDCNullable(t *testing.T) {
	s := CDCSettings{512, 4096, 0}
	vals := seq(20000, 2)
	required := cutsOf(t, s, vals, false)
	c, _ := newChunker(&s)
	v := int64Values(t, vals)
	optional, err := c.flatCuts(nil, &v, len(vals), true, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(required, optional) {
		t.Error("required and optional columns cut alike: levels are not rolled")
	}
	// All slots null: 2 bytes each, cut at MaxSize.
	c.reset()
	valid := make([]byte, (len(vals)+7)/8)
	nulls, err := c.flatCuts(nil, &v, len(vals), true, valid, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(nulls) == 0 || nulls[0] != 4096/2-1 {
		t.Errorf("all-null cuts %v, want the first at %d", nulls[:min(3, len(nulls))], 4096/2-1)
	}
}

// TestCDCNestedCuts checks that a repeated leaf is cut only where a row
// begins, never before its first entry, and that a null element rolls
// no value.
func TestCDCNestedCuts(t *testing.T) {
	s := CDCSettings{512, 4096, 0}
	const n = 30000
	vals := seq(n, 3)
	def, rep := make([]int16, n), make([]int16, n)
	var dense []int64
	for i := range def {
		def[i] = 3
		if i%5 == 1 {
			def[i] = 2 // a null element
		} else {
			dense = append(dense, vals[i])
		}
		if i%3 != 0 {
			rep[i] = 1
		}
	}
	c, _ := newChunker(&s)
	v := int64Values(t, dense)
	cuts, err := c.nestedCuts(nil, &v, def, rep, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(cuts) < 5 {
		t.Fatalf("%d cuts", len(cuts))
	}
	for _, x := range cuts {
		if x == 0 || rep[x] != 0 {
			t.Fatalf("cut at entry %d, repetition level %d", x, rep[x])
		}
	}
	c.reset()
	again, _ := c.nestedCuts(nil, &v, def, rep, 3)
	if !slices.Equal(cuts, again) {
		t.Error("the same levels and values cut differently after reset")
	}
}

// TestCDCValueBytes checks the bytes each Arrow layout rolls: a string's
// bytes, a boolean as one byte, a dictionary array's indices.
func TestCDCValueBytes(t *testing.T) {
	mem := memory.DefaultAllocator
	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"ab", "", "cde"}, nil)
	strs := sb.NewArray()
	defer strs.Release()
	bb := array.NewBooleanBuilder(mem)
	bb.AppendValues([]bool{true, false, true}, nil)
	bools := bb.NewArray()
	defer bools.Release()
	db := array.NewDictionaryBuilder(mem, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String})
	for _, x := range []string{"x", "y", "x"} {
		if err := db.(*array.BinaryDictionaryBuilder).AppendString(x); err != nil {
			t.Fatal(err)
		}
	}
	dict := db.NewArray()
	defer dict.Release()
	for _, c := range []struct {
		arr  arrow.Array
		want [][]byte
	}{
		{strs, [][]byte{[]byte("ab"), {}, []byte("cde")}},
		{bools, [][]byte{{1}, {0}, {1}}},
		{dict, [][]byte{{0, 0}, {1, 0}, {0, 0}}},
	} {
		v, err := cdcValuesOf(c.arr, 0, c.arr.Len())
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range c.want {
			// A chunker past its minimum at once: its hash after the
			// value is that of the value's bytes.
			got, ref := &chunker{mask: 1 << 63}, &chunker{mask: 1 << 63}
			if err := v.roll(got, i); err != nil {
				t.Fatal(err)
			}
			ref.roll(want)
			if got.hash != ref.hash || got.size != ref.size {
				t.Errorf("%s value %d rolls hash %#x size %d, want %#x %d (bytes %v)", c.arr.DataType(), i, got.hash, got.size, ref.hash, ref.size, want)
			}
		}
	}
}
