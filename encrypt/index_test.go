package encrypt

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/quiverio/quiver/footer"
)

// TestCorpusIndexAndBloomModules decrypts the column indexes, offset
// indexes and bloom filters (header and bitset modules) of every encrypted
// corpus file with ChunkCipher and parses them: the module types and AADs
// the page index and bloom filter readers will use match what Parquet C++
// and parquet-java wrote.
func TestCorpusIndexAndBloomModules(t *testing.T) {
	var indexes, blooms int
	for _, path := range corpusFiles(t) {
		img, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tail, err := footer.ReadTail(bytes.NewReader(img), int64(len(img)))
		if err != nil {
			t.Fatal(err)
		}
		ft, fd, err := OpenFooter(tail, corpusConfig(path))
		if err != nil {
			t.Fatal(err)
		}
		for i, rg := range ft.Meta.RowGroups {
			for j, cc := range rg.Columns {
				c, err := fd.Chunk(i, j)
				if err != nil || c == nil {
					continue
				}
				where := fmt.Sprintf("%s: row group %d, column %d", filepath.Base(path), i, j)
				if off, ok := cc.ColumnIndexOffset.Get(); ok {
					openModule(t, where, img, off, int64(cc.ColumnIndexLength.Value), c, ModuleColumnIndex, new(footer.ColumnIndex))
					indexes++
				}
				if off, ok := cc.OffsetIndexOffset.Get(); ok {
					oi := new(footer.OffsetIndex)
					openModule(t, where, img, off, int64(cc.OffsetIndexLength.Value), c, ModuleOffsetIndex, oi)
					if len(oi.PageLocations) == 0 {
						t.Errorf("%s: offset index without pages", where)
					}
					indexes++
				}
				if off, ok := cc.MetaData.BloomFilterOffset.Get(); ok {
					h := new(footer.BloomFilterHeader)
					n := openModule(t, where, img, off, int64(len(img))-off, c, ModuleBloomFilterHeader, h)
					bitset, _, err := c.Open(img[off+int64(n):], ModuleBloomFilterBitset, 0)
					if err != nil || len(bitset) != int(h.NumBytes) {
						t.Errorf("%s: bloom filter bitset of %d bytes (header says %d): %v", where, len(bitset), h.NumBytes, err)
					}
					blooms++
				}
			}
		}
	}
	if indexes == 0 || blooms == 0 {
		t.Errorf("%d index modules and %d bloom filters decrypted; the corpus has both", indexes, blooms)
	}
	t.Logf("%d column and offset indexes, %d bloom filters", indexes, blooms)
}

// openModule decrypts the module of type mt at img[off:off+length] (a copy)
// with c into msg and returns the module's size.
func openModule(t *testing.T, where string, img []byte, off, length int64, c *ChunkCipher, mt ModuleType, msg footer.Message) int {
	t.Helper()
	if off < 0 || length < 0 || off+length > int64(len(img)) {
		t.Fatalf("%s: %v at %d (%d bytes) outside the file", where, mt, off, length)
	}
	plain, n, err := c.Open(bytes.Clone(img[off:off+length]), mt, 0)
	if err != nil {
		t.Fatalf("%s: %v at %d: %v", where, mt, off, err)
	}
	if _, err := footer.Unmarshal(plain, msg); err != nil {
		t.Fatalf("%s: decrypted %v: %v", where, mt, err)
	}
	return n
}
