package dataset

// This file holds hive partitioning: key=value directories parsed into
// typed values, and those values turned into the columns of a batch
// without a per-row loop through builders.

import (
	"encoding/binary"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// HiveDefaultPartition is the directory value Hive, Spark, DuckDB and
// pyarrow write for a null partition value.
const HiveDefaultPartition = "__HIVE_DEFAULT_PARTITION__"

// PartitionEncoding is the Arrow layout of partition columns.
type PartitionEncoding uint8

// Partition column layouts. Each batch of a dataset comes from one file,
// whose partition values are constants; none of the layouts builds a
// column value by value.
const (
	// PartitionDictionary makes a partition column a dictionary array
	// (int32 indices) whose dictionary holds the file's one value and
	// whose indices are all zero, in memory shared by every batch.
	PartitionDictionary PartitionEncoding = iota
	// PartitionRunEndEncoded makes it a run-end encoded array (int32 run
	// ends) of one run.
	PartitionRunEndEncoded
	// PartitionPlain makes it a plain array of the value type, the value
	// repeated by filling the buffers.
	PartitionPlain
)

// PartitionValue is the value of one partition key for one file.
type PartitionValue struct {
	Key string `json:"key"`
	// Value is the directory's value, URL-unescaped; empty when Null.
	Value string `json:"value,omitempty"`
	// Null is set for __HIVE_DEFAULT_PARTITION__.
	Null bool `json:"null,omitempty"`
}

// parseHive returns the key=value elements of the directories of rel, a
// file path relative to the dataset root. Elements without "=" are not
// partitions.
func parseHive(rel string) ([]PartitionValue, error) {
	segs := strings.Split(rel, "/")
	var out []PartitionValue
	for _, s := range segs[:len(segs)-1] {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			continue
		}
		key := unescapePart(k)
		if key == "" {
			return nil, fmt.Errorf("%w: directory %q has an empty key", ErrPartition, s)
		}
		for _, p := range out {
			if p.Key == key {
				return nil, fmt.Errorf("%w: key %q appears twice", ErrPartition, key)
			}
		}
		if v == HiveDefaultPartition {
			out = append(out, PartitionValue{Key: key, Null: true})
		} else {
			out = append(out, PartitionValue{Key: key, Value: unescapePart(v)})
		}
	}
	return out, nil
}

// unescapePart undoes the %XX escapes Spark, Hive and DuckDB write; a
// malformed escape leaves the text as it is, as Hive's unescaper does.
func unescapePart(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	u, err := url.PathUnescape(s)
	if err != nil {
		return s
	}
	return u
}

// escapePart escapes a partition key or value for a directory name: the
// characters Spark escapes (control characters, "#%'*/:=?\{[]^ and DEL)
// and those Windows forbids (space, <, >, |) become %XX. Other bytes,
// UTF-8 included, stay.
func escapePart(s string) string {
	const special = "\"#%'*/:=?\\{[]^ <>|\x7f"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || strings.IndexByte(special, c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// inferType returns the type partition values vals take: int64 when every
// non-null value is a base-10 integer, date32 when every one is a
// YYYY-MM-DD date, timestamp[us] (without time zone) when every one is a
// date or timestamp, string
// otherwise (and when every value is null).
func inferType(vals []PartitionValue) arrow.DataType {
	candidates := []arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.FixedWidthTypes.Date32, &arrow.TimestampType{Unit: arrow.Microsecond}}
	any := false
	for _, v := range vals {
		if v.Null {
			continue
		}
		any = true
		kept := candidates[:0]
		for _, t := range candidates {
			if _, err := parseValue(t, v.Value); err == nil {
				kept = append(kept, t)
			}
		}
		candidates = kept
		if len(candidates) == 0 {
			break
		}
	}
	if !any || len(candidates) == 0 {
		return arrow.BinaryTypes.String
	}
	return candidates[0]
}

// partitionTypeOK reports whether values of t can be parsed from
// directory names.
func partitionTypeOK(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.FLOAT32, arrow.FLOAT64, arrow.BOOL, arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY,
		arrow.DATE32, arrow.TIMESTAMP:
		return true
	}
	return false
}

