package arrowio_test

import (
	"context"
	"fmt"
	"log"
	"slices"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/arrowio"
)

// A program that reads file after file, and is done with each batch
// before asking for the next, can share one recycling allocator between
// its readers: the buffers of released batches and tables serve later
// reads instead of new memory. What must outlive a batch is copied out of
// it (or the batch retained), since after the last Release its memory
// holds a later read's values.
func ExampleNewRecyclingAllocator() {
	mem := arrowio.NewRecyclingAllocator()
	var firstKm []float64 // the first batch's distances, kept past its release
	for file := range 3 {
		rd, err := arrowio.OpenFile(trips, arrowio.ReadOptions{Allocator: mem, Columns: []string{"distance_km"}})
		if err != nil {
			log.Fatal(err)
		}
		rr, err := rd.RecordReader(context.Background())
		if err != nil {
			log.Fatal(err)
		}
		var total float64
		for rr.Next() {
			km := rr.RecordBatch().Column(0).(*array.Float64)
			for _, v := range km.Float64Values() {
				total += v
			}
			if firstKm == nil {
				// A copy: km.Float64Values() itself must not be used
				// once Next has released the batch.
				firstKm = slices.Clone(km.Float64Values()[:3])
			}
		}
		if err := rr.Err(); err != nil {
			log.Fatal(err)
		}
		rr.Release() // the last batch's buffers go back to mem
		if err := rd.Close(); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("read %d: %.1f km in all\n", file+1, total)
	}
	fmt.Println("first distances:", firstKm)
	// Output:
	// read 1: 20165.0 km in all
	// read 2: 20165.0 km in all
	// read 3: 20165.0 km in all
	// first distances: [0 39.19 38.38]
}
