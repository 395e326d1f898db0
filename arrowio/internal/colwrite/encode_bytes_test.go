package colwrite

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
)

// testBytes returns n random bytes of an alphabet with the bytes that
// order differently signed and unsigned, and zeros.
func testBytes(rng *rand.Rand, n int) []byte {
	alphabet := []byte{0, 1, 'a', 'b', 0x7f, 0x80, 0xff}
	v := make([]byte, n)
	for j := range v {
		v[j] = alphabet[rng.IntN(len(alphabet))]
	}
	return v
}

// testByteValues returns n values for the byte-array tests: empty ones,
// short codes, values that share a prefix of 0 to 30 bytes with others
// (so the prefix the bounds share runs below 8, from 9 to 16 and past
// 16 bytes), bytes 0x00 and 0xff, and runs of equal values.
func testByteValues(rng *rand.Rand, n int) [][]byte {
	rand := func(k int) []byte { return testBytes(rng, k) }
	prefix := rand(rng.IntN(31))
	vals := make([][]byte, n)
	for i := range vals {
		switch k := rng.IntN(10); {
		case k == 0:
			vals[i] = []byte{}
		case k == 1 && i > 0:
			vals[i] = vals[i-1]
		case k < 4:
			vals[i] = rand(rng.IntN(3))
		case k < 6:
			vals[i] = rand(rng.IntN(80))
		default:
			vals[i] = append(append([]byte(nil), prefix[:rng.IntN(len(prefix)+1)]...), rand(rng.IntN(12))...)
		}
	}
	return vals
}

// offsetsOf lays vals out as offsets into data, the first value at byte
// start of data, with slack spare bytes after the last.
func offsetsOf(vals [][]byte, start, slack int) ([]int32, []byte) {
	data := make([]byte, start)
	offs := []int32{int32(start)}
	for _, v := range vals {
		data = append(data, v...)
		offs = append(offs, int32(len(data)))
	}
	return offs, append(data, make([]byte, slack)...)[:len(data)+slack]
}

// TestScanUnsignedPlain checks the one-pass PLAIN encoding and bounds of
// scanUnsigned against the PLAIN kernel and against adding the values one
// by one, with values near the end of data (where words cannot be
// loaded) and not.
func TestScanUnsignedPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for round := range 300 {
		vals := testByteValues(rng, 1+rng.IntN(200))
		offs, data := offsetsOf(vals, rng.IntN(5), []int{0, 3, 100}[round%3])
		var want bytesStats
		for _, v := range vals {
			want.add(v, orderUnsigned)
		}
		head := []byte("head")
		wantPlain, err := kernels.AppendPlainByteArray(bytes.Clone(head), offs, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, plain := range []bool{false, true} {
			got, b := scanUnsigned(bytes.Clone(head), plain, offs, data)
			if plain && !bytes.Equal(got, wantPlain) {
				t.Fatalf("round %d: PLAIN bytes differ from the kernel's", round)
			}
			if !plain && !bytes.Equal(got, head) {
				t.Fatalf("round %d: scan without PLAIN changed dst", round)
			}
			var s bytesStats
			b.widen(&s, data)
			if !bytes.Equal(s.lo, want.lo) || !bytes.Equal(s.hi, want.hi) {
				t.Fatalf("round %d plain=%v: bounds %x..%x, want %x..%x", round, plain, s.lo, s.hi, want.lo, want.hi)
			}
		}
	}
}

