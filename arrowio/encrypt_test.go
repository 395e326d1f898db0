package arrowio_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
	"github.com/quiverio/quiver/pageindex"
)

// encSchema is the schema of the encryption round trips: flat required
// and optional columns, a list and a struct (leaves "a", "b", "c",
// "d.list.element", "e.x").
var encSchema = arrow.NewSchema([]arrow.Field{
	{Name: "a", Type: arrow.PrimitiveTypes.Int64},
	{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "c", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "d", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	{Name: "e", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true}), Nullable: true},
}, nil)

// encRecord returns n random rows of encSchema.
func encRecord(t testing.TB, mem memory.Allocator, n int, seed uint64) arrow.RecordBatch {
	rng := rand.New(rand.NewPCG(seed, 9))
	b := array.NewRecordBuilder(mem, encSchema)
	defer b.Release()
	for i := 0; i < 3; i++ {
		f := encSchema.Field(i)
		null := 0.0
		if f.Nullable {
			null = 0.1
		}
		a := arrowiotest.RandomArray(t, mem, f.Type, n, null, i == 1, rng)
		for j := range n {
			if err := b.Field(i).AppendValueFromString(a.ValueStr(j)); err != nil {
				t.Fatal(err)
			}
		}
		a.Release()
	}
	lb := b.Field(3).(*array.ListBuilder)
	vb := lb.ValueBuilder().(*array.Int32Builder)
	sb := b.Field(4).(*array.StructBuilder)
	xb := sb.FieldBuilder(0).(*array.Int32Builder)
	for range n {
		if rng.IntN(8) == 0 {
			lb.AppendNull()
		} else {
			lb.Append(true)
			for range rng.IntN(4) {
				vb.Append(rng.Int32())
			}
		}
		switch rng.IntN(6) {
		case 0:
			sb.AppendNull()
		case 1:
			sb.Append(true)
			xb.AppendNull()
		default:
			sb.Append(true)
			xb.Append(rng.Int32N(1000))
		}
	}
	return b.NewRecordBatch()
}

// encMode is one way of encrypting a file, with the configurations that
// read it back.
type encMode struct {
	name string
	enc  encrypt.EncryptionConfig
	dec  encrypt.DecryptionConfig
}

// encModes returns every footer mode, key layout and AAD prefix handling
// under algorithm alg with keys of keyLen bytes.
func encModes(alg encrypt.Algorithm, keyLen int) []encMode {
	key := func(c byte) []byte { return bytes.Repeat([]byte{c}, keyLen) }
	keys := encrypt.KeyMap{"kf": key('f'), "kb": key('b'), "kd": key('d')}
	cols := map[string]encrypt.ColumnKey{
		"b":              {Key: keys["kb"], KeyMetadata: []byte("kb")},
		"c":              {}, // the footer key
		"d.list.element": {Key: keys["kd"], KeyMetadata: []byte("kd")},
	}
	var out []encMode
	for _, plain := range []bool{false, true} {
		for _, layout := range []string{"uniform", "columns"} {
			for _, aad := range []string{"", "stored", "supplied"} {
				m := encMode{
					name: fmt.Sprintf("%v/key%d/plaintext-footer=%v/%s/aad=%s", alg, 8*keyLen, plain, layout, aad),
					enc:  encrypt.EncryptionConfig{Algorithm: alg, FooterKey: keys["kf"], FooterKeyMetadata: []byte("kf"), PlaintextFooter: plain},
					dec:  encrypt.DecryptionConfig{KeyRetriever: keys},
				}
				if layout == "columns" {
					m.enc.ColumnKeys = cols
					// One reader gets the keys explicitly.
					m.dec = encrypt.DecryptionConfig{FooterKey: keys["kf"], ColumnKeys: map[string][]byte{"b": keys["kb"], "d.list.element": keys["kd"]}}
				}
				if aad != "" {
					m.enc.AADPrefix = []byte("table/part-0")
					m.enc.DisableAADPrefixStorage = aad == "supplied"
					if aad == "supplied" {
						m.dec.AADPrefix = m.enc.AADPrefix
					}
				}
				out = append(out, m)
			}
		}
	}
	return out
}

// int96Millis reads INT96 timestamps in milliseconds: the corpus's
// encrypted files hold INT96 values from about 4713 BC, which nanoseconds
// and microseconds cannot hold.
var int96Millis = arrowio.SchemaOptions{Int96: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}}

