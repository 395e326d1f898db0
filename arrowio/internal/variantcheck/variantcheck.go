// Package variantcheck checks shredded VARIANT values, held as arrow-go
// extensions.VariantType arrays, against the rules of VariantShredding.md
// that reconstructing them relies on. A reader that hands such arrays on
// checks them first, so that no reconstruction (arrow-go's
// VariantArray.Value, or anyone's) turns invalid shredding into a value
// silently.
//
// At every value/typed_value pair of a present variant (the top level, a
// field of a shredded object, an element of a shredded array):
//
//   - a non-null typed_value that is a primitive or an array leaves value
//     null ("conflicting value and typed_value");
//   - a non-null typed_value that is an object leaves value null or makes
//     it a Variant object ("non-object value with shredded fields") none
//     of whose keys is a shredded field ("object keys must be disjoint").
//
// Both null is a missing value: an absent field of a shredded object, and
// elsewhere (the top level, an array element) a Variant null, as
// VariantShredding.md asks readers to return where a value is required.
//
// An unshredded variant (no typed_value) has nothing to check here; the
// Variant encoding of metadata and value bytes is checked by whoever
// decodes them. Only the bytes needed to list an object's keys are read,
// each length checked before use.
package variantcheck

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
)

// ErrInvalid is wrapped by every error Check returns.
var ErrInvalid = errors.New("invalid shredded variant")

// Has reports whether a value of type dt can hold a variant: dt is the
// variant extension type or nests one. It allocates nothing, so that
// readers may ask for every batch.
func Has(dt arrow.DataType) bool {
	switch t := dt.(type) {
	case arrow.ExtensionType:
		return extensions.IsVariantExtensionName(t.ExtensionName()) || Has(t.StorageType())
	case *arrow.DictionaryType:
		return Has(t.ValueType)
	case *arrow.StructType:
		for i := range t.NumFields() {
			if Has(t.Field(i).Type) {
				return true
			}
		}
	case arrow.ListLikeType: // lists of every layout, and maps
		return Has(t.Elem())
	case arrow.NestedType:
		for _, f := range t.Fields() {
			if Has(f.Type) {
				return true
			}
		}
	}
	return false
}

// Check returns an error wrapping ErrInvalid, naming the index and the
// shredded path, when a variant at or below arr breaks the rules above.
func Check(arr arrow.Array) error {
	if !Has(arr.DataType()) {
		return nil
	}
	return walk(arr)
}

// walk finds the variant arrays at or below arr and checks them.
func walk(arr arrow.Array) error {
	switch a := arr.(type) {
	case array.ExtensionArray:
		st, ok := a.Storage().(*array.Struct)
		if ext, isExt := a.DataType().(arrow.ExtensionType); ok && isExt && extensions.IsVariantExtensionName(ext.ExtensionName()) {
			return checkVariant(st)
		}
		return walk(a.Storage())
	case *array.Struct:
		for i := range a.NumField() {
			if Has(a.Field(i).DataType()) {
				if err := walk(a.Field(i)); err != nil {
					return err
				}
			}
		}
	case *array.Dictionary:
		return walk(a.Dictionary())
	case array.ListLike:
		// The whole child: assembled arrays hold no values outside the
		// lists, and a value there must be valid anyway.
		return walk(a.ListValues())
	}
	return nil
}

// Shapes of a shredded typed_value.
const (
	primitive = iota
	object
	list
)

// pair is one value/typed_value pair of a variant's storage, over the
// arrays that hold it (either may be nil when the schema leaves it out).
type pair struct {
	path  string
	value bytesArray
	typed arrow.Array
	shape int
	// fields are an object's shredded fields, names its field names.
	fields []pair
	names  map[string]bool
	// elem is an array's element pair, over the list's child arrays.
	elem  *pair
	lists array.ListLike
}

// bytesArray is a binary array of any layout.
type bytesArray interface {
	arrow.Array
	Value(int) []byte
}

