package encrypt

import (
	"bytes"
	"strings"
	"testing"

	"github.com/quiverio/quiver/internal/corpus"
)

// FuzzOpen feeds arbitrary bytes to the decryption of every module type
// under both algorithms: it must return an error or a plaintext inside
// the input, never panic.
func FuzzOpen(f *testing.F) {
	c := testCipher(f, AesGcmV1, 16, 0, 0)
	for _, mt := range allModules {
		mod, _ := c.Seal(nil, []byte("seed plaintext"), mt, 0)
		f.Add(mod, byte(mt), false)
	}
	f.Add([]byte{0xff, 0xff, 0xff, 0xff}, byte(2), true)
	ciphers := []*ChunkCipher{c, testCipher(f, AesGcmCtrV1, 16, 0, 0)}
	f.Fuzz(func(t *testing.T, b []byte, mt byte, ctr bool) {
		c := ciphers[0]
		if ctr {
			c = ciphers[1]
		}
		in := bytes.Clone(b)
		plain, n, err := c.Open(in, ModuleType(mt%10), 0)
		if err != nil {
			return
		}
		if n > len(b) || len(plain) > n {
			t.Fatalf("module of %d bytes with %d of plaintext from %d bytes", n, len(plain), len(b))
		}
	})
}

// FuzzOpenFooter feeds arbitrary tails (both magics) to OpenFooter with
// keys: it must never panic.
func FuzzOpenFooter(f *testing.F) {
	if files, err := corpusFilesNoSkip(); err == nil {
		for _, p := range files {
			if t := readTailNoFail(p); t != nil {
				f.Add(t.Meta, t.Magic == "PARE", strings.Contains(p, "aes256"))
			}
		}
	}
	f.Fuzz(func(t *testing.T, meta []byte, pare bool, aes256 bool) {
		tail := footerTail(meta, pare)
		keys := corpus.EncryptionKeys("data")
		if aes256 {
			keys = corpus.EncryptionKeys("data/aes256")
		}
		cfg := &DecryptionConfig{KeyRetriever: KeyMap(keys), AADPrefix: []byte("tester")}
		ft, fd, err := OpenFooter(tail, cfg)
		if err != nil || fd == nil {
			return
		}
		for i := range ft.Meta.RowGroups {
			for j := range ft.Meta.RowGroups[i].Columns {
				fd.Chunk(i, j)
			}
		}
	})
}

// FuzzKeyMaterial feeds arbitrary key metadata (and a sidecar entry) to
// KeyMaterial.RetrieveKey: it must return a key or an error, never panic.
func FuzzKeyMaterial(f *testing.F) {
	f.Add([]byte(`{"keyMaterialType":"PKMT1","internalStorage":false,"keyReference":"k"}`),
		`{"masterKeyID":"kf","wrappedDEK":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","doubleWrapping":true,"keyEncryptionKeyID":"AA==","keyMaterialType":"PKMT1","wrappedKEK":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}`)
	f.Add([]byte(`{"keyMaterialType":"PKMT1","masterKeyID":"kc1","wrappedDEK":"AAAA"}`), "")
	f.Fuzz(func(t *testing.T, md []byte, external string) {
		km := &KeyMaterial{MasterKeys: corpus.EncryptionKeys("data"), External: map[string]string{"k": external}}
		km.RetrieveKey(md)
	})
}
