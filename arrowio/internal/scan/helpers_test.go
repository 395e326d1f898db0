package scan_test

import (
	"bytes"
	"io"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/scan"
)

// open opens the size-byte file r with opts resolved; the test's cleanup
// closes it.
func open(t testing.TB, r io.ReaderAt, size int64, opts scan.Options) *scan.File {
	t.Helper()
	f, err := scan.Open(r, size, resolve(opts))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// resolve gives the zero BatchSize, Parallelism, Mem and IO of opts the
// defaults arrowio.ReadOptions gives them (the Go allocator for Mem).
func resolve(opts scan.Options) scan.Options {
	if opts.BatchSize <= 0 {
		opts.BatchSize = arrowio.DefaultBatchSize
	}
	if opts.Parallelism <= 0 {
		opts.Parallelism = runtime.GOMAXPROCS(0)
	}
	if opts.Mem == nil {
		opts.Mem = memory.DefaultAllocator
	}
	if opts.IO == (scan.IOOptions{}) {
		opts.IO = scan.IOOptions{
			FooterReadSize: arrowio.DefaultFooterReadSize,
			HoleLimit:      arrowio.DefaultHoleLimit,
			RangeLimit:     arrowio.DefaultRangeLimit,
			Concurrency:    arrowio.DefaultConcurrency,
			PrefetchBytes:  arrowio.DefaultPrefetchBytes,
		}
	}
	return opts
}

// openBytes is open for a file held in memory.
func openBytes(t testing.TB, file []byte, opts scan.Options) *scan.File {
	t.Helper()
	return open(t, bytes.NewReader(file), int64(len(file)), opts)
}
