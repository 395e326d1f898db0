package arrowio_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
)

// propValue is one slot of a generated column as the statistics see it:
// null, NaN, a float, or bytes (in unsigned order).
type propValue struct {
	null, nan bool
	float     bool
	f         float64
	s         string
}

// less orders two values that are neither null nor NaN.
func (v propValue) less(o propValue) bool {
	if v.float {
		return v.f < o.f
	}
	return v.s < o.s
}

// propColumn is a generated column, its slots as propValues (nil for a
// nested column, whose statistics the test leaves to the page counts).
type propColumn struct {
	field arrow.Field
	arr   arrow.Array
	slots []propValue
	// want is what a reader returns, when not arr: a dictionary's slots
	// that point at null entries are null.
	want arrow.Array
	// elems are a list column's element values, in order, with the rows
	// each row's elements end at.
	elems []propValue
}

// propStrings returns a random string: empty, short, sharing a long
// prefix, past the truncation length, or multi-byte UTF-8 at the cut.
func propString(rng *rand.Rand, text bool) string {
	switch rng.IntN(7) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("k%03d", rng.IntN(40))
	case 2:
		return "https://example.com/shared/prefix/" + fmt.Sprint(rng.IntN(1000))
	case 3:
		return strings.Repeat("z", 60+rng.IntN(20)) + fmt.Sprint(rng.IntN(10))
	case 4:
		if text {
			return strings.Repeat("é", 30+rng.IntN(5)) + "\U0010FFFF" + strings.Repeat("ÿ", rng.IntN(40))
		}
		return string(bytes.Repeat([]byte{0xff}, 60+rng.IntN(10)))
	case 5:
		if !text {
			b := make([]byte, rng.IntN(20))
			for i := range b {
				b[i] = byte(rng.IntN(256))
			}
			return string(b)
		}
	}
	n := rng.IntN(30)
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + rng.IntN(26))
	}
	return string(b)
}

// propFloat returns a random float: NaN, zeros of either sign, infinities
// or ordinary values.
func propFloat(rng *rand.Rand) float64 {
	switch rng.IntN(10) {
	case 0:
		return math.NaN()
	case 1:
		return math.Copysign(0, -1)
	case 2:
		return 0
	case 3:
		if rng.IntN(4) == 0 {
			return math.Inf(1 - 2*rng.IntN(2))
		}
	}
	return float64(rng.IntN(2000)-1000) / 8
}

