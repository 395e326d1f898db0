//go:build !linux

package scan

// populate does nothing where MADV_POPULATE_READ is missing: the pages of
// a mapping fault in as they are read.
func populate(data []byte, start, end int64) {}
