package pqcli

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/internal/corpus"
)

func TestEncryptedFiles(t *testing.T) {
	data := filepath.Join(corpus.Dir(t), "data")
	keys := []string{"--footer-key", "0123456789012345", "--column-key", "double_field:1234567890123450",
		"--column-key", "float_field:hex:31323334353637383930313233343531"}
	file := filepath.Join(data, "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted")
	out := runPQ(t, append([]string{"head", "--limit", "2", "--columns", "double_field,float_field", "--aad-prefix", "tester", file}, keys...)...)
	if want := "{\"float_field\":0,\"double_field\":0}\n{\"float_field\":1.1,\"double_field\":1.1111111}\n"; string(out) != want {
		t.Errorf("head: %q, want %q", out, want)
	}
	for _, cmd := range []string{"schema", "meta"} {
		if out := runPQ(t, append([]string{cmd, "--aad-prefix", "tester", file}, keys...)...); !bytes.Contains(out, []byte("double_field")) {
			t.Errorf("%s: %s", cmd, out)
		}
	}
	var sink bytes.Buffer
	if err := run([]string{"head", file}, &sink); !errors.Is(err, encrypt.ErrMissingKey) {
		t.Errorf("no keys: err = %v, want ErrMissingKey", err)
	}
	wrong := []string{"head", "--footer-key", "0123456789012346", "--aad-prefix", "tester", file}
	if err := run(wrong, &sink); !errors.Is(err, encrypt.ErrAuthentication) {
		t.Errorf("wrong key: err = %v, want ErrAuthentication", err)
	}
}

func TestKeyMaterialFlags(t *testing.T) {
	data := filepath.Join(corpus.Dir(t), "data")
	out := runPQ(t, "head", "--limit", "2", "--master-key", "kf:0123456789012345", "--master-key", "kc1:1234567890123450",
		"--master-key", "kc2:1234567890123451", "--key-material", filepath.Join(data, "_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json"),
		filepath.Join(data, "external_key_material_java.parquet.encrypted"))
	if want := "{\"integers\":0,\"strings\":\"a0\"}\n{\"integers\":1,\"strings\":\"b1\"}\n"; string(out) != want {
		t.Errorf("head: %q, want %q", out, want)
	}
}

func TestKeyFlagErrors(t *testing.T) {
	for _, args := range [][]string{
		{"head", "--footer-key", "short", fixture},
		{"head", "--footer-key", "hex:zz", fixture},
		{"head", "--column-key", "nokey", fixture},
		{"head", "--column-key", "a:", fixture},
		{"schema", "--column-key", "a:0123", fixture},
		{"meta", "--master-key", "kf:0123", fixture},
	} {
		var out bytes.Buffer
		err := run(args, &out)
		if !errors.Is(err, errUsage) {
			t.Errorf("pq %s: err = %v, want a usage error", strings.Join(args, " "), err)
		}
	}
}
