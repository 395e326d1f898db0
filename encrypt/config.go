package encrypt

import "fmt"

// KeyRetriever turns the key_metadata bytes a writer stored beside an
// encrypted footer or column into the key itself (typically by asking a
// key management service). It is called while a file is opened, from one
// goroutine at a time per file.
type KeyRetriever interface {
	// RetrieveKey returns the 16-, 24- or 32-byte key that keyMetadata
	// identifies, or an error (which the reader wraps with the column or
	// footer concerned).
	RetrieveKey(keyMetadata []byte) ([]byte, error)
}

// KeyMap is a [KeyRetriever] that looks key metadata up as a string, for
// writers that store a key's name as its metadata.
type KeyMap map[string][]byte

// RetrieveKey returns m[string(keyMetadata)], or an error wrapping
// [ErrMissingKey] when there is none.
func (m KeyMap) RetrieveKey(keyMetadata []byte) ([]byte, error) {
	if k, ok := m[string(keyMetadata)]; ok {
		return k, nil
	}
	return nil, fmt.Errorf("%w: no key for key metadata %q", ErrMissingKey, keyMetadata)
}

// DecryptionConfig gives a reader the keys and AAD prefix of encrypted
// files. Explicit keys win over the KeyRetriever.
type DecryptionConfig struct {
	// FooterKey decrypts an encrypted footer, verifies a plaintext
	// footer's signature, and decrypts the columns encrypted with the
	// footer key.
	FooterKey []byte
	// ColumnKeys maps a column's dotted path in the Parquet schema
	// ("a", "list_col.list.element") to its key.
	ColumnKeys map[string][]byte
	// KeyRetriever, when set, supplies the keys not given explicitly from
	// the key_metadata the file stores.
	KeyRetriever KeyRetriever
	// AADPrefix is the file's AAD prefix. It is required when the writer
	// did not store it (supply_aad_prefix) and, when the file stores one,
	// must equal it.
	AADPrefix []byte
}

// footerKey returns the footer key: the explicit one, else the
// retriever's answer for the key metadata md, else an error wrapping
// ErrMissingKey.
func (c *DecryptionConfig) footerKey(md []byte) ([]byte, error) {
	var k []byte
	if c != nil {
		k = c.FooterKey
	}
	return c.lookup(k, md, "the footer")
}

// columnKey returns the key of the column at path (see footerKey).
func (c *DecryptionConfig) columnKey(path string, md []byte) ([]byte, error) {
	var k []byte
	if c != nil {
		k = c.ColumnKeys[path]
	}
	return c.lookup(k, md, fmt.Sprintf("column %q", path))
}

// lookup returns explicit when set, else the retriever's key for md.
func (c *DecryptionConfig) lookup(explicit, md []byte, what string) ([]byte, error) {
	switch {
	case c == nil:
		return nil, missing("%s is encrypted and no decryption is configured", what)
	case explicit != nil:
		return explicit, nil
	case c.KeyRetriever == nil:
		return nil, missing("no key for %s (key metadata %q)", what, md)
	}
	k, err := c.KeyRetriever.RetrieveKey(md)
	if err != nil {
		return nil, fmt.Errorf("%w: retrieving the key of %s (key metadata %q): %w", ErrMissingKey, what, md, err)
	}
	return k, nil
}

// missing returns an error wrapping ErrMissingKey and ErrAuthentication:
// without the key, nothing can be authenticated.
func missing(format string, args ...any) error {
	return fmt.Errorf("%w (%w): %s", ErrMissingKey, ErrAuthentication, fmt.Sprintf(format, args...))
}

// ColumnKey is the key of one encrypted column in an [EncryptionConfig].
type ColumnKey struct {
	// Key is the column's 16-, 24- or 32-byte key; nil encrypts the
	// column with the footer key.
	Key []byte
	// KeyMetadata is stored in the file for readers' KeyRetriever.
	KeyMetadata []byte
}

// EncryptionConfig describes how a writer encrypts a file.
type EncryptionConfig struct {
	// Algorithm is AesGcmV1 (the zero value) or AesGcmCtrV1.
	Algorithm Algorithm
	// FooterKey encrypts the footer (or signs it, with PlaintextFooter)
	// and every column encrypted with the footer key. Required.
	FooterKey []byte
	// FooterKeyMetadata is stored for readers' KeyRetriever.
	FooterKeyMetadata []byte
	// PlaintextFooter leaves the footer readable (and signed), so readers
	// without keys can read the plaintext columns.
	PlaintextFooter bool
	// ColumnKeys lists the encrypted columns by dotted path in the Parquet
	// schema; the columns it does not list stay in plaintext. Empty
	// encrypts every column with the footer key (uniform encryption).
	ColumnKeys map[string]ColumnKey
	// AADPrefix is authenticated with every module, to tie the modules to
	// this file's identity.
	AADPrefix []byte
	// DisableAADPrefixStorage leaves AADPrefix out of the file: readers
	// must supply it.
	DisableAADPrefixStorage bool
}
