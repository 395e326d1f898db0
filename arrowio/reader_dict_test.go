package arrowio_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
)

// valueStrings renders every slot of a (possibly dictionary) array, so
// arrays with different dictionaries compare by the values they mean.
func valueStrings(a arrow.Array) []string {
	out := make([]string, a.Len())
	for i := range out {
		switch {
		case a.IsNull(i):
			out[i] = "<null>"
		default:
			if d, ok := a.(*array.Dictionary); ok {
				out[i] = d.Dictionary().ValueStr(d.GetValueIndex(i))
			} else {
				out[i] = a.ValueStr(i)
			}
		}
	}
	return out
}

// chunkedStrings is valueStrings over every chunk of a column.
func chunkedStrings(c *arrow.Chunked) []string {
	var out []string
	for _, ch := range c.Chunks() {
		out = append(out, valueStrings(ch)...)
	}
	return out
}

func TestReadStoredDictionaryType(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, idx := range []arrow.DataType{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64} {
		dt := &arrow.DictionaryType{IndexType: idx, ValueType: arrow.BinaryTypes.String}
		b := array.NewDictionaryBuilder(mem, dt).(*array.BinaryDictionaryBuilder)
		for i := range 3000 {
			if i%7 == 0 {
				b.AppendNull()
				continue
			}
			b.AppendString(fmt.Sprint("city-", i%23))
		}
		arr := b.NewArray()
		b.Release()
		schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: dt, Nullable: true}}, nil)
		rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
		file := arrowiotest.WritePqarrow(t, rec, parquet.WithMaxRowGroupLength(1000), parquet.WithDataPageSize(512))
		tbl := arrowiotest.ReadTable(t, file, arrowio.ReadOptions{Allocator: mem})
		if got := tbl.Schema().Field(0).Type; !arrow.TypeEqual(got, dt) {
			t.Errorf("%s: read as %s", dt, got)
		}
		if got, want := chunkedStrings(tbl.Column(0).Data()), valueStrings(arr); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: values differ", dt)
		}
		tbl.Release()
		rec.Release()
		arr.Release()
	}
}

func TestReadDictionaryOptionWithFallback(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewStringBuilder(mem)
	for i := range 5000 {
		switch {
		case i%11 == 0:
			b.AppendNull()
		case i < 2000:
			b.Append(fmt.Sprint("low-", i%5))
		default:
			b.Append(fmt.Sprint("high-cardinality-value-", i)) // overflows the dictionary
		}
	}
	arr := b.NewArray()
	b.Release()
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
	defer rec.Release()
	// A small dictionary limit makes arrow-go fall back to PLAIN mid-chunk.
	file := arrowiotest.WritePqarrow(t, rec, parquet.WithDictionaryPageSizeLimit(2048), parquet.WithDataPageSize(1024))
	ft, err := footer.ReadFooter(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	var plainPages, dictPages int32
	for _, es := range ft.Meta.RowGroups[0].Columns[0].MetaData.EncodingStats {
		switch {
		case es.PageType == footer.PageTypeData && es.Encoding == footer.EncodingPlain:
			plainPages += es.Count
		case es.PageType == footer.PageTypeData:
			dictPages += es.Count
		}
	}
	if plainPages == 0 || dictPages == 0 {
		t.Fatalf("want a chunk that falls back from dictionary to PLAIN pages: %d dictionary, %d PLAIN", dictPages, plainPages)
	}
	for _, batch := range []int{0, 333} {
		rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Allocator: mem, Dictionary: []string{"s"}, BatchSize: batch})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := rd.Schema().Field(0).Type.(*arrow.DictionaryType); !ok {
			t.Fatalf("schema type %s, want a dictionary", rd.Schema().Field(0).Type)
		}
		rr, err := rd.RecordReader(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for rr.Next() {
			got = append(got, valueStrings(rr.RecordBatch().Column(0))...)
		}
		if err := rr.Err(); err != nil {
			t.Fatal(err)
		}
		rr.Release()
		rd.Close()
		if fmt.Sprint(got) != fmt.Sprint(valueStrings(arr)) {
			t.Errorf("batch %d: values differ from the input", batch)
		}
	}
}

