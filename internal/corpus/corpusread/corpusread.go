// Package corpusread reads corpus files into tables for the tests of
// sources (HTTP, object stores) that compare a remote read with the local
// one. It is test support: no library code imports it.
package corpusread

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/arrowio"
)

// MaxDecoded is the most decoded bytes a file's row groups may total for
// Local to read it: the corpus holds a small file that decodes to
// gigabytes (large_string_map.brotli.parquet), which is arrowio's tests'
// business and would take most of a source test's time.
const MaxDecoded = 64 << 20

// Table reads the whole file open returns and closes it.
func Table(open func() (*arrowio.Reader, error)) (arrow.Table, error) {
	rd, err := open()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return rd.ReadTable(context.Background())
}

// Local reads the local file at path, or returns an error when its row
// groups total more than MaxDecoded bytes decoded.
func Local(path string) (arrow.Table, error) {
	return Table(func() (*arrowio.Reader, error) {
		rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{})
		if err != nil {
			return nil, err
		}
		var total int64
		for _, rg := range rd.Metadata().RowGroups {
			total += rg.TotalByteSize
		}
		if total > MaxDecoded {
			rd.Close()
			return nil, fmt.Errorf("%s: %d bytes decoded", path, total)
		}
		return rd, nil
	})
}