// TestBytesPageEncodings checks the pages built value batch by value
// batch (and value by value, as undict builds them) against the
// encoding kernels run on all of the page's values at once, over two
// pages, the second of which must not depend on the first.
func TestBytesPageEncodings(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 4))
	encs := []footer.Encoding{footer.EncodingPlain, footer.EncodingDeltaLengthByteArray, footer.EncodingDeltaByteArray}
	for round := range 60 {
		enc := encs[round%len(encs)]
		var p bytesPage
		p.reset(enc)
		for page := range 2 {
			vals := testByteValues(rng, rng.IntN(300))
			for i := 0; i < len(vals); {
				j := min(len(vals), i+1+rng.IntN(40))
				if rng.IntN(4) == 0 {
					for _, v := range vals[i:j] {
						if err := p.addValue(v); err != nil {
							t.Fatal(err)
						}
					}
				} else {
					offs, data := offsetsOf(vals[i:j], rng.IntN(3), 0)
					if err := addPage(&p, offs, data, false); err != nil {
						t.Fatal(err)
					}
				}
				i = j
			}
			offs, data := offsetsOf(vals, 0, 0)
			if want := 4*len(vals) + int(offs[len(offs)-1]); p.bytes() != want {
				t.Fatalf("round %d page %d: bytes() %d, want %d", round, page, p.bytes(), want)
			}
			var want []byte
			var err error
			head := []byte{0xaa}
			switch enc {
			case footer.EncodingPlain:
				want, err = kernels.AppendPlainByteArray(bytes.Clone(head), offs, data)
			case footer.EncodingDeltaLengthByteArray:
				want, err = kernels.AppendDeltaLengthByteArray(bytes.Clone(head), offs, data)
			default:
				want, _, err = kernels.AppendDeltaByteArray(bytes.Clone(head), offs, data, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := p.appendTo(bytes.Clone(head)); !bytes.Equal(got, want) {
				t.Fatalf("round %d page %d %s: page differs from the kernel's", round, page, enc)
			}
		}
	}
}

// stringArray returns vals as an Arrow string array, with nulls where
// null is set.
func stringArray(t testing.TB, vals [][]byte, null []bool) arrow.Array {
	t.Helper()
	b := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.String)
	defer b.Release()
	for i, v := range vals {
		if null != nil && null[i] {
			b.AppendNull()
			continue
		}
		b.Append(v)
	}
	return b.NewArray()
}

// TestBytesWriterPageStats writes pages of values, some of them in
// more than one page, through a bytesWriter, dictionary-encoded and not,
// and checks each page's bounds against adding its non-null values one
// by one, and the chunk's against all of them: a dictionary-encoded page
// counts each distinct value it holds once, whichever page added it to
// the dictionary. The page counter starts just below its wrap.
func TestBytesWriterPageStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 8))
	for round := range 40 {
		order := orderUnsigned
		if round%4 == 3 {
			order = orderDecimal
		}
		dict := round%2 == 0
		w := &bytesWriter[int32]{pageEncoding: pageEncoding{fallbackEnc: footer.EncodingPlain}, order: order}
		w.startChunk(dict)
		w.pageNo = math.MaxUint32 - 1
		pool := testByteValues(rng, 50)
		var chunk bytesStats
		for page := range 4 {
			n := 1 + rng.IntN(3000)
			vals := make([][]byte, n)
			null := make([]bool, n)
			var want bytesStats
			for i := range vals {
				vals[i] = pool[rng.IntN(len(pool))]
				if null[i] = rng.IntN(5) == 0; !null[i] {
					want.add(vals[i], order)
					chunk.add(vals[i], order)
				}
			}
			arr := stringArray(t, vals, null)
			valid, voff, err := w.bind(arr, 0, n)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < n; i += miniBatch {
				j := min(n, i+miniBatch)
				nonNull, err := kernels.CountSetBits(valid, voff+i, j-i)
				if err != nil {
					t.Fatal(err)
				}
				if err := w.put(i, j, valid, voff, nonNull); err != nil {
					t.Fatal(err)
				}
			}
			arr.Release()
			var st footer.Statistics
			if _, _, err := w.flushPage(nil, &st); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(st.MinValue, nonNil(want.lo)) || !bytes.Equal(st.MaxValue, nonNil(want.hi)) {
				t.Fatalf("round %d page %d (dictionary %v): bounds %x..%x, want %x..%x", round, page, dict, st.MinValue, st.MaxValue, want.lo, want.hi)
			}
		}
		var st footer.Statistics
		w.chunkStats(&st)
		if !bytes.Equal(st.MinValue, nonNil(chunk.lo)) || !bytes.Equal(st.MaxValue, nonNil(chunk.hi)) {
			t.Fatalf("round %d: chunk bounds %x..%x, want %x..%x", round, st.MinValue, st.MaxValue, chunk.lo, chunk.hi)
		}
	}
}

