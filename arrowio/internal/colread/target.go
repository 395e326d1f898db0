package colread

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"time"
	"unsafe"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/footer"
)

// targetKind says how a leaf's values are laid out in its Arrow array.
type targetKind uint8

const (
	fixedTarget  targetKind = iota // width bytes per value in one buffer
	boolTarget                     // one bit per value
	binaryTarget                   // offsets + data
	nullTarget                     // no values at all (Arrow null type)
	dictTarget                     // indices of width bytes into a dictionary of value
)

// target describes how the values of one Parquet leaf land in Arrow
// buffers: the layout, the width of a value as stored (physWidth, for PLAIN
// fixed-width pages) and in Arrow (width), and the conversion between them
// when they differ.
type target struct {
	kind      targetKind
	physWidth int  // bytes per PLAIN value of the physical type (fixed kinds)
	width     int  // bytes per value in the Arrow buffer (fixed kinds)
	large     bool // 64-bit offsets (binary kinds)
	// view marks string_view and binary_view: decoded as 32-bit offsets
	// and data, then turned into views over the same data buffer.
	view bool
	// varDecimal marks BYTE_ARRAY decimals: variable-length big-endian
	// integers read into a fixed-width Arrow decimal.
	varDecimal bool
	// conv turns n packed physical values in src into n Arrow values in
	// dst; nil when the bytes are the same.
	conv func(dst, src []byte, n int)
	// check, when set, returns the index of the first of n packed
	// physical values in src that conv cannot represent, or -1.
	check func(src []byte, n int) int
	typ   arrow.DataType
	// value is the target of the dictionary's values (dictTarget only).
	value *target
}

// physicalWidth is the PLAIN width of fixed-width physical types, 0 for
// BOOLEAN and BYTE_ARRAY.
func physicalWidth(n *footer.Node) int {
	switch n.Physical {
	case footer.TypeInt32, footer.TypeFloat:
		return 4
	case footer.TypeInt64, footer.TypeDouble:
		return 8
	case footer.TypeInt96:
		return 12
	case footer.TypeFixedLenByteArray:
		return int(n.TypeLength)
	}
	return 0
}

// NewTarget decides how leaf n decodes into Arrow type dt, or returns an
// error wrapping ErrUnsupported when no conversion exists. The readers
// make their own; callers outside the package use it to check a
// projection before reading.
func NewTarget(n *footer.Node, dt arrow.DataType) (target, error) {
	if d, ok := dt.(*arrow.DictionaryType); ok {
		return newDictTarget(n, d)
	}
	t := target{typ: dt, physWidth: physicalWidth(n)}
	var ok bool
	switch {
	case dt.ID() == arrow.NULL:
		t.kind, ok = nullTarget, true
	case n.Physical == footer.TypeBoolean:
		t.kind, ok = boolTarget, dt.ID() == arrow.BOOL
	case n.Physical == footer.TypeByteArray:
		// An extension type over binary (geoarrow.wkb) decodes into its
		// storage's buffers, which finish wraps as the extension array
		// without a copy.
		if ext, isExt := dt.(arrow.ExtensionType); isExt {
			ok = t.setBinary(ext.StorageType()) && t.kind == binaryTarget
			break
		}
		ok = t.setBinary(dt)
	default:
		ok = t.setFixed(n, dt)
	}
	if !ok {
		return target{}, fmt.Errorf("%w: column %q: cannot read physical type %s as Arrow %s", errs.ErrUnsupported, n.DottedPath(), n.Physical, dt)
	}
	return t, nil
}

// newDictTarget is NewTarget for dictionary type d: indices into a
// dictionary of the leaf's values read as d's value type, which must be
// fixed-width or binary.
func newDictTarget(n *footer.Node, d *arrow.DictionaryType) (target, error) {
	v, err := NewTarget(n, d.ValueType)
	if err != nil {
		return target{}, err
	}
	if v.kind != fixedTarget && v.kind != binaryTarget {
		return target{}, fmt.Errorf("%w: column %q: cannot read %s as a dictionary", errs.ErrUnsupported, n.DottedPath(), v.typ)
	}
	return target{
		kind:      dictTarget,
		typ:       d,
		physWidth: physicalWidth(n),
		width:     d.IndexType.(arrow.FixedWidthDataType).BitWidth() / 8,
		value:     &v,
	}, nil
}

