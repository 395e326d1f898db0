package dataset

// This file holds schema unification (many files' schemas as one) and the
// casts that read a file's column as the dataset's type.

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// SchemaMode says where a dataset's schema comes from when
// [Options.Schema] is nil.
type SchemaMode uint8

// Schema modes.
const (
	// SchemaFirstFile takes the schema of the first file (in the order of
	// [Dataset.Files]): opening costs one footer read. Other files may lack
	// its nullable columns (they read as nulls), have columns it lacks
	// (not read) and hold narrower types of its columns (read widened);
	// anything else is an error wrapping ErrSchema when the file is read.
	SchemaFirstFile SchemaMode = iota
	// SchemaUnify reads the footer of every file and unifies their
	// schemas: columns in the order they first appear, each of the widest
	// type its files hold (integers of the same signedness widen, unsigned
	// ones to a wider signed type, float to double, string, large_string
	// and string_view to large_string when one file has it and to string
	// otherwise, binary likewise, null to anything). A column some file
	// lacks reads as nulls there and is nullable. Types that do not
	// unify are an error wrapping ErrSchema that names both files.
	SchemaUnify
)

// unifyType returns the type that values of a and b both read as.
func unifyType(a, b arrow.DataType) (arrow.DataType, bool) {
	switch {
	case arrow.TypeEqual(a, b):
		return a, true
	case a.ID() == arrow.NULL:
		return b, true
	case b.ID() == arrow.NULL:
		return a, true
	case canWiden(a, b):
		return b, true
	case canWiden(b, a):
		return a, true
	case isInt(a) && isInt(b):
		// Signed and unsigned where neither holds the other: int64 holds
		// both unless one is uint64.
		if intWidth(a) < 64 && intWidth(b) < 64 {
			return arrow.PrimitiveTypes.Int64, true
		}
	case stringKind(a) != 0 && stringKind(a) == stringKind(b):
		// string and string_view: read both as string.
		if stringKind(a) == 's' {
			return arrow.BinaryTypes.String, true
		}
		return arrow.BinaryTypes.Binary, true
	}
	return nil, false
}

// canWiden reports whether every value of a column of type from can be
// read as type to by castArray.
func canWiden(from, to arrow.DataType) bool {
	switch {
	case arrow.TypeEqual(from, to), from.ID() == arrow.NULL:
		return true
	case isInt(from) && isInt(to):
		fs, ts := isSigned(from), isSigned(to)
		return fs == ts && intWidth(from) <= intWidth(to) || !fs && ts && intWidth(from) < intWidth(to)
	case from.ID() == arrow.FLOAT32 && to.ID() == arrow.FLOAT64:
		return true
	case stringKind(from) != 0 && stringKind(from) == stringKind(to):
		// Any layout reads as the large one, and the view as the plain.
		return isLarge(to) || !isLarge(from) && !isView(to)
	}
	return false
}

func isInt(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		return true
	}
	return false
}

func isSigned(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		return true
	}
	return false
}

func intWidth(t arrow.DataType) int { return t.(arrow.FixedWidthDataType).BitWidth() }

// stringKind is 's' for the string layouts, 'b' for the binary ones.
func stringKind(t arrow.DataType) byte {
	switch t.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return 's'
	case arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW:
		return 'b'
	}
	return 0
}

func isLarge(t arrow.DataType) bool {
	return t.ID() == arrow.LARGE_STRING || t.ID() == arrow.LARGE_BINARY
}

func isView(t arrow.DataType) bool { return t.ID() == arrow.STRING_VIEW || t.ID() == arrow.BINARY_VIEW }

// schemaOf is a file's schema and its name, for unification messages.
type schemaOf struct {
	path   string
	schema *arrow.Schema
}