// propColumns generates n rows of every column kind the test covers,
// each sliced off a longer array at an offset that is not byte-aligned.
// nullFrac is the share of nulls; the column "allnull" has only nulls.
func propColumns(mem memory.Allocator, rng *rand.Rand, n int, nullFrac float64) []propColumn {
	off := rng.IntN(13)
	total := n + off + rng.IntN(5)
	null := func() bool { return rng.Float64() < nullFrac }
	var cols []propColumn
	add := func(name string, dt arrow.DataType, b array.Builder, slots []propValue) {
		full := b.NewArray()
		b.Release()
		arr := array.NewSlice(full, int64(off), int64(off+n))
		full.Release()
		cols = append(cols, propColumn{field: arrow.Field{Name: name, Type: dt, Nullable: true}, arr: arr, slots: slots[off : off+n]})
	}
	floats := func(name string, dt arrow.DataType) {
		b := array.NewBuilder(mem, dt)
		slots := make([]propValue, total)
		for i := range slots {
			if null() {
				b.AppendNull()
				slots[i].null = true
				continue
			}
			f := propFloat(rng)
			switch b := b.(type) {
			case *array.Float64Builder:
				b.Append(f)
			case *array.Float32Builder:
				b.Append(float32(f))
			case *array.Float16Builder:
				b.Append(float16.New(float32(f)))
			}
			slots[i] = propValue{float: true, f: f, nan: math.IsNaN(f)}
		}
		add(name, dt, b, slots)
	}
	floats("f64", arrow.PrimitiveTypes.Float64)
	floats("f32", arrow.PrimitiveTypes.Float32)
	floats("f16", arrow.FixedWidthTypes.Float16)
	strs := func(name string, dt arrow.DataType, text bool) {
		b := array.NewBuilder(mem, dt)
		slots := make([]propValue, total)
		for i := range slots {
			if null() {
				b.AppendNull()
				slots[i].null = true
				continue
			}
			s := propString(rng, text)
			switch b := b.(type) {
			case *array.StringBuilder:
				b.Append(s)
			case *array.LargeStringBuilder:
				b.Append(s)
			case *array.StringViewBuilder:
				b.Append(s)
			case *array.BinaryBuilder:
				b.Append([]byte(s))
			case *array.FixedSizeBinaryBuilder:
				s = (s + "\x00\x00\x00")[:3]
				b.Append([]byte(s))
			}
			slots[i] = propValue{s: s}
		}
		add(name, dt, b, slots)
	}
	// Runs of one value (and of nulls), so that dictionary indices and
	// levels come in runs of every length.
	rb := array.NewStringBuilder(mem)
	runs := make([]propValue, 0, total)
	for len(runs) < total {
		v := propValue{null: null(), s: fmt.Sprint(rng.IntN(5))}
		for range min(total-len(runs), 1+rng.IntN([]int{3, 20, 300}[rng.IntN(3)])) {
			if v.null {
				rb.AppendNull()
			} else {
				rb.Append(v.s)
			}
			runs = append(runs, v)
		}
	}
	add("runs", arrow.BinaryTypes.String, rb, runs)
	strs("s", arrow.BinaryTypes.String, true)
	strs("ls", arrow.BinaryTypes.LargeString, true)
	strs("sv", arrow.BinaryTypes.StringView, true)
	strs("bin", arrow.BinaryTypes.Binary, false)
	strs("fsb", &arrow.FixedSizeBinaryType{ByteWidth: 3}, false)

	// A dictionary array whose dictionary has null and unused entries,
	// some slots pointing at the null ones.
	dictVals := make([]string, 3+rng.IntN(30))
	dictNull := make([]bool, len(dictVals))
	db := array.NewStringBuilder(mem)
	for i := range dictVals {
		dictVals[i] = propString(rng, true)
		dictNull[i] = rng.IntN(6) == 0
		if dictNull[i] {
			db.AppendNull()
		} else {
			db.Append(dictVals[i])
		}
	}
	dict := db.NewArray()
	db.Release()
	ib := array.NewInt16Builder(mem)
	slots := make([]propValue, total)
	used := 1 + rng.IntN(len(dictVals))
	for i := range slots {
		if null() {
			ib.AppendNull()
			slots[i].null = true
			continue
		}
		x := rng.IntN(used)
		ib.Append(int16(x))
		if dictNull[x] {
			slots[i].null = true
		} else {
			slots[i] = propValue{s: dictVals[x]}
		}
	}
	idx := ib.NewArray()
	ib.Release()
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}
	full := array.NewDictionaryArray(dt, idx, dict)
	idx.Release()
	dict.Release()
	arr := array.NewSlice(full, int64(off), int64(off+n))
	full.Release()
	wb := array.NewStringBuilder(mem)
	for _, v := range slots[off : off+n] {
		if v.null {
			wb.AppendNull()
		} else {
			wb.Append(v.s)
		}
	}
	cols = append(cols, propColumn{field: arrow.Field{Name: "dict", Type: dt, Nullable: true}, arr: arr, slots: slots[off : off+n], want: wb.NewArray()})
	wb.Release()

	// A dictionary array of another dictionary in every batch (the
	// writer replaces arr's slices with propDictBatch's arrays).
	slots2 := make([]propValue, n)
	for i := range slots2 {
		if null() {
			slots2[i].null = true
		} else {
			slots2[i].s = dictVals[rng.IntN(len(dictVals))] + fmt.Sprint(rng.IntN(3))
		}
	}
	arr2 := propDictBatch(mem, rng, slots2)
	wb2 := array.NewStringBuilder(mem)
	for _, v := range slots2 {
		if v.null {
			wb2.AppendNull()
		} else {
			wb2.Append(v.s)
		}
	}
	cols = append(cols, propColumn{field: arrow.Field{Name: "dict2", Type: arr2.DataType(), Nullable: true}, arr: arr2, slots: slots2, want: wb2.NewArray()})
	wb2.Release()

	nb := array.NewStringBuilder(mem)
	nb.AppendNulls(total)
	add("allnull", arrow.BinaryTypes.String, nb, make([]propValue, total))
	for i := range cols[len(cols)-1].slots {
		cols[len(cols)-1].slots[i].null = true
	}

	// A list of doubles: its NaNs and nulls count per element.
	lb := array.NewListBuilder(mem, arrow.PrimitiveTypes.Float64)
	eb := lb.ValueBuilder().(*array.Float64Builder)
	var elems []propValue
	for range n {
		if null() {
			lb.AppendNull()
			elems = append(elems, propValue{null: true})
			continue
		}
		lb.Append(true)
		k := rng.IntN(4)
		if k == 0 {
			elems = append(elems, propValue{null: true}) // an empty list is a null leaf entry
		}
		for range k {
			if null() {
				eb.AppendNull()
				elems = append(elems, propValue{null: true})
				continue
			}
			f := propFloat(rng)
			eb.Append(f)
			elems = append(elems, propValue{float: true, f: f, nan: math.IsNaN(f)})
		}
	}
	list := lb.NewArray()
	lb.Release()
	// The list is not sliced: its leaf entries would need the slice's
	// element range, which the flat columns cover already.
	cols = append(cols, propColumn{field: arrow.Field{Name: "list", Type: list.DataType(), Nullable: true}, arr: list, elems: elems})
	return cols
}