// setBinary sets t up for a BYTE_ARRAY leaf read as dt: offsets and data
// of strings and binaries, or variable-length decimals in fixed-width
// Arrow decimals. It reports false for any other dt.
func (t *target) setBinary(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.STRING, arrow.BINARY:
		t.kind = binaryTarget
	case arrow.LARGE_STRING, arrow.LARGE_BINARY:
		t.kind, t.large = binaryTarget, true
	case arrow.STRING_VIEW, arrow.BINARY_VIEW:
		t.kind, t.view = binaryTarget, true
	default:
		if !isDecimal(dt) {
			return false
		}
		t.kind, t.varDecimal = fixedTarget, true
		t.width = dt.(arrow.FixedWidthDataType).BitWidth() / 8
	}
	return true
}

// setFixed sets t up for leaf n, of a fixed-width physical type, read as
// dt, with the conversion between the two when their bytes differ. It
// reports false when there is no conversion.
func (t *target) setFixed(n *footer.Node, dt arrow.DataType) bool {
	fw, ok := dt.(arrow.FixedWidthDataType)
	if !ok {
		return false
	}
	t.kind = fixedTarget
	t.width = fw.BitWidth() / 8
	switch n.Physical {
	case footer.TypeInt32, footer.TypeInt64:
		t.conv, ok = intConversion(n.Physical, t.physWidth, t.width, dt)
		return ok
	case footer.TypeFloat, footer.TypeDouble:
		return t.width == t.physWidth
	case footer.TypeInt96:
		ts, ok := dt.(*arrow.TimestampType)
		if ok {
			t.conv, t.check = Int96ToTimestamp(ts.Unit), int96Fits(ts.Unit)
		}
		return ok
	case footer.TypeFixedLenByteArray:
		t.conv, ok = fixedLenConversion(t.physWidth, t.width, dt)
		return ok
	}
	return false
}

// intConversion returns the conversion of INT32 or INT64 values (physical
// type phys, physWidth bytes) into Arrow values of type dt and width
// bytes: nil when the bytes are the same, and false when there is none.
func intConversion(phys footer.Type, physWidth, width int, dt arrow.DataType) (func(dst, src []byte, n int), bool) {
	switch {
	case width == physWidth:
		return nil, true
	case isDecimal(dt):
		return resizeInt(physWidth, width), true
	case phys == footer.TypeInt32 && width == 1:
		return narrowInt32To8, true
	case phys == footer.TypeInt32 && width == 2:
		return narrowInt32To16, true
	case phys == footer.TypeInt32 && dt.ID() == arrow.DATE64:
		return daysToMillis, true
	}
	return nil, false
}

// fixedLenConversion returns the conversion of FIXED_LEN_BYTE_ARRAY
// values of physWidth bytes into Arrow values of type dt and width bytes:
// big-endian decimals, INTERVAL, or nil for the same bytes; false when
// there is none.
func fixedLenConversion(physWidth, width int, dt arrow.DataType) (func(dst, src []byte, n int), bool) {
	switch {
	case isDecimal(dt):
		if physWidth > width {
			return nil, false
		}
		return bigEndianToDecimal(physWidth, width), true
	case dt.ID() == arrow.INTERVAL_MONTH_DAY_NANO:
		if physWidth != 12 {
			return nil, false
		}
		return intervalToMonthDayNano, true
	}
	return nil, width == physWidth
}

func isDecimal(dt arrow.DataType) bool {
	_, ok := dt.(arrow.DecimalType)
	return ok
}

func narrowInt32To8(dst, src []byte, n int) {
	for i := range n {
		dst[i] = src[4*i]
	}
}

func narrowInt32To16(dst, src []byte, n int) {
	for i := range n {
		dst[2*i], dst[2*i+1] = src[4*i], src[4*i+1]
	}
}

func daysToMillis(dst, src []byte, n int) {
	for i := range n {
		d := int64(int32(binary.LittleEndian.Uint32(src[4*i:])))
		binary.LittleEndian.PutUint64(dst[8*i:], uint64(d*86_400_000))
	}
}

// resizeInt converts little-endian two's-complement integers of from bytes
// to to bytes: sign-extending (INT32/INT64 decimals to decimal128/256) or
// keeping the low bytes (an INT64 decimal of precision at most 9 read as
// decimal32, whose values fit).
func resizeInt(from, to int) func(dst, src []byte, n int) {
	return func(dst, src []byte, n int) {
		for i := range n {
			s, d := src[from*i:from*i+from], dst[to*i:to*i+to]
			copy(d, s)
			fill := byte(0)
			if s[from-1]&0x80 != 0 {
				fill = 0xFF
			}
			for j := from; j < to; j++ {
				d[j] = fill
			}
		}
	}
}

