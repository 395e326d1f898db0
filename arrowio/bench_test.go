package arrowio_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

// benchRecord returns n rows of an order-lines table: sorted int64 keys,
// small ints, prices as float64 and decimal128(12,2), a low-cardinality
// string, dates, mostly distinct nullable comments and nullable booleans.
func benchRecord(n int) arrow.RecordBatch {
	mem := memory.DefaultAllocator
	rng := rand.New(rand.NewPCG(42, 42))
	keys := array.NewInt64Builder(mem)
	qty := array.NewInt32Builder(mem)
	price := array.NewFloat64Builder(mem)
	net := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 12, Scale: 2})
	mode := array.NewStringBuilder(mem)
	date := array.NewDate32Builder(mem)
	comment := array.NewStringBuilder(mem)
	flag := array.NewBooleanBuilder(mem)
	modes := []string{"AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"}
	words := []string{"quick", "brown", "foxes", "sleep", "furiously", "among", "the", "final", "deposits", "ironic", "packages", "haggle"}
	key := int64(1)
	var sb []byte
	for range n {
		if rng.IntN(4) == 0 {
			key += 1 + int64(rng.IntN(5))
		}
		keys.Append(key)
		q := int32(1 + rng.IntN(50))
		qty.Append(q)
		p := float64(int(float64(q)*(900+float64(rng.IntN(100000))/100)*100)) / 100
		price.Append(p)
		net.Append(decimal128.FromI64(int64(p * float64(100-rng.IntN(11)))))
		mode.Append(modes[rng.IntN(len(modes))])
		date.Append(arrow.Date32(8000 + rng.IntN(2500)))
		if rng.IntN(10) == 0 {
			comment.AppendNull()
		} else {
			sb = sb[:0]
			for k := range 2 + rng.IntN(6) {
				if k > 0 {
					sb = append(sb, ' ')
				}
				sb = append(sb, words[rng.IntN(len(words))]...)
			}
			comment.BinaryBuilder.Append(sb)
		}
		if rng.IntN(20) == 0 {
			flag.AppendNull()
		} else {
			flag.Append(rng.IntN(3) == 0)
		}
	}
	bs := []array.Builder{keys, qty, price, net, mode, date, comment, flag}
	cols := make([]arrow.Array, len(bs))
	fields := make([]arrow.Field, len(bs))
	names := []string{"key", "qty", "price", "net", "mode", "date", "comment", "flag"}
	for i, b := range bs {
		cols[i] = b.NewArray()
		b.Release()
		fields[i] = arrow.Field{Name: names[i], Type: cols[i].DataType(), Nullable: i >= 6}
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(n))
	releaseAll(cols)
	return rec
}

// countingWriter discards what it is given and counts the bytes.
type countingWriter int64

func (w *countingWriter) Write(p []byte) (int, error) {
	*w += countingWriter(len(p))
	return len(p), nil
}

// benchConfig is one writer configuration, as Quiver and pqarrow options.
type benchConfig struct {
	name string
	ours arrowio.WriteOptions
	pq   func(*arrow.Schema) []parquet.WriterProperty
}

var benchConfigs = []benchConfig{
	{"dict-snappy", arrowio.WriteOptions{Compression: footer.CodecSnappy},
		func(*arrow.Schema) []parquet.WriterProperty {
			return []parquet.WriterProperty{parquet.WithCompression(compress.Codecs.Snappy)}
		}},
	{"plain", arrowio.WriteOptions{DisableDictionary: true},
		func(*arrow.Schema) []parquet.WriterProperty {
			return []parquet.WriterProperty{parquet.WithDictionaryDefault(false)}
		}},
	{"zstd-v2", arrowio.WriteOptions{Compression: footer.CodecZstd, PageVersion: arrowio.PageV2},
		func(*arrow.Schema) []parquet.WriterProperty {
			return []parquet.WriterProperty{parquet.WithCompression(compress.Codecs.Zstd), parquet.WithDataPageVersion(parquet.DataPageV2)}
		}},
	{"delta", arrowio.WriteOptions{DisableDictionary: true, PageVersion: arrowio.PageV2, Compression: footer.CodecSnappy, Columns: map[string]arrowio.ColumnOptions{
		"key": {Encoding: footer.Some(footer.EncodingDeltaBinaryPacked)}, "qty": {Encoding: footer.Some(footer.EncodingDeltaBinaryPacked)},
		"date": {Encoding: footer.Some(footer.EncodingDeltaBinaryPacked)}, "mode": {Encoding: footer.Some(footer.EncodingDeltaByteArray)},
		"comment": {Encoding: footer.Some(footer.EncodingDeltaLengthByteArray)}}},
		func(*arrow.Schema) []parquet.WriterProperty {
			return []parquet.WriterProperty{parquet.WithDictionaryDefault(false), parquet.WithDataPageVersion(parquet.DataPageV2),
				parquet.WithCompression(compress.Codecs.Snappy),
				parquet.WithEncodingFor("key", parquet.Encodings.DeltaBinaryPacked), parquet.WithEncodingFor("qty", parquet.Encodings.DeltaBinaryPacked),
				parquet.WithEncodingFor("date", parquet.Encodings.DeltaBinaryPacked), parquet.WithEncodingFor("mode", parquet.Encodings.DeltaByteArray),
				parquet.WithEncodingFor("comment", parquet.Encodings.DeltaLengthByteArray)}
		}},
}

