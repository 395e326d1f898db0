package tri_test

import (
	"fmt"

	"github.com/quiverio/quiver/internal/tri"
)

// AND is min, OR is max, and NOT leaves Unknown unknown, so a row where a
// column is null satisfies neither c = 1 nor NOT (c = 1).
func Example() {
	unknown := tri.Unknown // c = 1 where c is null
	fmt.Println(tri.Not(unknown) == tri.True, min(unknown, tri.False), max(unknown, tri.True), tri.Known(true))
	// Output: false 0 2 2
}
