package kernels_test

import (
	"fmt"

	"github.com/quiverio/quiver/kernels"
)

// A page of a column of distinct values indexes its dictionary in order,
// so its values are one run of the dictionary and gather as one copy.
func ExampleSequential() {
	dict := []int64{10, 11, 12, 13, 14, 15}
	for _, idx := range [][]uint32{{2, 3, 4}, {2, 4, 3}} {
		if kernels.Sequential(idx) {
			fmt.Println(idx, "copies", dict[idx[0]:int(idx[0])+len(idx)])
			continue
		}
		dst := make([]int64, len(idx))
		if err := kernels.Gather(dst, dict, idx); err != nil {
			fmt.Println(err)
		}
		fmt.Println(idx, "gathers", dst)
	}
	// Output:
	// [2 3 4] copies [12 13 14]
	// [2 4 3] gathers [12 14 13]
}
