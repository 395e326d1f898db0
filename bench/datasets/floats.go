package datasets

import (
	"math"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Floats is a sensor-style table of float32 and float64 series, the data
// BYTE_STREAM_SPLIT is meant for: smooth signals and random walks whose
// sign and exponent bytes repeat while the low mantissa bytes look random.
var Floats = &Dataset{
	Name:      "floats",
	Schema:    floatsSchema,
	RowGroups: 8,
	fullRows:  4_000_000,
	smallRows: 50_000,
	batch:     floatsBatch,
}

var floatsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "temperature", Type: arrow.PrimitiveTypes.Float32},
	{Name: "pressure", Type: arrow.PrimitiveTypes.Float64},
	{Name: "latitude", Type: arrow.PrimitiveTypes.Float64},
	{Name: "longitude", Type: arrow.PrimitiveTypes.Float64},
	{Name: "reading", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

// floatsBatch builds rows [start, start+n) of five series.
func floatsBatch(mem memory.Allocator, rng *rand.Rand, start, n, _ int) arrow.RecordBatch {
	temp := make([]float32, n)
	pres := make([]float64, n)
	lat := make([]float64, n)
	lon := make([]float64, n)
	reading := make([]float64, n)
	p := 1013.25 + rng.NormFloat64()*5
	la, lo := 40.7+rng.Float64()/10, -74.0+rng.Float64()/10
	for i := range n {
		r := float64(start + i)
		temp[i] = float32(20 + 5*math.Sin(r/5000) + rng.NormFloat64()/100)
		p += rng.NormFloat64() / 50
		pres[i] = p
		la += rng.NormFloat64() * 1e-5
		lo += rng.NormFloat64() * 1e-5
		lat[i], lon[i] = la, lo
		reading[i] = math.Exp(rng.NormFloat64())
	}
	tb := array.NewFloat32Builder(mem)
	defer tb.Release()
	tb.AppendValues(temp, nil)
	pb := array.NewFloat64Builder(mem)
	defer pb.Release()
	pb.AppendValues(pres, nil)
	lab := array.NewFloat64Builder(mem)
	defer lab.Release()
	lab.AppendValues(lat, nil)
	lob := array.NewFloat64Builder(mem)
	defer lob.Release()
	lob.AppendValues(lon, nil)
	rb := array.NewFloat64Builder(mem)
	defer rb.Release()
	rb.AppendValues(reading, valid(rng, n, 0.02))
	return record(floatsSchema, int64(n), tb, pb, lab, lob, rb)
}
