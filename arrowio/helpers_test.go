package arrowio_test

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/footer"
)

// readPath opens path with opts, reads it whole (with ReadTable, or with
// RecordReader batches when batches is set) and closes the Reader before
// returning, so that the arrays are used after Close.
func readPath(path string, opts arrowio.ReadOptions, batches bool) (tbl arrow.Table, err error) {
	rd, err := arrowio.OpenFile(path, opts)
	if err != nil {
		return nil, err
	}
	if batches {
		tbl, err = arrowiotest.ReadBatches(rd)
	} else {
		tbl, err = rd.ReadTable(context.Background())
	}
	if cerr := rd.Close(); err == nil && cerr != nil {
		tbl.Release()
		return nil, cerr
	}
	return tbl, err
}

// fileSchema returns the Parquet schema tree of the file rd reads.
func fileSchema(t testing.TB, rd *arrowio.Reader) *footer.Schema {
	t.Helper()
	s, err := footer.NewSchema(rd.Metadata().Schema, rd.Metadata().ColumnOrders)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// chunkSpan returns the bytes [start, end) of the file a column chunk's
// pages take, from its dictionary or first data page on.
func chunkSpan(md *footer.ColumnMetaData) (start, end int64) {
	start = md.DataPageOffset
	if d, ok := md.DictionaryPageOffset.Get(); ok && d > 0 && d < start {
		start = d
	}
	return start, start + md.TotalCompressedSize
}
