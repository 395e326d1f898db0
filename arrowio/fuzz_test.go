package arrowio_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
	"github.com/quiverio/quiver/pageindex"
)

// FuzzReadFile reads arbitrary bytes as a whole Parquet file: seeds are the
// shipped fixture and small corpus files, with truncated and bit-flipped
// variants. Reading must return rows or an error, never panic, and free
// every buffer it allocated; the ways of reading (readEveryWay) must agree.
func FuzzReadFile(f *testing.F) {
	var seeds [][]byte
	if b, err := os.ReadFile(tripsFixture); err == nil {
		seeds = append(seeds, b)
	}
	if root, err := corpus.Lookup(); err == nil {
		files, err := corpus.List(root)
		if err != nil {
			f.Fatal(err)
		}
		// A few small files of varied shapes: each seed costs the fuzzer
		// a baseline run, and the short CI burst should reach mutations.
		for _, rel := range files {
			if b, err := os.ReadFile(filepath.Join(root, rel)); err == nil && len(b) < 4<<10 && len(seeds) < 16 {
				seeds = append(seeds, b)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, b := range seeds {
		f.Add(b)
		f.Add(b[:len(b)*3/4])
		flipped := append([]byte(nil), b...)
		for range 4 {
			flipped[rng.IntN(len(flipped))] ^= byte(1 << rng.IntN(8))
		}
		f.Add(flipped)
	}
	f.Fuzz(func(t *testing.T, file []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		readEveryWay(t, file, mem)
		mem.AssertSize(t, 0)
	})
}

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

// FuzzFilteredRead reads arbitrary bytes as a Parquet file with a filter
// on its first top-level leaf, so that statistics, bloom filters, column
// and offset indexes and the page selection they lead to all take
// mutated input. Seeds are small files with page indexes and bloom
// filters. Reading must return rows or an error, never panic, and free
// every buffer it allocated.
func FuzzFilteredRead(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 6))
	rec := indexTestBatch(memory.DefaultAllocator, 300, rng)
	bloom := &arrowio.BloomFilterOptions{Bytes: 64}
	var seeds [][]byte
	for _, v := range []arrowio.PageVersion{arrowio.PageV1, arrowio.PageV2} {
		seeds = append(seeds, arrowiotest.WriteFile(f, rec.Schema(), arrowio.WriteOptions{DataPageRows: 40, PageVersion: v, MaxRowGroupRows: 200,
			Columns: map[string]arrowio.ColumnOptions{"id": {BloomFilter: bloom}, "s": {BloomFilter: bloom}}}, rec))
	}
	rec.Release()
	seeds = append(seeds, typedFuzzSeeds(f, rng)...)
	if root, err := corpus.Lookup(); err == nil {
		for _, name := range []string{"data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet"} {
			if b, err := os.ReadFile(filepath.Join(root, "data", name)); err == nil {
				seeds = append(seeds, b)
			}
		}
	}
	for _, b := range seeds {
		f.Add(b, uint8(0))
		f.Add(b, uint8(3))
		flipped := append([]byte(nil), b...)
		for range 4 {
			flipped[rng.IntN(len(flipped))] ^= byte(1 << rng.IntN(8))
		}
		f.Add(flipped, uint8(1))
	}
	f.Fuzz(func(t *testing.T, file []byte, which uint8) {
		ft, err := footer.ReadFooter(bytes.NewReader(file), int64(len(file)))
		if err != nil || len(ft.Schema.Root.Children) == 0 || !ft.Schema.Root.Children[0].IsLeaf() {
			return
		}
		leaf := ft.Schema.Root.Children[0]
		var lit pageindex.Literal
		switch lt := leaf.Logical().Kind; {
		case lt == footer.LogicalDecimal:
			lit, _ = pageindex.ParseDecimal("1.505")
		case lt == footer.LogicalFloat16:
			lit = pageindex.Float(0.5)
		case leaf.Physical == footer.TypeByteArray, leaf.Physical == footer.TypeFixedLenByteArray:
			lit = pageindex.String("Hello")
		case leaf.Physical == footer.TypeFloat, leaf.Physical == footer.TypeDouble:
			lit = pageindex.Float(0.5)
		case leaf.Physical == footer.TypeBoolean:
			lit = pageindex.Bool(true)
		default:
			lit = pageindex.Int(150)
		}
		preds := []pageindex.Predicate{
			pageindex.Eq(leaf.Name, lit),
			pageindex.Not(pageindex.Less(leaf.Name, lit)),
			pageindex.Or(pageindex.IsNull(leaf.Name), pageindex.In(leaf.Name, lit)),
			pageindex.NotEq(leaf.Name, lit),
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		r, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Filter: preds[int(which)%len(preds)], Allocator: mem, Parallelism: 1})
		if err != nil {
			return
		}
		for g := range r.NumRowGroups() {
			if rec, err := r.ReadRowGroup(context.Background(), g); err == nil {
				rec.Release()
			}
		}
		r.Close()
		mem.AssertSize(t, 0)
	})
}

