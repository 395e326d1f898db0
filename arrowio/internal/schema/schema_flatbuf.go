package schema

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The ARROW:schema entry holds an Arrow IPC Message flatbuffer. arrow-go's
// ipc package reads flatbuffers without bounds checks and sizes slices by
// the vector lengths it finds, so a hostile entry could make it panic or
// allocate without limit. fbVerify walks every table, vector and string
// that package reads (fbMessage below, after Message.fbs and Schema.fbs)
// and checks each lies inside the buffer before the bytes are handed over.

// fbKind is how a flatbuffers table field is stored.
type fbKind uint8

const (
	fbScalar  fbKind = iota // inline scalar of size bytes
	fbString                // offset to a length-prefixed string
	fbScalars               // offset to a vector of size-byte scalars
	fbTableAt               // offset to a table of type sub
	fbTables                // offset to a vector of offsets to tables of type sub
	fbUnion                 // offset to a table of type members[tag], tag at tagSlot
)

// fbField is one field of a table: its vtable slot (4 + 2*field index)
// and how it is stored.
type fbField struct {
	slot    uint16
	kind    fbKind
	size    uint8
	sub     *fbTable
	tagSlot uint16
	members []*fbTable
}

// fbTable lists the fields of one table type that the reader touches.
type fbTable struct {
	name   string
	fields []fbField
}

// Table types of the Arrow IPC schema, as far as a Schema message reaches.
var (
	fbEmpty    = &fbTable{name: "type"}
	fbKeyValue = &fbTable{name: "KeyValue", fields: []fbField{{slot: 4, kind: fbString}, {slot: 6, kind: fbString}}}
	fbInt      = &fbTable{name: "Int", fields: []fbField{{slot: 4, kind: fbScalar, size: 4}, {slot: 6, kind: fbScalar, size: 1}}}
	fbShort    = &fbTable{name: "type", fields: []fbField{{slot: 4, kind: fbScalar, size: 2}}}
	fbInt32    = &fbTable{name: "type", fields: []fbField{{slot: 4, kind: fbScalar, size: 4}}}
	fbBool     = &fbTable{name: "Map", fields: []fbField{{slot: 4, kind: fbScalar, size: 1}}}
	fbDecimal  = &fbTable{name: "Decimal", fields: []fbField{
		{slot: 4, kind: fbScalar, size: 4}, {slot: 6, kind: fbScalar, size: 4}, {slot: 8, kind: fbScalar, size: 4}}}
	fbTime      = &fbTable{name: "Time", fields: []fbField{{slot: 4, kind: fbScalar, size: 2}, {slot: 6, kind: fbScalar, size: 4}}}
	fbTimestamp = &fbTable{name: "Timestamp", fields: []fbField{{slot: 4, kind: fbScalar, size: 2}, {slot: 6, kind: fbString}}}
	fbUnionType = &fbTable{name: "Union", fields: []fbField{{slot: 4, kind: fbScalar, size: 2}, {slot: 6, kind: fbScalars, size: 4}}}
	fbDictEnc   = &fbTable{name: "DictionaryEncoding", fields: []fbField{
		{slot: 4, kind: fbScalar, size: 8}, {slot: 6, kind: fbTableAt, sub: fbInt},
		{slot: 8, kind: fbScalar, size: 1}, {slot: 10, kind: fbScalar, size: 2}}}
	// fbTypes is indexed by the Type union tag of Schema.fbs (1 Null ...
	// 26 LargeListView); tag 0 (NONE) has no table.
	fbTypes = []*fbTable{
		nil, fbEmpty, fbInt, fbShort, fbEmpty, fbEmpty, fbEmpty, fbDecimal, fbShort, fbTime,
		fbTimestamp, fbShort, fbEmpty, fbEmpty, fbUnionType, fbInt32, fbInt32, fbBool, fbShort, fbEmpty,
		fbEmpty, fbEmpty, fbEmpty, fbEmpty, fbEmpty, fbEmpty, fbEmpty,
	}
	fbFieldT  = &fbTable{name: "Field"}
	fbSchemaT = &fbTable{name: "Schema", fields: []fbField{
		{slot: 4, kind: fbScalar, size: 2}, {slot: 6, kind: fbTables, sub: fbFieldT},
		{slot: 8, kind: fbTables, sub: fbKeyValue}, {slot: 10, kind: fbScalars, size: 8}}}
	// fbMessage is the root; header tag 1 is Schema, the only header an
	// ARROW:schema entry may hold.
	fbMessage = &fbTable{name: "Message", fields: []fbField{
		{slot: 4, kind: fbScalar, size: 2}, {slot: 6, kind: fbScalar, size: 1},
		{slot: 8, kind: fbUnion, tagSlot: 6, members: []*fbTable{nil, fbSchemaT}},
		{slot: 10, kind: fbScalar, size: 8}, {slot: 12, kind: fbTables, sub: fbKeyValue}}}
)

