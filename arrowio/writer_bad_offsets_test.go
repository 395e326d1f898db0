package arrowio_test

import (
	"encoding/binary"
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
)

// badStrings returns a string array of three slots whose offsets are
// offs (four of them) into data, built without validation.
func badStrings(dt arrow.DataType, offs []int64, data []byte) arrow.Array {
	var ob []byte
	for _, o := range offs {
		if dt.ID() == arrow.LARGE_STRING || dt.ID() == arrow.LARGE_BINARY {
			ob = binary.LittleEndian.AppendUint64(ob, uint64(o))
		} else {
			ob = binary.LittleEndian.AppendUint32(ob, uint32(o))
		}
	}
	d := array.NewData(dt, len(offs)-1, []*memory.Buffer{nil, memory.NewBufferBytes(ob), memory.NewBufferBytes(data)}, nil, 0, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// TestWriterMalformedOffsets writes string arrays whose offsets leave
// their data or decrease, plain and as a dictionary array's dictionary,
// under options that take every path to the values (dictionary on and
// off, PLAIN uncompressed chunks sized up front, DELTA encodings, a list's
// elements, a geometry column's WKB,
// content-defined chunking, bloom filters), and checks that Write
// reports an error without panicking or allocating the offsets' span.
func TestWriterMalformedOffsets(t *testing.T) {
	data := []byte("abcdefgh")
	// arrow-go checks only that the last offset lies within the data.
	bad := [][]int64{
		{-1 << 30, 0, 2, 4}, // a first value starting far before the data
		{-4, 0, 2, 4},       // and just before it
		{0, 5, 2, 8},        // decreasing
		{0, 1 << 30, 2, 3},  // a value ending far past the data
		{0, 2, 9, 8},        // and just past it
	}
	optss := map[string]arrowio.WriteOptions{
		"dict":         {},
		"plain":        {DisableDictionary: true},
		"plain-snappy": {DisableDictionary: true, Compression: footer.CodecSnappy},
		"delta":        {DisableDictionary: true, Encoding: footer.Some(footer.EncodingDeltaByteArray)},
		"cdc":          {ContentDefinedChunking: &arrowio.CDCOptions{}},
		"bloom":        {Columns: map[string]arrowio.ColumnOptions{"s": {BloomFilter: &arrowio.BloomFilterOptions{FPP: 0.01}}}},
	}
	for _, dt := range []arrow.DataType{arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString} {
		for i, offs := range bad {
			for name, opts := range optss {
				for _, wrap := range []string{"flat", "dict", "list", "geo"} {
					t.Run(fmt.Sprintf("%s/%d/%s/%s", dt, i, name, wrap), func(t *testing.T) {
						arr := badStrings(dt, offs, data)
						switch wrap {
						case "geo":
							// WKB values, whose bounds are taken before
							// anything else reads them.
							bin := arrow.BinaryTypes.Binary
							if dt.ID() == arrow.LARGE_STRING {
								bin = arrow.BinaryTypes.LargeBinary
							}
							arr.Release()
							storage := badStrings(bin, offs, data)
							arr = array.NewExtensionArrayWithStorage(wkbType(t, bin, `{"crs":"EPSG:5070"}`), storage)
							storage.Release()
						case "list":
							ob := binary.LittleEndian.AppendUint32(nil, 0)
							ob = binary.LittleEndian.AppendUint32(ob, 1)
							ob = binary.LittleEndian.AppendUint32(ob, uint32(arr.Len()))
							d := array.NewData(arrow.ListOf(dt), 2, []*memory.Buffer{nil, memory.NewBufferBytes(ob)}, []arrow.ArrayData{arr.Data()}, 0, 0)
							arr.Release()
							arr = array.MakeFromData(d)
							d.Release()
						case "dict":
							ib := array.NewInt32Builder(memory.DefaultAllocator)
							ib.AppendValues([]int32{0, 1, 2, 2, 1}, nil)
							idx := ib.NewArray()
							ib.Release()
							d := array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: dt}, idx, arr)
							idx.Release()
							arr.Release()
							arr = d
						}
						defer arr.Release()
						schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arr.DataType(), Nullable: true}}, nil)
						rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
						defer rec.Release()
						o := opts
						if b, ok := o.Columns["s"]; ok && wrap == "list" {
							o.Columns = map[string]arrowio.ColumnOptions{"s.list.element": b}
						}
						w, err := arrowio.NewWriter(io.Discard, schema, o)
						if err != nil {
							t.Fatal(err)
						}
						var before, after runtime.MemStats
						runtime.ReadMemStats(&before)
						err = w.Write(rec)
						if err == nil {
							err = w.Close()
						}
						runtime.ReadMemStats(&after)
						if err == nil {
							t.Fatalf("offsets %v into %d bytes: no error", offs, len(data))
						}
						if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
							t.Errorf("offsets %v: %d bytes allocated before the error %v", offs, grew, err)
						}
					})
				}
			}
		}
	}
}
