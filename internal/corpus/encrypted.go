package corpus

import (
	"fmt"
	"path/filepath"
	"strings"
)

// ListEncrypted returns the encrypted files below root that the corpus
// README's keys open (every *.parquet.encrypted file in data/ and
// data/aes256/ but the one whose keys need a key management service),
// relative to root, sorted.
func ListEncrypted(root string) ([]string, error) {
	var out []string
	for _, pat := range []string{"data/*.parquet.encrypted", "data/aes256/*.parquet.encrypted"} {
		m, err := filepath.Glob(filepath.Join(root, pat))
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", pat, err)
		}
		for _, p := range m {
			if !strings.Contains(p, "external_key_material") {
				rel, err := filepath.Rel(root, p)
				if err != nil {
					return nil, err
				}
				out = append(out, rel)
			}
		}
	}
	return out, nil
}

// EncryptionKeys returns the keys the corpus README gives for the
// encrypted file rel, by the key metadata the file stores ("kf" for the
// footer, "kc1"... for columns): ASCII digit strings, 16 bytes long in
// data/ and 32 in data/aes256/.
func EncryptionKeys(rel string) map[string][]byte {
	if !strings.Contains(rel, "aes256") {
		return map[string][]byte{"kf": []byte("0123456789012345"), "kc1": []byte("1234567890123450"), "kc2": []byte("1234567890123451")}
	}
	m := map[string][]byte{"kf": []byte("01234567890123456789012345678901")}
	for i := 1; i <= 8; i++ {
		m[fmt.Sprintf("kc%d", i)] = fmt.Appendf(nil, "123456789012345678901234567890%d", 11+i)
	}
	return m
}

// AADPrefix returns the AAD prefix a reader must supply for the encrypted
// file rel ("tester" for the files that do not store theirs), or nil.
func AADPrefix(rel string) []byte {
	if strings.Contains(rel, "disable_aad_storage") {
		return []byte("tester")
	}
	return nil
}
