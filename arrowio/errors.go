package arrowio

import "github.com/quiverio/quiver/arrowio/internal/errs"

// Sentinel errors of the reader and writer. Errors from this package wrap
// one of them, usually through a [*CorruptError] that says where.
var (
	// ErrCorrupt reports a file that does not follow the format.
	ErrCorrupt = errs.ErrCorrupt
	// ErrUnsupported reports a valid file using a feature Quiver does not
	// implement (for example the LZO codec).
	ErrUnsupported = errs.ErrUnsupported
	// ErrOutOfRange reports a valid stored value that the Arrow type it
	// is read as cannot hold: an INT96 timestamp outside the years 1677
	// to 2262 read in nanoseconds (SchemaOptions.Int96 picks a coarser
	// unit). The read fails rather than return a wrapped-around value.
	ErrOutOfRange = errs.ErrOutOfRange
)

// CorruptError locates a failure inside a file: the byte offset, row group,
// column path and page where it happened. Fields that do not apply are -1
// (Offset, RowGroup, Page) or empty (Column).
//
// errors.Is(err, ErrCorrupt) holds for every CorruptError; Err is the
// underlying cause (often a kernels or footer sentinel, also matchable with
// errors.Is).
type CorruptError = errs.CorruptError
