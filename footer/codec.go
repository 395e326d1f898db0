package footer

// Message is a parquet.thrift structure that [Marshal] and [Unmarshal]
// handle. Every struct type of this package implements it through its
// pointer (*FileMetaData, *PageHeader, *ColumnIndex, *OffsetIndex,
// *BloomFilterHeader, *FileCryptoMetaData, *ColumnMetaData, ... and the
// smaller structures and unions they contain).
type Message interface {
	// encode appends the struct's fields and its stop.
	encode(e *encoder)
	// decode reads fields up to the struct's stop. A nested receiver is
	// always freshly zeroed (new, make or a slab); the Unmarshal target
	// (d.depth == 0) may hold an earlier value, which decode replaces.
	decode(d *decoder)
}

// Unmarshal decodes one compact-protocol struct from the start of b into v,
// replacing all of v's previous contents, and returns how many bytes it
// consumed; bytes after the struct's stop (a page's data after its
// PageHeader, for instance) are left alone.
//
// Decoded []byte fields alias b and must not outlive changes to it; strings
// are copied (equal strings may share memory), and equal path_in_schema
// lists of the same column in different row groups share one slice, so
// treat decoded values as read-only. Unknown fields, enum values and union
// members are kept or skipped as the type documents, never rejected.
//
// Malformed input (truncation, impossible lengths, a missing required
// field, nesting deeper than 64 levels) returns n == 0 and an error wrapping
// [ErrCorrupt] that names the structure, field and byte offset.
func Unmarshal(b []byte, v Message) (n int, err error) {
	if h, ok := v.(*PageHeader); ok {
		return UnmarshalPageHeader(b, h)
	}
	d := &decoder{b: b, col: -1}
	v.decode(d)
	return d.result()
}

// UnmarshalPageHeader is [Unmarshal] for a page header, the per-page call.
// Its static types keep both the decoder and h off the heap: h passed to
// Unmarshal, an interface, escapes.
func UnmarshalPageHeader(b []byte, h *PageHeader) (n int, err error) {
	d := decoder{b: b, col: -1}
	h.decode(&d)
	return d.result()
}

// UnmarshalPageHeaderInto is [UnmarshalPageHeader] for a reader that
// decodes page after page: the nested headers and statistics of h are
// placed in store instead of newly allocated, so they stay valid only
// until the next call with the same store.
func UnmarshalPageHeaderInto(b []byte, h *PageHeader, store *PageHeaderStore) (n int, err error) {
	d := decoder{b: b, col: -1, store: store}
	h.decode(&d)
	return d.result()
}

// PageHeaderStore holds the nested structs of one decoded page header for
// [UnmarshalPageHeaderInto]. Its zero value is ready to use.
type PageHeaderStore struct {
	dp             DataPageHeader
	dpV2           DataPageHeaderV2
	dict           DictionaryPageHeader
	stats, statsV2 Statistics
}

// The methods below return the struct a page header's field decodes into:
// the store's own, or a new one for a nil store (every other decode).

func (s *PageHeaderStore) dataPage() *DataPageHeader {
	if s == nil {
		return new(DataPageHeader)
	}
	return &s.dp
}

func (s *PageHeaderStore) dataPageV2() *DataPageHeaderV2 {
	if s == nil {
		return new(DataPageHeaderV2)
	}
	return &s.dpV2
}

func (s *PageHeaderStore) dictionaryPage() *DictionaryPageHeader {
	if s == nil {
		return new(DictionaryPageHeader)
	}
	return &s.dict
}

// statistics returns the statistics of the version 1 (v2 false) or
// version 2 data page header; a malformed header may carry both.
func (s *PageHeaderStore) statistics(v2 bool) *Statistics {
	switch {
	case s == nil:
		return new(Statistics)
	case v2:
		return &s.statsV2
	}
	return &s.stats
}

// result returns Unmarshal's results.
func (d *decoder) result() (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	return d.p, nil
}

