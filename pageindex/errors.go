package pageindex

import "errors"

// Sentinel errors of the package.
var (
	// ErrCorrupt reports a bloom filter or page index that does not parse
	// or contradicts itself.
	ErrCorrupt = errors.New("pageindex: corrupt data")
	// ErrUnsupported reports a valid filter this package cannot use (the
	// legacy Murmur3 bloom filter layout, a compressed bitset) or a
	// predicate on a column type it cannot evaluate.
	ErrUnsupported = errors.New("pageindex: unsupported")
	// ErrPredicate reports a predicate that does not fit the file: an
	// unknown column, or a literal of the wrong kind for its column.
	ErrPredicate = errors.New("pageindex: invalid predicate")
)