// bigEndianToDecimal turns big-endian two's-complement integers of from
// bytes (FIXED_LEN_BYTE_ARRAY decimals) into little-endian ones of to bytes.
// Values of at most 8 bytes, the common case, go through one 8-byte load
// each.
//
// It is not inlined: inlined into its caller (fixedLenConversion), its
// closures would be compiled as closures of the caller, into which the
// compiler inlines no calls, so that the byte-order loads and stores and
// putInt64As in their loops would each be a call per value (checked with
// go build -gcflags=-S, Go 1.26.8).
//
//go:noinline
func bigEndianToDecimal(from, to int) func(dst, src []byte, n int) {
	if from <= 8 {
		return func(dst, src []byte, n int) {
			shift := uint(64 - 8*from)
			i := 0
			// Whole 8-byte loads while they stay inside src; decimal128,
			// the usual target, as two word stores.
			if to == 16 && len(src) >= 8 {
				i = decimal128Words(dst, src, min(n, (len(src)-8)/from+1), from, shift)
			}
			for ; i < n && i*from+8 <= len(src); i++ {
				v := int64(binary.BigEndian.Uint64(src[i*from:])) >> shift
				putInt64As(dst[i*to:i*to+to], v)
			}
			for ; i < n; i++ {
				var v int64
				for _, b := range src[i*from : i*from+from] {
					v = v<<8 | int64(b)
				}
				putInt64As(dst[i*to:i*to+to], v<<shift>>shift)
			}
		}
	}
	return func(dst, src []byte, n int) {
		for i := range n {
			_ = putDecimal(dst[i*to:i*to+to], src[i*from:i*from+from])
		}
	}
}

// decimal128Words is bigEndianToDecimal's loop for decimal128: it converts
// the first m values of from bytes (each with 8 bytes of src from its
// start) with one load and two stores each, and returns m. The bounds are
// checked once, before the loop, instead of at every value: at 2 ns per
// value that loop was a tenth of an uncompressed lineitem read.
func decimal128Words(dst, src []byte, m, from int, shift uint) int {
	if m <= 0 {
		return 0
	}
	_ = dst[16*m-1]
	_ = src[(m-1)*from+7]
	sp, dp := unsafe.Pointer(unsafe.SliceData(src)), unsafe.Pointer(unsafe.SliceData(dst))
	for i := range m {
		v := int64(binary.BigEndian.Uint64((*[8]byte)(unsafe.Add(sp, i*from))[:])) >> shift
		d := (*[16]byte)(unsafe.Add(dp, 16*i))
		binary.LittleEndian.PutUint64(d[:8], uint64(v))
		binary.LittleEndian.PutUint64(d[8:], uint64(v>>63))
	}
	return m
}

// putInt64As writes v sign-extended (or truncated) to len(d) bytes,
// little-endian.
func putInt64As(d []byte, v int64) {
	if len(d) >= 8 {
		binary.LittleEndian.PutUint64(d, uint64(v))
		// Decimal128 and decimal256 take the sign in whole words.
		fill := uint64(v >> 63)
		j := 8
		for ; j+8 <= len(d); j += 8 {
			binary.LittleEndian.PutUint64(d[j:], fill)
		}
		for ; j < len(d); j++ {
			d[j] = byte(fill)
		}
		return
	}
	for j := range d {
		d[j] = byte(v >> (8 * j))
	}
}

// intervalToMonthDayNano turns the INTERVAL converted type (three
// little-endian uint32: months, days, milliseconds) into Arrow's
// month_day_nano layout (int32 months, int32 days, int64 nanoseconds).
func intervalToMonthDayNano(dst, src []byte, n int) {
	for i := range n {
		s, d := src[12*i:12*i+12], dst[16*i:16*i+16]
		copy(d[:8], s[:8])
		ms := int64(binary.LittleEndian.Uint32(s[8:]))
		binary.LittleEndian.PutUint64(d[8:], uint64(ms*1_000_000))
	}
}

// JulianUnixEpoch is the Julian day number of 1970-01-01, the day INT96
// timestamps count from.
const JulianUnixEpoch = 2_440_588

// int96Units returns how many units u a day holds and how many
// nanoseconds one unit takes.
func int96Units(u arrow.TimeUnit) (perDay, div int64) {
	switch u {
	case arrow.Second:
		return 86_400, 1_000_000_000
	case arrow.Millisecond:
		return 86_400_000, 1_000_000
	case arrow.Microsecond:
		return 86_400_000_000, 1_000
	}
	return 86_400_000_000_000, 1
}

// int96Fields splits an INT96 timestamp into its days since the epoch (the
// Julian day read as unsigned, as Arrow C++ and arrow-go do) and its
// nanoseconds within the day.
func int96Fields(s []byte) (days, nanos int64) {
	return int64(binary.LittleEndian.Uint32(s[8:])) - JulianUnixEpoch, int64(binary.LittleEndian.Uint64(s))
}

