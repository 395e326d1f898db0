//go:build unix

package scan

import (
	"math"
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps the size bytes of f read-only into memory. It returns nil,
// for ReadAt to be used instead, when the file is empty, larger than the
// address space, or cannot be mapped (pipes, some special files).
func mapFile(f *os.File, size int64) []byte {
	if size <= 0 || uint64(size) > math.MaxInt {
		return nil
	}
	b, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil
	}
	return b
}

// unmapFile releases a mapping mapFile made.
func unmapFile(b []byte) error { return unix.Munmap(b) }
