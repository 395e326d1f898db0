package pqcli_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/quiverio/quiver/internal/pqcli"
)

// memFile is a file held in memory, as an Opener may return one.
type memFile struct{ *bytes.Reader }

func (memFile) Close() error { return nil }

// Run with an Opener reads URLs of a scheme pq does not know itself: here
// mem://NAME, files held in memory; the cloud module's build of pq opens
// s3://, gs:// and azblob:// URLs this way.
func ExampleRun() {
	trips, err := os.ReadFile("../../testdata/trips.parquet")
	if err != nil {
		fmt.Println(err)
		return
	}
	mem := pqcli.Opener{Scheme: "mem", Open: func(_ context.Context, url string) (pqcli.Input, int64, error) {
		if strings.TrimPrefix(url, "mem://") != "trips" {
			return nil, 0, fmt.Errorf("%s: no such file", url)
		}
		return memFile{bytes.NewReader(trips)}, int64(len(trips)), nil
	}}
	err = pqcli.Run([]string{"head", "--limit", "2", "--columns", "trip_id,vendor", "mem://trips"}, os.Stdout, mem)
	fmt.Println(err)
	// Output:
	// {"trip_id":100000,"vendor":"acme"}
	// {"trip_id":100001,"vendor":"dash"}
	// <nil>
}
