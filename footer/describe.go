package footer

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// String renders t as its spec name with parameters, for tools and errors:
// "STRING", "DECIMAL(10,2)", "TIMESTAMP(MICROS,UTC)", "INT(8,unsigned)", and
// "" for LogicalNone.
func (t LogicalType) String() string {
	switch t.Kind {
	case LogicalNone:
		return ""
	case LogicalDecimal:
		return "DECIMAL(" + strconv.Itoa(int(t.Decimal.Precision)) + "," + strconv.Itoa(int(t.Decimal.Scale)) + ")"
	case LogicalTime:
		return "TIME(" + t.Time.Unit.String() + "," + utcName(t.Time.IsAdjustedToUTC) + ")"
	case LogicalTimestamp:
		return "TIMESTAMP(" + t.Timestamp.Unit.String() + "," + utcName(t.Timestamp.IsAdjustedToUTC) + ")"
	case LogicalInteger:
		sign := "unsigned"
		if t.Integer.IsSigned {
			sign = "signed"
		}
		return "INT(" + strconv.Itoa(int(t.Integer.BitWidth)) + "," + sign + ")"
	case LogicalVariant:
		if v, ok := t.Variant.SpecificationVersion.Get(); ok {
			return "VARIANT(" + strconv.Itoa(int(v)) + ")"
		}
	case LogicalGeometry:
		if crs, ok := t.Geometry.CRS.Get(); ok {
			return "GEOMETRY(" + crs + ")"
		}
	case LogicalGeography:
		var params []string
		if crs, ok := t.Geography.CRS.Get(); ok {
			params = append(params, crs)
		}
		if alg, ok := t.Geography.Algorithm.Get(); ok {
			params = append(params, alg.String())
		}
		if len(params) > 0 {
			return "GEOGRAPHY(" + strings.Join(params, ",") + ")"
		}
	case LogicalUnrecognized:
		return "UNRECOGNIZED(field " + strconv.Itoa(int(t.UnknownField)) + ")"
	}
	return t.Kind.String()
}

func utcName(adjusted bool) string {
	if adjusted {
		return "UTC"
	}
	return "local"
}

// FormatValue renders raw, one PLAIN-encoded value of leaf n (a statistics
// bound or a page-index entry), as text for people: integers honour the
// signedness and decimal scale of the annotation, strings print as quoted
// text, dates and INT96 timestamps as times, and anything that does not
// decode (a truncated bound, an odd width) as hex. It never fails.
func (n *Node) FormatValue(raw []byte) string {
	lt := n.Logical()
	ct, hasCT := n.Converted().Get()
	unsigned := (lt.Kind == LogicalInteger && !lt.Integer.IsSigned) ||
		(hasCT && ct >= ConvertedUint8 && ct <= ConvertedUint64)
	switch n.Physical {
	case TypeBoolean:
		if len(raw) == 1 {
			return strconv.FormatBool(raw[0] != 0)
		}
	case TypeInt32:
		if len(raw) == 4 {
			v := binary.LittleEndian.Uint32(raw)
			switch {
			case unsigned:
				return strconv.FormatUint(uint64(v), 10)
			case lt.Kind == LogicalDate || (hasCT && ct == ConvertedDate):
				return time.Unix(int64(int32(v))*86400, 0).UTC().Format(time.DateOnly)
			}
			return scaled(big.NewInt(int64(int32(v))), n.decimalScale())
		}
	case TypeInt64:
		if len(raw) == 8 {
			v := binary.LittleEndian.Uint64(raw)
			if unsigned {
				return strconv.FormatUint(v, 10)
			}
			return scaled(big.NewInt(int64(v)), n.decimalScale())
		}
	case TypeInt96:
		if len(raw) == 12 {
			nanos := binary.LittleEndian.Uint64(raw)
			julian := int64(binary.LittleEndian.Uint32(raw[8:]))
			const unixEpochJulian = 2440588
			return time.Unix((julian-unixEpochJulian)*86400, int64(nanos)).UTC().Format(time.RFC3339Nano)
		}
	case TypeFloat:
		if len(raw) == 4 {
			return strconv.FormatFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(raw))), 'g', -1, 32)
		}
	case TypeDouble:
		if len(raw) == 8 {
			return strconv.FormatFloat(math.Float64frombits(binary.LittleEndian.Uint64(raw)), 'g', -1, 64)
		}
	case TypeByteArray, TypeFixedLenByteArray:
		if lt.Kind == LogicalDecimal || (hasCT && ct == ConvertedDecimal) {
			return scaled(bigEndianSigned(raw), n.decimalScale())
		}
		if utf8.Valid(raw) && n.isText() {
			return strconv.Quote(string(raw))
		}
	}
	return "0x" + hex.EncodeToString(raw)
}

// isText reports whether a byte-array leaf holds text by its annotation.
func (n *Node) isText() bool {
	switch n.Logical().Kind {
	case LogicalString, LogicalEnum, LogicalJSON:
		return true
	}
	ct, ok := n.Converted().Get()
	return ok && (ct == ConvertedUTF8 || ct == ConvertedEnum || ct == ConvertedJSON)
}

// decimalScale is the leaf's decimal scale, or 0 when it is not a decimal.
func (n *Node) decimalScale() int32 {
	if lt := n.Logical(); lt.Kind == LogicalDecimal {
		return lt.Decimal.Scale
	}
	if ct, ok := n.Converted().Get(); ok && ct == ConvertedDecimal {
		return n.Element.Scale.Or(0)
	}
	return 0
}

// bigEndianSigned reads b as a two's-complement big-endian integer.
func bigEndianSigned(b []byte) *big.Int {
	v := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return v
}

// scaled renders v / 10^scale with exactly scale fractional digits.
func scaled(v *big.Int, scale int32) string {
	s := v.String()
	if scale <= 0 || scale > 1000 {
		return s
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if pad := int(scale) + 1 - len(s); pad > 0 {
		s = strings.Repeat("0", pad) + s
	}
	s = s[:len(s)-int(scale)] + "." + s[len(s)-int(scale):]
	if neg {
		s = "-" + s
	}
	return s
}
