package encrypt

import "errors"

// ErrAuthentication is wrapped by every error that reports a module or
// footer whose GCM tag or footer signature does not verify: the key, the
// AAD (file identity, AAD prefix, module position) or the bytes differ
// from what the writer used.
var ErrAuthentication = errors.New("encrypt: authentication failed")

// ErrMissingKey is wrapped by errors that report a key the configuration
// does not provide (no explicit key and no KeyRetriever result), or an AAD
// prefix the file requires but was not supplied.
var ErrMissingKey = errors.New("encrypt: missing key")

// ErrCorrupt is wrapped by errors that report an encrypted module whose
// framing is impossible (a length shorter than the nonce and tag, or
// longer than the bytes that remain) or crypto metadata that cannot be
// used (an unknown algorithm).
var ErrCorrupt = errors.New("encrypt: corrupt module")

// ErrConfig is wrapped by errors that report an unusable configuration: a
// key that is not 16, 24 or 32 bytes long, or a column key for a column
// the schema does not have.
var ErrConfig = errors.New("encrypt: invalid configuration")