// propDictBatch returns the values of slots (text or null) as a
// dictionary array of its own: a shuffled dictionary of those values,
// unused ones and null entries, some null slots pointing at the null
// entries, sliced at an offset that is not byte-aligned. Each batch's
// dictionary thus holds other values at the same indices.
func propDictBatch(mem memory.Allocator, rng *rand.Rand, slots []propValue) arrow.Array {
	var entries []*string
	at := map[string]int{}
	for _, v := range slots {
		if _, ok := at[v.s]; !v.null && !ok {
			at[v.s] = 0
			entries = append(entries, &v.s)
		}
	}
	for range rng.IntN(4) {
		x := propString(rng, true)
		entries = append(entries, &x)
	}
	for range rng.IntN(3) {
		entries = append(entries, nil)
	}
	rng.Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
	db := array.NewStringBuilder(mem)
	var nullAt []int
	for i, e := range entries {
		if e == nil {
			db.AppendNull()
			nullAt = append(nullAt, i)
			continue
		}
		db.Append(*e)
		if _, ok := at[*e]; ok {
			at[*e] = i
		}
	}
	dict := db.NewArray()
	db.Release()
	ib := array.NewInt32Builder(mem)
	pre := rng.IntN(11)
	for range pre {
		ib.Append(int32(rng.IntN(max(1, len(entries)))))
	}
	for _, v := range slots {
		switch {
		case !v.null:
			ib.Append(int32(at[v.s]))
		case len(nullAt) > 0 && rng.IntN(2) == 0:
			ib.Append(int32(nullAt[rng.IntN(len(nullAt))]))
		default:
			ib.AppendNull()
		}
	}
	idx := ib.NewArray()
	ib.Release()
	if len(entries) == 0 {
		// No entries: only null slots, whose indices must still lie
		// within the dictionary.
		db := array.NewStringBuilder(mem)
		db.AppendNull()
		dict.Release()
		dict = db.NewArray()
		db.Release()
		ib := array.NewInt32Builder(mem)
		ib.AppendNulls(pre + len(slots))
		idx.Release()
		idx = ib.NewArray()
		ib.Release()
	}
	full := array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}, idx, dict)
	idx.Release()
	dict.Release()
	defer full.Release()
	return array.NewSlice(full, int64(pre), int64(pre+len(slots)))
}

