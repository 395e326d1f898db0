package pageindex

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/float16"

	"github.com/quiverio/quiver/footer"
)

// colLogical is the annotation of a filter column that changes how its
// values read and compare.
type colLogical uint8

const (
	logicalPlain    colLogical = iota // the physical type says it all
	logicalDecimal                    // DECIMAL: unscaled integers, compared as numbers
	logicalFloat16                    // FLOAT16 in a FIXED_LEN_BYTE_ARRAY(2)
	logicalInterval                   // INTERVAL in a FIXED_LEN_BYTE_ARRAY(12)
	logicalInt96                      // INT96 timestamps, as nanoseconds since the epoch
)

// INT96 timestamps hold nanoseconds within the day, then a Julian day.
const (
	julianUnixEpoch = 2_440_588 // the Julian day of 1970-01-01
	nanosPerDay     = 86_400_000_000_000
)

// maxLiteralDigits bounds the digits of a literal rescaled to a column's
// scale; a literal beyond it lies beyond every value the column holds
// (more than 8,000 bits: BYTE_ARRAY decimals of over a kilobyte are not
// compared exactly with such literals).
const maxLiteralDigits = 2500

// errNoDecimal says a DECIMAL annotation breaks the format.
var errNoDecimal = errors.New("invalid DECIMAL annotation")

// init sets the order, annotation and bounds trust of c.leaf, or returns
// why predicates cannot read it. The annotation is the LogicalType, or
// the ConvertedType when there is none, as readers resolve it.
func (c *colType) init() error {
	leaf := c.leaf
	lt := leaf.Logical()
	conv, hasConv := leaf.Converted().Get()
	legacy := hasConv && (lt.Kind == footer.LogicalNone || lt.Kind == footer.LogicalUnrecognized)
	flba := leaf.Physical == footer.TypeFixedLenByteArray
	switch {
	case lt.Kind == footer.LogicalDecimal:
		return c.initDecimal(lt.Decimal.Precision, lt.Decimal.Scale)
	case legacy && conv == footer.ConvertedDecimal:
		return c.initDecimal(leaf.Element.Precision.Or(0), leaf.Element.Scale.Or(0))
	case lt.Kind == footer.LogicalFloat16 && flba && leaf.TypeLength == 2:
		c.logical, c.order = logicalFloat16, orderFloat
	case legacy && conv == footer.ConvertedInterval && flba && leaf.TypeLength == 12:
		c.logical, c.order = logicalInterval, orderEqual
	default:
		switch leaf.Physical {
		case footer.TypeBoolean:
			c.order = orderSigned
		case footer.TypeInt32, footer.TypeInt64:
			c.order = orderSigned
			if lt.Kind == footer.LogicalInteger && !lt.Integer.IsSigned ||
				hasConv && (conv == footer.ConvertedUint8 || conv == footer.ConvertedUint16 || conv == footer.ConvertedUint32 || conv == footer.ConvertedUint64) {
				c.order = orderUnsigned
			}
		case footer.TypeInt96:
			c.logical, c.order = logicalInt96, orderSigned
		case footer.TypeFloat, footer.TypeDouble:
			c.order = orderFloat
		case footer.TypeByteArray, footer.TypeFixedLenByteArray:
			c.order = orderBytes
		default:
			return fmt.Errorf("predicates on %s columns", leaf.Physical)
		}
		c.initTemporal()
	}
	c.bounds = c.boundsTrusted()
	return nil
}

// initDecimal sets c up as DECIMAL(precision, scale).
func (c *colType) initDecimal(precision, scale int32) error {
	if precision < 1 || scale < 0 || scale > precision {
		return fmt.Errorf("%w: DECIMAL(%d, %d)", errNoDecimal, precision, scale)
	}
	c.logical, c.scale = logicalDecimal, scale
	switch c.physical {
	case footer.TypeInt32, footer.TypeInt64:
		c.order = orderSigned
	case footer.TypeFixedLenByteArray, footer.TypeByteArray:
		c.order = orderDecimal
	default:
		return fmt.Errorf("%w: DECIMAL on %s", errNoDecimal, c.physical)
	}
	c.bounds = c.boundsTrusted()
	return nil
}

