package footer

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Compact protocol wire types: the low nibble of a field header and of a
// list header. A bool field carries its value in the type (tTrue, tFalse); a
// bool list element is one byte, 1 for true.
const (
	tStop   = 0
	tTrue   = 1
	tFalse  = 2
	tByte   = 3
	tI16    = 4
	tI32    = 5
	tI64    = 6
	tDouble = 7
	tBinary = 8
	tList   = 9
	tSet    = 10
	tMap    = 11
	tStruct = 12
	tUUID   = 13
)

var wireTypeNames = []string{"stop", "bool", "bool", "byte", "i16", "i32", "i64", "double", "binary", "list", "set", "map", "struct", "uuid"}

// maxDepth bounds how deeply structs and containers may nest, both in the
// structures this package knows and in unknown fields it skips.
const maxDepth = 64

// decoder reads compact-protocol bytes from b. Errors are sticky: the first
// one is kept in err, every later read returns zero values, and callers test
// err once per field.
type decoder struct {
	b     []byte
	p     int
	depth int
	err   *corruptError

	// col is the index of the ColumnChunk being decoded within its
	// RowGroup.columns list, or -1 outside one; colsLeft counts the chunks
	// of that list still to decode, this one included.
	col      int
	colsLeft int

	m *metaState // allocated on first use, by FileMetaData-sized inputs

	// store, when set, holds the nested structs of a page header in place
	// of new allocations (see UnmarshalPageHeaderInto).
	store *PageHeaderStore
}

// metaState is the decoder state that only column metadata needs: batch
// storage and the cache that shares path_in_schema lists.
type metaState struct {
	// paths caches each column's path_in_schema by column index, so that
	// row groups share one slice.
	paths []pathCache

	arena []byte            // backing store for decoded strings
	kv    map[string]string // interned key-value keys

	cmd   slab[ColumnMetaData]
	stats slab[Statistics]
	sizes slab[SizeStatistics]
	encs  slab[Encoding]
	names slab[string]
	pes   slab[PageEncodingStats]
}

// meta returns the decoder's metaState, allocating it on first use.
func (d *decoder) meta() *metaState {
	if d.m == nil {
		d.m = new(metaState)
	}
	return d.m
}

// pathCache is one column's encoded path_in_schema list and its decoded form.
type pathCache struct {
	raw  []byte
	path []string
}

// remaining returns how many input bytes are left.
func (d *decoder) remaining() int { return len(d.b) - d.p }

// fail records the first error; the message describes what is wrong.
func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = &corruptError{offset: d.p, msg: fmt.Sprintf(format, args...)}
		d.p = len(d.b)
	}
}

// uvarint reads an unsigned LEB128 varint of at most 10 bytes.
func (d *decoder) uvarint() uint64 {
	var v uint64
	for i, c := range d.b[d.p:] {
		if i == 9 {
			if c > 1 {
				d.fail("varint overflows 64 bits")
				return 0
			}
			d.p += 10
			return v | uint64(c)<<63
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			d.p += i + 1
			return v
		}
	}
	d.fail("truncated varint")
	return 0
}

// unzigzag maps 0, 1, 2, 3, ... to 0, -1, 1, -2, ...
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// i64 reads a zigzag varint.
func (d *decoder) i64() int64 {
	if b, p := d.b, d.p; uint(p) < uint(len(b)) && b[p] < 0x80 {
		d.p = p + 1
		return unzigzag(uint64(b[p]))
	}
	return unzigzag(d.uvarint())
}

// i32 reads a zigzag varint that must fit 32 bits.
func (d *decoder) i32() int32 {
	if b, p := d.b, d.p; uint(p) < uint(len(b)) && b[p] < 0x80 {
		d.p = p + 1
		return int32(unzigzag(uint64(b[p])))
	}
	return d.i32Long()
}

// i32Long reads an i32 varint of more than one byte.
func (d *decoder) i32Long() int32 {
	u := d.uvarint()
	if u > math.MaxUint32 {
		d.fail("i32 varint %d out of range", u)
		return 0
	}
	return int32(unzigzag(u))
}

