// Package levelstest generates random nested Arrow types and arrays for
// the tests of the levels package and of the readers and writers built
// on it.
package levelstest

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// LeafTypes are the leaf types of random schemas: every leaf layout the
// levels package builds.
var LeafTypes = []arrow.DataType{
	arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64,
	arrow.PrimitiveTypes.Int16, arrow.FixedWidthTypes.Boolean, arrow.BinaryTypes.String,
	arrow.BinaryTypes.LargeString, arrow.BinaryTypes.Binary, arrow.BinaryTypes.StringView, arrow.BinaryTypes.BinaryView,
	&arrow.FixedSizeBinaryType{ByteWidth: 3},
	&arrow.Decimal128Type{Precision: 20, Scale: 2},
}

// RandType returns a random type nested at most depth levels deep, using
// the container kinds the caller allows.
func RandType(r *rand.Rand, depth int, views bool) arrow.DataType {
	if depth == 0 || r.IntN(4) == 0 {
		return LeafTypes[r.IntN(len(LeafTypes))]
	}
	elem := func() arrow.Field {
		return arrow.Field{Name: "element", Type: RandType(r, depth-1, views), Nullable: r.IntN(2) == 0}
	}
	kinds := 5
	if views {
		kinds = 7
	}
	switch r.IntN(kinds) {
	case 0:
		fs := make([]arrow.Field, 1+r.IntN(3))
		for i := range fs {
			fs[i] = arrow.Field{Name: fmt.Sprintf("f%d", i), Type: RandType(r, depth-1, views), Nullable: r.IntN(2) == 0}
		}
		return arrow.StructOf(fs...)
	case 1:
		return arrow.ListOfField(elem())
	case 2:
		return arrow.LargeListOfField(elem())
	case 3:
		return arrow.FixedSizeListOfField(int32(1+r.IntN(3)), elem())
	case 4:
		key := LeafTypes[r.IntN(2)]
		if r.IntN(2) == 0 {
			key = arrow.BinaryTypes.String
		}
		return arrow.MapOfFields(arrow.Field{Name: "key", Type: key}, arrow.Field{Name: "value", Type: RandType(r, depth-1, views), Nullable: r.IntN(2) == 0})
	case 5:
		return arrow.ListViewOfField(elem())
	}
	return arrow.LargeListViewOfField(elem())
}

// RandArray returns n random slots of field f. Slots where forced is set
// are null (an enclosing struct or fixed-size list is null there, so the
// reader makes them null too); a nullable field is null in a quarter of
// the others. With garbage set, null lists own a few child slots, which
// no reader sees (Arrow allows it; pqarrow's writer does not).
func RandArray(r *rand.Rand, mem memory.Allocator, f arrow.Field, n int, forced []bool, garbage bool) arrow.Array {
	null := make([]bool, n)
	for i := range null {
		null[i] = (forced != nil && forced[i]) || (f.Nullable && r.IntN(4) == 0)
	}
	validity, nulls := bitmapOf(mem, null)
	defer func() {
		if validity != nil {
			validity.Release()
		}
	}()
	var d arrow.ArrayData
	switch t := f.Type.(type) {
	case *arrow.StructType:
		kids := make([]arrow.ArrayData, t.NumFields())
		for i, c := range t.Fields() {
			a := RandArray(r, mem, c, n, null, garbage)
			kids[i] = a.Data()
			defer a.Release()
		}
		d = array.NewData(f.Type, n, []*memory.Buffer{validity}, kids, nulls, 0)
	case *arrow.FixedSizeListType:
		size := int(t.Len())
		childNull := make([]bool, n*size)
		for i := range n * size {
			childNull[i] = null[i/size]
		}
		c := RandArray(r, mem, t.ElemField(), n*size, childNull, garbage)
		defer c.Release()
		d = array.NewData(f.Type, n, []*memory.Buffer{validity}, []arrow.ArrayData{c.Data()}, nulls, 0)
	case *arrow.MapType, *arrow.ListType, *arrow.LargeListType, *arrow.ListViewType, *arrow.LargeListViewType:
		lens := make([]int, n)
		total := 0
		for i := range lens {
			lens[i] = r.IntN(4)
			if r.IntN(4) == 0 || (null[i] && !garbage) {
				lens[i] = 0
			}
			total += lens[i]
		}
		var c arrow.Array
		if mt, ok := t.(*arrow.MapType); ok {
			c = RandArray(r, mem, arrow.Field{Name: "entries", Type: mt.Elem()}, total, nil, garbage)
		} else {
			c = RandArray(r, mem, t.(arrow.ListLikeType).ElemField(), total, nil, garbage)
		}
		defer c.Release()
		bufs := offsetBuffers(mem, t, lens)
		defer func() {
			for _, b := range bufs {
				b.Release()
			}
		}()
		d = array.NewData(f.Type, n, append([]*memory.Buffer{validity}, bufs...), []arrow.ArrayData{c.Data()}, nulls, 0)
	case *arrow.NullType:
		return array.NewNull(n)
	default:
		d = randLeaf(r, mem, f.Type, null)
	}
	defer d.Release()
	return array.MakeFromData(d)
}

