//go:build !unix

package scan

import "os"

// mapFile returns nil: files are read with ReadAt where mmap is missing.
func mapFile(f *os.File, size int64) []byte { return nil }

// unmapFile does nothing; mapFile maps nothing here.
func unmapFile(b []byte) error { return nil }