// propOptions returns random writer options over codecs, page versions,
// dictionary encoding, small pages, statistics truncation, CRCs, page
// statistics and content-defined chunking.
func propOptions(rng *rand.Rand) (arrowio.WriteOptions, string) {
	codecs := []footer.CompressionCodec{footer.CodecUncompressed, footer.CodecUncompressed, footer.CodecSnappy, footer.CodecZstd, footer.CodecGzip}
	o := arrowio.WriteOptions{
		Compression:        codecs[rng.IntN(len(codecs))],
		PageVersion:        []arrowio.PageVersion{arrowio.PageV1, arrowio.PageV2}[rng.IntN(2)],
		DisableDictionary:  rng.IntN(2) == 0,
		DataPageSize:       64 << rng.IntN(8),
		MaxRowGroupRows:    int64(200 + rng.IntN(3000)),
		PageStatistics:     rng.IntN(2) == 0,
		DisableCRC:         rng.IntN(3) == 0,
		StatisticsTruncate: []int{0, 2, 5, 16, -1}[rng.IntN(5)],
	}
	if rng.IntN(3) == 0 {
		o.DictionaryPageSizeLimit = 64 << rng.IntN(6) // falls back mid-chunk
	}
	if rng.IntN(5) == 0 {
		o.ContentDefinedChunking = &arrowio.CDCOptions{MinChunkSize: 256, MaxChunkSize: 2048}
	}
	if rng.IntN(4) == 0 {
		o.DataPageRows = 1 + rng.IntN(300)
	}
	if rng.IntN(10) == 0 {
		o.DisableStatistics = true // NaN and null counts must not depend on them
	}
	// Per-column encodings, bloom filters (which take dictionary arrays
	// the way of gathered values) and statistics turned off.
	o.Columns = map[string]arrowio.ColumnOptions{}
	pick := func(encs ...footer.Encoding) footer.Optional[footer.Encoding] {
		if k := rng.IntN(len(encs) + 1); k < len(encs) {
			return footer.Some(encs[k])
		}
		return footer.Optional[footer.Encoding]{}
	}
	bloom := func() *arrowio.BloomFilterOptions {
		if rng.IntN(3) == 0 {
			return &arrowio.BloomFilterOptions{FPP: 0.05}
		}
		return nil
	}
	o.Columns["s"] = arrowio.ColumnOptions{Encoding: pick(footer.EncodingDeltaByteArray, footer.EncodingDeltaLengthByteArray), BloomFilter: bloom()}
	o.Columns["bin"] = arrowio.ColumnOptions{Encoding: pick(footer.EncodingDeltaByteArray), BloomFilter: bloom()}
	o.Columns["dict"] = arrowio.ColumnOptions{Encoding: pick(footer.EncodingDeltaLengthByteArray), BloomFilter: bloom()}
	o.Columns["dict2"] = arrowio.ColumnOptions{BloomFilter: bloom()}
	o.Columns["f64"] = arrowio.ColumnOptions{Encoding: pick(footer.EncodingByteStreamSplit), BloomFilter: bloom()}
	for _, name := range []string{"f32", "f16", "ls"} {
		if rng.IntN(5) == 0 {
			o.Columns[name] = arrowio.ColumnOptions{Statistics: footer.Some(false)}
		}
	}
	var cols []string
	for name, c := range o.Columns {
		cols = append(cols, fmt.Sprintf("%s:enc=%v,bloom=%v,stats=%v", name, c.Encoding, c.BloomFilter != nil, c.Statistics))
	}
	slices.Sort(cols)
	desc := fmt.Sprintf("%v nostats=%v codec=%v v=%v nodict=%v page=%d rows=%d rg=%d pstats=%v crc=%v trunc=%d dictlimit=%d cdc=%v",
		cols, o.DisableStatistics, o.Compression, o.PageVersion, o.DisableDictionary, o.DataPageSize, o.DataPageRows, o.MaxRowGroupRows,
		o.PageStatistics, !o.DisableCRC, o.StatisticsTruncate, o.DictionaryPageSizeLimit, o.ContentDefinedChunking != nil)
	return o, desc
}