// unifySchemas unifies the schemas of files (see SchemaUnify). The result
// has no schema metadata: files disagree on it.
func unifySchemas(files []schemaOf) (*arrow.Schema, error) {
	type col struct {
		field arrow.Field
		from  string // the file the type was last widened by
		seen  int    // files that have the column
	}
	var cols []*col
	byName := make(map[string]*col)
	for _, f := range files {
		for _, fld := range f.schema.Fields() {
			c := byName[fld.Name]
			if c == nil {
				c = &col{field: fld, from: f.path}
				byName[fld.Name] = c
				cols = append(cols, c)
			} else {
				t, ok := unifyType(c.field.Type, fld.Type)
				if !ok {
					return nil, fmt.Errorf("%w: column %q is %s in %s and %s in %s", ErrSchema, fld.Name, c.field.Type, c.from, fld.Type, f.path)
				}
				if !arrow.TypeEqual(t, c.field.Type) {
					c.from = f.path
				}
				c.field.Type = t
				c.field.Nullable = c.field.Nullable || fld.Nullable
			}
			c.seen++
		}
	}
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = c.field
		if c.seen < len(files) {
			fields[i].Nullable = true
		}
	}
	return arrow.NewSchema(fields, nil), nil
}

// castArray returns a read as type to, which canWiden allows; the caller
// releases the result.
func castArray(mem memory.Allocator, a arrow.Array, to arrow.DataType) (arrow.Array, error) {
	from := a.DataType()
	n := a.Len()
	switch {
	case arrow.TypeEqual(from, to):
		a.Retain()
		return a, nil
	case from.ID() == arrow.NULL:
		return array.MakeArrayOfNull(mem, to, n), nil
	case isInt(from) && isInt(to) || from.ID() == arrow.FLOAT32 && to.ID() == arrow.FLOAT64:
		buf := memory.NewResizableBuffer(mem)
		buf.Resize(n * intOrFloatWidth(to) / 8)
		if !convertNumbers(buf.Bytes(), to, a) {
			buf.Release()
			break
		}
		return newArray(to, n, []*memory.Buffer{validity(mem, a), buf}, a.NullN()), nil
	case stringKind(from) != 0 && stringKind(from) == stringKind(to):
		return castBytes(mem, a, to), nil
	}
	return nil, fmt.Errorf("%w: cannot read %s as %s", ErrSchema, from, to)
}

func intOrFloatWidth(t arrow.DataType) int { return t.(arrow.FixedWidthDataType).BitWidth() }

// newArray builds an array of t from buffers, releasing the buffers'
// references the caller held (nil buffers allowed).
func newArray(t arrow.DataType, n int, bufs []*memory.Buffer, nulls int) arrow.Array {
	d := array.NewData(t, n, bufs, nil, nulls, 0)
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	defer d.Release()
	return array.MakeFromData(d)
}

// validity returns a's validity bitmap starting at bit 0 (a new reference
// the caller releases), or nil when a has no nulls.
func validity(mem memory.Allocator, a arrow.Array) *memory.Buffer {
	d := a.Data()
	if a.NullN() == 0 || len(d.Buffers()) == 0 || d.Buffers()[0] == nil {
		return nil
	}
	src := d.Buffers()[0]
	if d.Offset() == 0 {
		src.Retain()
		return src
	}
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(bitmapBytes(a.Len()))
	bitutil.CopyBitmap(src.Bytes(), d.Offset(), a.Len(), buf.Bytes(), 0)
	return buf
}

type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

func convert[D, S number](dst []D, src []S) {
	for i, v := range src {
		dst[i] = D(v)
	}
}