// TestBytesWriterUndict checks that a dictionary-encoded page turned back
// into values is the PLAIN, DELTA_LENGTH_BYTE_ARRAY or DELTA_BYTE_ARRAY
// page of those values.
func TestBytesWriterUndict(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	for _, enc := range []footer.Encoding{footer.EncodingPlain, footer.EncodingDeltaLengthByteArray, footer.EncodingDeltaByteArray} {
		w := &bytesWriter[int32]{pageEncoding: pageEncoding{fallbackEnc: enc}, order: orderUnsigned}
		w.startChunk(true)
		vals := testByteValues(rng, 2500)
		arr := stringArray(t, vals, nil)
		if _, _, err := w.bind(arr, 0, len(vals)); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(vals); i += miniBatch {
			j := min(len(vals), i+miniBatch)
			if err := w.put(i, j, nil, 0, j-i); err != nil {
				t.Fatal(err)
			}
		}
		arr.Release()
		w.undict()
		var want bytesPage
		want.reset(enc)
		offs, data := offsetsOf(vals, 0, 0)
		if err := addPage(&want, offs, data, false); err != nil {
			t.Fatal(err)
		}
		if w.pageBytes() != want.bytes() {
			t.Fatalf("%s: page bytes %d, want %d", enc, w.pageBytes(), want.bytes())
		}
		got, gotEnc, err := w.flushPage([]byte{1}, nil)
		if err != nil || gotEnc != enc {
			t.Fatalf("%s: flushed as %s: %v", enc, gotEnc, err)
		}
		if !bytes.Equal(got, want.appendTo([]byte{1})) {
			t.Fatalf("%s: page after undict differs from the values' own", enc)
		}
	}
}

// TestBytesWriterBadOffsets checks that offsets that leave the data
// buffer or decrease are an error when put, never a panic.
func TestBytesWriterBadOffsets(t *testing.T) {
	for _, offs := range [][]int32{{0, 3, 2, 4}, {0, 9, 2, 4}, {-1, 1, 2, 3}} {
		data := []byte("abcd")
		d := array.NewData(arrow.BinaryTypes.String, 3, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offs)), memory.NewBufferBytes(data)}, nil, 0, 0)
		arr := array.MakeFromData(d)
		for _, dict := range []bool{false, true} {
			w := &bytesWriter[int32]{pageEncoding: pageEncoding{fallbackEnc: footer.EncodingPlain}, order: orderUnsigned}
			w.startChunk(dict)
			if _, _, err := w.bind(arr, 0, 3); err != nil {
				continue // caught when bound
			}
			if err := w.put(0, 3, nil, 0, 3); err == nil {
				t.Errorf("offsets %v: no error", offs)
			}
		}
		arr.Release()
		d.Release()
	}
}

// TestCheckLengths checks the error for a value longer than a BYTE_ARRAY
// length holds.
func TestCheckLengths(t *testing.T) {
	if err := checkLengths([]int64{5, 10, 1<<31 + 9}); err != nil {
		t.Fatalf("values of 5 and 2^31-1 bytes: %v", err)
	}
	if err := checkLengths([]int64{5, 10, 1<<31 + 10}); err == nil {
		t.Fatal("a value of 2^31 bytes: no error")
	}
	if err := checkEncoding(footer.EncodingByteStreamSplit); !errors.Is(err, errs.ErrUnsupported) {
		t.Fatalf("BYTE_STREAM_SPLIT for BYTE_ARRAY: %v", err)
	}
}

// benchValues returns n values like the bench strings dataset's: URLs of
// a few hosts, long user agents, and short codes, as offsets and data.
func benchValues(kind string, n int) ([]int32, []byte) {
	rng := rand.New(rand.NewPCG(1, 2))
	offs := []int32{0}
	var data []byte
	for i := range n {
		switch kind {
		case "url":
			data = fmt.Appendf(data, "https://host-%d.example.com/path/%d/x?id=%d", rng.IntN(40), rng.IntN(100), rng.IntN(1_000_000))
		case "agent":
			data = fmt.Appendf(data, "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:%d.0) Gecko/20100101 QuiverBench/%d.%d (words here)", 100+rng.IntN(24), i%7, rng.IntN(3))
		case "code":
			data = append(data, byte('A'+rng.IntN(8)), byte('A'+rng.IntN(26)))
		}
		offs = append(offs, int32(len(data)))
	}
	return offs, data
}

