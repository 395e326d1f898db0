package arrowio_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
)

// FuzzWriter builds columns from arbitrary bytes (int32, int64, double,
// string, boolean and fixed_size_binary values, nulls from their bits),
// writes them with options picked by the first bytes, and checks that
// Quiver's reader gives the values back. The writer must never panic.
func FuzzWriter(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	f.Add([]byte{0xff, 0x13, 0x07, 'h', 'e', 'l', 'l', 'o', 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff})
	f.Add(bytes.Repeat([]byte{0x55, 0, 0, 0}, 600))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		opts := fuzzOptions(data[0], data[1])
		sliceAt := int(data[2] % 4)
		data = data[3:]
		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		defer mem.AssertSize(t, 0)
		cols := fuzzColumns(mem, data)
		defer releaseAll(cols)
		fields := make([]arrow.Field, len(cols))
		for i, c := range cols {
			fields[i] = arrow.Field{Name: string(rune('a' + i)), Type: c.DataType(), Nullable: true}
		}
		for i, c := range cols {
			if sliceAt <= c.Len() {
				cols[i] = array.NewSlice(c, int64(sliceAt), int64(c.Len()))
				c.Release()
			}
		}
		n := cols[0].Len()
		for _, c := range cols {
			n = min(n, c.Len())
		}
		for i, c := range cols {
			cols[i] = array.NewSlice(c, 0, int64(n))
			c.Release()
		}
		rec := record(fields, cols)
		defer rec.Release()
		var buf bytes.Buffer
		w, err := arrowio.NewWriter(&buf, rec.Schema(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		got := quiverRead(t, buf.Bytes())
		defer releaseAll(got)
		for i := range got {
			arrowiotest.AssertSameValues(t, cols[i], got[i])
		}
	})
}

// fuzzOptions picks writer options from two bytes.
func fuzzOptions(a, b byte) arrowio.WriteOptions {
	codecs := []footer.CompressionCodec{footer.CodecUncompressed, footer.CodecSnappy, footer.CodecZstd, footer.CodecGzip, footer.CodecLZ4Raw, footer.CodecBrotli}
	o := arrowio.WriteOptions{
		Compression:             codecs[int(a&7)%len(codecs)],
		PageVersion:             arrowio.PageVersion(1 + (a>>3)&1),
		DisableDictionary:       a&0x10 != 0,
		DataPageSize:            1 << (b & 15),
		DictionaryPageSizeLimit: 1 << ((b >> 4) + 2),
		MaxRowGroupRows:         int64(1 + int(a>>5)*50),
		PageStatistics:          b&1 != 0,
		Parallelism:             1 + int(b>>7),
	}
	if a&0x20 != 0 {
		enc := []footer.Encoding{footer.EncodingDeltaBinaryPacked, footer.EncodingByteStreamSplit}[b>>7]
		o.Columns = map[string]arrowio.ColumnOptions{
			"a": {Encoding: footer.Some(enc)}, "b": {Encoding: footer.Some(enc)},
			"d": {Encoding: footer.Some([]footer.Encoding{footer.EncodingDeltaLengthByteArray, footer.EncodingDeltaByteArray}[b&1])},
			"e": {Encoding: footer.Some(footer.EncodingRLE)},
		}
	}
	return o
}

// fuzzColumns cuts data into int32, int64, double, string, boolean and
// fixed_size_binary(3) columns; every ninth byte (from the start) decides
// nulls.
func fuzzColumns(mem memory.Allocator, data []byte) []arrow.Array {
	null := func(i int) bool { return i < len(data) && data[i]%9 == 0 }
	i32 := array.NewInt32Builder(mem)
	i64 := array.NewInt64Builder(mem)
	f64 := array.NewFloat64Builder(mem)
	str := array.NewStringBuilder(mem)
	bl := array.NewBooleanBuilder(mem)
	fsb := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: 3})
	for i := 0; i+8 <= len(data); i += 8 {
		v := binary.LittleEndian.Uint64(data[i:])
		if null(i) {
			i32.AppendNull()
			i64.AppendNull()
			f64.AppendNull()
			str.AppendNull()
			bl.AppendNull()
			fsb.AppendNull()
			continue
		}
		i32.Append(int32(v))
		i64.Append(int64(v))
		f64.Append(float64(int64(v)) / 7)
		str.Append(string(data[i : i+int(v%9)]))
		bl.Append(v&1 == 1)
		fsb.Append(data[i : i+3])
	}
	bs := []array.Builder{i32, i64, f64, str, bl, fsb}
	cols := make([]arrow.Array, len(bs))
	for i, b := range bs {
		cols[i] = b.NewArray()
		b.Release()
	}
	return cols
}
