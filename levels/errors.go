package levels

import "errors"

// Sentinel errors returned (wrapped, with the values involved) by the
// package.
var (
	// ErrCorrupt reports levels or values that contradict each other or
	// the plan: a row that does not start with repetition level 0, a leaf
	// whose value count differs from its levels, siblings of a struct with
	// different lengths, a fixed-size list of the wrong size, a null where
	// the plan forbids one.
	ErrCorrupt = errors.New("levels: corrupt levels")
	// ErrPlan reports a plan tree that cannot describe a nested column:
	// levels that do not nest, a kind that does not match its Arrow type,
	// a leaf index out of range.
	ErrPlan = errors.New("levels: invalid plan")
	// ErrUnsupported reports an Arrow type the package does not assemble
	// or shred (dictionary and view-layout leaves, unions, run-end
	// encoded arrays).
	ErrUnsupported = errors.New("levels: unsupported")
)
