package footer_test

import (
	"bytes"
	"fmt"
	"log"
	"os"

	"github.com/quiverio/quiver/footer"
)

// countingReaderAt counts its ReadAt calls.
type countingReaderAt struct {
	r     *bytes.Reader
	calls int
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	c.calls++
	return c.r.ReadAt(p, off)
}

// Read the footer of a file with a first read of 1 KiB: a footer larger
// than that takes a second read, of the rest of the metadata only.
func ExampleReadTailSize() {
	file, err := os.ReadFile("../testdata/trips.parquet")
	if err != nil {
		log.Fatal(err)
	}
	for _, first := range []int64{footer.TailReadSize, 1 << 10} {
		src := &countingReaderAt{r: bytes.NewReader(file)}
		tail, err := footer.ReadTailSize(src, int64(len(file)), first)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("first read %d bytes: %s footer of %d bytes in %d reads\n", first, tail.Magic, len(tail.Meta), src.calls)
	}
	// Output:
	// first read 65536 bytes: PAR1 footer of 2951 bytes in 1 reads
	// first read 1024 bytes: PAR1 footer of 2951 bytes in 2 reads
}

// A footer parsed once can check and index the same file again without
// reading it, as a cache of footers does.
func ExampleFromMetadata() {
	file, err := os.ReadFile("../testdata/trips.parquet")
	if err != nil {
		log.Fatal(err)
	}
	first, err := footer.ReadFooter(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		log.Fatal(err)
	}
	again, err := footer.FromMetadata(first.Meta, int64(len(file)))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(again.Schema.Leaves), "columns,", again.Meta.NumRows, "rows")
	// Output:
	// 10 columns, 1000 rows
}
