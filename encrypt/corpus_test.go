package encrypt

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
)

// corpusKeys returns the keys parquet-testing's README gives for the
// encrypted files in dir ("data" or "data/aes256"), by key metadata.
func corpusKeys(aes256 bool) KeyMap {
	if !aes256 {
		return KeyMap{"kf": []byte("0123456789012345"), "kc1": []byte("1234567890123450"), "kc2": []byte("1234567890123451")}
	}
	m := KeyMap{"kf": []byte("01234567890123456789012345678901")}
	for i := 1; i <= 8; i++ {
		m["kc"+string(rune('0'+i))] = []byte("1234567890123456789012345678901" + string(rune('1'+i)))
	}
	return m
}

// corpusFiles lists the encrypted corpus files that use the README's keys
// directly (not the external key material one).
func corpusFiles(tb testing.TB) []string {
	root := corpus.Dir(tb)
	var out []string
	for _, pat := range []string{"data/*.parquet.encrypted", "data/aes256/*.parquet.encrypted"} {
		m, err := filepath.Glob(filepath.Join(root, pat))
		if err != nil {
			tb.Fatal(err)
		}
		for _, f := range m {
			if !strings.Contains(f, "external_key_material") {
				out = append(out, f)
			}
		}
	}
	if len(out) == 0 {
		tb.Skip("no encrypted files in the corpus")
	}
	return out
}

// corpusConfig returns the decryption configuration the README gives for
// the file at path.
func corpusConfig(path string) *DecryptionConfig {
	cfg := &DecryptionConfig{KeyRetriever: corpusKeys(strings.Contains(path, "aes256"))}
	if strings.Contains(path, "disable_aad_storage") {
		cfg.AADPrefix = []byte("tester")
	}
	return cfg
}

func readTail(tb testing.TB, path string) *footer.Tail {
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	t, err := footer.ReadTail(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

func TestOpenFooterCorpus(t *testing.T) {
	for _, path := range corpusFiles(t) {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			ft, fd, err := OpenFooter(readTail(t, path), corpusConfig(path))
			if err != nil {
				t.Fatal(err)
			}
			if fd == nil {
				t.Fatal("no decryptor for an encrypted file")
			}
			encrypted := 0
			for j, cc := range ft.Meta.RowGroups[0].Columns {
				if cc.MetaData == nil {
					t.Errorf("column %d: no metadata after decryption", j)
				}
				c, err := fd.Chunk(0, j)
				if err != nil {
					t.Errorf("column %d: %v", j, err)
				}
				if c != nil {
					encrypted++
				}
			}
			if encrypted == 0 {
				t.Error("no encrypted column")
			}
		})
	}
}

func TestOpenFooterCorpusWrongKeys(t *testing.T) {
	for _, path := range corpusFiles(t) {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			wrong := corpusKeys(strings.Contains(path, "aes256"))
			for name, k := range wrong {
				k = bytes.Clone(k)
				k[0] ^= 1
				wrong[name] = k
			}
			cfg := corpusConfig(path)
			cfg.KeyRetriever = wrong
			_, _, err := OpenFooter(readTail(t, path), cfg)
			if !errors.Is(err, ErrAuthentication) {
				t.Errorf("wrong footer key: err = %v, want ErrAuthentication", err)
			}
		})
	}
}
