package duckdb

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow/cdata"

	"github.com/quiverio/quiver/arrowio"
)

// ExportStream starts a record reader on r and exports it into out as an
// Arrow C stream. The arrays the stream hands out point at the buffers the
// reader decoded into: no value is copied.
//
// out must be zeroed and, when a consumer outside Go keeps it, allocated
// outside the Go heap (C.calloc). The consumer owns the stream from here on
// and calls its release callback when done; that releases the record reader,
// and r.Close waits for it. A batch stays valid until the consumer releases
// the array it got for it, whatever the stream does meanwhile. Cancelling
// ctx ends the stream with an error (EIO, the message from
// get_last_error).
func ExportStream(ctx context.Context, r *arrowio.Reader, out *cdata.CArrowArrayStream) error {
	rr, err := r.RecordReader(ctx)
	if err != nil {
		return err
	}
	cdata.ExportRecordReader(rr, out) // takes a reference of its own
	rr.Release()
	return nil
}