// Message field slots read back after verification.
const fbMessageBodyLength = 10

func init() {
	// Field refers to itself (children), so it is completed here.
	fbFieldT.fields = []fbField{
		{slot: 4, kind: fbString}, {slot: 6, kind: fbScalar, size: 1}, {slot: 8, kind: fbScalar, size: 1},
		{slot: 10, kind: fbUnion, tagSlot: 8, members: fbTypes},
		{slot: 12, kind: fbTableAt, sub: fbDictEnc}, {slot: 14, kind: fbTables, sub: fbFieldT},
		{slot: 16, kind: fbTables, sub: fbKeyValue},
	}
}

// maxStoredDepth bounds how deeply the tables of a stored schema nest (a
// field nesting level costs about two); Parquet schemas nest far less.
const maxStoredDepth = 512

// errFlatbuf is the cause of every verification failure.
var errFlatbuf = errors.New("malformed flatbuffer")

// fbVerifier walks one flatbuffer.
type fbVerifier struct {
	buf []byte
	// budget is how many more tables may be visited. Tables may be shared
	// (a DAG), and the reader visits a shared table once per reference, so
	// visits, not distinct tables, are what must stay bounded.
	budget int
}

// fbVerify checks that buf holds a Message flatbuffer with a Schema header
// that arrow-go can read without leaving buf, and returns the message's
// bodyLength.
func fbVerify(buf []byte) (int64, error) {
	v := fbVerifier{buf: buf, budget: len(buf) / 4}
	root, err := v.ref(0)
	if err != nil {
		return 0, err
	}
	if err := v.table(root, fbMessage, 0); err != nil {
		return 0, err
	}
	at, ok, err := v.slot(root, fbMessageBodyLength)
	if err != nil || !ok {
		return 0, err
	}
	return int64(binary.LittleEndian.Uint64(buf[at:])), nil
}

// fits reports whether n bytes at off lie inside the buffer.
func (v *fbVerifier) fits(off, n uint64) bool {
	return off <= uint64(len(v.buf)) && n <= uint64(len(v.buf))-off
}

// u32 reads the little-endian uint32 at off, which the caller has checked.
func (v *fbVerifier) u32(off uint64) uint64 {
	return uint64(binary.LittleEndian.Uint32(v.buf[off:]))
}

// ref follows the unsigned forward offset stored at off.
func (v *fbVerifier) ref(off uint64) (uint64, error) {
	if !v.fits(off, 4) {
		return 0, fmt.Errorf("%w: offset at %d past the end (%d bytes)", errFlatbuf, off, len(v.buf))
	}
	return off + v.u32(off), nil
}