// BenchmarkWriter writes the same batches, one row group each, with Quiver
// (one goroutine) and pqarrow in each configuration; file-bytes is the
// output size.
func BenchmarkWriter(b *testing.B) {
	rows := 1 << 20
	if testing.Short() {
		rows = 1 << 14
	}
	rec := benchRecord(rows)
	defer rec.Release()
	const groups = 8
	var recs []arrow.RecordBatch
	for g := range groups {
		recs = append(recs, rec.NewSlice(int64(g*rows/groups), int64((g+1)*rows/groups)))
	}
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	for _, c := range benchConfigs {
		impls := []struct {
			name  string
			write func(io.Writer) error
		}{
			{"quiver", func(buf io.Writer) error {
				opts := c.ours
				opts.Parallelism = 1
				w, err := arrowio.NewWriter(buf, rec.Schema(), opts)
				if err != nil {
					return err
				}
				for _, r := range recs {
					if err := w.Write(r); err != nil {
						return err
					}
					if err := w.Flush(); err != nil { // a row group per batch, as pqarrow's Write
						return err
					}
				}
				return w.Close()
			}},
			{"pqarrow", func(buf io.Writer) error {
				w, err := pqarrow.NewFileWriter(rec.Schema(), buf, parquet.NewWriterProperties(c.pq(rec.Schema())...),
					pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
				if err != nil {
					return err
				}
				for _, r := range recs {
					if err := w.Write(r); err != nil {
						return err
					}
				}
				return w.Close()
			}},
		}
		for _, im := range impls {
			b.Run(fmt.Sprintf("config=%s/impl=%s", c.name, im.name), func(b *testing.B) {
				var out countingWriter
				b.SetBytes(batchBytes(rec))
				b.ReportAllocs()
				for b.Loop() {
					out = 0
					if err := im.write(&out); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.N)*float64(rows)/b.Elapsed().Seconds(), "values/s")
				b.ReportMetric(float64(out), "file-bytes")
			})
		}
	}
}

// BenchmarkWriterIndexes writes the order-lines table without page
// indexes, with them (the default), and with bloom filters on the keys
// and comments too.
func BenchmarkWriterIndexes(b *testing.B) {
	rec := benchRecord(200_000)
	defer rec.Release()
	bloom := &arrowio.BloomFilterOptions{FPP: 0.01}
	for _, c := range []struct {
		name string
		opts arrowio.WriteOptions
	}{
		{"index=off", arrowio.WriteOptions{DisablePageIndex: true}},
		{"index=on", arrowio.WriteOptions{}},
		{"index=on,bloom=2", arrowio.WriteOptions{Columns: map[string]arrowio.ColumnOptions{"key": {BloomFilter: bloom}, "comment": {BloomFilter: bloom}}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(batchBytes(rec))
			b.ReportAllocs()
			for b.Loop() {
				w, err := arrowio.NewWriter(io.Discard, rec.Schema(), c.opts)
				if err != nil {
					b.Fatal(err)
				}
				if err := w.Write(rec); err != nil {
					b.Fatal(err)
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFilteredRead reads a 1 M-row order-lines file in four row
// groups whole, with a point lookup on the sorted key, with an equality
// on the low-cardinality mode column (one row in seven), and with the
// same range (one row in twenty) on the float64 price and on the
// decimal128 net price (FIXED_LEN_BYTE_ARRAY).
func BenchmarkFilteredRead(b *testing.B) {
	rec := benchRecord(1_000_000)
	file := arrowiotest.WriteFile(b, rec.Schema(), arrowio.WriteOptions{MaxRowGroupRows: 250_000}, rec)
	size := batchBytes(rec)
	rec.Release()
	net, err := pageindex.ParseDecimal("60000.00")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		filter pageindex.Predicate
	}{
		{"filter=none", nil},
		{"filter=key", pageindex.Eq("key", pageindex.Int(200_000))},
		{"filter=mode", pageindex.Eq("mode", pageindex.String("RAIL"))},
		{"filter=price", pageindex.GreaterEq("price", pageindex.Float(60000))},
		{"filter=net", pageindex.GreaterEq("net", net)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				r, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Filter: c.filter})
				if err != nil {
					b.Fatal(err)
				}
				tbl, err := r.ReadTable(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				tbl.Release()
				r.Close()
			}
		})
	}
}
