package encrypt

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
)

// corpusFiles lists the encrypted corpus files the README's keys open,
// as full paths.
func corpusFiles(tb testing.TB) []string {
	root := corpus.Dir(tb)
	rels, err := corpus.ListEncrypted(root)
	if err != nil {
		tb.Fatal(err)
	}
	if len(rels) == 0 {
		tb.Skip("no encrypted files in the corpus")
	}
	for i, rel := range rels {
		rels[i] = filepath.Join(root, rel)
	}
	return rels
}

// corpusConfig returns the decryption configuration the README gives for
// the file at path.
func corpusConfig(path string) *DecryptionConfig {
	return &DecryptionConfig{KeyRetriever: KeyMap(corpus.EncryptionKeys(path)), AADPrefix: corpus.AADPrefix(path)}
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
			wrong := KeyMap(corpus.EncryptionKeys(path))
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

func TestKeyMaterialCorpus(t *testing.T) {
	dir := filepath.Join(corpus.Dir(t), "data")
	side, err := os.ReadFile(filepath.Join(dir, "_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json"))
	if err != nil {
		t.Skip(err)
	}
	ext, err := ParseKeyMaterialFile(side)
	if err != nil {
		t.Fatal(err)
	}
	km := &KeyMaterial{MasterKeys: corpus.EncryptionKeys("data"), External: ext}
	ft, fd, err := OpenFooter(readTail(t, filepath.Join(dir, "external_key_material_java.parquet.encrypted")), &DecryptionConfig{KeyRetriever: km})
	if err != nil {
		t.Fatal(err)
	}
	for j := range ft.Meta.RowGroups[0].Columns {
		if _, err := fd.Chunk(0, j); err != nil {
			t.Errorf("column %d: %v", j, err)
		}
	}
	wrong := &KeyMaterial{MasterKeys: map[string][]byte{"kf": []byte("0123456789012346")}, External: ext}
	if _, _, err := OpenFooter(readTail(t, filepath.Join(dir, "external_key_material_java.parquet.encrypted")), &DecryptionConfig{KeyRetriever: wrong}); !errors.Is(err, ErrAuthentication) {
		t.Errorf("wrong master key: err = %v, want ErrAuthentication", err)
	}
	for _, md := range []string{`{`, `{"keyMaterialType":"PKMT1","internalStorage":false,"keyReference":"nope"}`,
		`{"keyMaterialType":"PKMT2"}`, `{"keyMaterialType":"PKMT1","masterKeyID":"kx"}`,
		`{"keyMaterialType":"PKMT1","masterKeyID":"kf","wrappedDEK":"!!"}`, `{"keyMaterialType":"PKMT1","masterKeyID":"kf","wrappedDEK":"AAAA"}`} {
		if _, err := km.RetrieveKey([]byte(md)); err == nil {
			t.Errorf("%s: no error", md)
		}
	}
}