// bitmapOf returns the validity bitmap of slots not null, nil when none
// is null, and the null count.
func bitmapOf(mem memory.Allocator, null []bool) (*memory.Buffer, int) {
	nulls := 0
	for _, b := range null {
		if b {
			nulls++
		}
	}
	if nulls == 0 {
		return nil, 0
	}
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(len(null)))))
	for i, b := range null {
		bitutil.SetBitTo(buf.Bytes(), i, !b)
	}
	return buf, nulls
}

// offsetBuffers returns the offsets (and sizes, for views) of lists of
// the given lengths; views list their slots back to front in the child.
func offsetBuffers(mem memory.Allocator, t arrow.DataType, lens []int) []*memory.Buffer {
	n := len(lens)
	mk := func(w int, count int) *memory.Buffer {
		b := memory.NewResizableBuffer(mem)
		b.Resize(w * count)
		return b
	}
	switch t.ID() {
	case arrow.LARGE_LIST:
		o := mk(8, n+1)
		v := arrow.Int64Traits.CastFromBytes(o.Bytes())
		v[0] = 0
		for i, l := range lens {
			v[i+1] = v[i] + int64(l)
		}
		return []*memory.Buffer{o}
	case arrow.LIST_VIEW, arrow.LARGE_LIST_VIEW:
		w := 4
		if t.ID() == arrow.LARGE_LIST_VIEW {
			w = 8
		}
		o, s := mk(w, n), mk(w, n)
		at := 0
		for i := n - 1; i >= 0; i-- {
			if w == 4 {
				arrow.Int32Traits.CastFromBytes(o.Bytes())[i] = int32(at)
				arrow.Int32Traits.CastFromBytes(s.Bytes())[i] = int32(lens[i])
			} else {
				arrow.Int64Traits.CastFromBytes(o.Bytes())[i] = int64(at)
				arrow.Int64Traits.CastFromBytes(s.Bytes())[i] = int64(lens[i])
			}
			at += lens[i]
		}
		return []*memory.Buffer{o, s}
	}
	o := mk(4, n+1)
	v := arrow.Int32Traits.CastFromBytes(o.Bytes())
	v[0] = 0
	for i, l := range lens {
		v[i+1] = v[i] + int32(l)
	}
	return []*memory.Buffer{o}
}

// randLeaf returns random values of leaf type dt, null where null is set.
func randLeaf(r *rand.Rand, mem memory.Allocator, dt arrow.DataType, null []bool) arrow.ArrayData {
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	for _, isNull := range null {
		if isNull {
			b.AppendNull()
			continue
		}
		switch b := b.(type) {
		case *array.Int16Builder:
			b.Append(int16(r.Uint32()))
		case *array.Int32Builder:
			b.Append(int32(r.Uint32()))
		case *array.Int64Builder:
			b.Append(int64(r.Uint64()))
		case *array.Float64Builder:
			b.Append(r.NormFloat64())
		case *array.BooleanBuilder:
			b.Append(r.IntN(2) == 0)
		case *array.StringBuilder:
			b.Append(strings.Repeat("x", r.IntN(5)) + fmt.Sprint(r.IntN(100)))
		case *array.LargeStringBuilder:
			b.Append(strings.Repeat("y", r.IntN(5)))
		case *array.BinaryBuilder:
			b.Append([]byte(fmt.Sprint(r.IntN(1000))))
		case *array.StringViewBuilder: // inline and out-of-line views
			b.Append(strings.Repeat("v", r.IntN(20)) + fmt.Sprint(r.IntN(100)))
		case *array.BinaryViewBuilder:
			b.Append([]byte(strings.Repeat("w", r.IntN(20))))
		case *array.FixedSizeBinaryBuilder:
			b.Append([]byte{byte(r.Uint32()), 1, 2})
		case *array.Decimal128Builder:
			b.Append(decimal128.FromI64(r.Int64N(1e12) - 5e11))
		default:
			panic(fmt.Sprintf("test leaf type %s", dt))
		}
	}
	a := b.NewArray()
	defer a.Release()
	d := a.Data()
	d.Retain()
	return d
}