// Int96ToTimestamp converts INT96 timestamps (8 bytes of nanoseconds within
// the day, then a 4-byte Julian day) to Arrow timestamps of unit u. Values
// must have passed int96Fits for u: a nanosecond timestamp covers only the
// years 1677 to 2262, and the readers refuse what lies outside the unit's
// span rather than let it wrap around.
//
// It is not inlined, for the reason bigEndianToDecimal gives: its
// closure would call the byte-order functions for every value.
//
//go:noinline
func Int96ToTimestamp(u arrow.TimeUnit) func(dst, src []byte, n int) {
	perDay, div := int96Units(u)
	return func(dst, src []byte, n int) {
		for i := range n {
			days, nanos := int96Fields(src[12*i : 12*i+12])
			binary.LittleEndian.PutUint64(dst[8*i:], uint64(days*perDay+nanos/div))
		}
	}
}

// int96Fits returns the check of INT96 timestamps read in unit u: the
// index of the first of n values whose instant lies outside what an int64
// count of u holds, or -1. It is nil for the units that hold every INT96
// value with its nanoseconds within the day: milliseconds and seconds.
func int96Fits(u arrow.TimeUnit) func(src []byte, n int) int {
	perDay, div := int96Units(u)
	// Days strictly between lo and hi with a time of day in [0, 1 day)
	// fit with a day to spare; anything else is decided exactly.
	lo, hi := math.MinInt64/perDay+1, math.MaxInt64/perDay-1
	if lo < -JulianUnixEpoch && hi > math.MaxUint32-JulianUnixEpoch {
		return nil
	}
	return func(src []byte, n int) int {
		for i := range n {
			days, nanos := int96Fields(src[12*i : 12*i+12])
			if (days <= lo || days >= hi || nanos < 0 || nanos >= 86_400_000_000_000) && !int96FitsExactly(days, nanos, perDay, div) {
				return i
			}
		}
		return -1
	}
}

// int96FitsExactly reports whether days*perDay + nanos/div, the value
// Int96ToTimestamp computes, fits an int64.
func int96FitsExactly(days, nanos, perDay, div int64) bool {
	v := new(big.Int).Mul(big.NewInt(days), big.NewInt(perDay))
	v.Add(v, big.NewInt(nanos/div))
	return v.IsInt64()
}

// int96RangeError is an INT96 timestamp, days since the epoch and
// nanoseconds into the day, that an Arrow timestamp of type typ cannot
// hold.
type int96RangeError struct {
	days, nanos int64
	typ         arrow.DataType
}

func (e *int96RangeError) Error() string {
	when := time.Unix(e.days*86_400, e.nanos).UTC().Format("2006-01-02T15:04:05.999999999Z")
	return fmt.Sprintf("INT96 timestamp %s lies outside what %s holds; read INT96 columns in a coarser unit (SchemaOptions.Int96)", when, e.typ)
}

func (e *int96RangeError) Unwrap() error { return errs.ErrOutOfRange }

// convert writes the n packed physical values of src into dst as Arrow
// values: copied when the bytes are the same, converted otherwise. A
// value the conversion cannot represent is an error wrapping
// errs.ErrOutOfRange, and nothing is written.
func (t *target) convert(dst, src []byte, n int) error {
	switch {
	case t.conv == nil:
		copy(dst, src[:n*t.physWidth])
		return nil
	case t.check != nil:
		if i := t.check(src, n); i >= 0 {
			days, nanos := int96Fields(src[12*i:])
			return &int96RangeError{days: days, nanos: nanos, typ: t.typ}
		}
	}
	t.conv(dst, src, n)
	return nil
}

// putDecimal writes the big-endian two's-complement integer src (a
// BYTE_ARRAY decimal) into dst as a little-endian integer of len(dst)
// bytes. A value wider than dst is an error.
func putDecimal(dst, src []byte) error {
	if len(src) > len(dst) {
		return fmt.Errorf("%w: decimal of %d bytes does not fit %d", errs.ErrCorrupt, len(src), len(dst))
	}
	for j := range src {
		dst[j] = src[len(src)-1-j]
	}
	fill := byte(0)
	if len(src) > 0 && src[0]&0x80 != 0 {
		fill = 0xFF
	}
	for j := len(src); j < len(dst); j++ {
		dst[j] = fill
	}
	return nil
}

// putDecimals converts the byte arrays data[offsets[i]:offsets[i+1]] into
// consecutive w-byte decimals in dst.
func putDecimals[O int32 | int64](dst []byte, w int, offsets []O, data []byte) error {
	for i := 0; i+1 < len(offsets); i++ {
		if err := putDecimal(dst[i*w:(i+1)*w], data[offsets[i]:offsets[i+1]]); err != nil {
			return err
		}
	}
	return nil
}