// readDecrypted reads buf with quiver and cfg, in batches of 700 rows,
// INT96 timestamps in milliseconds.
func readDecrypted(t testing.TB, buf []byte, cfg *encrypt.DecryptionConfig, mem memory.Allocator) arrow.Table {
	t.Helper()
	tbl, err := readAllBytes(buf, arrowio.ReadOptions{Decryption: cfg, Allocator: mem, BatchSize: 700, Mapping: int96Millis})
	if err != nil {
		t.Fatalf("quiver cannot read the file: %v", err)
	}
	return tbl
}

// pqDecrypted reads buf with arrow-go given the keys (by key metadata) and
// AAD prefix of cfg.
func pqDecrypted(t testing.TB, buf []byte, keys encrypt.KeyMap, prefix []byte, mem memory.Allocator) arrow.Table {
	t.Helper()
	props := parquet.NewReaderProperties(mem)
	opts := []parquet.FileDecryptionOption{parquet.WithKeyRetriever(pqarrowKeys(keys))}
	if prefix != nil {
		opts = append(opts, parquet.WithDecryptAadPrefix(string(prefix)))
	}
	props.FileDecryptProps = parquet.NewFileDecryptionProperties(opts...)
	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(buf), props, pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		t.Fatalf("arrow-go cannot read the file: %v", err)
	}
	return tbl
}

// assertTableHolds fails unless tbl holds rec's values, column by column.
func assertTableHolds(t testing.TB, rec arrow.RecordBatch, tbl arrow.Table, mem memory.Allocator) {
	t.Helper()
	if tbl.NumRows() != rec.NumRows() || tbl.NumCols() != rec.NumCols() {
		t.Fatalf("%d rows of %d columns, want %d of %d", tbl.NumRows(), tbl.NumCols(), rec.NumRows(), rec.NumCols())
	}
	for i := range int(rec.NumCols()) {
		got := columnOf(t, mem, tbl, i)
		if got.String() != rec.Column(i).String() {
			arrowiotest.AssertSameValues(t, rec.Column(i), got)
		}
		got.Release()
	}
}

// TestEncryptedWriteRoundTrip writes files in every mode, algorithm and key
// size and reads them back with quiver and with arrow-go configured with
// the same keys.
func TestEncryptedWriteRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := encRecord(t, mem, arrowiotest.Rows(3000), 1)
	defer rec.Release()
	keyLens := []int{16, 24, 32}
	if testing.Short() {
		keyLens = []int{16, 32}
	}
	for _, alg := range []encrypt.Algorithm{encrypt.AesGcmV1, encrypt.AesGcmCtrV1} {
		for _, kl := range keyLens {
			for _, m := range encModes(alg, kl) {
				t.Run(m.name, func(t *testing.T) {
					opts := arrowio.WriteOptions{Encryption: &m.enc, MaxRowGroupRows: 1100, DataPageSize: 2048, Compression: footer.CodecSnappy}
					buf := arrowiotest.WriteFile(t, encSchema, opts, rec)
					if want := m.enc.Algorithm; !bytes.HasSuffix(buf, []byte(map[bool]string{true: "PAR1", false: "PARE"}[m.enc.PlaintextFooter])) {
						t.Fatalf("%v file ends with %q", want, buf[len(buf)-4:])
					}
					got := readDecrypted(t, buf, &m.dec, mem)
					assertTableHolds(t, rec, got, mem)
					got.Release()
					keys := encrypt.KeyMap{"kf": m.enc.FooterKey, "kb": m.enc.FooterKey, "kd": m.enc.FooterKey}
					for _, ck := range m.enc.ColumnKeys {
						if ck.Key != nil {
							keys[string(ck.KeyMetadata)] = ck.Key
						}
					}
					pq := pqDecrypted(t, buf, keys, m.dec.AADPrefix, mem)
					assertTableHolds(t, rec, pq, mem)
					pq.Release()
				})
			}
		}
	}
}