// touchSink keeps the benchmark's touch loads.
var touchSink byte

// BenchmarkScanUnsigned bounds (and with plain=true, PLAIN-encodes) a
// mini-batch at a time values read from memory, beside a copy of their
// bytes.
func BenchmarkScanUnsigned(b *testing.B) {
	for _, kind := range []string{"url", "agent", "code"} {
		offs, data := benchValues(kind, 1<<20) // more than the caches hold
		for _, plain := range []bool{false, true} {
			b.Run(fmt.Sprintf("values=%s/plain=%v", kind, plain), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				var dst []byte
				for b.Loop() {
					for i := 0; i+1 < len(offs); i += miniBatch {
						o := offs[i:min(i+miniBatch+1, len(offs))]
						touchSink ^= touch(data[o[0]:o[len(o)-1]])
						dst, _ = scanUnsigned(dst[:0], plain, o, data)
					}
				}
				b.ReportMetric(float64(b.N*(len(offs)-1))/b.Elapsed().Seconds(), "values/s")
			})
		}
		b.Run(fmt.Sprintf("values=%s/copy", kind), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			dst := make([]byte, 0, len(data))
			for b.Loop() {
				for i := 0; i+1 < len(offs); i += miniBatch {
					o := offs[i:min(i+miniBatch+1, len(offs))]
					dst = append(dst[:0], data[o[0]:o[len(o)-1]]...)
				}
			}
		})
	}
}

// dictionaryArray returns vals as an Arrow dictionary array of strings:
// its distinct values in a random order, with null slots where null is
// set, except that with nullEntry set the entry of value "" is null and
// its slots point to it.
func dictionaryArray(t testing.TB, vals [][]byte, null []bool, nullEntry bool, rng *rand.Rand) arrow.Array {
	t.Helper()
	var distinct []string
	at := map[string]int{}
	for _, v := range vals {
		if _, ok := at[string(v)]; !ok {
			at[string(v)] = 0
			distinct = append(distinct, string(v))
		}
	}
	rng.Shuffle(len(distinct), func(i, j int) { distinct[i], distinct[j] = distinct[j], distinct[i] })
	db := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.String)
	defer db.Release()
	for i, v := range distinct {
		at[v] = i
		if nullEntry && v == "" {
			db.AppendNull()
		} else {
			db.AppendString(v)
		}
	}
	dict := db.NewArray()
	defer dict.Release()
	ib := array.NewInt16Builder(memory.DefaultAllocator)
	defer ib.Release()
	for i, v := range vals {
		if null[i] && !(nullEntry && len(v) == 0) {
			ib.AppendNull()
		} else {
			ib.Append(int16(at[string(v)]))
		}
	}
	idx := ib.NewArray()
	defer idx.Release()
	return array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}, idx, dict)
}