// checkVariant checks the variant whose storage is st.
func checkVariant(st *array.Struct) error {
	typ := st.DataType().(*arrow.StructType)
	var meta arrow.Array
	top, err := newPair("", st, typ)
	if err != nil {
		return err
	}
	if top.typed == nil {
		return nil
	}
	if i, ok := typ.FieldIdx("metadata"); ok {
		meta = st.Field(i)
	}
	c := checker{meta: meta}
	for row := range st.Len() {
		if st.IsNull(row) {
			continue
		}
		c.row = row
		c.md = nil
		if err := c.check(&top, row); err != nil {
			return err
		}
	}
	return nil
}

// newPair builds the pair of struct s (of type t): its value and
// typed_value children, and below typed_value the pairs of an object's
// fields or an array's elements.
func newPair(path string, s *array.Struct, t *arrow.StructType) (pair, error) {
	p := pair{path: path}
	if i, ok := t.FieldIdx("value"); ok {
		v, ok := s.Field(i).(bytesArray)
		if !ok {
			return p, fmt.Errorf("%w: %s is %s, not binary", ErrInvalid, join(path, "value"), t.Field(i).Type)
		}
		p.value = v
	}
	i, ok := t.FieldIdx("typed_value")
	if !ok {
		return p, nil
	}
	p.typed = s.Field(i)
	tpath := join(path, "typed_value")
	switch tv := p.typed.(type) {
	case *array.Struct:
		p.shape = object
		tt := tv.DataType().(*arrow.StructType)
		p.fields = make([]pair, tv.NumField())
		p.names = make(map[string]bool, tv.NumField())
		for j := range tv.NumField() {
			name := tt.Field(j).Name
			fs, ok := tv.Field(j).(*array.Struct)
			if !ok {
				return p, fmt.Errorf("%w: shredded field %s is %s, not a struct", ErrInvalid, join(tpath, name), tt.Field(j).Type)
			}
			fp, err := newPair(join(tpath, name), fs, fs.DataType().(*arrow.StructType))
			if err != nil {
				return p, err
			}
			p.fields[j] = fp
			p.names[name] = true
		}
	case array.ListLike:
		p.shape = list
		p.lists = tv
		es, ok := tv.ListValues().(*array.Struct)
		if !ok {
			return p, fmt.Errorf("%w: shredded array %s has elements of %s, not a struct", ErrInvalid, tpath, tv.ListValues().DataType())
		}
		ep, err := newPair(join(tpath, "element"), es, es.DataType().(*arrow.StructType))
		if err != nil {
			return p, err
		}
		p.elem = &ep
	}
	return p, nil
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// checker checks the pairs of one row at a time.
type checker struct {
	meta arrow.Array
	row  int
	md   []byte // the row's metadata, once read
}

// check checks pair p at index i of its arrays.
func (c *checker) check(p *pair, i int) error {
	hasValue := p.value != nil && p.value.IsValid(i)
	if p.typed == nil || p.typed.IsNull(i) {
		return nil
	}
	switch p.shape {
	case primitive:
		if hasValue {
			return c.errorf(p, "conflicting value and typed_value")
		}
	case list:
		if hasValue {
			return c.errorf(p, "conflicting value and typed_value (an array)")
		}
		start, end := p.lists.ValueOffsets(i)
		for j := start; j < end; j++ {
			if err := c.check(p.elem, int(j)); err != nil {
				return err
			}
		}
	case object:
		if hasValue {
			if err := c.disjoint(p, p.value.Value(i)); err != nil {
				return err
			}
		}
		for k := range p.fields {
			if err := c.check(&p.fields[k], i); err != nil {
				return err
			}
		}
	}
	return nil
}

// disjoint checks that v, the value beside a shredded object, is a
// Variant object none of whose keys is a shredded field of p.
func (c *checker) disjoint(p *pair, v []byte) error {
	if len(v) == 0 {
		return c.errorf(p, "empty value beside shredded fields")
	}
	if v[0]&3 != 2 {
		return c.errorf(p, "non-object value with shredded fields")
	}
	hdr := v[0] >> 2
	offSize := int(hdr&3) + 1
	idSize := int(hdr>>2&3) + 1
	pos, n := 1, 0
	if hdr&0x10 != 0 {
		if len(v) < pos+4 {
			return c.errorf(p, "object value of %d bytes is cut short", len(v))
		}
		n = int(uint32(v[1]) | uint32(v[2])<<8 | uint32(v[3])<<16 | uint32(v[4])<<24)
		pos += 4
	} else {
		if len(v) < pos+1 {
			return c.errorf(p, "object value of %d bytes is cut short", len(v))
		}
		n = int(v[1])
		pos++
	}
	// Each field takes an id and an offset, so n is bounded by the bytes.
	if n > (len(v)-pos)/(idSize+offSize) {
		return c.errorf(p, "object value of %d bytes cannot hold %d fields", len(v), n)
	}
	if n == 0 {
		return nil
	}
	keys, err := c.keys()
	if err != nil {
		return c.errorf(p, "%v", err)
	}
	for k := range n {
		id := le(v[pos+k*idSize:], idSize)
		if id >= uint64(len(keys)-1) {
			return c.errorf(p, "object field id %d is outside the metadata dictionary of %d keys", id, len(keys)-1)
		}
		key := c.md[keys[id]:keys[id+1]]
		if p.names[string(key)] {
			return c.errorf(p, "value holds field %q, which is also shredded (object keys must be disjoint)", key)
		}
	}
	return nil
}

// keys returns the bounds of the row's metadata dictionary strings:
// string i is md[keys[i]:keys[i+1]].
func (c *checker) keys() ([]int, error) {
	if c.md == nil {
		md, err := metadataAt(c.meta, c.row)
		if err != nil {
			return nil, err
		}
		c.md = md
	}
	md := c.md
	if len(md) < 1 || md[0]&0x0f != 1 {
		return nil, fmt.Errorf("metadata is not Variant metadata version 1")
	}
	size := int(md[0]>>6) + 1
	if len(md) < 1+size {
		return nil, fmt.Errorf("metadata of %d bytes is cut short", len(md))
	}
	n := le(md[1:], size)
	// The n+1 offsets follow the size.
	if n >= uint64((len(md)-1-size)/size) {
		return nil, fmt.Errorf("metadata of %d bytes cannot hold %d keys", len(md), n)
	}
	base := 1 + size + (int(n)+1)*size
	keys := make([]int, n+1)
	for i := range keys {
		off := le(md[1+size+i*size:], size)
		if off > uint64(len(md)-base) || i > 0 && base+int(off) < keys[i-1] {
			return nil, fmt.Errorf("metadata key offset %d is out of order or past its %d bytes", off, len(md)-base)
		}
		keys[i] = base + int(off)
	}
	return keys, nil
}

// metadataAt returns the metadata bytes of row i.
func metadataAt(meta arrow.Array, i int) ([]byte, error) {
	switch m := meta.(type) {
	case bytesArray:
		return m.Value(i), nil
	case *array.Dictionary:
		if d, ok := m.Dictionary().(bytesArray); ok {
			return d.Value(m.GetValueIndex(i)), nil
		}
	}
	return nil, fmt.Errorf("no binary metadata column")
}

// le reads an unsigned little-endian integer of size bytes from b, which
// holds them.
func le(b []byte, size int) uint64 {
	var v uint64
	for i := range size {
		v |= uint64(b[i]) << (8 * i)
	}
	return v
}

func (c *checker) errorf(p *pair, format string, args ...any) error {
	where := p.path
	if where == "" {
		where = "the variant"
	}
	return fmt.Errorf("%w: index %d of the array, %s: %s", ErrInvalid, c.row, where, fmt.Sprintf(format, args...))
}
