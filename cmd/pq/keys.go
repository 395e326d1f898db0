package main

import (
	"encoding/hex"
	"flag"
	"fmt"
	"strings"

	"github.com/quiverio/quiver/encrypt"
)

// keyFlags are the decryption flags every pq command takes: --footer-key
// KEY, --column-key PATH:KEY (repeatable) and --aad-prefix PREFIX. A key is
// its text's bytes ("0123456789012345" is a 128-bit key), or hex digits
// after "hex:".
type keyFlags struct {
	footer  string
	columns columnKeyFlag
	prefix  string
}

// addKeyFlags registers the decryption flags on fs.
func addKeyFlags(fs *flag.FlagSet) *keyFlags {
	k := &keyFlags{}
	fs.StringVar(&k.footer, "footer-key", "", "key of an encrypted file's footer (text, or hex:DIGITS)")
	fs.Var(&k.columns, "column-key", "PATH:KEY, the key of an encrypted column (repeatable)")
	fs.StringVar(&k.prefix, "aad-prefix", "", "AAD prefix of an encrypted file that does not store it")
	return k
}

// config returns the decryption configuration the flags give, or nil when
// none was given.
func (k *keyFlags) config() (*encrypt.DecryptionConfig, error) {
	if k.footer == "" && len(k.columns) == 0 && k.prefix == "" {
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
	if len(k.columns) > 0 {
		cfg.ColumnKeys = map[string][]byte{}
		for _, c := range k.columns {
			path, text, _ := strings.Cut(c, ":")
			key, err := parseKey(text)
			if err != nil {
				return nil, fmt.Errorf("%w: --column-key %s: %v", errUsage, path, err)
			}
			cfg.ColumnKeys[path] = key
		}
	}
	if k.prefix != "" {
		cfg.AADPrefix = []byte(k.prefix)
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

// columnKeyFlag collects the --column-key flags.
type columnKeyFlag []string

// String returns the flags given, joined with commas (flag.Value).
func (c *columnKeyFlag) String() string { return strings.Join(*c, ",") }

// Set adds one PATH:KEY flag (flag.Value).
func (c *columnKeyFlag) Set(v string) error {
	if path, key, ok := strings.Cut(v, ":"); !ok || path == "" || key == "" {
		return fmt.Errorf("want PATH:KEY, got %q", v)
	}
	*c = append(*c, v)
	return nil
}