// timestampLayouts are the forms a timestamp partition value may take;
// fractional seconds are accepted after the seconds of each.
var timestampLayouts = []string{
	"2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02 15:04:05Z07:00", "2006-01-02T15:04:05Z07:00",
	"2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02",
}

// parseValue parses s as a value of t and returns it as a Go value:
// int64, uint64, float64, bool, string, or for date32 and timestamp the
// int64 the array stores.
func parseValue(t arrow.DataType, s string) (any, error) {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		return strconv.ParseInt(s, 10, t.(arrow.FixedWidthDataType).BitWidth())
	case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		return strconv.ParseUint(s, 10, t.(arrow.FixedWidthDataType).BitWidth())
	case arrow.FLOAT32, arrow.FLOAT64:
		return strconv.ParseFloat(s, t.(arrow.FixedWidthDataType).BitWidth())
	case arrow.BOOL:
		return strconv.ParseBool(s)
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
		return s, nil
	case arrow.DATE32:
		d, err := time.Parse("2006-01-02", s)
		if err != nil {
			return nil, err
		}
		return int64(arrow.Date32FromTime(d)), nil
	case arrow.TIMESTAMP:
		ts := t.(*arrow.TimestampType)
		for _, l := range timestampLayouts {
			if tm, err := time.Parse(l, s); err == nil {
				v, err := arrow.TimestampFromTime(tm, ts.Unit)
				return int64(v), err
			}
		}
		return nil, fmt.Errorf("%q is not a timestamp", s)
	}
	return nil, fmt.Errorf("%s is not a partition type", t)
}

// buildValues returns an array of t holding vals, one per element.
func buildValues(mem memory.Allocator, t arrow.DataType, vals []PartitionValue) (arrow.Array, error) {
	b := array.NewBuilder(mem, t)
	defer b.Release()
	for _, v := range vals {
		if v.Null {
			b.AppendNull()
			continue
		}
		x, err := parseValue(t, v.Value)
		if err != nil {
			return nil, fmt.Errorf("%w: key %q: value %q is not %s: %v", ErrPartition, v.Key, v.Value, t, err)
		}
		switch b := b.(type) {
		case *array.Int8Builder:
			b.Append(int8(x.(int64)))
		case *array.Int16Builder:
			b.Append(int16(x.(int64)))
		case *array.Int32Builder:
			b.Append(int32(x.(int64)))
		case *array.Int64Builder:
			b.Append(x.(int64))
		case *array.Uint8Builder:
			b.Append(uint8(x.(uint64)))
		case *array.Uint16Builder:
			b.Append(uint16(x.(uint64)))
		case *array.Uint32Builder:
			b.Append(uint32(x.(uint64)))
		case *array.Uint64Builder:
			b.Append(x.(uint64))
		case *array.Float32Builder:
			b.Append(float32(x.(float64)))
		case *array.Float64Builder:
			b.Append(x.(float64))
		case *array.BooleanBuilder:
			b.Append(x.(bool))
		case *array.StringBuilder:
			b.Append(x.(string))
		case *array.LargeStringBuilder:
			b.Append(x.(string))
		case *array.BinaryBuilder:
			b.Append([]byte(x.(string)))
		case *array.Date32Builder:
			b.Append(arrow.Date32(x.(int64)))
		case *array.TimestampBuilder:
			b.Append(arrow.Timestamp(x.(int64)))
		default:
			return nil, fmt.Errorf("%w: key %q: %s is not a partition type", ErrPartition, v.Key, t)
		}
	}
	return b.NewArray(), nil
}