// slot returns where the field in vtable slot s of the table at pos is
// stored, and whether it is present.
func (v *fbVerifier) slot(pos uint64, s uint16) (uint64, bool, error) {
	if !v.fits(pos, 4) {
		return 0, false, fmt.Errorf("%w: table at %d past the end (%d bytes)", errFlatbuf, pos, len(v.buf))
	}
	vt := int64(pos) - int64(int32(binary.LittleEndian.Uint32(v.buf[pos:])))
	if vt < 0 || !v.fits(uint64(vt), 2) {
		return 0, false, fmt.Errorf("%w: vtable of table at %d lies at %d, outside the buffer", errFlatbuf, pos, vt)
	}
	vlen := binary.LittleEndian.Uint16(v.buf[vt:])
	if s >= vlen {
		return 0, false, nil
	}
	if !v.fits(uint64(vt)+uint64(s), 2) {
		return 0, false, fmt.Errorf("%w: vtable at %d declares %d bytes, past the end", errFlatbuf, vt, vlen)
	}
	off := binary.LittleEndian.Uint16(v.buf[uint64(vt)+uint64(s):])
	if off == 0 {
		return 0, false, nil
	}
	return pos + uint64(off), true, nil
}

// vector checks the vector of size-byte elements whose offset is stored
// at at, and returns where its elements start and how many there are.
func (v *fbVerifier) vector(at uint64, size uint64) (uint64, uint64, error) {
	start, err := v.ref(at)
	if err != nil {
		return 0, 0, err
	}
	if !v.fits(start, 4) {
		return 0, 0, fmt.Errorf("%w: vector length at %d past the end", errFlatbuf, start)
	}
	n := v.u32(start)
	if !v.fits(start+4, n*size) {
		return 0, 0, fmt.Errorf("%w: vector at %d of %d × %d bytes exceeds the %d-byte buffer", errFlatbuf, start, n, size, len(v.buf))
	}
	return start + 4, n, nil
}

// table verifies the table of type t at pos and everything it reaches.
func (v *fbVerifier) table(pos uint64, t *fbTable, depth int) error {
	if depth > maxStoredDepth {
		return fmt.Errorf("%w: tables nest deeper than %d", errFlatbuf, maxStoredDepth)
	}
	if v.budget--; v.budget < 0 {
		return fmt.Errorf("%w: more table references than a %d-byte buffer can hold", errFlatbuf, len(v.buf))
	}
	for _, f := range t.fields {
		at, ok, err := v.slot(pos, f.slot)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		switch f.kind {
		case fbScalar:
			if !v.fits(at, uint64(f.size)) {
				return fmt.Errorf("%w: %s field at %d past the end", errFlatbuf, t.name, at)
			}
		case fbString:
			if _, _, err := v.vector(at, 1); err != nil {
				return err
			}
		case fbScalars:
			if _, _, err := v.vector(at, uint64(f.size)); err != nil {
				return err
			}
		case fbTableAt:
			sub, err := v.ref(at)
			if err != nil {
				return err
			}
			if err := v.table(sub, f.sub, depth+1); err != nil {
				return err
			}
		case fbTables:
			start, n, err := v.vector(at, 4)
			if err != nil {
				return err
			}
			for i := uint64(0); i < n; i++ {
				sub, _ := v.ref(start + 4*i) // inside the vector just checked
				if err := v.table(sub, f.sub, depth+1); err != nil {
					return err
				}
			}
		case fbUnion:
			if err := v.union(pos, at, f, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// union verifies the union member whose offset is stored at at, its type
// named by the tag in slot f.tagSlot of the table at pos.
func (v *fbVerifier) union(pos, at uint64, f fbField, depth int) error {
	tagAt, ok, err := v.slot(pos, f.tagSlot)
	if err != nil {
		return err
	}
	tag := 0
	if ok {
		if !v.fits(tagAt, 1) {
			return fmt.Errorf("%w: union tag at %d past the end", errFlatbuf, tagAt)
		}
		tag = int(v.buf[tagAt])
	}
	if tag >= len(f.members) || f.members[tag] == nil {
		return fmt.Errorf("%w: union tag %d is not a supported member", errFlatbuf, tag)
	}
	sub, err := v.ref(at)
	if err != nil {
		return err
	}
	return v.table(sub, f.members[tag], depth+1)
}
