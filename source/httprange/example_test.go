package httprange_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/source/httprange"
)

// Example reads a Parquet file from an HTTP server (here one on loopback
// serving the repository's testdata) with ranged GETs.
func Example() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	srv := httptest.NewUnstartedServer(http.FileServer(http.Dir("../../testdata")))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	defer srv.Close()

	ctx := context.Background()
	f, err := httprange.Open(ctx, srv.URL+"/trips.parquet", httprange.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	rd, err := arrowio.Open(f, f.Size(), arrowio.ReadOptions{Columns: []string{"vendor"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rd.Close()
	tbl, err := rd.ReadTable(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tbl.Release()
	fmt.Println(tbl.NumRows(), "rows of", tbl.Schema().Field(0).Name)
	// Output: 1000 rows of vendor
}
