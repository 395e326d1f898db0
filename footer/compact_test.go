package footer

import (
	"bytes"
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"
)

func TestVarints(t *testing.T) {
	for _, v := range []int64{0, 1, -1, 63, -64, 64, 1 << 20, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64} {
		var e encoder
		e.i64(v)
		d := decoder{b: e.b}
		if got := d.i64(); got != v || d.err != nil || d.p != len(e.b) {
			t.Errorf("i64 %d: got %d, err %v, consumed %d of %d", v, got, d.err, d.p, len(e.b))
		}
		d = decoder{b: e.b}
		got32 := d.i32()
		if fits := v >= math.MinInt32 && v <= math.MaxInt32; fits != (d.err == nil) || (fits && int64(got32) != v) {
			t.Errorf("i32 %d: got %d, err %v", v, got32, d.err)
		}
		d = decoder{b: e.b}
		got16 := d.i16()
		if fits := v >= math.MinInt16 && v <= math.MaxInt16; fits != (d.err == nil) || (fits && int64(got16) != v) {
			t.Errorf("i16 %d: got %d, err %v", v, got16, d.err)
		}
	}
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"empty", nil},
		{"truncated", []byte{0x80, 0x80}},
		{"eleven bytes", bytes.Repeat([]byte{0x80}, 11)},
		{"overflow in tenth byte", append(bytes.Repeat([]byte{0xff}, 9), 0x02)},
	} {
		d := decoder{b: tc.in}
		d.uvarint()
		if d.err == nil {
			t.Errorf("%s: uvarint of %x succeeded", tc.name, tc.in)
		}
	}
}

// nextField reads a field header the way the struct decoders do: the
// inlined short form, then the general one.
func nextField(d *decoder, last *int16) (int16, byte) {
	if id, t := d.field(last); t != tStop {
		return id, t
	}
	return d.fieldSlow(last)
}

func TestFieldHeaders(t *testing.T) {
	ids := []int16{1, 2, 17, 16, 32767, -32768, 0, 5, 20, 35}
	var e encoder
	var last int16
	for _, id := range ids {
		e.i32Field(&last, id, int32(id))
	}
	e.stop()
	d := decoder{b: e.b}
	last = 0
	for _, want := range ids {
		id, typ := nextField(&d, &last)
		if id != want || typ != tI32 || d.i32() != int32(want) {
			t.Fatalf("field %d: got id %d type %d, err %v", want, id, typ, d.err)
		}
	}
	if _, typ := nextField(&d, &last); typ != tStop || d.err != nil || d.p != len(e.b) {
		t.Fatalf("no clean stop: type %d, err %v", typ, d.err)
	}
	for _, bad := range [][]byte{{0x1e}, {0x1f}, {0x10}, {0x05}, {0x05, 0x80}, {}} {
		d := decoder{b: bad}
		if _, typ := nextField(&d, &last); typ != tStop || d.err == nil {
			t.Errorf("header %x: want an error, got type %d", bad, typ)
		}
	}
}

func TestListHeaders(t *testing.T) {
	for _, n := range []int{0, 1, 14, 15, 16, 300} {
		var e encoder
		e.list(n, tI32)
		e.b = append(e.b, make([]byte, n)...)
		d := decoder{b: e.b}
		if got := d.list(tI32, 1, "values"); got != n || d.err != nil {
			t.Errorf("list of %d: got %d, err %v", n, got, d.err)
		}
	}
	// Both bool element types are accepted; empty lists may carry any type.
	for _, b := range [][]byte{{0x11, 1}, {0x12, 1}, {0x00}, {0x07}} {
		d := decoder{b: b}
		d.list(tTrue, 1, "bools")
		if d.err != nil {
			t.Errorf("list header %x: %v", b, d.err)
		}
	}
	d := decoder{b: []byte{0x15, 1}}
	d.list(tI64, 1, "i64 values")
	if d.err == nil || !strings.Contains(d.err.Error(), "element type i32, want i64") {
		t.Errorf("element type mismatch: %v", d.err)
	}
	d = decoder{b: []byte{0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0, 0, 0}}
	d.list(tStruct, 3, "ColumnChunk structs")
	if d.err == nil || !strings.Contains(d.err.Error(), "list of 2147483647 ColumnChunk structs needs at least 6442450941 bytes, 3 remain") {
		t.Errorf("huge list: %v", d.err)
	}
	d = decoder{b: []byte{0xf5, 0xff, 0xff, 0xff, 0xff, 0x0f}}
	d.list(tI32, 1, "values")
	if d.err == nil || !strings.Contains(d.err.Error(), "exceeds the thrift limit") {
		t.Errorf("list count past int32: %v", d.err)
	}
}