// TestEncryptedWriteLayout checks what the writer stores: crypto metadata
// per column, encrypted column metadata where the spec asks for it, no
// statistics in the plaintext copy of a plaintext footer, the AAD prefix
// stored or not, and no plaintext column names in an encrypted footer.
func TestEncryptedWriteLayout(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := encRecord(t, mem, 200, 2)
	defer rec.Release()
	for _, m := range encModes(encrypt.AesGcmV1, 16) {
		t.Run(m.name, func(t *testing.T) {
			buf := arrowiotest.WriteFile(t, encSchema, arrowio.WriteOptions{Encryption: &m.enc}, rec)
			if !m.enc.PlaintextFooter && bytes.Contains(buf, []byte("ARROW:schema")) {
				t.Error("the encrypted footer's key-value metadata is readable")
			}
			if m.enc.DisableAADPrefixStorage == bytes.Contains(buf, m.enc.AADPrefix) && m.enc.AADPrefix != nil {
				t.Errorf("AAD prefix stored: %v, storage disabled: %v", bytes.Contains(buf, m.enc.AADPrefix), m.enc.DisableAADPrefixStorage)
			}
			rd, err := arrowio.Open(bytes.NewReader(buf), int64(len(buf)), arrowio.ReadOptions{Decryption: &m.dec})
			if err != nil {
				t.Fatal(err)
			}
			defer rd.Close()
			tail, _ := footer.ReadTail(bytes.NewReader(buf), int64(len(buf)))
			var stored *footer.FileMetaData
			if m.enc.PlaintextFooter {
				stored = new(footer.FileMetaData)
				if _, err := footer.Unmarshal(tail.Meta, stored); err != nil {
					t.Fatal(err)
				}
			}
			leaves := fileSchema(t, rd).Leaves
			for j, cc := range rd.Metadata().RowGroups[0].Columns {
				path := leaves[j].DottedPath()
				ck, own := m.enc.ColumnKeys[path]
				encrypted := len(m.enc.ColumnKeys) == 0 || own
				switch {
				case !encrypted && cc.CryptoMetadata != nil:
					t.Errorf("%s: plaintext column has crypto metadata", path)
				case encrypted && cc.CryptoMetadata == nil:
					t.Errorf("%s: encrypted column has no crypto metadata", path)
				case encrypted && (ck.Key != nil) != (cc.CryptoMetadata.EncryptionWithColumnKey != nil):
					t.Errorf("%s: column key %v, crypto metadata %+v", path, ck.Key != nil, cc.CryptoMetadata)
				}
				wantEncMeta := encrypted && (ck.Key != nil || m.enc.PlaintextFooter)
				if (cc.EncryptedColumnMetadata != nil) != wantEncMeta {
					t.Errorf("%s: encrypted_column_metadata present %v, want %v", path, cc.EncryptedColumnMetadata != nil, wantEncMeta)
				}
				if cc.MetaData == nil || cc.MetaData.Statistics == nil {
					t.Errorf("%s: decrypted metadata has no statistics", path)
				}
				if stored != nil {
					smd := stored.RowGroups[0].Columns[j].MetaData
					if smd == nil || (smd.Statistics != nil) == encrypted {
						t.Errorf("%s: plaintext footer copy %+v (column encrypted: %v)", path, smd, encrypted)
					}
				}
			}
		})
	}
}

// TestArrowGoEncryptedFilesRead reads files arrow-go writes encrypted in
// each mode with quiver.
func TestArrowGoEncryptedFilesRead(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := encRecord(t, mem, arrowiotest.Rows(2000), 4)
	defer rec.Release()
	kf, kb := "0123456789abcdef0123456789abcdef", "fedcba9876543210"
	keys := encrypt.KeyMap{"kf": []byte(kf), "kb": []byte(kb)}
	colsFor := func() parquet.ColumnPathToEncryptionPropsMap {
		return parquet.ColumnPathToEncryptionPropsMap{
			"b": parquet.NewColumnEncryptionProperties("b", parquet.WithKey(kb), parquet.WithKeyID("kb")),
			"c": parquet.NewColumnEncryptionProperties("c"),
		}
	}
	cases := []struct {
		name   string
		opts   func() []parquet.EncryptOption
		prefix []byte
	}{
		{"uniform", func() []parquet.EncryptOption { return nil }, nil},
		{"columns", func() []parquet.EncryptOption {
			return []parquet.EncryptOption{parquet.WithEncryptedColumns(colsFor())}
		}, nil},
		// Not with a plaintext footer: arrow-go (like Parquet C++) then
		// writes AES_GCM_V1 as the file's algorithm whatever it encrypts
		// with, and cannot read its own CTR pages back.
		{"columns/ctr", func() []parquet.EncryptOption {
			return []parquet.EncryptOption{parquet.WithEncryptedColumns(colsFor()), parquet.WithAlg(parquet.AesCtr)}
		}, nil},
		{"columns/plaintext-footer", func() []parquet.EncryptOption {
			return []parquet.EncryptOption{parquet.WithEncryptedColumns(colsFor()), parquet.WithPlaintextFooter()}
		}, nil},
		{"aad-supplied", func() []parquet.EncryptOption {
			return []parquet.EncryptOption{parquet.WithAadPrefix("part-7"), parquet.DisableAadPrefixStorage()}
		}, []byte("part-7")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := append([]parquet.EncryptOption{parquet.WithFooterKeyID("kf")}, c.opts()...)
			file := arrowiotest.WritePqarrow(t, rec, parquet.WithEncryptionProperties(parquet.NewFileEncryptionProperties(kf, opts...)),
				parquet.WithCompression(compress.Codecs.Snappy), parquet.WithDataPageSize(4096), parquet.WithMaxRowGroupLength(900))
			got := readDecrypted(t, file, &encrypt.DecryptionConfig{KeyRetriever: keys, AADPrefix: c.prefix}, mem)
			assertTableHolds(t, rec, got, mem)
			got.Release()
		})
	}
}

