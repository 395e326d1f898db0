package footer

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/quiverio/quiver/internal/corpus"
)

// FuzzReadFooter feeds whole files, seeded with the tails of the corpus
// files, through ReadFooter: it must return a footer or an error, never
// panic, and a footer it returns must be internally consistent.
func FuzzReadFooter(f *testing.F) {
	f.Add(fileWith(make([]byte, 10), smallMeta()))
	if root, err := corpus.Lookup(); err == nil {
		files, err := corpus.List(root)
		if err != nil {
			f.Fatal(err)
		}
		for _, rel := range files {
			b, err := os.ReadFile(filepath.Join(root, rel))
			if err != nil {
				f.Fatal(err)
			}
			if len(b) > 8<<10 {
				// The tail holds the footer; keep a readable head magic.
				b = append([]byte(MagicPlain), b[len(b)-8<<10:]...)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, img []byte) {
		ft, err := ReadFooter(bytes.NewReader(img), int64(len(img)))
		if err != nil {
			return
		}
		for i, rg := range ft.Meta.RowGroups {
			if len(rg.Columns) != len(ft.Schema.Leaves) {
				t.Fatalf("row group %d: %d chunks for %d leaves", i, len(rg.Columns), len(ft.Schema.Leaves))
			}
		}
		if ft.MetaOffset < 4 || ft.MetaOffset+ft.MetaLength+8 != int64(len(img)) {
			t.Fatalf("metadata at %d+%d in a %d-byte file", ft.MetaOffset, ft.MetaLength, len(img))
		}
	})
}

// FuzzReadTailSize reads the tail of arbitrary bytes with a first read
// of any size: it must never panic, and must give what ReadTail gives
// (the same metadata, or an error whenever ReadTail errs), however the
// metadata is split between the first read and the second. Only a first
// read that covers the whole file checks the leading magic, so the two
// may disagree on that when one read covers the file and the other not.
func FuzzReadTailSize(f *testing.F) {
	f.Add(fileWith(make([]byte, 10), smallMeta()), int64(8))
	f.Add(fileWith(make([]byte, 10), smallMeta()), int64(20))
	f.Add([]byte("PAR1\x00\x00\x00\x00PAR1"), int64(-3))
	f.Fuzz(func(t *testing.T, img []byte, first int64) {
		want, werr := ReadTail(bytes.NewReader(img), int64(len(img)))
		first %= 1 << 20
		got, err := ReadTailSize(bytes.NewReader(img), int64(len(img)), first)
		whole := func(n int64) bool { return max(n, 8) >= int64(len(img)) }
		if (err != nil) != (werr != nil) && whole(first) == whole(TailReadSize) {
			t.Fatalf("first read %d: error %v, ReadTail's %v", first, err, werr)
		}
		if err == nil && werr == nil && (!bytes.Equal(got.Meta, want.Meta) || got.MetaOffset != want.MetaOffset || got.Magic != want.Magic) {
			t.Fatalf("first read %d: metadata differs from ReadTail's", first)
		}
	})
}
