package footer

import (
	"encoding/binary"
	"math"
)

// encoder appends compact-protocol bytes to b.
type encoder struct {
	b []byte
}

// uvarint appends v as an unsigned LEB128 varint.
func (e *encoder) uvarint(v uint64) {
	for v >= 0x80 {
		e.b = append(e.b, byte(v)|0x80)
		v >>= 7
	}
	e.b = append(e.b, byte(v))
}

// zigzag maps 0, -1, 1, -2, ... to 0, 1, 2, 3, ...
func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

// field appends the header of field id with wire type t; *last is the
// previous field id of the same struct. Ids that do not follow *last by 1 to
// 15 use the long form.
func (e *encoder) field(last *int16, id int16, t byte) {
	if delta := int(id) - int(*last); delta > 0 && delta <= 15 {
		e.b = append(e.b, byte(delta)<<4|t)
	} else {
		e.b = append(e.b, t)
		e.uvarint(zigzag(int64(id)))
	}
	*last = id
}

// stop ends a struct.
func (e *encoder) stop() { e.b = append(e.b, tStop) }

// list appends a list header for n elements of wire type et.
func (e *encoder) list(n int, et byte) {
	if n < 15 {
		e.b = append(e.b, byte(n)<<4|et)
		return
	}
	e.b = append(e.b, 0xf0|et)
	e.uvarint(uint64(n))
}

// i64 appends v as a zigzag varint (i16, i32 and i64 all use this).
func (e *encoder) i64(v int64) { e.uvarint(zigzag(v)) }

// bin appends a length-prefixed byte string.
func (e *encoder) bin(v []byte) {
	e.uvarint(uint64(len(v)))
	e.b = append(e.b, v...)
}

// str appends a length-prefixed string.
func (e *encoder) str(v string) {
	e.uvarint(uint64(len(v)))
	e.b = append(e.b, v...)
}

// boolElem appends a bool list element.
func (e *encoder) boolElem(v bool) {
	if v {
		e.b = append(e.b, tTrue)
	} else {
		e.b = append(e.b, tFalse)
	}
}

// double appends v as 8 little-endian bytes.
func (e *encoder) double(v float64) {
	e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v))
}

// Field writers: each appends a header and the value.

func (e *encoder) i8Field(last *int16, id int16, v int8) {
	e.field(last, id, tByte)
	e.b = append(e.b, byte(v))
}

func (e *encoder) i16Field(last *int16, id int16, v int16) {
	e.field(last, id, tI16)
	e.i64(int64(v))
}

func (e *encoder) i32Field(last *int16, id int16, v int32) {
	e.field(last, id, tI32)
	e.i64(int64(v))
}

func (e *encoder) i64Field(last *int16, id int16, v int64) {
	e.field(last, id, tI64)
	e.i64(v)
}

func (e *encoder) boolField(last *int16, id int16, v bool) {
	if v {
		e.field(last, id, tTrue)
	} else {
		e.field(last, id, tFalse)
	}
}

func (e *encoder) doubleField(last *int16, id int16, v float64) {
	e.field(last, id, tDouble)
	e.double(v)
}

func (e *encoder) binField(last *int16, id int16, v []byte) {
	e.field(last, id, tBinary)
	e.bin(v)
}

func (e *encoder) strField(last *int16, id int16, v string) {
	e.field(last, id, tBinary)
	e.str(v)
}

// emptyStructField appends a struct field with no fields of its own, the
// form of union members such as StringType.
func (e *encoder) emptyStructField(last *int16, id int16) {
	e.field(last, id, tStruct)
	e.stop()
}

// Optional field writers append nothing when the value is absent.

func optI8(e *encoder, last *int16, id int16, v Optional[int8]) {
	if v.Set {
		e.i8Field(last, id, v.Value)
	}
}

func optI16(e *encoder, last *int16, id int16, v Optional[int16]) {
	if v.Set {
		e.i16Field(last, id, v.Value)
	}
}

// optI32 writes an optional i32 or enum field.
func optI32[T ~int32](e *encoder, last *int16, id int16, v Optional[T]) {
	if v.Set {
		e.i32Field(last, id, int32(v.Value))
	}
}

func optI64(e *encoder, last *int16, id int16, v Optional[int64]) {
	if v.Set {
		e.i64Field(last, id, v.Value)
	}
}

func optBool(e *encoder, last *int16, id int16, v Optional[bool]) {
	if v.Set {
		e.boolField(last, id, v.Value)
	}
}

func optDouble(e *encoder, last *int16, id int16, v Optional[float64]) {
	if v.Set {
		e.doubleField(last, id, v.Value)
	}
}

func optStr(e *encoder, last *int16, id int16, v Optional[string]) {
	if v.Set {
		e.strField(last, id, v.Value)
	}
}

// optBin writes a binary field unless v is nil.
func optBin(e *encoder, last *int16, id int16, v []byte) {
	if v != nil {
		e.binField(last, id, v)
	}
}