// TestWriterPropertyStatistics writes random tables (floats with NaN and
// zeros of either sign, float16, text past the truncation length, binary,
// views, fixed-size binary, a dictionary array with null and unused
// entries, an all-null column, a list) sliced at offsets that are not
// byte-aligned, under random options, and checks that pqarrow and Quiver
// read the values back, that every chunk's statistics and every page's
// ColumnIndex entry bound exactly the values of its rows (as truncation
// allows), and that Metrics counts the nulls and NaNs of the input.
func TestWriterPropertyStatistics(t *testing.T) {
	iters, maxRows := 400, 6000
	if testing.Short() {
		iters, maxRows = 20, 2000
	}
	for it := range iters {
		rng := rand.New(rand.NewPCG(uint64(it), 77))
		opts, desc := propOptions(rng)
		if it%4 == 0 {
			// Page headers of whole long values, larger than the room
			// left for them in front of a page built in place.
			opts.Compression, opts.PageStatistics, opts.StatisticsTruncate = footer.CodecUncompressed, true, -1
			desc += " (uncompressed, page statistics, no truncation)"
		}
		encrypted := it%6 == 5
		if encrypted {
			key := bytes.Repeat([]byte{'k'}, 16)
			opts.Encryption = &encrypt.EncryptionConfig{Algorithm: encrypt.Algorithm(rng.IntN(2)), FooterKey: key, FooterKeyMetadata: []byte("kf")}
			desc += " encrypted"
		}
		nullFrac := []float64{0, 0.1, 0.5, 0.97}[rng.IntN(4)]
		t.Run(fmt.Sprint(it), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			n := 1 + rng.IntN(maxRows)
			cols := propColumns(mem, rng, n, nullFrac)
			defer func() {
				for _, c := range cols {
					c.arr.Release()
					if c.want != nil {
						c.want.Release()
					}
				}
			}()
			fields := make([]arrow.Field, len(cols))
			arrs := make([]arrow.Array, len(cols))
			wants := make([]arrow.Array, len(cols))
			for i, c := range cols {
				fields[i], arrs[i], wants[i] = c.field, c.arr, c.arr
				if c.want != nil {
					wants[i] = c.want
				}
			}
			schema := arrow.NewSchema(fields, nil)
			var buf bytes.Buffer
			w, err := arrowio.NewWriter(&buf, schema, opts)
			if err != nil {
				t.Fatal(err)
			}
			// Batches of random sizes, an empty one among them.
			for at, b := 0, 0; at < n; b++ {
				k := min(n-at, rng.IntN(1500))
				if b == 1 {
					k = 0 // an empty batch between two others
				}
				parts := make([]arrow.Array, len(arrs))
				for i, a := range arrs {
					parts[i] = array.NewSlice(a, int64(at), int64(at+k))
					if fields[i].Name == "dict2" {
						parts[i].Release()
						parts[i] = propDictBatch(mem, rng, cols[i].slots[at:at+k])
					}
				}
				rec := array.NewRecordBatch(schema, parts, int64(k))
				for _, p := range parts {
					p.Release()
				}
				err := w.Write(rec)
				rec.Release()
				if err != nil {
					t.Fatalf("%s: Write: %v", desc, err)
				}
				at += k
			}
			if err := w.Close(); err != nil {
				t.Fatalf("%s: Close: %v", desc, err)
			}
			file := buf.Bytes()
			checkPropMetrics(t, desc, w.Metrics(), opts, cols)
			if encrypted {
				keys := encrypt.KeyMap{"kf": opts.Encryption.FooterKey}
				tbl := readDecrypted(t, file, &encrypt.DecryptionConfig{KeyRetriever: keys}, memory.DefaultAllocator)
				checkPropTable(t, desc+" quiver", tbl, wants)
				tbl.Release()
				tbl = pqDecrypted(t, file, keys, nil, memory.DefaultAllocator)
				checkPropTable(t, desc+" pqarrow", tbl, wants)
				tbl.Release()
				return
			}
			tbl := pqRead(t, memory.DefaultAllocator, file)
			checkPropTable(t, desc+" pqarrow", tbl, wants)
			tbl.Release()
			for i, got := range quiverRead(t, file) {
				t.Run("quiver/"+fields[i].Name, func(t *testing.T) { arrowiotest.AssertSameValues(t, wants[i], got) })
				got.Release()
			}
			checkPropStatistics(t, desc, file, opts, cols)
			if opts.PageStatistics {
				checkPropPageHeaders(t, desc, file, opts, cols)
			}
		})
	}
}

// checkPropTable checks that tbl holds arrs.
func checkPropTable(t *testing.T, desc string, tbl arrow.Table, arrs []arrow.Array) {
	t.Helper()
	for i, want := range arrs {
		got := columnOf(t, memory.DefaultAllocator, tbl, i)
		t.Run(tbl.Schema().Field(i).Name, func(t *testing.T) {
			t.Log(desc)
			arrowiotest.AssertSameValues(t, want, got)
		})
		got.Release()
	}
}