// partitionType returns the Arrow type of a partition column of values
// of t in layout enc.
func partitionType(t arrow.DataType, enc PartitionEncoding) arrow.DataType {
	switch enc {
	case PartitionDictionary:
		return &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: t}
	case PartitionRunEndEncoded:
		return arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, t)
	}
	return t
}

// valueType returns the type of the values of a partition column of type
// t, and its layout.
func valueType(t arrow.DataType) (arrow.DataType, PartitionEncoding) {
	switch t := t.(type) {
	case *arrow.DictionaryType:
		return t.ValueType, PartitionDictionary
	case *arrow.RunEndEncodedType:
		return t.Encoded(), PartitionRunEndEncoded
	}
	return t, PartitionPlain
}

// zeroBuf is read-only memory of zeros shared by the partition columns of
// every batch: dictionary indices, and the validity of null ones.
var zeroBuf struct {
	sync.Mutex
	b []byte
}

// zeros returns n zero bytes that nothing writes.
func zeros(n int) []byte {
	zeroBuf.Lock()
	defer zeroBuf.Unlock()
	if len(zeroBuf.b) < n {
		zeroBuf.b = make([]byte, max(n, 2*len(zeroBuf.b), 1<<16))
	}
	return zeroBuf.b[:n:n]
}

// partitionArray returns a column of n rows holding the one value of v
// (an array of length 1), in the layout of type t.
func partitionArray(mem memory.Allocator, t arrow.DataType, v arrow.Array, n int) arrow.Array {
	null := v.IsNull(0)
	switch t := t.(type) {
	case *arrow.DictionaryType:
		var validity *memory.Buffer
		nulls := 0
		if null {
			validity = memory.NewBufferBytes(zeros(bitmapBytes(n)))
			nulls = n
		}
		idx := memory.NewBufferBytes(zeros(4 * n))
		d := array.NewDataWithDictionary(t, n, []*memory.Buffer{validity, idx}, nulls, 0, v.Data().(*array.Data))
		defer d.Release()
		return array.MakeFromData(d)
	case *arrow.RunEndEncodedType:
		if n == 0 {
			v = array.NewSlice(v, 0, 0)
			defer v.Release()
		}
		var ends []byte
		if n > 0 {
			ends = binary.LittleEndian.AppendUint32(nil, uint32(n))
		}
		re := array.NewData(arrow.PrimitiveTypes.Int32, min(n, 1), []*memory.Buffer{nil, memory.NewBufferBytes(ends)}, nil, 0, 0)
		defer re.Release()
		d := array.NewData(t, n, []*memory.Buffer{nil}, []arrow.ArrayData{re, v.Data()}, 0, 0)
		defer d.Release()
		return array.MakeFromData(d)
	}
	if null {
		return array.MakeArrayOfNull(mem, t, n)
	}
	return repeatValue(mem, v, n)
}

// repeatValue returns v's one non-null value repeated n times, by filling
// buffers.
func repeatValue(mem memory.Allocator, v arrow.Array, n int) arrow.Array {
	t := v.DataType()
	var bufs []*memory.Buffer
	switch v := v.(type) {
	case *array.Boolean:
		bits := memory.NewResizableBuffer(mem)
		bits.Resize(bitmapBytes(n))
		fill := byte(0)
		if v.Value(0) {
			fill = 0xff
		}
		b := bits.Bytes()
		for i := range b {
			b[i] = fill
		}
		bufs = []*memory.Buffer{nil, bits}
	case *array.String, *array.Binary:
		val := []byte(v.ValueStr(0))
		if b, ok := v.(*array.Binary); ok {
			val = b.Value(0)
		}
		offs := memory.NewResizableBuffer(mem)
		offs.Resize(4 * (n + 1))
		o := arrow.Int32Traits.CastFromBytes(offs.Bytes())
		for i := range o {
			o[i] = int32(i * len(val))
		}
		bufs = []*memory.Buffer{nil, offs, repeatBytes(mem, val, n)}
	case *array.LargeString, *array.LargeBinary:
		val := []byte(v.ValueStr(0))
		if b, ok := v.(*array.LargeBinary); ok {
			val = b.Value(0)
		}
		offs := memory.NewResizableBuffer(mem)
		offs.Resize(8 * (n + 1))
		o := arrow.Int64Traits.CastFromBytes(offs.Bytes())
		for i := range o {
			o[i] = int64(i * len(val))
		}
		bufs = []*memory.Buffer{nil, offs, repeatBytes(mem, val, n)}
	default:
		// Fixed width: repeat the value's bytes.
		w := t.(arrow.FixedWidthDataType).BitWidth() / 8
		d := v.Data()
		raw := d.Buffers()[1].Bytes()[d.Offset()*w : (d.Offset()+1)*w]
		bufs = []*memory.Buffer{nil, repeatBytes(mem, raw, n)}
	}
	d := array.NewData(t, n, bufs, nil, 0, 0)
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	defer d.Release()
	return array.MakeFromData(d)
}