// boundsTrusted reports whether the column's min and max statistics (and
// page index bounds) order values as compare does. The column order the
// footer gives decides (an order this package does not know voids them,
// as the format asks); INT96 and INTERVAL values have no type-defined
// order, and DECIMALs in bytes need TYPE_ORDER said explicitly, as old
// writers ordered their bytes unsigned.
func (c *colType) boundsTrusted() bool {
	k := c.leaf.Order.Kind
	switch {
	case c.logical == logicalInt96 || c.logical == logicalInterval:
		return false
	case c.order == orderDecimal:
		return k == footer.ColumnOrderTypeDefined
	case k == footer.ColumnOrderIEEE754Total:
		return c.order == orderFloat
	}
	return k != footer.ColumnOrderUnrecognized && k != footer.ColumnOrderInt96Timestamp
}

// describe names the column's type for messages.
func (c *colType) describe() string {
	switch c.logical {
	case logicalDecimal:
		return "a DECIMAL(scale " + strconv.Itoa(int(c.scale)) + ") " + c.physical.String()
	case logicalFloat16:
		return "a FLOAT16"
	case logicalInterval:
		return "an INTERVAL"
	case logicalInt96:
		return "an INT96"
	}
	if name := c.physical.String(); strings.HasPrefix(name, "INT") {
		return "an " + name
	}
	return "a " + c.physical.String()
}

// fit says where a literal lies among the values of a column.
type fit uint8

const (
	fitExact   fit = iota // a value of the column equals it
	fitBetween            // it lies strictly between a value and the next
	fitBelow              // it lies below every value
	fitAbove              // it lies above every value
)

// convertInteger converts a number for a column of integers: INT32,
// INT64 (signed or unsigned), DECIMAL (unscaled, in any physical type)
// and INT96 (nanoseconds). A literal beyond a plain integer column's
// range is an error; beyond a DECIMAL or INT96 column's, it makes the
// comparison constant.
func (c *colType) convertInteger(l Literal) (v value, f fit, h uint64, hashed bool, err error) {
	if c.temporal != temporalNone && (l.kind == KindBytes || l.kind == KindDate || l.kind == KindTime || l.kind == KindTimestamp) {
		q, exact, err := c.temporalUnits(l)
		if err != nil {
			return v, f, 0, false, err
		}
		return c.integerValue(l, q, exact, 0, false)
	}
	var u *big.Int
	var scale int32
	switch l.kind {
	case KindInt:
		u = big.NewInt(l.i)
	case KindDecimal:
		u, scale = l.d, l.scale
	case KindFloat:
		if c.logical != logicalDecimal || math.IsNaN(l.f) {
			return v, f, 0, false, fmt.Errorf("a %s literal for %s column", l.kindName(), c.describe())
		}
		if math.IsInf(l.f, 0) {
			f = fitAbove
			if l.f < 0 {
				f = fitBelow
			}
			return v, f, 0, false, nil
		}
		d, _ := ParseDecimal(strconv.FormatFloat(l.f, 'g', -1, 64))
		u, scale = d.d, d.scale
	default:
		return v, f, 0, false, fmt.Errorf("a %s literal for %s column", l.kindName(), c.describe())
	}
	q, exact, huge := scaledFloor(u, int64(c.scale)-int64(scale))
	return c.integerValue(l, q, exact, huge, c.logical == logicalPlain)
}

