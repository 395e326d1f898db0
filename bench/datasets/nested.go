package datasets

import (
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Nested is a table of nested columns: list<int64> with null lists,
// a nullable struct{int32, string}, map<string,int64> and
// list<struct{int64, string}>, beside a sorted int64 id.
var Nested = &Dataset{
	Name:      "nested",
	Schema:    nestedSchema,
	RowGroups: 8,
	fullRows:  1_000_000,
	smallRows: 20_000,
	batch:     nestedBatch,
}

var (
	pointType = arrow.StructOf(
		arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32},
		arrow.Field{Name: "label", Type: arrow.BinaryTypes.String, Nullable: true},
	)
	eventType = arrow.StructOf(
		arrow.Field{Name: "ts", Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: "kind", Type: arrow.BinaryTypes.String},
	)
	attrsType = arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)

	nestedSchema = arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "tags", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
		{Name: "point", Type: pointType, Nullable: true},
		{Name: "attrs", Type: attrsType},
		{Name: "events", Type: arrow.ListOf(eventType)},
	}, nil)
)

var eventKinds = [...]string{"click", "view", "scroll", "purchase", "signup", "logout"}

// nestedBatch builds rows [start, start+n).
func nestedBatch(mem memory.Allocator, rng *rand.Rand, start, n, _ int) arrow.RecordBatch {
	ids := array.NewInt64Builder(mem)
	defer ids.Release()
	tags := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int64)
	defer tags.Release()
	tagVals := tags.ValueBuilder().(*array.Int64Builder)
	point := array.NewStructBuilder(mem, pointType)
	defer point.Release()
	px := point.FieldBuilder(0).(*array.Int32Builder)
	plabel := point.FieldBuilder(1).(*array.StringBuilder)
	attrs := array.NewMapBuilderWithType(mem, attrsType)
	defer attrs.Release()
	akeys := attrs.KeyBuilder().(*array.StringBuilder)
	avals := attrs.ItemBuilder().(*array.Int64Builder)
	events := array.NewListBuilder(mem, eventType)
	defer events.Release()
	ev := events.ValueBuilder().(*array.StructBuilder)
	evTS := ev.FieldBuilder(0).(*array.Int64Builder)
	evKind := ev.FieldBuilder(1).(*array.StringBuilder)

	for i := range n {
		ids.Append(int64(start + i))

		if rng.IntN(20) == 0 {
			tags.AppendNull()
		} else {
			tags.Append(true)
			for range rng.IntN(9) {
				tagVals.Append(int64(rng.IntN(1000)))
			}
		}

		if rng.IntN(20) == 0 {
			point.AppendNull()
		} else {
			point.Append(true)
			px.Append(int32(rng.IntN(1 << 16)))
			if rng.IntN(10) == 0 {
				plabel.AppendNull()
			} else {
				plabel.Append(words[rng.IntN(len(words))])
			}
		}

		attrs.Append(true)
		first := rng.IntN(40)
		for k := range rng.IntN(6) {
			akeys.Append(words[first+k])
			avals.Append(rng.Int64N(1 << 40))
		}

		events.Append(true)
		ts := int64(1_700_000_000_000) + int64(start+i)*1000
		for range rng.IntN(5) {
			ts += int64(rng.IntN(5000))
			ev.Append(true)
			evTS.Append(ts)
			evKind.Append(eventKinds[rng.IntN(len(eventKinds))])
		}
	}
	return record(nestedSchema, int64(n), ids, tags, point, attrs, events)
}
