package datasets

import (
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

var timestampUS = &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}

// Taxi is a taxi-trip-like table: nearly sorted pickup timestamps, drop-off
// timestamps a few minutes later, money and distance doubles with two
// decimals, small location ids and nullable small ints.
var Taxi = &Dataset{
	Name:      "taxi",
	Schema:    taxiSchema,
	RowGroups: 8,
	fullRows:  4_000_000,
	smallRows: 50_000,
	batch:     taxiBatch,
}

var taxiSchema = arrow.NewSchema([]arrow.Field{
	{Name: "pickup_at", Type: timestampUS},
	{Name: "dropoff_at", Type: timestampUS},
	{Name: "passenger_count", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "trip_distance", Type: arrow.PrimitiveTypes.Float64},
	{Name: "fare_amount", Type: arrow.PrimitiveTypes.Float64},
	{Name: "tip_amount", Type: arrow.PrimitiveTypes.Float64},
	{Name: "pu_location_id", Type: arrow.PrimitiveTypes.Int32},
	{Name: "rate_code", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

// taxiBatch builds rows [start, start+n): row r is picked up 0.6 s to 1.2 s
// after 2024-01-01 plus r*0.9 s, so pickups are sorted up to small jitter.
func taxiBatch(mem memory.Allocator, rng *rand.Rand, start, n, _ int) arrow.RecordBatch {
	const epoch = 1_704_067_200_000_000 // 2024-01-01T00:00:00Z in µs
	pickup := make([]arrow.Timestamp, n)
	dropoff := make([]arrow.Timestamp, n)
	passengers := make([]int32, n)
	dist := make([]float64, n)
	fare := make([]float64, n)
	tip := make([]float64, n)
	loc := make([]int32, n)
	rate := make([]int64, n)
	for i := range n {
		t := int64(epoch + (start+i)*900_000 + 600_000 + rng.IntN(600_000))
		pickup[i] = arrow.Timestamp(t)
		dropoff[i] = arrow.Timestamp(t + int64(120+rng.IntN(3480))*1_000_000)
		passengers[i] = 1
		if rng.IntN(4) == 0 {
			passengers[i] = int32(2 + rng.IntN(5))
		}
		dist[i] = cents(0.1 + rng.ExpFloat64()*3)
		fare[i] = cents(2.5 + 2.5*dist[i] + rng.Float64()*3)
		if rng.IntN(5) >= 2 {
			tip[i] = cents(fare[i] * (0.1 + 0.15*rng.Float64()))
		}
		loc[i] = int32(1 + rng.IntN(265))
		rate[i] = 1
		if rng.IntN(10) == 0 {
			rate[i] = int64(2 + rng.IntN(5))
		}
	}

	pub := array.NewTimestampBuilder(mem, timestampUS)
	defer pub.Release()
	pub.AppendValues(pickup, nil)
	dob := array.NewTimestampBuilder(mem, timestampUS)
	defer dob.Release()
	dob.AppendValues(dropoff, nil)
	pcb := array.NewInt32Builder(mem)
	defer pcb.Release()
	pcb.AppendValues(passengers, valid(rng, n, 0.03))
	db := array.NewFloat64Builder(mem)
	defer db.Release()
	db.AppendValues(dist, nil)
	fb := array.NewFloat64Builder(mem)
	defer fb.Release()
	fb.AppendValues(fare, nil)
	tb := array.NewFloat64Builder(mem)
	defer tb.Release()
	tb.AppendValues(tip, nil)
	lb := array.NewInt32Builder(mem)
	defer lb.Release()
	lb.AppendValues(loc, nil)
	rb := array.NewInt64Builder(mem)
	defer rb.Release()
	rb.AppendValues(rate, valid(rng, n, 0.05))

	return record(taxiSchema, int64(n), pub, dob, pcb, db, fb, tb, lb, rb)
}
