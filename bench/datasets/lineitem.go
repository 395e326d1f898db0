package datasets

import (
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Lineitem is a TPC-H lineitem-like flat table: sorted int64 order keys
// with about four lines per order, small ints, prices as float64 and as
// decimal128(12,2), a low-cardinality string, dates, high-cardinality
// comments with 10% nulls and a nullable boolean.
var Lineitem = &Dataset{
	Name:          "lineitem",
	Schema:        lineitemSchema,
	RowGroups:     8,
	PrefixStrings: []string{"l_shipmode"},
	fullRows:      4_000_000,
	smallRows:     50_000,
	batch:         lineitemBatch,
}

var decimal12x2 = &arrow.Decimal128Type{Precision: 12, Scale: 2}

var lineitemSchema = arrow.NewSchema([]arrow.Field{
	{Name: "l_orderkey", Type: arrow.PrimitiveTypes.Int64},
	{Name: "l_quantity", Type: arrow.PrimitiveTypes.Int32},
	{Name: "l_extendedprice", Type: arrow.PrimitiveTypes.Float64},
	{Name: "l_netprice", Type: decimal12x2},
	{Name: "l_shipmode", Type: arrow.BinaryTypes.String},
	{Name: "l_shipdate", Type: arrow.FixedWidthTypes.Date32},
	{Name: "l_comment", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "l_returned", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
}, nil)

var shipModes = [...]string{"AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"}

// lineitemBatch builds rows [start, start+n). Order keys start at 2*start
// and grow by one per row on average, clamped below the next batch's first
// key so that the whole column stays sorted.
func lineitemBatch(mem memory.Allocator, rng *rand.Rand, start, n, _ int) arrow.RecordBatch {
	keys := make([]int64, n)
	qty := make([]int32, n)
	price := make([]float64, n)
	net := make([]decimal128.Num, n)
	dates := make([]arrow.Date32, n)
	key, limit := int64(2*start)+1, int64(2*(start+n))
	for i := range n {
		if i > 0 && rng.IntN(4) == 0 {
			key = min(key+1+int64(rng.IntN(7)), limit)
		}
		keys[i] = key
		qty[i] = int32(1 + rng.IntN(50))
		part := 900 + float64(rng.IntN(100_000))/100
		price[i] = cents(float64(qty[i]) * part)
		discount := float64(rng.IntN(11)) / 100
		net[i] = decimal128.FromI64(int64(price[i]*(1-discount)*100 + 0.5))
		dates[i] = arrow.Date32(8036 + rng.IntN(2526)) // 1992-01-02 .. 1998-12-01
	}

	mode := array.NewStringBuilder(mem)
	defer mode.Release()
	comment := array.NewStringBuilder(mem)
	defer comment.Release()
	returned := array.NewBooleanBuilder(mem)
	defer returned.Release()
	var scratch []byte
	for range n {
		mode.Append(shipModes[rng.IntN(len(shipModes))])
		if rng.IntN(10) == 0 {
			comment.AppendNull()
		} else {
			scratch = appendSentence(scratch[:0], rng, 2, 7)
			comment.BinaryBuilder.Append(scratch)
		}
		if rng.IntN(20) == 0 {
			returned.AppendNull()
		} else {
			returned.Append(rng.IntN(4) == 0)
		}
	}

	kb := array.NewInt64Builder(mem)
	defer kb.Release()
	kb.AppendValues(keys, nil)
	qb := array.NewInt32Builder(mem)
	defer qb.Release()
	qb.AppendValues(qty, nil)
	pb := array.NewFloat64Builder(mem)
	defer pb.Release()
	pb.AppendValues(price, nil)
	nb := array.NewDecimal128Builder(mem, decimal12x2)
	defer nb.Release()
	nb.AppendValues(net, nil)
	db := array.NewDate32Builder(mem)
	defer db.Release()
	db.AppendValues(dates, nil)

	return record(lineitemSchema, int64(n), kb, qb, pb, nb, mode, db, comment, returned)
}

// record finishes each builder into a column and assembles the batch; it
// releases the arrays it made, so the batch holds the only reference.
func record(schema *arrow.Schema, rows int64, builders ...array.Builder) arrow.RecordBatch {
	cols := make([]arrow.Array, len(builders))
	for i, b := range builders {
		cols[i] = b.NewArray()
	}
	rec := array.NewRecordBatch(schema, cols, rows)
	for _, c := range cols {
		c.Release()
	}
	return rec
}
