package pageindex

import (
	"fmt"
	"io"

	"github.com/quiverio/quiver/footer"
)

// IndexSpan returns the byte range [start, end) of a ColumnIndex or
// OffsetIndex from a column chunk's offset and length fields; ok is false
// when either is unset. A range outside [4, limit), limit being where the
// footer starts, is an error wrapping ErrCorrupt.
func IndexSpan(off footer.Optional[int64], length footer.Optional[int32], limit int64) (start, end int64, ok bool, err error) {
	o, ok1 := off.Get()
	l, ok2 := length.Get()
	if !ok1 || !ok2 {
		return 0, 0, false, nil
	}
	if o < 4 || l <= 0 || o > limit || int64(l) > limit-o {
		return 0, 0, false, fmt.Errorf("%w: index of %d bytes at offset %d lies outside the %d bytes before the footer", ErrCorrupt, l, o, limit)
	}
	return o, o + int64(l), true, nil
}

// ReadIndex reads the index module that off and length locate into msg
// (a *footer.ColumnIndex or *footer.OffsetIndex), and reports false when
// they are unset. limit is where the footer starts. A range outside the
// file's pages or bytes that do not parse are errors wrapping ErrCorrupt
// (the parse error also wraps footer.ErrCorrupt).
func ReadIndex(r io.ReaderAt, off footer.Optional[int64], length footer.Optional[int32], limit int64, msg footer.Message) (bool, error) {
	start, end, ok, err := IndexSpan(off, length, limit)
	if !ok {
		return false, err
	}
	buf := make([]byte, end-start)
	if _, err := r.ReadAt(buf, start); err != nil {
		return false, fmt.Errorf("reading the index at offset %d: %w", start, err)
	}
	if _, err := footer.Unmarshal(buf, msg); err != nil {
		return false, fmt.Errorf("%w: index at offset %d: %w", ErrCorrupt, start, err)
	}
	return true, nil
}
