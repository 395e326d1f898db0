package scan

import (
	"math"

	"github.com/quiverio/quiver/arrowio/internal/colread"
	"github.com/quiverio/quiver/footer"
)

// A string or binary array addresses its data with int32 offsets, so one
// batch of a BYTE_ARRAY leaf holds at most math.MaxInt32 bytes of values.
// A row group whose chunk holds more (two 1 GiB strings) is read in
// batches small enough for its values to fit, as pqarrow returns it in
// several chunks, rather than failing.

// batchLimit returns the most rows of row group rg that one batch should
// hold so that no BYTE_ARRAY leaf among leaves passes the int32 offset
// range, from each chunk's data bound (colread.DataBound, or its
// uncompressed size when that gives none); 0 when every chunk fits whole.
// The bound assumes the chunk's bytes spread evenly over its rows: a
// batch holding a larger share (or values a dictionary repeats) can still
// pass the range, which the column reader reports as an error naming the
// column.
func batchLimit(rg *footer.RowGroup, leaves []*footer.Node) int64 {
	limit := int64(0)
	for _, leaf := range leaves {
		md := rg.Columns[leaf.Column].MetaData
		if leaf.Physical != footer.TypeByteArray || md == nil || rg.NumRows <= 0 {
			continue
		}
		bytes := colread.DataBound(md)
		if bytes <= 0 {
			bytes = md.TotalUncompressedSize
		}
		if bytes <= math.MaxInt32 {
			continue
		}
		// rows * MaxInt32 / bytes, rounded down, at least one row.
		rows := max(int64(float64(rg.NumRows)*math.MaxInt32/float64(bytes)), 1)
		if limit == 0 || rows < limit {
			limit = rows
		}
	}
	return limit
}