// checkPropMetrics checks the file metrics' null and NaN counts against
// the input's.
func checkPropMetrics(t *testing.T, desc string, m *arrowio.FileMetrics, opts arrowio.WriteOptions, cols []propColumn) {
	t.Helper()
	for i, c := range cols {
		vals := c.slots
		if c.elems != nil {
			vals = c.elems
		}
		var nulls, nans int64
		for _, v := range vals {
			if v.null {
				nulls++
			} else if v.nan {
				nans++
			}
		}
		cm := m.Columns[i]
		checkMetricsBounds(t, desc, cm, c, vals, propStats(opts, c.field.Name))
		if cm.Nulls != nulls {
			t.Errorf("%s: column %s: metrics count %d nulls, want %d", desc, cm.Path, cm.Nulls, nulls)
		}
		got, ok := cm.NaNs.Get()
		isFloat := c.field.Name[0] == 'f' && c.field.Name != "fsb" || c.elems != nil
		if ok != isFloat || got != nans {
			t.Errorf("%s: column %s: metrics count %d NaNs (set %v), want %d", desc, cm.Path, got, ok, nans)
		}
	}
}

// checkMetricsBounds checks a flat column's file-wide Lower and Upper
// against its values: equal for floats, and for bytes a prefix of the
// least value and a value no less than the greatest.
func checkMetricsBounds(t *testing.T, desc string, cm arrowio.ColumnMetrics, c propColumn, vals []propValue, statsOn bool) {
	t.Helper()
	lo, hi, n, _ := expectBounds(vals)
	if c.elems != nil || n == 0 || cm.Lower == nil {
		if n > 0 && cm.Lower == nil && c.elems == nil && statsOn {
			t.Errorf("%s: column %s: no metrics lower bound for %d values", desc, cm.Path, n)
		}
		return
	}
	where := fmt.Sprintf("%s: column %s: metrics", desc, cm.Path)
	got := decodeStat(c, cm.Lower)
	if lo.float {
		if got.f != lo.f {
			t.Errorf("%s lower %v, want %v", where, got.f, lo.f)
		}
		if cm.Upper != nil {
			if up := decodeStat(c, cm.Upper); up.f != hi.f {
				t.Errorf("%s upper %v, want %v", where, up.f, hi.f)
			}
		}
		return
	}
	if !strings.HasPrefix(lo.s, got.s) {
		t.Errorf("%s lower %q, want a prefix of %q", where, got.s, lo.s)
	}
	if cm.Upper != nil {
		if up := string(cm.Upper); up < hi.s || len(up) > len(hi.s) && !strings.HasPrefix(up, hi.s) && len(up) > 4*arrowio.MetricsTruncateLength {
			t.Errorf("%s upper %q, want a bound of %q", where, up, hi.s)
		}
	} else if len(hi.s) <= arrowio.MetricsTruncateLength {
		t.Errorf("%s: no upper bound for %q", where, hi.s)
	}
}

// decodeStat decodes a PLAIN statistics value of column c.
func decodeStat(c propColumn, b []byte) propValue {
	switch c.field.Type.ID() {
	case arrow.FLOAT64:
		return propValue{float: true, f: math.Float64frombits(binary.LittleEndian.Uint64(b))}
	case arrow.FLOAT32:
		return propValue{float: true, f: float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))}
	case arrow.FLOAT16:
		return propValue{float: true, f: float64(float16.FromBits(binary.LittleEndian.Uint16(b)).Float32())}
	}
	return propValue{s: string(b)}
}

// expectBounds returns the bounds of vals other than nulls and NaNs, and
// how many there are, and the nulls.
func expectBounds(vals []propValue) (lo, hi propValue, n, nulls int) {
	for _, v := range vals {
		switch {
		case v.null:
			nulls++
		case v.nan:
		case n == 0:
			lo, hi, n = v, v, 1
		default:
			n++
			if v.less(lo) {
				lo = v
			}
			if hi.less(v) {
				hi = v
			}
		}
	}
	return lo, hi, n, nulls
}