// integerValue places q, the floor of literal l in the column's unit
// (exact or not, or huge), among the column's values; beyond them it is
// an error when strict, else it makes the comparison constant.
func (c *colType) integerValue(l Literal, q *big.Int, exact bool, huge int, strict bool) (v value, f fit, h uint64, hashed bool, err error) {
	lo, hi := c.intRange()
	f = classify(q, exact, huge, lo, hi)
	switch {
	case (f == fitBelow || f == fitAbove) && strict:
		return v, f, 0, false, fmt.Errorf("literal %s is outside the column's range [%v, %v]", l, lo, hi)
	case f == fitBelow || f == fitAbove:
		return v, f, 0, false, nil
	case c.order == orderDecimal:
		v.b = twosComplement(q)
		if c.physical == footer.TypeFixedLenByteArray && len(v.b) <= int(c.leaf.TypeLength) {
			return v, f, HashBytes(signExtend(v.b, int(c.leaf.TypeLength))), true, nil
		}
		return v, f, 0, false, nil // BYTE_ARRAY decimals: one number has encodings of many lengths
	case c.order == orderUnsigned:
		v.i = int64(q.Uint64())
	default:
		v.i = q.Int64()
	}
	switch {
	case c.logical == logicalInt96:
		h = HashBytes(int96Bytes(v.i))
	case c.physical == footer.TypeInt32:
		h = HashInt32(int32(uint32(v.i)))
	default:
		h = HashInt64(v.i)
	}
	return v, f, h, true, nil
}

// intRange returns the least and greatest values of an integer column;
// nil for no bound (a BYTE_ARRAY decimal, or a FIXED_LEN_BYTE_ARRAY wider
// than maxLiteralDigits reach).
func (c *colType) intRange() (lo, hi *big.Int) {
	bits, signed := 64, c.order != orderUnsigned
	switch {
	case c.physical == footer.TypeInt32:
		bits = 32
	case c.physical == footer.TypeByteArray:
		return nil, nil
	case c.physical == footer.TypeFixedLenByteArray:
		if int64(c.leaf.TypeLength) > maxLiteralDigits/2 {
			return nil, nil
		}
		bits = 8 * int(c.leaf.TypeLength)
	}
	one := big.NewInt(1)
	if !signed {
		return new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(one, uint(bits)), one)
	}
	lo = new(big.Int).Neg(new(big.Int).Lsh(one, uint(bits-1)))
	return lo, new(big.Int).Sub(new(big.Int).Neg(lo), one)
}

// scaledFloor returns floor(u * 10^shift) and whether it is exact, or
// huge, the sign of u, when that has more than maxLiteralDigits digits
// (q is then nil).
func scaledFloor(u *big.Int, shift int64) (q *big.Int, exact bool, huge int) {
	if u.Sign() == 0 {
		return new(big.Int), true, 0
	}
	digits := int64(len(new(big.Int).Abs(u).Text(10)))
	if shift >= 0 {
		if digits+shift > maxLiteralDigits {
			return nil, false, u.Sign()
		}
		return new(big.Int).Mul(u, pow10(shift)), true, 0
	}
	if -shift > digits { // 0 < |u * 10^shift| < 1
		if u.Sign() > 0 {
			return new(big.Int), false, 0
		}
		return big.NewInt(-1), false, 0
	}
	q, r := new(big.Int).DivMod(u, pow10(-shift), new(big.Int)) // Euclidean: floor for a positive divisor
	return q, r.Sign() == 0, 0
}

// pow10 returns 10^n.
func pow10(n int64) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(n), nil) }

// classify places floor value q of a literal (exact or not, or huge)
// within the column range [lo, hi] (nil: unbounded).
func classify(q *big.Int, exact bool, huge int, lo, hi *big.Int) fit {
	switch {
	case huge > 0:
		return fitAbove
	case huge < 0:
		return fitBelow
	case lo != nil && q.Cmp(lo) < 0:
		return fitBelow
	case hi != nil && (q.Cmp(hi) > 0 || q.Cmp(hi) == 0 && !exact):
		return fitAbove
	case !exact:
		return fitBetween
	}
	return fitExact
}