// repeatBytes returns a buffer holding val n times, filled by doubling
// copies.
func repeatBytes(mem memory.Allocator, val []byte, n int) *memory.Buffer {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(len(val) * n)
	b := buf.Bytes()
	if len(b) > 0 {
		k := copy(b, val)
		for k < len(b) {
			k += copy(b[k:], b[:k])
		}
	}
	return buf
}

func bitmapBytes(n int) int { return (n + 7) / 8 }

// formatValue formats element i of a partition column for a directory
// name, before escaping; ok is false for a null.
func formatValue(a arrow.Array, i int) (s string, ok bool, err error) {
	if a.IsNull(i) {
		return "", false, nil
	}
	switch a := a.(type) {
	case *array.Dictionary:
		return formatValue(a.Dictionary(), a.GetValueIndex(i))
	case *array.RunEndEncoded:
		return formatValue(a.Values(), a.GetPhysicalIndex(i))
	case *array.Int8:
		return strconv.FormatInt(int64(a.Value(i)), 10), true, nil
	case *array.Int16:
		return strconv.FormatInt(int64(a.Value(i)), 10), true, nil
	case *array.Int32:
		return strconv.FormatInt(int64(a.Value(i)), 10), true, nil
	case *array.Int64:
		return strconv.FormatInt(a.Value(i), 10), true, nil
	case *array.Uint8:
		return strconv.FormatUint(uint64(a.Value(i)), 10), true, nil
	case *array.Uint16:
		return strconv.FormatUint(uint64(a.Value(i)), 10), true, nil
	case *array.Uint32:
		return strconv.FormatUint(uint64(a.Value(i)), 10), true, nil
	case *array.Uint64:
		return strconv.FormatUint(a.Value(i), 10), true, nil
	case *array.Float32:
		return formatFloat(float64(a.Value(i)), 32)
	case *array.Float64:
		return formatFloat(a.Value(i), 64)
	case *array.Boolean:
		return strconv.FormatBool(a.Value(i)), true, nil
	case *array.String:
		return a.Value(i), true, nil
	case *array.LargeString:
		return a.Value(i), true, nil
	case *array.StringView:
		return a.Value(i), true, nil
	case *array.Binary:
		return string(a.Value(i)), true, nil
	case *array.LargeBinary:
		return string(a.Value(i)), true, nil
	case *array.Date32:
		return a.Value(i).FormattedString(), true, nil
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		return a.Value(i).ToTime(unit).Format("2006-01-02 15:04:05.999999999"), true, nil
	}
	return "", false, fmt.Errorf("%w: cannot partition by a %s column", ErrPartition, a.DataType())
}

func formatFloat(f float64, bits int) (string, bool, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", false, fmt.Errorf("%w: cannot partition by the float %v", ErrPartition, f)
	}
	return strconv.FormatFloat(f, 'g', -1, bits), true, nil
}