func TestDictionaryOptionRejectsNumbers(t *testing.T) {
	if _, err := arrowio.OpenFile(tripsFixture, arrowio.ReadOptions{Dictionary: []string{"trip_id"}}); err == nil {
		t.Error("an int64 column accepted as a dictionary")
	}
	rd, err := arrowio.OpenFile(tripsFixture, arrowio.ReadOptions{Dictionary: []string{"vendor"}, Columns: []string{"vendor"}})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	rec, err := rd.ReadRowGroup(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	d := rec.Column(0).(*array.Dictionary)
	if d.Dictionary().Len() != 4 || d.Len() != 500 {
		t.Errorf("vendor dictionary of %d values over %d rows", d.Dictionary().Len(), d.Len())
	}
}

// TestReadStringViews reads the fixture's strings as string_view and checks
// them, inline and out-of-line, against the plain string read.
func TestReadStringViews(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	read := func(layout arrowio.StringLayout) arrow.Table {
		rd, err := arrowio.OpenFile(tripsFixture, arrowio.ReadOptions{Allocator: mem, Columns: []string{"vendor", "note"}, Mapping: arrowio.SchemaOptions{Strings: layout}})
		if err != nil {
			t.Fatal(err)
		}
		defer rd.Close()
		tbl, err := rd.ReadTable(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return tbl
	}
	views, plain := read(arrowio.StringsView), read(arrowio.StringsDefault)
	defer views.Release()
	defer plain.Release()
	for i := range 2 {
		if id := views.Schema().Field(i).Type.ID(); id != arrow.STRING_VIEW {
			t.Errorf("field %d read as %s", i, views.Schema().Field(i).Type)
		}
		if got, want := chunkedStrings(views.Column(i).Data()), chunkedStrings(plain.Column(i).Data()); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("column %d: string_view values differ from string values", i)
		}
	}
	for _, ch := range views.Column(1).Data().Chunks() {
		if err := ch.(*array.StringView).ValidateFull(); err != nil {
			t.Errorf("invalid string_view array: %v", err)
		}
	}
}

// TestStringLayoutsReadAlike reads every corpus file whose default read
// succeeds (up to 4 MB, and leaving out the heavy one) with the large and
// the view string layouts as well, and checks that each column, nested
// strings in lists, maps and structs included, holds the same values in
// all three (as JSON, which spells the layouts alike), and that the arrays
// that can validate themselves are valid.
func TestStringLayoutsReadAlike(t *testing.T) {
	root := corpus.Dir(t)
	checked := 0
	for _, rel := range corpus.Files(t) {
		path := filepath.Join(root, rel)
		if st, err := os.Stat(path); err != nil || st.Size() > 4<<20 || strings.Contains(rel, "large_string_map") {
			continue
		}
		read := func(layout arrowio.StringLayout) (arrow.Table, error) {
			rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{Mapping: arrowio.SchemaOptions{Strings: layout}})
			if err != nil {
				return nil, err
			}
			defer rd.Close()
			return rd.ReadTable(context.Background())
		}
		plain, err := read(arrowio.StringsDefault)
		if err != nil {
			continue // the corpus tests check why
		}
		want := tableJSON(t, plain)
		plain.Release()
		for _, layout := range []arrowio.StringLayout{arrowio.StringsLarge, arrowio.StringsView} {
			got, err := read(layout)
			if err != nil {
				t.Errorf("%s, layout %d: %v", rel, layout, err)
				continue
			}
			for i := range int(got.NumCols()) {
				for _, ch := range got.Column(i).Data().Chunks() {
					if v, ok := ch.(interface{ ValidateFull() error }); !ok {
					} else if err := v.ValidateFull(); err != nil {
						t.Errorf("%s, layout %d, column %s: %v", rel, layout, got.Schema().Field(i).Name, err)
					}
				}
			}
			if g := tableJSON(t, got); !slices.Equal(g, want) {
				t.Errorf("%s, layout %d: values differ from the default layout's", rel, layout)
			}
			got.Release()
		}
		checked++
	}
	if checked < 100 {
		t.Errorf("compared %d corpus files, expected over 100", checked)
	}
}

// tableJSON returns each column of tbl as JSON.
func tableJSON(t *testing.T, tbl arrow.Table) []string {
	t.Helper()
	var out []string
	for i := range int(tbl.NumCols()) {
		var b strings.Builder
		for _, ch := range tbl.Column(i).Data().Chunks() {
			js, err := ch.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			b.Write(js)
		}
		out = append(out, b.String())
	}
	return out
}
