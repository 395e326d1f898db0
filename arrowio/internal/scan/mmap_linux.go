package scan

import (
	"os"

	"golang.org/x/sys/unix"
)

// populate maps the pages of data[start:end], a range of the file mapping
// data about to be read, into the page tables in one call
// (MADV_POPULATE_READ), instead of one page fault per page or two as the
// range is read: on virtual machines, where a fault costs microseconds, the
// faults were most of a mapped read. Kernels before 5.14 refuse the advice
// and the pages fault in as before; so do pages of a file that shrank,
// which mapping.guard then reports.
func populate(data []byte, start, end int64) {
	start &^= int64(os.Getpagesize() - 1)
	_ = unix.Madvise(data[start:end], unix.MADV_POPULATE_READ)
}
