package kernels

import "errors"

// Sentinel errors returned (wrapped, with the values involved) by the kernels.
var (
	// ErrCorrupt reports encoded input that is truncated or malformed.
	ErrCorrupt = errors.New("kernels: corrupt input")
	// ErrShortBuffer reports a caller-supplied destination too small for the
	// values the input declares.
	ErrShortBuffer = errors.New("kernels: destination too small")
	// ErrOutOfRange reports a dictionary index or a width outside its bounds.
	ErrOutOfRange = errors.New("kernels: value out of range")
	// ErrOffsetOverflow reports byte arrays whose total length passes what
	// the offset type addresses (2 GiB for int32 offsets): the input may
	// be sound, the destination needs wider offsets or fewer values.
	ErrOffsetOverflow = errors.New("kernels: byte arrays pass the offsets' range")
)