// Marshal appends the compact-protocol encoding of v to dst and returns the
// extended slice. Fields are written in field-id order; absent optional
// fields (unset [Optional], nil slice or pointer) are left out, while a
// required slice that is nil is written as an empty list.
func Marshal(dst []byte, v Message) []byte {
	e := encoder{b: dst}
	v.encode(&e)
	return e.b
}

// minSize returns the length of v's smallest encoding, which is that of its
// zero value: every required field at its shortest, no optional fields.
func minSize(v Message) int { return len(Marshal(nil, v)) }

// structPtr is the pointer type of a struct T that is a Message.
type structPtr[T any] interface {
	*T
	Message
}

// decodeStructs reads a list of structs of kind T, each at least minSize
// bytes long; what names the elements in errors.
func decodeStructs[T any, P structPtr[T]](d *decoder, minSize int, what string) []T {
	n := d.list(tStruct, minSize, what)
	if d.err != nil {
		return nil
	}
	v := make([]T, n)
	for i := range v {
		P(&v[i]).decode(d)
		if d.err != nil {
			d.err.index(i)
			return nil
		}
	}
	return v
}

// encodeStructs writes field id as a list of structs.
func encodeStructs[T any, P structPtr[T]](e *encoder, last *int16, id int16, v []T) {
	e.field(last, id, tList)
	e.list(len(v), tStruct)
	for i := range v {
		P(&v[i]).encode(e)
	}
}

// decodeInts reads a list of i32 (et tI32) or i64 (et tI64) values, or of
// an enum.
func decodeInts[T ~int32 | ~int64](d *decoder, et byte, what string) []T {
	n := d.list(et, 1, what)
	if d.err != nil {
		return nil
	}
	v := make([]T, n)
	readInts(d, v, et)
	return v
}

// readInts fills v with i32 (et tI32) or i64 values.
func readInts[T ~int32 | ~int64](d *decoder, v []T, et byte) {
	for i := range v {
		if et == tI32 {
			v[i] = T(d.i32())
		} else {
			v[i] = T(d.i64())
		}
	}
}

// encodeInts writes field id as a list of i32 (et tI32) or i64 values.
func encodeInts[T ~int32 | ~int64](e *encoder, last *int16, id int16, v []T, et byte) {
	e.field(last, id, tList)
	e.list(len(v), et)
	for _, x := range v {
		e.i64(int64(x))
	}
}

// decodeBools reads a list of bools.
func decodeBools(d *decoder, what string) []bool {
	n := d.list(tTrue, 1, what)
	if d.err != nil {
		return nil
	}
	v := make([]bool, n)
	for i := range v {
		v[i] = d.boolElem()
	}
	return v
}

// encodeBools writes field id as a list of bools.
func encodeBools(e *encoder, last *int16, id int16, v []bool) {
	e.field(last, id, tList)
	e.list(len(v), tTrue)
	for _, x := range v {
		e.boolElem(x)
	}
}

// decodeBins reads a list of binary values, each aliasing the input.
func decodeBins(d *decoder, what string) [][]byte {
	n := d.list(tBinary, 1, what)
	if d.err != nil {
		return nil
	}
	v := make([][]byte, n)
	for i := range v {
		v[i] = d.bin()
	}
	if d.err != nil {
		return nil
	}
	return v
}

// encodeBins writes field id as a list of binary values.
func encodeBins(e *encoder, last *int16, id int16, v [][]byte) {
	e.field(last, id, tList)
	e.list(len(v), tBinary)
	for _, x := range v {
		e.bin(x)
	}
}

// decodeStrings reads a list of strings.
func decodeStrings(d *decoder, what string) []string {
	n := d.list(tBinary, 1, what)
	if d.err != nil {
		return nil
	}
	v := make([]string, n)
	for i := range v {
		v[i] = d.str()
	}
	return v
}

// encodeStrings writes field id as a list of strings.
func encodeStrings(e *encoder, last *int16, id int16, v []string) {
	e.field(last, id, tList)
	e.list(len(v), tBinary)
	for _, x := range v {
		e.str(x)
	}
}