func TestBinary(t *testing.T) {
	d := decoder{b: []byte{0x00, 0x03, 'a', 'b', 'c', 0x05, 'x'}}
	if v := d.bin(); v == nil || len(v) != 0 {
		t.Errorf("empty binary: %#v", v)
	}
	v := d.bin()
	if string(v) != "abc" || cap(v) != 3 {
		t.Errorf("binary: %q cap %d", v, cap(v))
	}
	if d.bin(); d.err == nil || !strings.Contains(d.err.Error(), "binary of 5 bytes, 1 remain") {
		t.Errorf("overlong binary: %v", d.err)
	}
}

// skipPayloads are encoded values of every wire type, for skip and
// unknown-field tests.
func skipPayloads() []struct {
	name string
	typ  byte
	val  []byte
} {
	var nested encoder // a struct holding a list of structs holding a map
	var l1 int16
	nested.field(&l1, 3, tList)
	nested.list(2, tStruct)
	for range 2 {
		var l2 int16
		nested.field(&l2, 7, tMap)
		nested.uvarint(1)
		nested.b = append(nested.b, tBinary<<4|tList)
		nested.str("k")
		nested.list(2, tDouble)
		nested.double(1)
		nested.double(2)
		nested.stop()
	}
	nested.field(&l1, 2, tUUID)
	nested.b = append(nested.b, make([]byte, 16)...)
	nested.stop()
	var bools encoder
	bools.list(20, tTrue)
	for i := range 20 {
		bools.boolElem(i%3 == 0)
	}
	var setOfLists encoder
	setOfLists.list(2, tList)
	setOfLists.list(1, tBinary)
	setOfLists.str("x")
	setOfLists.list(0, tI64)
	return []struct {
		name string
		typ  byte
		val  []byte
	}{
		{"true", tTrue, nil},
		{"false", tFalse, nil},
		{"byte", tByte, []byte{0x7f}},
		{"i16", tI16, []byte{0xfe, 0xff, 0x03}},
		{"i32", tI32, []byte{0xff, 0xff, 0xff, 0xff, 0x0f}},
		{"i64", tI64, append(bytes.Repeat([]byte{0xff}, 9), 0x01)},
		{"double", tDouble, []byte{1, 2, 3, 4, 5, 6, 7, 8}},
		{"binary", tBinary, []byte{3, 'a', 'b', 'c'}},
		{"list of i32", tList, []byte{0x35, 2, 4, 6}},
		{"list of bools", tList, bools.b},
		{"set of lists", tSet, setOfLists.b},
		{"empty map", tMap, []byte{0}},
		{"map", tMap, []byte{2, tI32<<4 | tStruct, 2, 0, 4, 0x15, 0x02, 0}},
		{"nested struct", tStruct, nested.b},
		{"uuid", tUUID, make([]byte, 16)},
	}
}

func TestSkip(t *testing.T) {
	for _, p := range skipPayloads() {
		in := append(append([]byte{}, p.val...), 0xAA)
		d := decoder{b: in}
		d.skip(p.typ)
		if d.err != nil || d.p != len(p.val) {
			t.Errorf("%s: consumed %d of %d bytes, err %v", p.name, d.p, len(p.val), d.err)
		}
		for n := range len(p.val) {
			d := decoder{b: p.val[:n]}
			if d.skip(p.typ); d.err == nil {
				t.Errorf("%s: skipping the %d-byte prefix %x succeeded", p.name, n, p.val[:n])
			}
		}
	}
}

