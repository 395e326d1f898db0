package pqcli

import (
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/quiverio/quiver/encrypt"
)

// keyFlags are the decryption flags every pq command takes: --footer-key
// KEY, --column-key PATH:KEY (repeatable) and --aad-prefix PREFIX, and for
// files with parquet-java key material --master-key ID:KEY (repeatable)
// and --key-material FILE (the sidecar of external key material). A key
// is its text's bytes ("0123456789012345" is a 128-bit key), or hex digits
// after "hex:".
type keyFlags struct {
	footer   string
	columns  pairFlag
	prefix   string
	masters  pairFlag
	material string
}

// addKeyFlags registers the decryption flags on fs.
func addKeyFlags(fs *flag.FlagSet) *keyFlags {
	k := &keyFlags{}
	fs.StringVar(&k.footer, "footer-key", "", "key of an encrypted file's footer (text, or hex:DIGITS)")
	fs.Var(&k.columns, "column-key", "PATH:KEY, the key of an encrypted column (repeatable)")
	fs.StringVar(&k.prefix, "aad-prefix", "", "AAD prefix of an encrypted file that does not store it")
	fs.Var(&k.masters, "master-key", "ID:KEY, a master key that wraps parquet-java key material (repeatable)")
	fs.StringVar(&k.material, "key-material", "", "parquet-java external key material file (_KEY_MATERIAL_FOR_....json)")
	return k
}

// config returns the decryption configuration the flags give, or nil when
// none was given.
func (k *keyFlags) config() (*encrypt.DecryptionConfig, error) {
	if k.footer == "" && len(k.columns) == 0 && k.prefix == "" && len(k.masters) == 0 && k.material == "" {
		return nil, nil
	}
	cfg := &encrypt.DecryptionConfig{}
	if k.footer != "" {
		key, err := parseKey(k.footer)
		if err != nil {
			return nil, fmt.Errorf("%w: --footer-key: %v", errUsage, err)
		}
		cfg.FooterKey = key
	}
	var err error
	if cfg.ColumnKeys, err = k.columns.keys("--column-key"); err != nil {
		return nil, err
	}
	if k.prefix != "" {
		cfg.AADPrefix = []byte(k.prefix)
	}
	if len(k.masters) > 0 || k.material != "" {
		km := &encrypt.KeyMaterial{}
		if km.MasterKeys, err = k.masters.keys("--master-key"); err != nil {
			return nil, err
		}
		if k.material != "" {
			b, err := os.ReadFile(k.material)
			if err != nil {
				return nil, err
			}
			if km.External, err = encrypt.ParseKeyMaterialFile(b); err != nil {
				return nil, fmt.Errorf("%s: %w", k.material, err)
			}
		}
		cfg.KeyRetriever = km
	}
	return cfg, nil
}

// parseKey returns the key bytes s stands for.
func parseKey(s string) ([]byte, error) {
	key := []byte(s)
	if h, ok := strings.CutPrefix(s, "hex:"); ok {
		var err error
		if key, err = hex.DecodeString(h); err != nil {
			return nil, err
		}
	}
	if n := len(key); n != 16 && n != 24 && n != 32 {
		return nil, fmt.Errorf("a key of %d bytes (want 16, 24 or 32)", n)
	}
	return key, nil
}

// pairFlag collects repeated NAME:KEY flags.
type pairFlag []string

// String returns the flags given, joined with commas (flag.Value).
func (c *pairFlag) String() string { return strings.Join(*c, ",") }

// Set adds one NAME:KEY flag (flag.Value).
func (c *pairFlag) Set(v string) error {
	if name, key, ok := strings.Cut(v, ":"); !ok || name == "" || key == "" {
		return fmt.Errorf("want NAME:KEY, got %q", v)
	}
	*c = append(*c, v)
	return nil
}

// keys returns the keys of the flags by name, nil when there are none;
// flag names the flag in errors.
func (c pairFlag) keys(flag string) (map[string][]byte, error) {
	if len(c) == 0 {
		return nil, nil
	}
	m := make(map[string][]byte, len(c))
	for _, v := range c {
		name, text, _ := strings.Cut(v, ":")
		key, err := parseKey(text)
		if err != nil {
			return nil, fmt.Errorf("%w: %s %s: %v", errUsage, flag, name, err)
		}
		m[name] = key
	}
	return m, nil
}
