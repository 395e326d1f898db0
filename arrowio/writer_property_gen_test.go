package arrowio_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
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
	// elems are a list column's leaf entries (a null or empty list is a
	// null entry), and rowEnd[r] where row r's end.
	elems  []propValue
	rowEnd []int
}

// entries returns the column's leaf entries.
func (c *propColumn) entries() []propValue {
	if c.elems != nil {
		return c.elems
	}
	return c.slots
}

// rowStart returns the leaf entry row r starts at.
func (c *propColumn) rowStart(r int) int {
	if c.elems == nil {
		return r
	}
	if r == 0 {
		return 0
	}
	return c.rowEnd[r-1]
}

// rowVals returns the leaf entries of rows [lo, hi).
func (c *propColumn) rowVals(lo, hi int) []propValue {
	return c.entries()[c.rowStart(lo):c.rowStart(hi)]
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
		if rng.IntN(20) == 0 {
			// Longer than a page's room for its header many times over.
			return strings.Repeat("y", 200+rng.IntN(3000)) + fmt.Sprint(rng.IntN(10))
		}
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
	// column adds a column of values value appends, or nulls.
	column := func(name string, dt arrow.DataType, value func(b array.Builder) propValue) {
		b := array.NewBuilder(mem, dt)
		slots := make([]propValue, total)
		for i := range slots {
			if null() {
				b.AppendNull()
				slots[i].null = true
				continue
			}
			slots[i] = value(b)
		}
		add(name, dt, b, slots)
	}
	floats := func(name string, dt arrow.DataType) {
		column(name, dt, func(b array.Builder) propValue {
			f := propFloat(rng)
			switch b := b.(type) {
			case *array.Float64Builder:
				b.Append(f)
			case *array.Float32Builder:
				b.Append(float32(f))
			case *array.Float16Builder:
				b.Append(float16.New(float32(f)))
			}
			return propValue{float: true, f: f, nan: math.IsNaN(f)}
		})
	}
	floats("f64", arrow.PrimitiveTypes.Float64)
	floats("f32", arrow.PrimitiveTypes.Float32)
	floats("f16", arrow.FixedWidthTypes.Float16)
	strs := func(name string, dt arrow.DataType, text bool) {
		column(name, dt, func(b array.Builder) propValue {
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
			case *array.BinaryViewBuilder:
				b.Append([]byte(s))
			case *array.FixedSizeBinaryBuilder:
				s = (s + "\x00\x00\x00")[:3]
				b.Append([]byte(s))
			}
			return propValue{s: s}
		})
	}
	// dictionary adds a dictionary array of type dt over entries, its
	// slots null or an index among the first of them.
	dictionary := func(name string, dt *arrow.DictionaryType, entries []propValue) {
		db := array.NewBuilder(mem, dt.ValueType)
		for _, e := range entries {
			propAppend(db, e)
		}
		ib := array.NewBuilder(mem, dt.IndexType)
		slots := make([]propValue, total)
		used := 1 + rng.IntN(len(entries))
		for i := range slots {
			if null() {
				ib.AppendNull()
				slots[i].null = true
				continue
			}
			x := rng.IntN(used)
			switch b := ib.(type) {
			case *array.Int8Builder:
				b.Append(int8(x))
			case *array.Int16Builder:
				b.Append(int16(x))
			}
			slots[i] = entries[x]
		}
		dict, idx := db.NewArray(), ib.NewArray()
		db.Release()
		ib.Release()
		full := array.NewDictionaryArray(dt, idx, dict)
		idx.Release()
		dict.Release()
		arr := array.NewSlice(full, int64(off), int64(off+n))
		full.Release()
		cols = append(cols, propColumn{field: arrow.Field{Name: name, Type: dt, Nullable: true}, arr: arr, slots: slots[off : off+n], want: propWant(mem, dt.ValueType, slots[off:off+n])})
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
	strs("lbin", arrow.BinaryTypes.LargeBinary, false)
	strs("bv", arrow.BinaryTypes.BinaryView, false)
	strs("fsb", &arrow.FixedSizeBinaryType{ByteWidth: 3}, false)

	// Dictionary arrays whose dictionaries have null and unused entries,
	// some slots pointing at the null ones (a NaN among the doubles).
	entries := make([]propValue, 3+rng.IntN(30))
	for i := range entries {
		entries[i] = propValue{null: rng.IntN(6) == 0, s: propString(rng, true)}
	}
	dictionary("dict", &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}, entries)
	fentries := make([]propValue, 2+rng.IntN(20))
	for i := range fentries {
		f := propFloat(rng)
		fentries[i] = propValue{null: rng.IntN(8) == 0, float: true, f: f, nan: math.IsNaN(f)}
	}
	dictionary("fdict", &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.PrimitiveTypes.Float64}, fentries)

	// A dictionary array of another dictionary in every batch (the
	// writer replaces arr's slices with propDictBatch's arrays).
	slots2 := make([]propValue, n)
	for i := range slots2 {
		if null() {
			slots2[i].null = true
		} else {
			slots2[i].s = entries[rng.IntN(len(entries))].s + fmt.Sprint(rng.IntN(3))
		}
	}
	arr2 := propDictBatch(mem, rng, slots2)
	cols = append(cols, propColumn{field: arrow.Field{Name: "dict2", Type: arr2.DataType(), Nullable: true}, arr: arr2, slots: slots2, want: propWant(mem, arrow.BinaryTypes.String, slots2)})

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
	var rowEnd []int
	for range total {
		if null() {
			lb.AppendNull()
			elems = append(elems, propValue{null: true})
			rowEnd = append(rowEnd, len(elems))
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
		rowEnd = append(rowEnd, len(elems))
	}
	fullList := lb.NewArray()
	lb.Release()
	list := array.NewSlice(fullList, int64(off), int64(off+n))
	fullList.Release()
	c := propColumn{field: arrow.Field{Name: "list", Type: list.DataType(), Nullable: true}, arr: list, elems: elems, rowEnd: rowEnd}
	base := c.rowStart(off)
	c.elems = c.rowVals(off, off+n)
	c.rowEnd = c.rowEnd[off : off+n]
	for i := range c.rowEnd {
		c.rowEnd[i] -= base
	}
	cols = append(cols, c)
	return cols
}

// propAppend appends v, text or a double, to b.
func propAppend(b array.Builder, v propValue) {
	if v.null {
		b.AppendNull()
		return
	}
	switch b := b.(type) {
	case *array.StringBuilder:
		b.Append(v.s)
	case *array.Float64Builder:
		b.Append(v.f)
	}
}

// propWant returns slots as an array of type dt (string or float64),
// what a reader returns for them.
func propWant(mem memory.Allocator, dt arrow.DataType, slots []propValue) arrow.Array {
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	for _, v := range slots {
		propAppend(b, v)
	}
	return b.NewArray()
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
	if rng.IntN(4) == 0 {
		o.MaxRowGroupBytes = 4096 << rng.IntN(5) // row groups cut inside batches by size
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
	desc := fmt.Sprintf("%v nostats=%v codec=%v v=%v nodict=%v page=%d rows=%d rg=%d/%dB pstats=%v crc=%v trunc=%d dictlimit=%d cdc=%v",
		cols, o.DisableStatistics, o.Compression, o.PageVersion, o.DisableDictionary, o.DataPageSize, o.DataPageRows, o.MaxRowGroupRows, o.MaxRowGroupBytes,
		o.PageStatistics, !o.DisableCRC, o.StatisticsTruncate, o.DictionaryPageSizeLimit, o.ContentDefinedChunking != nil)
	return o, desc
}
