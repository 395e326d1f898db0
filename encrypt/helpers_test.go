package encrypt

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
)

// corpusFilesNoSkip lists the encrypted corpus files for fuzz seeds.
func corpusFilesNoSkip() ([]string, error) {
	root, err := corpus.Lookup()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, pat := range []string{"data/*.parquet.encrypted", "data/aes256/*.parquet.encrypted"} {
		m, _ := filepath.Glob(filepath.Join(root, pat))
		for _, f := range m {
			if !strings.Contains(f, "external_key_material") {
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// readTailNoFail returns the tail of the file at path, nil when it cannot
// be read.
func readTailNoFail(path string) *footer.Tail {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	t, _ := footer.ReadTail(bytes.NewReader(b), int64(len(b)))
	return t
}

// footerTail wraps metadata bytes as the tail of a file with the given
// footer mode.
func footerTail(meta []byte, pare bool) *footer.Tail {
	magic := footer.MagicPlain
	if pare {
		magic = footer.MagicEncrypted
	}
	return &footer.Tail{Magic: magic, Meta: bytes.Clone(meta), Size: int64(len(meta)) + 12, MetaOffset: 4}
}