// checkBound checks a min (max when upper) of column c, the bytes b,
// against want, the exact bound: equal when exact, otherwise a bound no
// longer than the truncation length (and a prefix of want for a min).
// Floats' zero bounds are -0 for a min and +0 for a max.
func checkBound(t *testing.T, where string, c propColumn, b []byte, want propValue, upper, exact bool, trunc int) {
	t.Helper()
	got := decodeStat(c, b)
	if want.float {
		neg := math.Signbit(got.f)
		if got.f != want.f || got.f == 0 && neg == upper {
			t.Errorf("%s: bound %v (upper %v), want %v", where, got.f, upper, want.f)
		}
		return
	}
	if exact {
		if got.s != want.s {
			t.Errorf("%s: exact bound %q (upper %v), want %q", where, got.s, upper, want.s)
		}
		return
	}
	if trunc <= 0 || len(got.s) > trunc || len(want.s) <= trunc && c.field.Type.ID() != arrow.FIXED_SIZE_BINARY {
		t.Errorf("%s: inexact bound %q (upper %v) for %q, truncation %d", where, got.s, upper, want.s, trunc)
	}
	if !upper && !strings.HasPrefix(want.s, got.s) || upper && got.s <= want.s {
		t.Errorf("%s: truncated bound %q (upper %v) does not bound %q", where, got.s, upper, want.s)
	}
	if c.field.Type.ID() == arrow.STRING && !utf8.ValidString(got.s) && utf8.ValidString(want.s) {
		t.Errorf("%s: bound %q cut inside a character", where, got.s)
	}
}

// checkPropStatistics checks every flat column's chunk statistics and
// ColumnIndex entries against the rows they cover.
func checkPropStatistics(t *testing.T, desc string, file []byte, opts arrowio.WriteOptions, cols []propColumn) {
	t.Helper()
	trunc := opts.StatisticsTruncate
	if trunc == 0 {
		trunc = 64
	}
	meta := readMeta(t, file)
	fr := pqMetadata(t, file)
	defer fr.Close()
	pir := fr.GetPageIndexReader()
	first := 0
	for g, rg := range meta.RowGroups {
		rows := int(rg.NumRows)
		rgr, err := pir.RowGroup(g)
		if err != nil {
			t.Fatal(err)
		}
		for ci, c := range cols {
			if c.slots == nil {
				continue
			}
			vals := c.slots[first : first+rows]
			where := fmt.Sprintf("%s: row group %d column %s", desc, g, c.field.Name)
			md := rg.Columns[ci].MetaData
			st := md.Statistics
			lo, hi, n, nulls := expectBounds(vals)
			if !propStats(opts, c.field.Name) {
				if st != nil && (st.MinValue != nil || st.MaxValue != nil) {
					t.Errorf("%s: bounds with statistics off", where)
				}
				continue
			}
			if st == nil {
				t.Errorf("%s: no statistics", where)
				continue
			}
			if got, _ := st.NullCount.Get(); got != int64(nulls) {
				t.Errorf("%s: null count %d, want %d", where, got, nulls)
			}
			if n == 0 {
				if st.MinValue != nil || st.MaxValue != nil {
					t.Errorf("%s: bounds %x %x without values", where, st.MinValue, st.MaxValue)
				}
			} else {
				checkBound(t, where+" min", c, st.MinValue, lo, false, st.IsMinValueExact.Value, trunc)
				checkBound(t, where+" max", c, st.MaxValue, hi, true, st.IsMaxValueExact.Value, trunc)
			}
			ix, err := rgr.GetColumnIndex(ci)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			oi, err := rgr.GetOffsetIndex(ci)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			checkPropPages(t, where, c, vals, ix, oi, trunc)
		}
		first += rows
	}
}

