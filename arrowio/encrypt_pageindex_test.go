package arrowio_test

import (
	"bytes"
	"reflect"
	"slices"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
	"github.com/quiverio/quiver/pageindex"
)

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
