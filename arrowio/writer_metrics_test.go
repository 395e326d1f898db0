package arrowio_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/footer"
)

// withID returns field f with PARQUET:field_id id.
func withID(f arrow.Field, id int) arrow.Field {
	f.Metadata = arrow.NewMetadata([]string{"PARQUET:field_id"}, []string{strconv.Itoa(id)})
	return f
}

// metricsRecord returns n rows of an int64, a text, a float64 (with nulls
// and NaNs), a binary (whose largest value starts with 17 0xff bytes, so
// that no truncated upper bound exists) and a list of text column, every
// field with a field id.
func metricsRecord(mem memory.Allocator, n int) arrow.RecordBatch {
	rng := rand.New(rand.NewPCG(5, 6))
	letters := []rune("abcxyzéü日本\U0010FFFF")
	word := func() string {
		var b strings.Builder
		for range 1 + rng.IntN(30) {
			b.WriteRune(letters[rng.IntN(len(letters))])
		}
		return b.String()
	}
	elem := withID(arrow.Field{Name: "element", Type: arrow.BinaryTypes.String, Nullable: true}, 7)
	fields := []arrow.Field{
		withID(arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int64}, 1),
		withID(arrow.Field{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true}, 2),
		withID(arrow.Field{Name: "price", Type: arrow.PrimitiveTypes.Float64, Nullable: true}, 3),
		withID(arrow.Field{Name: "blob", Type: arrow.BinaryTypes.Binary, Nullable: true}, 4),
		withID(arrow.Field{Name: "tags", Type: arrow.ListOfField(elem), Nullable: true}, 5),
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(fields, nil))
	defer b.Release()
	ids, names := b.Field(0).(*array.Int64Builder), b.Field(1).(*array.StringBuilder)
	prices, blobs := b.Field(2).(*array.Float64Builder), b.Field(3).(*array.BinaryBuilder)
	tags := b.Field(4).(*array.ListBuilder)
	tagVals := tags.ValueBuilder().(*array.StringBuilder)
	for i := range n {
		ids.Append(int64(i*7 - 1000))
		if rng.IntN(10) == 0 {
			names.AppendNull()
		} else {
			names.Append(word())
		}
		switch rng.IntN(10) {
		case 0:
			prices.AppendNull()
		case 1:
			prices.Append(math.NaN())
		default:
			prices.Append(rng.NormFloat64() * 100)
		}
		switch {
		case i == n/2:
			blobs.Append(append(bytes.Repeat([]byte{0xff}, 17), 1))
		case rng.IntN(10) == 0:
			blobs.AppendNull()
		default:
			blobs.Append([]byte(word()))
		}
		switch rng.IntN(8) {
		case 0:
			tags.AppendNull()
		case 1:
			tags.Append(true) // empty
		default:
			tags.Append(true)
			for range 1 + rng.IntN(3) {
				if rng.IntN(6) == 0 {
					tagVals.AppendNull()
				} else {
					tagVals.Append(word())
				}
			}
		}
	}
	return b.NewRecordBatch()
}

// icebergUpper truncates the upper bound v to n characters (text) or
// bytes and increments its last character or byte that can be, as
// Iceberg's UnicodeUtil.truncateStringMax and BinaryUtil.truncateBinaryMax
// do; ok is false when none can.
func icebergUpper(v []byte, n int, text bool) (out []byte, ok bool) {
	if text {
		r := []rune(string(v))
		if len(r) <= n {
			return v, true
		}
		r = r[:n]
		for i := n - 1; i >= 0; i-- {
			for c := r[i] + 1; c <= utf8.MaxRune; c++ {
				if utf8.ValidRune(c) {
					return []byte(string(append(r[:i:i], c))), true
				}
			}
		}
		return nil, false
	}
	if len(v) <= n {
		return v, true
	}
	p := slices.Clone(v[:n])
	for i := n - 1; i >= 0; i-- {
		if p[i] != 0xff {
			p[i]++
			return p[:i+1], true
		}
	}
	return nil, false
}

// icebergLower truncates the lower bound v to n characters or bytes.
func icebergLower(v []byte, n int, text bool) []byte {
	if text {
		if r := []rune(string(v)); len(r) > n {
			return []byte(string(r[:n]))
		}
		return v
	}
	return v[:min(n, len(v))]
}

