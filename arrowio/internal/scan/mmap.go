package scan

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/quiverio/quiver/arrowio/internal/errs"
)

// Reads from a memory-mapped file (ReadOptions.MemoryMap) slice column
// chunks out of the mapping instead of copying them. A file that another
// process truncates while it is mapped makes the pages past its new end
// fault (SIGBUS), which would end the program: the code that touches the
// mapping runs under mapping.guard, which turns such a fault into an error.

// mapping is a file mapped into memory by OpenFile.
type mapping struct {
	data []byte
	f    *os.File
}

// guard calls read; when m is set, a memory fault in it that the file's
// shrinking explains is returned as an error wrapping ErrCorrupt instead
// of ending the program. Other panics, and faults while the file still
// covers the mapping, pass through.
func (m *mapping) guard(read func() error) (err error) {
	if m == nil {
		return read()
	}
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		p := recover()
		if p == nil {
			return
		}
		if _, ok := p.(runtime.Error); !ok || !m.shrunk() {
			panic(p)
		}
		err = fmt.Errorf("%w: %s changed while it was read (it is now shorter than the %d bytes mapped)", errs.ErrCorrupt, m.f.Name(), len(m.data))
	}()
	return read()
}

// shrunk reports whether the file no longer covers the mapping.
func (m *mapping) shrunk() bool {
	st, err := m.f.Stat()
	return err != nil || st.Size() < int64(len(m.data))
}
