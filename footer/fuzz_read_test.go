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
