package arrowio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow/float16"

	"github.com/quiverio/quiver/footer"
)

// ErrNoIcebergType reports a leaf whose Parquet type has no Iceberg
// primitive type to hold its bounds: unsigned 64-bit integers, TIME in
// nanoseconds and INT96.
var ErrNoIcebergType = errors.New("arrowio: no Iceberg type holds the column's values")

// IcebergBounds returns Lower and Upper in Iceberg's binary single-value
// serialization, the form of a data file's lower_bounds and upper_bounds:
// little-endian int (4 bytes) and long (8 bytes), dates as days, times
// and timestamps as microseconds (nanoseconds for TIMESTAMP(NANOS), which
// is Iceberg's timestamp_ns), decimals as their unscaled value in the
// fewest big-endian two's-complement bytes, FLOAT16 widened to float,
// UINT32 widened to long, and strings, binary, fixed and UUID values as
// their bytes. A bound that is nil stays nil.
//
// It fails with an error wrapping [ErrNoIcebergType] for a leaf whose
// values Iceberg cannot hold, and on metrics that [Writer.Metrics] did
// not make.
func (c *ColumnMetrics) IcebergBounds() (lower, upper []byte, err error) {
	if c.leaf == nil {
		return nil, nil, fmt.Errorf("arrowio: column %q: metrics not made by Writer.Metrics", c.Path)
	}
	if lower, err = icebergValue(c.leaf, c.Lower); err != nil {
		return nil, nil, err
	}
	if upper, err = icebergValue(c.leaf, c.Upper); err != nil {
		return nil, nil, err
	}
	return lower, upper, nil
}

// icebergValue converts plain, one PLAIN-encoded value of leaf (nil for
// none), to Iceberg's single-value serialization.
func icebergValue(leaf *footer.Node, plain []byte) ([]byte, error) {
	if plain == nil {
		return nil, nil
	}
	lt := leaf.Logical()
	bad := func() ([]byte, error) {
		return nil, fmt.Errorf("%w: column %q (%s %s)", ErrNoIcebergType, leaf.DottedPath(), leaf.Physical, lt.Kind)
	}
	if lt.Kind == footer.LogicalDecimal {
		return icebergDecimal(leaf.Physical, plain)
	}
	switch leaf.Physical {
	case footer.TypeInt32:
		if len(plain) != 4 {
			return wrongWidth(leaf, plain)
		}
		v := binary.LittleEndian.Uint32(plain)
		switch {
		case lt.Kind == footer.LogicalInteger && !lt.Integer.IsSigned && lt.Integer.BitWidth == 32:
			return binary.LittleEndian.AppendUint64(nil, uint64(v)), nil
		case lt.Kind == footer.LogicalTime:
			return binary.LittleEndian.AppendUint64(nil, uint64(int64(int32(v))*1000)), nil
		}
		return plain, nil
	case footer.TypeInt64:
		if len(plain) != 8 {
			return wrongWidth(leaf, plain)
		}
		v := int64(binary.LittleEndian.Uint64(plain))
		switch {
		case lt.Kind == footer.LogicalInteger && !lt.Integer.IsSigned:
			return bad()
		case lt.Kind == footer.LogicalTime && lt.Time.Unit == footer.TimeUnitNanos:
			return bad()
		case lt.Kind == footer.LogicalTimestamp && lt.Timestamp.Unit == footer.TimeUnitMillis:
			if v > math.MaxInt64/1000 || v < math.MinInt64/1000 {
				return nil, fmt.Errorf("%w: column %q: %d ms is outside Iceberg's timestamp range", ErrNoIcebergType, leaf.DottedPath(), v)
			}
			return binary.LittleEndian.AppendUint64(nil, uint64(v*1000)), nil
		}
		return plain, nil
	case footer.TypeFixedLenByteArray:
		if lt.Kind == footer.LogicalFloat16 {
			if len(plain) != 2 {
				return wrongWidth(leaf, plain)
			}
			f := float16.FromBits(binary.LittleEndian.Uint16(plain)).Float32()
			return binary.LittleEndian.AppendUint32(nil, math.Float32bits(f)), nil
		}
		return plain, nil
	case footer.TypeBoolean, footer.TypeFloat, footer.TypeDouble, footer.TypeByteArray:
		return plain, nil
	}
	return bad()
}

// icebergDecimal converts a DECIMAL bound stored as physical (INT32 and
// INT64 little-endian, binary big-endian) to its unscaled value in the
// fewest big-endian two's-complement bytes.
func icebergDecimal(physical footer.Type, plain []byte) ([]byte, error) {
	var be []byte
	switch physical {
	case footer.TypeInt32, footer.TypeInt64:
		be = make([]byte, len(plain))
		for i, b := range plain {
			be[len(plain)-1-i] = b
		}
	default:
		be = plain
	}
	if len(be) == 0 {
		return nil, errors.New("arrowio: empty decimal bound")
	}
	// Drop leading bytes that only repeat the sign of the byte after them.
	for len(be) > 1 && ((be[0] == 0 && be[1]&0x80 == 0) || (be[0] == 0xff && be[1]&0x80 != 0)) {
		be = be[1:]
	}
	return append([]byte(nil), be...), nil
}

// wrongWidth reports a bound whose length does not fit the leaf's type.
func wrongWidth(leaf *footer.Node, plain []byte) ([]byte, error) {
	return nil, fmt.Errorf("arrowio: column %q: a %d-byte bound for %s", leaf.DottedPath(), len(plain), leaf.Physical)
}