// twosComplement returns the shortest big-endian two's complement bytes
// of x (one byte for zero), the encoding parquet-java and Arrow write.
func twosComplement(x *big.Int) []byte {
	neg := x.Sign() < 0
	mag := x
	if neg {
		mag = new(big.Int).Not(x) // -x-1, whose bits are x's inverted
	}
	b := mag.Bytes()
	if len(b) == 0 || b[0]&0x80 != 0 {
		b = append([]byte{0}, b...)
	}
	if neg {
		for i := range b {
			b[i] = ^b[i]
		}
	}
	return b
}

// signExtend widens big-endian two's complement b to n >= len(b) bytes.
func signExtend(b []byte, n int) []byte {
	fill := byte(0)
	if len(b) > 0 && b[0]&0x80 != 0 {
		fill = 0xff
	}
	out := bytes.Repeat([]byte{fill}, n-len(b))
	return append(out, b...)
}

// CompareDecimal returns the sign of a - b for big-endian two's
// complement integers of any lengths (the empty one is zero), the order of
// DECIMAL values stored in FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY.
func CompareDecimal(a, b []byte) int {
	na, nb := len(a) > 0 && a[0]&0x80 != 0, len(b) > 0 && b[0]&0x80 != 0
	if na != nb {
		if na {
			return -1
		}
		return 1
	}
	fill := byte(0) // what sign extension pads with
	if na {
		fill = 0xff
	}
	for len(a) > len(b) {
		if a[0] != fill {
			return cmp.Compare(a[0], fill)
		}
		a = a[1:]
	}
	for len(b) > len(a) {
		if b[0] != fill {
			return cmp.Compare(fill, b[0])
		}
		b = b[1:]
	}
	return bytes.Compare(a, b) // same sign and length: unsigned order is numeric order
}

// decimalFloat returns the float64 nearest u * 10^-scale (±Inf or zero
// beyond float64's range).
func decimalFloat(u *big.Int, scale int32) float64 {
	f, _ := strconv.ParseFloat(u.String()+"e"+strconv.FormatInt(-int64(scale), 10), 64)
	return f
}

// int96Nanos returns the nanoseconds since the Unix epoch of an INT96
// timestamp; ok is false when int64 nanoseconds cannot hold it (arrowio
// refuses to read such a value in nanoseconds, so it bounds nothing).
func int96Nanos(b []byte) (ns int64, ok bool) {
	nanos := int64(binary.LittleEndian.Uint64(b))
	days := int64(binary.LittleEndian.Uint32(b[8:])) - julianUnixEpoch
	// A day at least a day inside the span, with a time within the day,
	// cannot overflow; only the rest is worked out exactly.
	if days > math.MinInt64/nanosPerDay && days < math.MaxInt64/nanosPerDay-1 && nanos >= 0 && nanos < nanosPerDay {
		return days*nanosPerDay + nanos, true
	}
	v := new(big.Int).Mul(big.NewInt(days), big.NewInt(nanosPerDay))
	v.Add(v, big.NewInt(nanos))
	return v.Int64(), v.IsInt64()
}

// int96Bytes returns the INT96 encoding writers give the instant ns
// nanoseconds after the Unix epoch: the nanoseconds within its day, then
// its Julian day.
func int96Bytes(ns int64) []byte {
	days := ns / nanosPerDay
	if ns%nanosPerDay < 0 {
		days--
	}
	b := binary.LittleEndian.AppendUint64(nil, uint64(ns-days*nanosPerDay))
	return binary.LittleEndian.AppendUint32(b, uint32(days+julianUnixEpoch))
}

// decodeFloat16 reads a FLOAT16 statistics bound or dictionary value; a
// NaN or a value of another width is not ok.
func decodeFloat16(src []byte) (v value, ok bool) {
	if len(src) != 2 {
		return v, false
	}
	v.f = float64(float16.FromBits(binary.LittleEndian.Uint16(src)).Float32())
	return v, !math.IsNaN(v.f)
}
