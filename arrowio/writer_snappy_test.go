package arrowio_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/footer"
)

// TestFastSnappy writes the order-lines table with snappy's default and
// fast encoder choices: pqarrow reads both files to the table, and the
// default, which compresses the comments with the better encoder, is the
// smaller by at least 1%.
func TestFastSnappy(t *testing.T) {
	rec := benchRecord(arrowiotest.Rows(200_000))
	defer rec.Release()
	size := map[bool]int{}
	for _, fast := range []bool{false, true} {
		file := arrowiotest.WriteFile(t, rec.Schema(), arrowio.WriteOptions{Compression: footer.CodecSnappy, FastSnappy: fast}, rec)
		tbl := pqRead(t, memory.DefaultAllocator, file)
		arrowiotest.CheckTable(t, "pqarrow", tbl, rec)
		tbl.Release()
		size[fast] = len(file)
	}
	if size[false] > size[true]-size[true]/100 {
		t.Errorf("snappy files of %d bytes by default, %d with FastSnappy: want the default 1%% smaller", size[false], size[true])
	}
}