// TestBytesWriterDictionaryArrays writes Arrow dictionary arrays, each
// with its own dictionary order, through a bytesWriter, and the same
// values as string arrays through another, dictionary-encoded (each
// Arrow dictionary value looked up once per bind) and not, with and
// without a bloom filter, and compares their pages, statistics and
// dictionaries.
func TestBytesWriterDictionaryArrays(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for round := range 24 {
		dict, bloom, nullEntry := round%2 == 0, round%3 == 0, round%4 < 2
		newWriter := func() *bytesWriter[int32] {
			w := &bytesWriter[int32]{pageEncoding: pageEncoding{fallbackEnc: footer.EncodingDeltaByteArray}, order: orderUnsigned}
			if bloom {
				w.bloom = &bloomSink{}
			}
			w.startChunk(dict)
			return w
		}
		got, want := newWriter(), newWriter()
		pool := testByteValues(rng, 40)
		for batch := range 5 {
			n := rng.IntN(2500)
			vals := make([][]byte, n)
			null := make([]bool, n)
			for i := range vals {
				vals[i] = pool[rng.IntN(len(pool))]
				null[i] = rng.IntN(6) == 0 || nullEntry && len(vals[i]) == 0
			}
			darr := dictionaryArray(t, vals, null, nullEntry, rng)
			sarr := stringArray(t, vals, null)
			for _, c := range []struct {
				w   *bytesWriter[int32]
				arr arrow.Array
			}{{got, darr}, {want, sarr}} {
				valid, voff, err := c.w.bind(c.arr, 0, n)
				if err != nil {
					t.Fatal(err)
				}
				for i := 0; i < n; i += miniBatch {
					j := min(n, i+miniBatch)
					nonNull := j - i
					if valid != nil {
						nonNull, _ = kernels.CountSetBits(valid, voff+i, j-i)
					}
					if err := c.w.put(i, j, valid, voff, nonNull); err != nil {
						t.Fatal(err)
					}
				}
			}
			darr.Release()
			sarr.Release()
			var gst, wst footer.Statistics
			gb, genc, gerr := got.flushPage(nil, &gst)
			wb, wenc, werr := want.flushPage(nil, &wst)
			if gerr != nil || werr != nil || genc != wenc || !bytes.Equal(gb, wb) {
				t.Fatalf("round %d batch %d: page differs (%s %v, %s %v)", round, batch, genc, gerr, wenc, werr)
			}
			if !bytes.Equal(gst.MinValue, wst.MinValue) || !bytes.Equal(gst.MaxValue, wst.MaxValue) {
				t.Fatalf("round %d batch %d: bounds %x..%x, want %x..%x", round, batch, gst.MinValue, gst.MaxValue, wst.MinValue, wst.MaxValue)
			}
		}
		gd, gn := got.dictPage(nil)
		wd, wn := want.dictPage(nil)
		if gn != wn || !bytes.Equal(gd, wd) || got.unencoded != want.unencoded {
			t.Fatalf("round %d: dictionary of %d values, want %d; unencoded %d, want %d", round, gn, wn, got.unencoded, want.unencoded)
		}
		if bloom && !slices.Equal(got.bloom.hashes, want.bloom.hashes) {
			t.Fatalf("round %d: bloom hashes differ", round)
		}
	}
}

// BenchmarkBytesWriterDictionary puts 64k slots of 1,000 distinct
// 20-to-40-byte strings into a dictionary-encoded chunk, from an Arrow
// dictionary array (each distinct value looked up once) and from a
// string array (each value hashed and compared).
func BenchmarkBytesWriterDictionary(b *testing.B) {
	rng := rand.New(rand.NewPCG(4, 4))
	pool := make([][]byte, 1000)
	for i := range pool {
		pool[i] = fmt.Appendf(nil, "value-%d-%s", i, bytes.Repeat([]byte{'x'}, 10+rng.IntN(20)))
	}
	const n = 1 << 16
	vals := make([][]byte, n)
	for i := range vals {
		vals[i] = pool[rng.IntN(len(pool))]
	}
	size := 0
	for _, v := range vals {
		size += len(v)
	}
	null := make([]bool, n)
	inputs := map[string]arrow.Array{"dictionary": dictionaryArray(b, vals, null, false, rng), "string": stringArray(b, vals, null)}
	for _, name := range []string{"dictionary", "string"} {
		arr := inputs[name]
		b.Run("input="+name, func(b *testing.B) {
			w := &bytesWriter[int32]{pageEncoding: pageEncoding{fallbackEnc: footer.EncodingPlain}, order: orderUnsigned}
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				w.startChunk(true)
				if _, _, err := w.bind(arr, 0, n); err != nil {
					b.Fatal(err)
				}
				for i := 0; i < n; i += miniBatch {
					if err := w.put(i, i+miniBatch, nil, 0, miniBatch); err != nil {
						b.Fatal(err)
					}
				}
				w.idx = w.idx[:0]
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "values/s")
		})
		arr.Release()
	}
}