// checkPropPages checks a chunk's ColumnIndex against its values.
func checkPropPages(t *testing.T, where string, c propColumn, vals []propValue, ix metadata.ColumnIndex, oi metadata.OffsetIndex, trunc int) {
	t.Helper()
	locs := oi.GetPageLocations()
	pageEnd := func(p int) int {
		if p+1 < len(locs) {
			return int(locs[p+1].FirstRowIndex)
		}
		return len(vals)
	}
	if ix == nil {
		// A ColumnIndex is left out only when a page of values has no
		// bounds: every value of it NaN.
		for p, loc := range locs {
			if _, _, n, nulls := expectBounds(vals[loc.FirstRowIndex:pageEnd(p)]); n == 0 && nulls < pageEnd(p)-int(loc.FirstRowIndex) {
				return
			}
		}
		t.Errorf("%s: no column index, though every page of values has bounds", where)
		return
	}
	if len(ix.GetNullPages()) != len(locs) {
		t.Fatalf("%s: %d pages, %d column index entries", where, len(locs), len(ix.GetNullPages()))
	}
	for p, loc := range locs {
		end := pageEnd(p)
		pw := fmt.Sprintf("%s page %d rows [%d, %d)", where, p, loc.FirstRowIndex, end)
		lo, hi, n, nulls := expectBounds(vals[loc.FirstRowIndex:end])
		if got := ix.GetNullCounts()[p]; got != int64(nulls) {
			t.Errorf("%s: null count %d, want %d", pw, got, nulls)
		}
		allNull := nulls == end-int(loc.FirstRowIndex)
		if ix.GetNullPages()[p] != allNull {
			t.Errorf("%s: null page %v with %d nulls", pw, ix.GetNullPages()[p], nulls)
		}
		if n == 0 {
			continue
		}
		min, max := ix.GetMinValues()[p], ix.GetMaxValues()[p]
		// A ColumnIndex says nothing of exactness: a bound that is not
		// the value must be a truncation of it.
		checkBound(t, pw+" min", c, min, lo, false, bytes.Equal(min, []byte(lo.s)), trunc)
		checkBound(t, pw+" max", c, max, hi, true, bytes.Equal(max, []byte(hi.s)), trunc)
	}
}

// propStats reports whether opts write statistics for the column name.
func propStats(opts arrowio.WriteOptions, name string) bool {
	if s, ok := opts.Columns[name].Statistics.Get(); ok {
		return s
	}
	return !opts.DisableStatistics
}

// checkPropPageHeaders checks the statistics of every data page header of
// the flat columns against the page's values.
func checkPropPageHeaders(t *testing.T, desc string, buf []byte, opts arrowio.WriteOptions, cols []propColumn) {
	t.Helper()
	trunc := opts.StatisticsTruncate
	if trunc == 0 {
		trunc = 64
	}
	fr := pqMetadata(t, buf)
	defer fr.Close()
	first := 0
	for g := range fr.NumRowGroups() {
		rg := fr.RowGroup(g)
		rows := int(rg.NumRows())
		for ci, c := range cols {
			if c.slots == nil || !propStats(opts, c.field.Name) {
				continue
			}
			pr, err := rg.GetColumnPageReader(ci)
			if err != nil {
				t.Fatal(err)
			}
			at := first
			for pr.Next() {
				dp, ok := pr.Page().(file.DataPage)
				if !ok {
					continue
				}
				k := int(dp.NumValues())
				where := fmt.Sprintf("%s: row group %d column %s page header rows [%d, %d)", desc, g, c.field.Name, at-first, at-first+k)
				st := dp.Statistics()
				lo, hi, n, nulls := expectBounds(c.slots[at : at+k])
				at += k
				if !st.HasNullCount || st.NullCount != int64(nulls) {
					t.Errorf("%s: null count %d (set %v), want %d", where, st.NullCount, st.HasNullCount, nulls)
				}
				if n == 0 {
					if st.HasMin || st.HasMax {
						t.Errorf("%s: bounds %x %x without values", where, st.Min, st.Max)
					}
					continue
				}
				if !st.HasMin || !st.HasMax {
					t.Errorf("%s: no bounds for %d values", where, n)
					continue
				}
				checkBound(t, where+" min", c, st.Min, lo, false, bytes.Equal(st.Min, []byte(lo.s)), trunc)
				checkBound(t, where+" max", c, st.Max, hi, true, bytes.Equal(st.Max, []byte(hi.s)), trunc)
			}
			if err := pr.Err(); err != nil {
				t.Fatalf("%s: column %s: %v", desc, c.field.Name, err)
			}
			if at != first+rows {
				t.Errorf("%s: row group %d column %s: pages of %d rows, want %d", desc, g, c.field.Name, at-first, rows)
			}
		}
		first += rows
	}
}
