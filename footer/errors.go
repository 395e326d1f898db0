package footer

import "errors"

// ErrCorrupt is wrapped by every error that reports malformed metadata: a
// truncated or ill-formed compact-protocol encoding, a missing required field,
// a length that exceeds the bytes that remain, or nesting past the limit.
var ErrCorrupt = errors.New("footer: corrupt metadata")