// convertNumbers writes a's values, converted, into dst, the values
// buffer of an array of type to.
func convertNumbers(dst []byte, to arrow.DataType, a arrow.Array) bool {
	switch to.ID() {
	case arrow.INT16:
		return convertFrom(arrow.Int16Traits.CastFromBytes(dst), a)
	case arrow.INT32:
		return convertFrom(arrow.Int32Traits.CastFromBytes(dst), a)
	case arrow.INT64:
		return convertFrom(arrow.Int64Traits.CastFromBytes(dst), a)
	case arrow.UINT16:
		return convertFrom(arrow.Uint16Traits.CastFromBytes(dst), a)
	case arrow.UINT32:
		return convertFrom(arrow.Uint32Traits.CastFromBytes(dst), a)
	case arrow.UINT64:
		return convertFrom(arrow.Uint64Traits.CastFromBytes(dst), a)
	case arrow.FLOAT64:
		return convertFrom(arrow.Float64Traits.CastFromBytes(dst), a)
	}
	return false
}

func convertFrom[D number](dst []D, a arrow.Array) bool {
	switch a := a.(type) {
	case *array.Int8:
		convert(dst, a.Int8Values())
	case *array.Int16:
		convert(dst, a.Int16Values())
	case *array.Int32:
		convert(dst, a.Int32Values())
	case *array.Int64:
		convert(dst, a.Int64Values())
	case *array.Uint8:
		convert(dst, a.Uint8Values())
	case *array.Uint16:
		convert(dst, a.Uint16Values())
	case *array.Uint32:
		convert(dst, a.Uint32Values())
	case *array.Uint64:
		convert(dst, a.Uint64Values())
	case *array.Float32:
		convert(dst, a.Float32Values())
	default:
		return false
	}
	return true
}

// castBytes reads a string or binary array of any layout as layout to:
// 32-bit offsets widen to 64 sharing the value bytes; views are copied
// into offsets and bytes.
func castBytes(mem memory.Allocator, a arrow.Array, to arrow.DataType) arrow.Array {
	n := a.Len()
	d := a.Data()
	valid := validity(mem, a)
	if off32, ok := offsets32(a); ok && isLarge(to) {
		offs := memory.NewResizableBuffer(mem)
		offs.Resize(8 * (n + 1))
		convert(arrow.Int64Traits.CastFromBytes(offs.Bytes()), off32)
		data := d.Buffers()[2]
		data.Retain()
		return newArray(to, n, []*memory.Buffer{valid, offs, data}, a.NullN())
	}
	// Copy the values: views, or narrowing offsets (never asked for).
	value := func(i int) string {
		switch a := a.(type) {
		case *array.StringView:
			return a.Value(i)
		case *array.BinaryView:
			return a.ValueString(i)
		case *array.String:
			return a.Value(i)
		case *array.LargeString:
			return a.Value(i)
		case *array.Binary:
			return a.ValueString(i)
		case *array.LargeBinary:
			return a.ValueString(i)
		}
		return ""
	}
	total := 0
	for i := range n {
		if a.IsValid(i) {
			total += len(value(i))
		}
	}
	data := memory.NewResizableBuffer(mem)
	data.Resize(total)
	offs := memory.NewResizableBuffer(mem)
	pos := 0
	if isLarge(to) {
		offs.Resize(8 * (n + 1))
		o := arrow.Int64Traits.CastFromBytes(offs.Bytes())
		for i := range n {
			o[i] = int64(pos)
			if a.IsValid(i) {
				pos += copy(data.Bytes()[pos:], value(i))
			}
		}
		o[n] = int64(pos)
	} else {
		offs.Resize(4 * (n + 1))
		o := arrow.Int32Traits.CastFromBytes(offs.Bytes())
		for i := range n {
			o[i] = int32(pos)
			if a.IsValid(i) {
				pos += copy(data.Bytes()[pos:], value(i))
			}
		}
		o[n] = int32(pos)
	}
	return newArray(to, n, []*memory.Buffer{valid, offs, data}, a.NullN())
}

// offsets32 returns the n+1 offsets of a string or binary array with
// 32-bit offsets.
func offsets32(a arrow.Array) ([]int32, bool) {
	switch a := a.(type) {
	case *array.String:
		return a.ValueOffsets(), true
	case *array.Binary:
		return a.ValueOffsets(), true
	}
	return nil, false
}