// i16 reads a zigzag varint that must fit 16 bits.
func (d *decoder) i16() int16 {
	u := d.uvarint()
	if u > math.MaxUint16 {
		d.fail("i16 varint %d out of range", u)
		return 0
	}
	return int16(unzigzag(u))
}

// i8 reads one byte as a signed integer.
func (d *decoder) i8() int8 {
	if d.p >= len(d.b) {
		d.fail("truncated byte")
		return 0
	}
	c := d.b[d.p]
	d.p++
	return int8(c)
}

// boolElem reads a bool list element: 1 is true, anything else false.
func (d *decoder) boolElem() bool { return d.i8() == 1 }

// double reads an 8-byte little-endian IEEE 754 value.
func (d *decoder) double() float64 {
	if d.remaining() < 8 {
		d.fail("truncated double: 8 bytes needed, %d remain", d.remaining())
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b[d.p:]))
	d.p += 8
	return v
}

// length reads a binary or string length and checks it against the input.
func (d *decoder) length() int {
	b, p := d.b, d.p
	if uint(p) < uint(len(b)) && b[p] < 0x80 && int(b[p]) < len(b)-p {
		d.p = p + 1
		return int(b[p])
	}
	u := d.uvarint()
	if u > uint64(d.remaining()) {
		if d.err == nil {
			d.fail("binary of %d bytes, %d remain", u, d.remaining())
		}
		return 0
	}
	return int(u)
}

// bin reads a binary value. It aliases the input (capacity clipped so that
// appending cannot overwrite what follows), and is non-nil even when empty.
func (d *decoder) bin() []byte {
	n := d.length()
	if d.err != nil {
		return nil
	}
	p := d.p
	d.p = p + n
	return d.b[p : p+n : p+n]
}

// str reads a string into the decoder's string arena.
func (d *decoder) str() string {
	n := d.length()
	if d.err != nil || n == 0 {
		return ""
	}
	s := d.copyString(d.b[d.p : d.p+n]) // before advancing: it sizes the arena by what remains
	d.p += n
	return s
}

// internKey reads a string and returns one shared copy per distinct value
// within this decode.
func (d *decoder) internKey() string {
	n := d.length()
	if d.err != nil || n == 0 {
		return ""
	}
	raw := d.b[d.p : d.p+n]
	d.p += n
	m := d.meta()
	if s, ok := m.kv[string(raw)]; ok {
		return s
	}
	if m.kv == nil {
		m.kv = make(map[string]string)
	}
	s := d.copyString(raw)
	m.kv[s] = s
	return s
}

// field reads a short-form field header (delta 1-15, a known wire type) and
// returns the field id, resolved against *last, and the wire type. For any
// other next byte (a stop, a long-form header, an error or the end of the
// input) it consumes nothing and returns tStop, and the caller falls back to
// fieldSlow. The split keeps field small enough to inline into every struct
// decoder's loop.
func (d *decoder) field(last *int16) (int16, byte) {
	if b, p := d.b, d.p; uint(p) < uint(len(b)) && shortHeader[b[p]] {
		h := b[p]
		d.p = p + 1
		*last += int16(h >> 4)
		return *last, h & 0x0f
	}
	return 0, tStop
}

// shortHeader marks the field header bytes of the short form: a delta of 1
// to 15 and a wire type other than stop that this package knows.
var shortHeader = func() (t [256]bool) {
	for h := range t {
		t[h] = h > 0x0f && h&0x0f != tStop && h&0x0f <= tUUID
	}
	return t
}()

// fieldSlow reads a stop, a long-form field header or a malformed one,
// returning like field but tStop only at the struct's end or on error.
func (d *decoder) fieldSlow(last *int16) (int16, byte) {
	if d.p >= len(d.b) {
		d.fail("truncated struct: no field header or stop")
		return 0, tStop
	}
	h := d.b[d.p]
	t := h & 0x0f
	switch {
	case t == tStop && h != 0:
		d.fail("field header 0x%02x has the stop type", h)
		return 0, tStop
	case t > tUUID:
		d.fail("field header 0x%02x has unknown wire type %d", h, t)
		return 0, tStop
	}
	d.p++
	if t == tStop {
		return 0, tStop
	}
	// Long form: delta 0, the id follows as a zigzag varint.
	*last = d.i16()
	if d.err != nil {
		return 0, tStop
	}
	return *last, t
}

