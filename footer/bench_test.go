package footer

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/quiverio/quiver/internal/cputime"
)

// arrowFile writes, with arrow-go's pqarrow, a file of cols columns (int64,
// double, nullable string and a list of int32 in turn) and rowGroups row
// groups of one row each, with statistics and key-value metadata, and
// returns the file and its footer (the serialized FileMetaData).
func arrowFile(tb testing.TB, cols, rowGroups int) (file, meta []byte) {
	tb.Helper()
	fields := make([]arrow.Field, cols)
	for i := range fields {
		name := fmt.Sprintf("column_%04d", i)
		switch i % 4 {
		case 0:
			fields[i] = arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int64}
		case 1:
			fields[i] = arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Float64}
		case 2:
			fields[i] = arrow.Field{Name: name, Type: arrow.BinaryTypes.String, Nullable: true}
		default:
			fields[i] = arrow.Field{Name: name, Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true}
		}
	}
	md := arrow.NewMetadata([]string{"origin"}, []string{"quiver footer tests"})
	schema := arrow.NewSchema(fields, &md)
	var buf bytes.Buffer
	props := parquet.NewWriterProperties(parquet.WithStats(true), parquet.WithMaxRowGroupLength(1),
		parquet.WithCreatedBy("quiver-footer-test"))
	w, err := pqarrow.NewFileWriter(schema, &buf, props, pqarrow.DefaultWriterProps())
	if err != nil {
		tb.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for rg := range rowGroups {
		for i, f := range b.Fields() {
			switch f := f.(type) {
			case *array.Int64Builder:
				f.Append(int64(rg*cols + i))
			case *array.Float64Builder:
				f.Append(float64(rg) + float64(i)/8)
			case *array.StringBuilder:
				if rg%3 == 2 {
					f.AppendNull()
				} else {
					f.Append(fmt.Sprintf("value %d/%d", rg, i))
				}
			case *array.ListBuilder:
				f.Append(true)
				f.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{int32(rg), int32(i)}, nil)
			}
		}
		rec := b.NewRecordBatch()
		err := w.Write(rec)
		rec.Release()
		if err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	file = buf.Bytes()
	n := int(binary.LittleEndian.Uint32(file[len(file)-8:]))
	return file, file[len(file)-8-n : len(file)-8]
}

// BenchmarkUnmarshalFileMetaData decodes the footer of a 1,000-column,
// 10-row-group file written by arrow-go, with quiver and with arrow-go.
// SetBytes counts footer bytes; values/s counts column chunks.
func BenchmarkUnmarshalFileMetaData(b *testing.B) {
	_, meta := arrowFile(b, 1000, 10)
	columns := 1000 * 10
	b.Run("impl=quiver", func(b *testing.B) {
		b.SetBytes(int64(len(meta)))
		b.ReportAllocs()
		cpu, ok := cputime.Process()
		for b.Loop() {
			// A fresh value each time, as ReadFooter does.
			if _, err := Unmarshal(meta, new(FileMetaData)); err != nil {
				b.Fatal(err)
			}
		}
		cputime.Report(b, cpu, ok)
		b.ReportMetric(float64(b.N*columns)/b.Elapsed().Seconds(), "values/s")
	})
	b.Run("impl=arrow-go", func(b *testing.B) {
		b.SetBytes(int64(len(meta)))
		b.ReportAllocs()
		cpu, ok := cputime.Process()
		for b.Loop() {
			if _, err := metadata.NewFileMetaData(meta, nil); err != nil {
				b.Fatal(err)
			}
		}
		cputime.Report(b, cpu, ok)
		b.ReportMetric(float64(b.N*columns)/b.Elapsed().Seconds(), "values/s")
	})
}

// BenchmarkMarshalFileMetaData encodes the same footer.
func BenchmarkMarshalFileMetaData(b *testing.B) {
	_, meta := arrowFile(b, 1000, 10)
	var fm FileMetaData
	if _, err := Unmarshal(meta, &fm); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(meta)))
	b.ReportAllocs()
	buf := make([]byte, 0, 2*len(meta))
	for b.Loop() {
		buf = Marshal(buf[:0], &fm)
	}
	b.ReportMetric(float64(b.N*1000*10)/b.Elapsed().Seconds(), "values/s")
}

// BenchmarkUnmarshalPageHeader decodes a typical data page header.
func BenchmarkUnmarshalPageHeader(b *testing.B) {
	in := Marshal(nil, &PageHeader{Type: PageTypeDataV2, UncompressedPageSize: 1 << 20, CompressedPageSize: 400000,
		CRC: Some[int32](-12345), DataPageHeaderV2: &DataPageHeaderV2{NumValues: 100000, NumNulls: 12, NumRows: 100000,
			Encoding: EncodingRLEDictionary, DefinitionLevelsByteLength: 100, Statistics: &Statistics{
				NullCount: Some[int64](12), MaxValue: []byte("zzzz"), MinValue: []byte("aaaa")}}})
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	var h PageHeader
	for b.Loop() {
		if _, err := Unmarshal(in, &h); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "values/s")
}
