package arrowio_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	pqfile "github.com/apache/arrow-go/v18/parquet/file"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
)

// TestWriterPropertyStatistics writes random tables (floats with NaN and
// zeros of either sign, float16, text past the truncation length, binary,
// views, fixed-size binary, runs, dictionary arrays with null and unused
// entries and another dictionary each batch, an all-null column, a list)
// sliced at offsets that are not byte-aligned, in batches of random sizes
// (an empty one among them), under random options (propOptions; every
// sixth file encrypted), and checks that pqarrow and Quiver read the
// values back, that every chunk's statistics, every page's ColumnIndex
// entry and every page header's statistics bound exactly the values of
// their rows (as truncation allows), and that Metrics counts the nulls
// and NaNs of the input and bounds its values.
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
			var meta *footer.FileMetaData
			var fr *pqfile.Reader
			if encrypted {
				keys := encrypt.KeyMap{"kf": opts.Encryption.FooterKey}
				dec := &encrypt.DecryptionConfig{KeyRetriever: keys}
				tbl := readDecrypted(t, file, dec, memory.DefaultAllocator)
				checkPropTable(t, desc+" quiver", tbl, wants)
				tbl.Release()
				tbl = pqDecrypted(t, file, keys, nil, memory.DefaultAllocator)
				checkPropTable(t, desc+" pqarrow", tbl, wants)
				tbl.Release()
				rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Decryption: dec})
				if err != nil {
					t.Fatal(err)
				}
				meta = rd.Metadata()
				rd.Close()
				props := parquet.NewReaderProperties(memory.DefaultAllocator)
				props.FileDecryptProps = parquet.NewFileDecryptionProperties(parquet.WithKeyRetriever(pqarrowKeys(keys)))
				if fr, err = pqfile.NewParquetReader(bytes.NewReader(file), pqfile.WithReadProps(props)); err != nil {
					t.Fatal(err)
				}
			} else {
				tbl := pqRead(t, memory.DefaultAllocator, file)
				checkPropTable(t, desc+" pqarrow", tbl, wants)
				tbl.Release()
				for i, got := range quiverRead(t, file) {
					t.Run("quiver/"+fields[i].Name, func(t *testing.T) { arrowiotest.AssertSameValues(t, wants[i], got) })
					got.Release()
				}
				meta, fr = readMeta(t, file), pqMetadata(t, file)
			}
			defer fr.Close()
			checkPropStatistics(t, desc, meta, fr, opts, cols)
			if opts.PageStatistics {
				checkPropPageHeaders(t, desc, fr, opts, cols)
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
// the input's, and its bounds against the values.
func checkPropMetrics(t *testing.T, desc string, m *arrowio.FileMetrics, opts arrowio.WriteOptions, cols []propColumn) {
	t.Helper()
	for i, c := range cols {
		vals := c.entries()
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
	if n == 0 || cm.Lower == nil {
		if n > 0 && cm.Lower == nil && statsOn {
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