// list reads a list (or set) header whose elements must have wire type et
// and take at least minSize bytes each; it returns the element count after
// checking count*minSize against the bytes that remain. what names the
// elements in the error message.
func (d *decoder) list(et byte, minSize int, what string) int {
	if d.p >= len(d.b) {
		d.fail("truncated list header")
		return 0
	}
	h := d.b[d.p]
	d.p++
	n := int(h >> 4)
	if n == 15 {
		u := d.uvarint()
		if d.err != nil {
			return 0
		}
		if u > math.MaxInt32 {
			d.fail("list of %d %s exceeds the thrift limit", u, what)
			return 0
		}
		n = int(u)
	}
	if n == 0 {
		return 0 // writers disagree on the element type of empty lists
	}
	got := h & 0x0f
	if got != et && !(et == tTrue && got == tFalse) {
		d.fail("list of %s has element type %s, want %s", what, wireTypeName(got), wireTypeName(et))
		return 0
	}
	if n > d.remaining()/minSize {
		d.fail("list of %d %s needs at least %d bytes, %d remain", n, what, n*minSize, d.remaining())
		return 0
	}
	return n
}

// wireTypeName names a compact wire type for error messages.
func wireTypeName(t byte) string {
	if int(t) < len(wireTypeNames) {
		return wireTypeNames[t]
	}
	return "type " + strconv.Itoa(int(t))
}

// enter records one more level of nesting and fails past maxDepth.
func (d *decoder) enter() bool {
	d.depth++
	if d.depth > maxDepth {
		d.fail("structures nest deeper than %d levels", maxDepth)
		return false
	}
	return true
}

// skip consumes one value of wire type t that this package does not use.
func (d *decoder) skip(t byte) {
	switch t {
	case tTrue, tFalse:
		// A bool field's value is in its header.
	case tByte:
		d.i8()
	case tI16, tI32, tI64:
		d.uvarint()
	case tDouble:
		d.double()
	case tBinary:
		d.p += d.length()
	case tUUID:
		if d.remaining() < 16 {
			d.fail("truncated uuid: 16 bytes needed, %d remain", d.remaining())
			return
		}
		d.p += 16
	case tStruct:
		d.skipStruct()
	case tList, tSet:
		d.skipList()
	case tMap:
		d.skipMap()
	default:
		d.fail("unknown wire type %d", t)
	}
}

// skipStruct consumes a struct's fields up to and including its stop.
func (d *decoder) skipStruct() {
	if d.enter() {
		var last int16
		for d.err == nil {
			_, t := d.field(&last)
			if t == tStop {
				if _, t = d.fieldSlow(&last); t == tStop {
					break
				}
			}
			d.skip(t)
		}
	}
	d.depth--
}

// skipList consumes a list or set of any element type.
func (d *decoder) skipList() {
	if d.p >= len(d.b) {
		d.fail("truncated list header")
		return
	}
	et := d.b[d.p] & 0x0f
	if et == tFalse {
		et = tTrue
	}
	n := d.list(et, 1, "elements")
	d.skipElems(n, et)
}

// skipMap consumes a map of any key and value types.
func (d *decoder) skipMap() {
	u := d.uvarint()
	if u == 0 || d.err != nil {
		return
	}
	if u > uint64(d.remaining()/2) {
		d.fail("map of %d entries needs at least %d bytes, %d remain", u, 2*u, d.remaining())
		return
	}
	kv := d.i8()
	kt, vt := byte(kv)>>4&0x0f, byte(kv)&0x0f
	for i := 0; i < int(u) && d.err == nil; i++ {
		d.skipElems(1, kt)
		d.skipElems(1, vt)
	}
}