// readAllBytes opens img with opts and reads every column; it returns the
// table or the first error.
func readAllBytes(img []byte, opts arrowio.ReadOptions) (arrow.Table, error) {
	rd, err := arrowio.Open(bytes.NewReader(img), int64(len(img)), opts)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return rd.ReadTable(context.Background())
}

// unauthenticated returns the byte ranges of img where a change may alter
// the data read without failing authentication: the chunks of plaintext
// columns and, under AES_GCM_CTR_V1, the chunks of encrypted columns
// (their page bodies are CTR modules, which have no tag).
func unauthenticated(t *testing.T, img []byte, cfg *encrypt.DecryptionConfig) []arrowiotest.Range {
	tail, err := footer.ReadTail(bytes.NewReader(img), int64(len(img)))
	if err != nil {
		t.Fatal(err)
	}
	ft, crypt, err := encrypt.OpenFooter(tail, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out []arrowiotest.Range
	for _, rg := range ft.Meta.RowGroups {
		for _, cc := range rg.Columns {
			if cc.CryptoMetadata != nil && crypt.Algorithm() == encrypt.AesGcmV1 {
				continue
			}
			start, end := chunkSpan(cc.MetaData)
			out = append(out, arrowiotest.Range{Start: start, End: end})
		}
	}
	return out
}

// flipBytes flips one bit in every stride-th byte of img (a copy) and
// checks each result: an error, the original data, or, for bytes outside
// the authenticated modules, anything but a panic.
func flipBytes(t *testing.T, img []byte, cfg func() *encrypt.DecryptionConfig, stride int) (errs, same, open int) {
	want, err := readAllBytes(bytes.Clone(img), arrowio.ReadOptions{Decryption: cfg(), Parallelism: 1, Mapping: int96Millis})
	if err != nil {
		t.Fatal(err)
	}
	defer want.Release()
	free := unauthenticated(t, bytes.Clone(img), cfg())
	buf := make([]byte, len(img))
	for at := 0; at < len(img); at += stride {
		copy(buf, img)
		buf[at] ^= 0x04
		got, err := readAllBytes(buf, arrowio.ReadOptions{Decryption: cfg(), Parallelism: 1, Mapping: int96Millis})
		if err != nil {
			errs++
			continue
		}
		equal := array.TableApproxEqual(got, want, array.WithNaNsEqual(true))
		got.Release()
		if equal {
			same++
			continue
		}
		inFree := false
		for _, r := range free {
			inFree = inFree || (int64(at) >= r.Start && int64(at) < r.End)
		}
		if !inFree {
			t.Errorf("byte %d flipped: read without error and returned other data", at)
		}
		open++
	}
	return errs, same, open
}

// TestEncryptedByteFlips flips bytes across small files quiver wrote in
// every mode and across whole encrypted corpus files: a flip inside an
// authenticated module (footer, footer signature, column metadata, page
// headers, GCM pages) must fail, never return other data and never panic;
// in the files quiver wrote, whose pages carry CRCs, no flip may change
// data without an error.
func TestEncryptedByteFlips(t *testing.T) {
	rec := encRecord(t, memory.DefaultAllocator, 60, 3)
	defer rec.Release()
	for _, alg := range []encrypt.Algorithm{encrypt.AesGcmV1, encrypt.AesGcmCtrV1} {
		for _, m := range encModes(alg, 16) {
			if testing.Short() && (m.enc.AADPrefix != nil || m.enc.PlaintextFooter) {
				continue
			}
			t.Run("written/"+m.name, func(t *testing.T) {
				buf := arrowiotest.WriteFile(t, encSchema, arrowio.WriteOptions{Encryption: &m.enc, DataPageSize: 256}, rec)
				stride := 1 + len(buf)/1500
				if testing.Short() {
					stride *= 3
				}
				errs, same, open := flipBytes(t, buf, func() *encrypt.DecryptionConfig { c := m.dec; return &c }, stride)
				if errs == 0 {
					t.Error("no flip failed")
				}
				// Quiver writes page CRCs and readers check them by default,
				// so even the pages encryption leaves unauthenticated
				// (plaintext columns, AES_GCM_CTR_V1 pages) cannot change.
				if open != 0 {
					t.Errorf("%d flips changed data without an error", open)
				}
				t.Logf("%d bytes: %d flips failed, %d read the same data, %d changed unauthenticated data", len(buf), errs, same, open)
			})
		}
	}
	t.Run("corpus", func(t *testing.T) {
		root, rels := encryptedCorpus(t)
		for _, rel := range rels {
			t.Run(rel, func(t *testing.T) {
				img, err := os.ReadFile(filepath.Join(root, rel))
				if err != nil {
					t.Fatal(err)
				}
				stride := 1 + len(img)/4000 // every second or third byte of most files
				if testing.Short() {
					stride *= 11
				}
				errs, same, open := flipBytes(t, img, func() *encrypt.DecryptionConfig { return corpusDecryption(rel) }, stride)
				t.Logf("%d bytes: %d flips failed, %d read the same data, %d changed unauthenticated data", len(img), errs, same, open)
			})
		}
	})
}

// TestEncryptedPageIndexAndBloom writes page indexes and bloom filters
// into encrypted files (both algorithms, both footer modes, uniform and
// per-column keys): filtered reads return what they return on the same
// data in plaintext, and the decrypted ColumnIndexes and bloom filters
// equal the plaintext file's.
func TestEncryptedPageIndexAndBloom(t *testing.T) {
	mem := memory.NewGoAllocator()
	rec := encRecord(t, mem, 3000, 5)
	defer rec.Release()
	opts := arrowio.WriteOptions{MaxRowGroupRows: 1000, DataPageRows: 200, Columns: map[string]arrowio.ColumnOptions{
		"a": {BloomFilter: &arrowio.BloomFilterOptions{}}, "b": {BloomFilter: &arrowio.BloomFilterOptions{}}}}
	plainFile := arrowiotest.WriteFile(t, encSchema, opts, rec)
	a := rec.Column(0).(*array.Int64)
	b := rec.Column(1).(*array.String)
	k := 17
	for b.IsNull(k) {
		k++
	}
	preds := []pageindex.Predicate{
		pageindex.Eq("a", pageindex.Int(a.Value(k))),
		pageindex.Eq("b", pageindex.String(b.Value(k))),
		pageindex.And(pageindex.GreaterEq("a", pageindex.Int(a.Value(3))), pageindex.Less("c", pageindex.Float(100))),
		pageindex.Eq("b", pageindex.String("absent from every row group")),
		pageindex.IsNull("c"),
	}
	plainRd, err := arrowio.Open(bytes.NewReader(plainFile), int64(len(plainFile)), arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer plainRd.Close()
	for _, alg := range []encrypt.Algorithm{encrypt.AesGcmV1, encrypt.AesGcmCtrV1} {
		for _, m := range encModes(alg, 16) {
			if m.enc.AADPrefix != nil {
				continue // the AAD prefix is covered by the other encryption tests
			}
			t.Run(m.name, func(t *testing.T) {
				o := opts
				o.Encryption = &m.enc
				file := arrowiotest.WriteFile(t, encSchema, o, rec)
				for _, p := range preds {
					got := filteredRows(t, file, arrowio.ReadOptions{Filter: p, Decryption: &m.dec})
					if want := filteredRows(t, plainFile, arrowio.ReadOptions{Filter: p}); !slices.Equal(got, want) {
						t.Errorf("%v: %d rows from the encrypted file, %d from the plaintext one", p, len(got), len(want))
					}
				}
				rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Decryption: &m.dec})
				if err != nil {
					t.Fatal(err)
				}
				defer rd.Close()
				for rg := range rd.NumRowGroups() {
					for _, col := range []string{"a", "b"} {
						ci, oi, err := rd.PageIndex(rg, col)
						if err != nil || ci == nil || oi == nil {
							t.Fatalf("row group %d, %s: page index %v, %v: %v", rg, col, ci != nil, oi != nil, err)
						}
						wantCI, _, err := plainRd.PageIndex(rg, col)
						if err != nil || !reflect.DeepEqual(ci, wantCI) {
							t.Errorf("row group %d, %s: decrypted ColumnIndex differs from the plaintext file's (%v)", rg, col, err)
						}
						bf, err := rd.BloomFilter(rg, col)
						if err != nil || bf == nil {
							t.Fatalf("row group %d, %s: bloom filter: %v", rg, col, err)
						}
						wantBF, err := plainRd.BloomFilter(rg, col)
						if err != nil || !reflect.DeepEqual(bf, wantBF) {
							t.Errorf("row group %d, %s: decrypted bloom filter differs from the plaintext file's (%v)", rg, col, err)
						}
					}
				}
				// The index modules authenticate: without the keys of an
				// encrypted column they cannot be read.
				if m.enc.PlaintextFooter && m.enc.ColumnKeys != nil {
					bare, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{})
					if err != nil {
						t.Fatal(err)
					}
					defer bare.Close()
					if _, _, err := bare.PageIndex(0, "b"); err == nil {
						t.Error("read an encrypted column's page index without its key")
					}
				}
			})
		}
	}
}

