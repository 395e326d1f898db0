package kernels_test

import (
	"fmt"
	"math"

	"github.com/quiverio/quiver/kernels"
)

// MinMaxNaN gives a float column's bounds and NaN count in one pass; NaN
// is never a bound.
func ExampleMinMaxNaN() {
	v := []float64{2.5, math.NaN(), -1, math.Inf(1), math.NaN(), 0}
	lo, hi, nans := kernels.MinMaxNaN(v)
	fmt.Println(lo, hi, nans)
	_, _, nans = kernels.MinMaxNaN([]float32{float32(math.NaN())})
	fmt.Println("all NaN:", nans == 1)
	// Output:
	// -1 +Inf 2
	// all NaN: true
}
