package colwrite

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/footer"
)

// reservePlain gives c.DataPages room, up front, for a chunk of arr[lo:hi]
// that will be written PLAIN and uncompressed, whose size is then known
// from the array: the chunk then takes one segment of its size, where
// segments opened page by page leave up to a third of theirs unused.
// Chunks that compress or use a dictionary end up much smaller than their
// values, so they grow as they go.
func (c *Writer) reservePlain(arr arrow.Array, lo, hi int) {
	if c.set.Codec != footer.CodecUncompressed || c.set.Dictionary || c.set.Encoding != footer.EncodingPlain || hi <= lo {
		return
	}
	n := hi - lo
	var size int
	switch c.node.Physical {
	case footer.TypeBoolean:
		size = n / 8
	case footer.TypeInt32, footer.TypeFloat:
		size = 4 * n
	case footer.TypeInt64, footer.TypeDouble:
		size = 8 * n
	case footer.TypeInt96:
		size = 12 * n
	case footer.TypeFixedLenByteArray:
		size = int(c.node.TypeLength) * n
	case footer.TypeByteArray:
		b, ok := arr.(array.BinaryLike)
		if !ok {
			return
		}
		// The offsets are not checked yet (put checks them a mini-batch
		// at a time): a span they give that the data cannot hold is
		// left for put to report, not reserved.
		span := b.ValueOffset64(hi-1) + int64(b.ValueLen(hi-1)) - b.ValueOffset64(lo)
		if data := arr.Data().Buffers(); len(data) < 3 || data[2] == nil || span < 0 || span > int64(data[2].Len()) {
			return
		}
		size = 4*n + int(span)
	}
	// Definition levels, the room page headers take (pageBound's too, as
	// pages are built in place) and the odd short page.
	size += n/4 + (pageHeaderRoom+256)*(size/max(c.set.PageSize, 1)+1) + 4096
	c.DataPages.reserve(size)
}
