package encrypt

import (
	"bytes"
	"os"
	"path/filepath"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
)

// corpusFilesNoSkip lists the encrypted corpus files for fuzz seeds, as
// full paths.
func corpusFilesNoSkip() ([]string, error) {
	root, err := corpus.Lookup()
	if err != nil {
		return nil, err
	}
	rels, err := corpus.ListEncrypted(root)
	for i, rel := range rels {
		rels[i] = filepath.Join(root, rel)
	}
	return rels, err
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
