package arrowio_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"

	"github.com/quiverio/quiver/arrowio"
)

// Count the requests a read makes of its io.ReaderAt (here a file in
// memory; an object store's, over HTTP, in practice). The footer is one
// request of the file's last 64 KiB (IOOptions.FooterReadSize), which
// holds all of this small file: its chunks need no request of their own.
// A larger file's chunks are fetched side by side, ahead of their
// decoding.
func ExampleReader_IOStats() {
	file, err := os.ReadFile(trips)
	if err != nil {
		log.Fatal(err)
	}
	rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{
		Columns: []string{"vendor", "fare"},
		IO:      arrowio.IOOptions{Concurrency: 8}, // the other fields take their defaults
	})
	if err != nil {
		log.Fatal(err)
	}
	defer rd.Close()
	fmt.Println("after Open:", rd.IOStats().Requests, "request")
	tbl, err := rd.ReadTable(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	defer tbl.Release()
	st := rd.IOStats()
	fmt.Println(tbl.NumRows(), "rows,", st.Requests, "requests")
	fmt.Println("fetched at least what was used:", st.BytesFetched >= st.BytesUsed)
	// Output:
	// after Open: 1 request
	// 1000 rows, 1 requests
	// fetched at least what was used: true
}
