package footer_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/quiverio/quiver/footer"
)

// TestReadTailSizes reads the tail of a file with first reads from the
// trailer alone to past the whole file, and checks every one gives the
// metadata the default read gives, in one read when it holds the
// metadata and two otherwise.
func TestReadTailSizes(t *testing.T) {
	file, err := os.ReadFile("../testdata/trips.parquet")
	if err != nil {
		t.Fatal(err)
	}
	want, err := footer.ReadTail(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	for _, first := range []int64{0, 8, 9, 100, int64(len(want.Meta)) + 7, int64(len(want.Meta)) + 8, int64(len(file)), 1 << 20} {
		c := &countingReaderAt{r: bytes.NewReader(file)}
		got, err := footer.ReadTailSize(c, int64(len(file)), first)
		if err != nil {
			t.Fatalf("first %d: %v", first, err)
		}
		reads := 2
		if first >= int64(len(want.Meta))+8 {
			reads = 1
		}
		if !bytes.Equal(got.Meta, want.Meta) || got.MetaOffset != want.MetaOffset || c.calls != reads {
			t.Errorf("first %d: %d reads, metadata equal %v, offset %d (want %d reads, offset %d)", first, c.calls, bytes.Equal(got.Meta, want.Meta), got.MetaOffset, reads, want.MetaOffset)
		}
	}
}
