package latency_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/quiverio/quiver/internal/latency"
)

// A read through a ReaderAt of 20 ms per request and 100 MB/s takes at
// least 20 ms, and is counted.
func ExampleReaderAt() {
	src := latency.New(strings.NewReader("hello, object store"), 20*time.Millisecond, 100e6)
	buf := make([]byte, 5)
	start := time.Now()
	n, err := src.ReadAt(buf, 7)
	fmt.Println(n, err, string(buf), time.Since(start) >= 20*time.Millisecond)
	st := src.Stats()
	fmt.Println(st.Requests, st.Bytes, st.MaxInFlight, st.Rounds)
	// Output:
	// 5 <nil> objec true
	// 1 5 1 1
}