// wantMetrics computes a column's metrics from its values: entries,
// nulls, NaNs, and the least and greatest value other than null or NaN,
// PLAIN-encoded.
type wantMetrics struct {
	values, nulls, nans int64
	lo, hi              []byte
}

// add widens m's bounds to v, a string or binary value.
func (m *wantMetrics) add(v []byte) {
	if m.lo == nil || bytes.Compare(v, m.lo) < 0 {
		m.lo = v
	}
	if m.hi == nil || bytes.Compare(m.hi, v) < 0 {
		m.hi = v
	}
}

// binaryMetrics returns the metrics of a flat string or binary column.
func binaryMetrics(a arrow.Array) *wantMetrics {
	m := &wantMetrics{values: int64(a.Len())}
	for i := range a.Len() {
		switch a := a.(type) {
		case *array.String:
			if a.IsNull(i) {
				m.nulls++
			} else {
				m.add([]byte(a.Value(i)))
			}
		case *array.Binary:
			if a.IsNull(i) {
				m.nulls++
			} else {
				m.add(a.Value(i))
			}
		}
	}
	return m
}

func TestWriterMetrics(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	const n = 5000
	rec := metricsRecord(mem, n)
	defer rec.Release()
	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, rec.Schema(), arrowio.WriteOptions{MaxRowGroupRows: 1300, Compression: footer.CodecSnappy, Parallelism: 2})
	if err != nil {
		t.Fatal(err)
	}
	if w.Metrics() != nil || w.Metadata() != nil {
		t.Fatal("metrics before Close")
	}
	for lo := int64(0); lo < n; lo += 900 {
		s := rec.NewSlice(lo, min(n, lo+900))
		if err := w.Write(s); err != nil {
			t.Fatal(err)
		}
		s.Release()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	m := w.Metrics()

	// What the values say.
	want := map[string]*wantMetrics{}
	ids := rec.Column(0).(*array.Int64)
	want["id"] = &wantMetrics{values: n, lo: binary.LittleEndian.AppendUint64(nil, uint64(ids.Value(0))), hi: binary.LittleEndian.AppendUint64(nil, uint64(ids.Value(n-1)))}
	want["name"] = binaryMetrics(rec.Column(1))
	prices := rec.Column(2).(*array.Float64)
	pm := &wantMetrics{values: n}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range n {
		switch v := prices.Value(i); {
		case prices.IsNull(i):
			pm.nulls++
		case math.IsNaN(v):
			pm.nans++
		default:
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	pm.lo, pm.hi = binary.LittleEndian.AppendUint64(nil, math.Float64bits(lo)), binary.LittleEndian.AppendUint64(nil, math.Float64bits(hi))
	want["price"] = pm
	want["blob"] = binaryMetrics(rec.Column(3))
	tags := rec.Column(4).(*array.List)
	tagVals := tags.ListValues().(*array.String)
	tm := &wantMetrics{}
	for i := range n {
		s, e := tags.ValueOffsets(i)
		if tags.IsNull(i) || s == e {
			tm.values++
			tm.nulls++
			continue
		}
		for j := s; j < e; j++ {
			tm.values++
			if tagVals.IsNull(int(j)) {
				tm.nulls++
			} else {
				tm.add([]byte(tagVals.Value(int(j))))
			}
		}
	}
	want["tags.list.element"] = tm

	// What arrow-go reads of the file.
	pf := pqMetadata(t, buf.Bytes())
	defer pf.Close()
	md := pf.MetaData()
	if m.RowCount != n || m.FileSize != int64(buf.Len()) {
		t.Errorf("row count %d, file size %d; want %d, %d", m.RowCount, m.FileSize, n, buf.Len())
	}
	var splits []int64
	for g := range md.NumRowGroups() {
		splits = append(splits, md.RowGroup(g).FileOffset())
	}
	if !slices.Equal(m.SplitOffsets, splits) || len(splits) != 4 {
		t.Errorf("split offsets %v, want arrow-go's %v (4 row groups)", m.SplitOffsets, splits)
	}
	ids2 := map[string]int32{"id": 1, "name": 2, "price": 3, "blob": 4, "tags.list.element": 7}
	for i, path := range []string{"id", "name", "price", "blob", "tags.list.element"} {
		c := m.Column(path)
		if c == nil || m.FieldID(ids2[path]) != c || c.FieldID != footer.Some(ids2[path]) {
			t.Fatalf("%s: metrics %+v not found by path and field id %d", path, c, ids2[path])
		}
		var size, usize int64
		for g := range md.NumRowGroups() {
			cc, err := md.RowGroup(g).ColumnChunk(i)
			if err != nil {
				t.Fatal(err)
			}
			size += cc.TotalCompressedSize()
			usize += cc.TotalUncompressedSize()
		}
		wm := want[path]
		if c.Values != wm.values || c.Nulls != wm.nulls || c.CompressedBytes != size || c.UncompressedBytes != usize {
			t.Errorf("%s: values %d, nulls %d, sizes %d/%d; want %d, %d, %d/%d", path, c.Values, c.Nulls, c.CompressedBytes, c.UncompressedBytes, wm.values, wm.nulls, size, usize)
		}
		if path == "price" {
			if c.NaNs != footer.Some(wm.nans) || wm.nans == 0 {
				t.Errorf("price: NaN count %v, want %d", c.NaNs, wm.nans)
			}
		} else if c.NaNs.Set {
			t.Errorf("%s: NaN count %v for a column of no floats", path, c.NaNs)
		}
		text := path == "name" || path == "tags.list.element"
		wantLo, wantHi, hasHi := wm.lo, wm.hi, true
		if path != "id" && path != "price" {
			wantLo = icebergLower(wm.lo, 16, text)
			wantHi, hasHi = icebergUpper(wm.hi, 16, text)
		}
		if !bytes.Equal(c.Lower, wantLo) || !bytes.Equal(c.Upper, wantHi) || (c.Upper != nil) != hasHi {
			t.Errorf("%s: bounds %q, %q; want %q, %q", path, c.Lower, c.Upper, wantLo, wantHi)
		}
	}
	if m.Column("blob").Upper != nil || m.Column("blob").Lower == nil {
		t.Error("blob: an upper bound past 16 0xff bytes")
	}
	rd, err := arrowio.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()), arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if !bytes.Equal(footer.Marshal(nil, w.Metadata()), footer.Marshal(nil, rd.Metadata())) {
		t.Error("Writer.Metadata differs from the footer read from the file")
	}
}

// TestFieldIDsRoundTrip checks field ids both ways against arrow-go:
// pqarrow finds the Arrow fields' PARQUET:field_id in the Parquet schema
// Quiver writes, and Quiver reads the field ids of pqarrow's file (written
// without the ARROW:schema entry) into the Arrow fields' metadata.
func TestFieldIDsRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := metricsRecord(mem, 100)
	defer rec.Release()
	wantIDs := []int32{1, 2, 3, 4, 5}

	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, rec.Schema(), arrowio.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	pf := pqMetadata(t, buf.Bytes())
	root := pf.MetaData().Schema.Root()
	for i, id := range wantIDs {
		if got := root.Field(i).FieldID(); got != id {
			t.Errorf("arrow-go reads field %d's id as %d, want %d", i, got, id)
		}
	}
	if got := pf.MetaData().Schema.Column(4).SchemaNode().FieldID(); got != 7 {
		t.Errorf("arrow-go reads the list element's id as %d, want 7", got)
	}
	pf.Close()

	pfile := arrowiotest.WritePqarrowWith(t, rec, pqarrow.NewArrowWriterProperties())
	rd, err := arrowio.Open(bytes.NewReader(pfile), int64(len(pfile)), arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	for _, kv := range rd.Metadata().KeyValueMetadata {
		if kv.Key == arrowio.ArrowSchemaKey {
			t.Fatal("pqarrow stored ARROW:schema: the test would not read Parquet field ids")
		}
	}
	fields := rd.Schema().Fields()
	for i, id := range wantIDs {
		if got, _ := fields[i].Metadata.GetValue("PARQUET:field_id"); got != strconv.Itoa(int(id)) {
			t.Errorf("Quiver reads field %s's id as %q, want %d", fields[i].Name, got, id)
		}
	}
	elem := fields[4].Type.(*arrow.ListType).ElemField()
	if got, _ := elem.Metadata.GetValue("PARQUET:field_id"); got != "7" {
		t.Errorf("Quiver reads the list element's id as %q, want 7", got)
	}
	tbl, err := rd.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tbl.Release()
}