// skipElems consumes n container elements of wire type et, where a bool is
// one byte rather than a header nibble.
func (d *decoder) skipElems(n int, et byte) {
	if n == 0 {
		return
	}
	if !d.enter() {
		d.depth--
		return
	}
	for i := 0; i < n && d.err == nil; i++ {
		switch et {
		case tTrue, tFalse:
			d.i8()
		case tStop:
			d.fail("container element has the stop type")
		default:
			d.skip(et)
		}
	}
	d.depth--
}

// structInfo describes one thrift struct for decoding, error messages and
// the required-field check: fields[id] is the thrift name of field id,
// types[id] its wire type, and bit id of required is set for each required
// field.
type structInfo struct {
	name     string
	fields   []string
	types    []byte // wire type of each known field (tTrue for bools)
	required uint32
}

// known returns id when it is a field of s and t is its wire type, and 0
// (no field) otherwise, so that the caller's switch skips it.
func (s *structInfo) known(id int16, t byte) int16 {
	if t == tFalse {
		t = tTrue
	}
	if i := int(id); uint(i) < uint(len(s.types)) && s.types[i] == t {
		return id
	}
	return 0
}

// fieldName returns the thrift name of field id, or "field N".
func (s *structInfo) fieldName(id int16) string {
	if id >= 0 && int(id) < len(s.fields) && s.fields[id] != "" {
		return s.fields[id]
	}
	return "field " + strconv.Itoa(int(id))
}

// done finishes decoding a struct of kind s: on error it records where (the
// field being read, id, or the struct itself when id is 0); otherwise it
// checks that every required field was seen (bit id set in seen).
func (d *decoder) done(s *structInfo, id int16, seen uint32) {
	d.depth--
	if d.err != nil || s.required&^seen != 0 {
		d.failAt(s, id, seen)
	}
}

// failAt is done's slow path: it reports the first missing required field
// unless an error is already recorded, and traces the error to field id.
func (d *decoder) failAt(s *structInfo, id int16, seen uint32) {
	if d.err == nil {
		missing := s.required &^ seen
		for id = 0; missing&(1<<id) == 0; id++ {
		}
		d.fail("required field missing")
	}
	d.err.trace(s, id)
}

// corruptError is the error Unmarshal returns: what went wrong, at which
// byte, and the path of struct fields and list indexes leading there.
type corruptError struct {
	offset int
	msg    string
	// inner is "Struct.field" of the innermost struct; path collects
	// ".field" and "[i]" steps from the inside out, and root names the
	// outermost struct.
	inner string
	path  []string
	root  string
}

// trace records that the error happened in field id of a struct of kind s.
func (e *corruptError) trace(s *structInfo, id int16) {
	name := s.fieldName(id)
	if id == 0 {
		name = "header"
	}
	if e.inner == "" {
		e.inner = s.name + "." + name
	}
	e.path = append(e.path, "."+name)
	e.root = s.name
}

// index records that the error happened in element i of a list.
func (e *corruptError) index(i int) { e.path = append(e.path, "["+strconv.Itoa(i)+"]") }

// Error formats the message, e.g. "footer: corrupt metadata:
// ColumnMetaData.path_in_schema: list of 100 strings needs at least 100
// bytes, 12 remain (at FileMetaData.row_groups[0].columns[3].meta_data.path_in_schema, byte 523)".
func (e *corruptError) Error() string {
	var sb strings.Builder
	sb.WriteString(ErrCorrupt.Error())
	sb.WriteString(": ")
	if e.inner != "" {
		sb.WriteString(e.inner)
		sb.WriteString(": ")
	}
	sb.WriteString(e.msg)
	sb.WriteString(" (at ")
	if e.root != "" {
		sb.WriteString(e.root)
		for i := len(e.path) - 1; i >= 0; i-- {
			sb.WriteString(e.path[i])
		}
		sb.WriteString(", ")
	}
	sb.WriteString("byte ")
	sb.WriteString(strconv.Itoa(e.offset))
	sb.WriteString(")")
	return sb.String()
}

// Unwrap returns ErrCorrupt.
func (e *corruptError) Unwrap() error { return ErrCorrupt }