// FuzzReadEncrypted reads arbitrary bytes as an encrypted Parquet file
// with the corpus keys (128-bit, or with aes256 the 256-bit ones) and,
// with prefix, the AAD prefix "tester". Seeds are the small encrypted
// corpus files and files quiver writes in both footer modes and
// algorithms, with page indexes and bloom filters. Reading the table, and
// the page indexes and bloom filters of the first chunks, must return
// values or an error, never panic, and free every buffer it allocated.
func FuzzReadEncrypted(f *testing.F) {
	if root, err := corpus.Lookup(); err == nil {
		for _, pat := range []string{"data/*.parquet.encrypted", "data/aes256/*.parquet.encrypted"} {
			m, _ := filepath.Glob(filepath.Join(root, pat))
			for _, p := range m {
				if b, err := os.ReadFile(p); err == nil && len(b) < 6<<10 {
					f.Add(b, strings.Contains(p, "aes256"), strings.Contains(p, "aad"))
				}
			}
		}
	}
	rec := encRecord(f, memory.DefaultAllocator, 40, 5)
	defer rec.Release()
	keys := corpus.EncryptionKeys("data")
	for _, alg := range []encrypt.Algorithm{encrypt.AesGcmV1, encrypt.AesGcmCtrV1} {
		for _, plain := range []bool{false, true} {
			cfg := &encrypt.EncryptionConfig{Algorithm: alg, FooterKey: keys["kf"], FooterKeyMetadata: []byte("kf"), PlaintextFooter: plain,
				ColumnKeys: map[string]encrypt.ColumnKey{"b": {Key: keys["kc1"], KeyMetadata: []byte("kc1")}, "d.list.element": {}}}
			f.Add(arrowiotest.WriteFile(f, encSchema, arrowio.WriteOptions{Encryption: cfg, DataPageSize: 128, Columns: map[string]arrowio.ColumnOptions{
				"a": {BloomFilter: &arrowio.BloomFilterOptions{Bytes: 32}}, "b": {BloomFilter: &arrowio.BloomFilterOptions{Bytes: 32}}}}, rec), false, false)
		}
	}
	f.Fuzz(func(t *testing.T, file []byte, aes256, prefix bool) {
		dir := "data"
		if aes256 {
			dir = "data/aes256"
		}
		cfg := &encrypt.DecryptionConfig{KeyRetriever: encrypt.KeyMap(corpus.EncryptionKeys(dir))}
		if prefix {
			cfg.AADPrefix = []byte("tester")
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Decryption: cfg, Allocator: mem, Parallelism: 1})
		if err == nil {
			if tbl, err := rd.ReadTable(context.Background()); err == nil {
				tbl.Release()
			}
			if schema, err := footer.NewSchema(rd.Metadata().Schema, rd.Metadata().ColumnOrders); err == nil {
				for g := range min(rd.NumRowGroups(), 4) {
					for _, leaf := range schema.Leaves[:min(len(schema.Leaves), 4)] {
						rd.PageIndex(g, leaf.DottedPath())
						rd.BloomFilter(g, leaf.DottedPath())
					}
				}
			}
			rd.Close()
		}
		mem.AssertSize(t, 0)
	})
}