// TestEncryptedCorpusBloomFilters reads the encrypted bloom filters and
// page indexes of parquet-mr's encrypted file with both: every value of
// an encrypted column is in its row group's decrypted filter, and a
// filtered read on it equals the brute-force filter of the full read.
func TestEncryptedCorpusBloomFilters(t *testing.T) {
	const name = "encrypt_columns_and_footer_bloom_filter.parquet.encrypted"
	file := readCorpus(t, name)
	keys := corpus.EncryptionKeys(name)
	dec := &encrypt.DecryptionConfig{KeyRetriever: encrypt.KeyMap(keys)}
	rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Decryption: dec})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	found := 0
	leaves := fileSchema(t, rd).Leaves
	for rg := range rd.NumRowGroups() {
		for _, leaf := range leaves {
			col := leaf.DottedPath()
			cc := &rd.Metadata().RowGroups[rg].Columns[leaf.Column]
			if cc.CryptoMetadata == nil {
				continue
			}
			if _, _, err := rd.PageIndex(rg, col); err != nil {
				t.Errorf("row group %d, %s: page index: %v", rg, col, err)
			}
			bf, err := rd.BloomFilter(rg, col)
			if err != nil {
				t.Fatalf("row group %d, %s: bloom filter: %v", rg, col, err)
			}
			if bf != nil {
				found++
			}
		}
	}
	if found == 0 {
		t.Fatal("no encrypted bloom filter read")
	}
	// Values of the encrypted double column, looked up through its filter.
	full := filteredRows(t, file, arrowio.ReadOptions{Decryption: dec})
	if len(full) == 0 {
		t.Fatal("no rows")
	}
	for _, leaf := range leaves {
		if leaf.Physical != footer.TypeDouble {
			continue
		}
		tbl := readDecrypted(t, file, dec, memory.DefaultAllocator)
		col := tbl.Column(tbl.Schema().FieldIndices(leaf.Path[0])[0]).Data().Chunk(0).(*array.Float64)
		for _, row := range []int{0, col.Len() / 2, col.Len() - 1} {
			if col.IsNull(row) {
				continue
			}
			p := pageindex.Eq(leaf.DottedPath(), pageindex.Float(col.Value(row)))
			got := filteredRows(t, file, arrowio.ReadOptions{Filter: p, Decryption: dec})
			if want := bruteForceWith(t, file, p, arrowio.ReadOptions{Decryption: dec}); !slices.Equal(got, want) || len(got) == 0 {
				t.Errorf("%v: %d rows, brute force %d", p, len(got), len(want))
			}
		}
		tbl.Release()
	}
}
