package arrowio_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
)

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
