// Package errs holds the sentinel errors and the located CorruptError that
// every layer of the reader and writer returns; package arrowio re-exports
// them, so errors.Is and errors.As work on the public names.
package errs

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors of the reader and writer. Errors from this package wrap
// one of them, usually through a [*CorruptError] that says where.
var (
	// ErrCorrupt reports a file that does not follow the format.
	ErrCorrupt = errors.New("arrowio: corrupt file")
	// ErrUnsupported reports a valid file using a feature Quiver does not
	// implement (for example the LZO codec).
	ErrUnsupported = errors.New("arrowio: unsupported")
	// ErrOutOfRange reports a valid stored value that the Arrow type it
	// is read as cannot hold (an INT96 timestamp past the years 1677 to
	// 2262 read in nanoseconds); a wider type reads it.
	ErrOutOfRange = errors.New("arrowio: value out of range of its Arrow type")
)

// CorruptError locates a failure inside a file: the byte offset, row group,
// column path and page where it happened. Fields that do not apply are -1
// (Offset, RowGroup, Page) or empty (Column).
//
// errors.Is(err, ErrCorrupt) holds for every CorruptError; Err is the
// underlying cause (often a kernels or footer sentinel, also matchable with
// errors.Is).
type CorruptError struct {
	Offset   int64
	RowGroup int
	Column   string
	Page     int
	Err      error
}

// Error describes the failure and its place.
func (e *CorruptError) Error() string {
	var b strings.Builder
	b.WriteString("arrowio: corrupt file")
	if e.RowGroup >= 0 {
		fmt.Fprintf(&b, ", row group %d", e.RowGroup)
	}
	if e.Column != "" {
		fmt.Fprintf(&b, ", column %q", e.Column)
	}
	if e.Page >= 0 {
		fmt.Fprintf(&b, ", page %d", e.Page)
	}
	if e.Offset >= 0 {
		fmt.Fprintf(&b, ", offset %d", e.Offset)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns ErrCorrupt and the cause, so errors.Is matches both.
func (e *CorruptError) Unwrap() []error { return []error{ErrCorrupt, e.Err} }