func TestDepthLimit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		level []byte // one more level of nesting
	}{
		{"structs", []byte{0x1c}},       // field 1: struct
		{"lists", []byte{0x19}},         // field 1: list<...>, then lists of one list
		{"maps", []byte{0x1b, 1, 0xcc}}, // field 1: map<struct, struct> of one entry
	} {
		in := append(bytes.Repeat(tc.level, 10000), make([]byte, 10000)...)
		if tc.name == "lists" {
			in = append([]byte{0x19}, bytes.Repeat([]byte{0x19}, 10000)...)
		}
		var se SchemaElement
		_, err := Unmarshal(in, &se)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "nest deeper than 64") {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// TestAllocationBound feeds inputs whose lengths and counts claim far more
// than they hold, and checks that decoding allocates at most a small
// multiple of the input size.
func TestAllocationBound(t *testing.T) {
	huge := []byte{0xff, 0xff, 0xff, 0xff, 0x07} // 2^31-1 as a varint
	pad := make([]byte, 4096)
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	cases := []struct {
		name string
		msg  Message
		in   []byte
	}{
		{"schema list", &FileMetaData{}, cat([]byte{0x15, 0, 0x19, 0xfc}, huge, pad)},
		{"row group list", &FileMetaData{}, cat([]byte{0x49, 0xfc}, huge, pad)},
		{"column chunk list", &RowGroup{}, cat([]byte{0x19, 0xfc}, huge, pad)},
		{"path strings", &ColumnMetaData{}, cat([]byte{0x39, 0xf8}, huge, pad)},
		{"encodings", &ColumnMetaData{}, cat([]byte{0x29, 0xf5}, huge, pad)},
		{"null pages", &ColumnIndex{}, cat([]byte{0x19, 0xf1}, huge, pad)},
		{"min values", &ColumnIndex{}, cat([]byte{0x29, 0xf8}, huge, pad)},
		{"null counts", &ColumnIndex{}, cat([]byte{0x59, 0xf6}, huge, pad)},
		{"page locations", &OffsetIndex{}, cat([]byte{0x19, 0xfc}, huge, pad)},
		{"binary length", &Statistics{}, cat([]byte{0x18}, huge, pad)},
		{"string length", &KeyValue{}, cat([]byte{0x18}, huge, pad)},
		{"unknown list", &PageHeader{}, cat([]byte{0x99, 0xfc}, huge, pad)},
		{"unknown map", &PageHeader{}, cat([]byte{0x9b}, huge, []byte{0xcc}, pad)},
		// Lists of the smallest valid elements: the worst ratio of decoded
		// Go values to input bytes.
		{"minimal schema elements", &FileMetaData{}, cat([]byte{0x15, 0, 0x19, 0xfc, 0xa9, 0x0a}, bytes.Repeat([]byte{0x48, 0, 0}, 1321))},
		{"minimal row groups", &FileMetaData{}, cat([]byte{0x15, 0, 0x19, 0x0c, 0x16, 0, 0x19, 0xfc, 0xa4, 0x02}, bytes.Repeat([]byte{0x19, 0x0c, 0x16, 0, 0x16, 0, 0}, 292))},
		{"minimal column chunks", &RowGroup{}, cat([]byte{0x19, 0xfc, 0xd5, 0x0a}, bytes.Repeat([]byte{0x26, 0, 0}, 1365))},
		{"empty min values", &ColumnIndex{}, cat([]byte{0x29, 0xf8, 0xff, 0x1f}, bytes.Repeat([]byte{0}, 4095))},
	}
	for _, tc := range cases {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Unmarshal(tc.in, tc.msg)
		runtime.ReadMemStats(&after)
		got := after.TotalAlloc - before.TotalAlloc
		if limit := uint64(64*len(tc.in) + 16<<10); got > limit {
			t.Errorf("%s: %d input bytes allocated %d bytes (limit %d); err %v", tc.name, len(tc.in), got, limit, err)
		}
		if err != nil && !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: error does not wrap ErrCorrupt: %v", tc.name, err)
		}
	}
}

// TestAllocationBoundCorpus checks the same bound on every corpus footer and
// on truncated and corrupted copies of them.
func TestAllocationBoundCorpus(t *testing.T) {
	worst := 0.0
	for _, f := range codecCorpusFooters(t) {
		if f.meta == nil || f.magic != "PAR1" {
			continue
		}
		inputs := [][]byte{f.meta, f.meta[:len(f.meta)/2], f.meta[:len(f.meta)-1]}
		for i := 0; i < len(f.meta) && !testing.Short(); i += 1 + len(f.meta)/8 {
			flipped := bytes.Clone(f.meta)
			flipped[i] ^= 0xf0 // turns small varints, counts and headers into large ones
			inputs = append(inputs, flipped)
		}
		for _, in := range inputs {
			var fm FileMetaData
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Unmarshal(in, &fm)
			runtime.ReadMemStats(&after)
			got := after.TotalAlloc - before.TotalAlloc
			if limit := uint64(64*len(in) + 16<<10); got > limit {
				t.Errorf("%s: %d input bytes allocated %d bytes (limit %d); err %v", f.name, len(in), got, limit, err)
			}
			if len(in) > 4096 {
				worst = max(worst, float64(got)/float64(len(in)))
			}
		}
	}
	t.Logf("worst allocation for inputs over 4 KiB: %.1f bytes per input byte", worst)
}
