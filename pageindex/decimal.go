package pageindex

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
)

// maxParsedExponent bounds the exponent of a decimal literal's text, so
// that no literal stands for a number of unbounded digits.
const maxParsedExponent = 1 << 20

// Decimal returns the exact decimal literal unscaled * 10^-scale (a
// negative scale multiplies by a power of ten). It compares with DECIMAL
// columns exactly, with integer columns exactly (x < 2.5 is x <= 2), and
// with floating-point columns as the nearest float64. It copies unscaled
// (nil stands for zero).
func Decimal(unscaled *big.Int, scale int32) Literal {
	d := new(big.Int)
	if unscaled != nil {
		d.Set(unscaled)
	}
	return Literal{kind: KindDecimal, d: d, scale: scale}
}

// Decimal128 returns the decimal literal of v at scale, as an Arrow
// decimal128 array holds it.
func Decimal128(v decimal128.Num, scale int32) Literal {
	return Literal{kind: KindDecimal, d: v.BigInt(), scale: scale}
}

// Decimal256 returns the decimal literal of v at scale, as an Arrow
// decimal256 array holds it.
func Decimal256(v decimal256.Num, scale int32) Literal {
	return Literal{kind: KindDecimal, d: v.BigInt(), scale: scale}
}

// ParseDecimal reads s, an optionally signed decimal number with an
// optional fraction and exponent ("12.50", "-3", ".5", "1.5e-3"), as an
// exact decimal literal whose scale is the digits after the point less
// the exponent ("12.50" is 1250 at scale 2). Other text, or an exponent
// beyond ±2^20, is an error wrapping ErrPredicate.
func ParseDecimal(s string) (Literal, error) {
	mant, exp, hasExp := s, "", false
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exp, hasExp = s[:i], s[i+1:], true
	}
	sign := ""
	if mant != "" && (mant[0] == '+' || mant[0] == '-') {
		sign, mant = mant[:1], mant[1:]
	}
	whole, frac, _ := strings.Cut(mant, ".")
	digits := whole + frac
	if digits == "" || !allDigits(digits) || hasExp && !validExponent(exp) {
		return Literal{}, fmt.Errorf("%w: %q is not a decimal number", ErrPredicate, s)
	}
	scale := int64(len(frac))
	if hasExp {
		e, err := strconv.ParseInt(exp, 10, 64)
		if err != nil || e < -maxParsedExponent || e > maxParsedExponent {
			return Literal{}, fmt.Errorf("%w: exponent of %q beyond ±%d", ErrPredicate, s, maxParsedExponent)
		}
		scale -= e
	}
	if scale < -1<<31 || scale > 1<<31-1 {
		return Literal{}, fmt.Errorf("%w: %q has too many digits", ErrPredicate, s)
	}
	u, _ := new(big.Int).SetString(sign+digits, 10)
	return Literal{kind: KindDecimal, d: u, scale: int32(scale)}, nil
}

// allDigits reports whether s holds ASCII digits only.
func allDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// validExponent reports whether s is an optionally signed run of digits.
func validExponent(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	return s != "" && allDigits(s)
}

// formatDecimal writes u * 10^-scale as ParseDecimal reads it back to the
// same unscaled value and scale: plain digits with scale digits after the
// point, or the unscaled digits and an exponent when the scale is negative
// or far beyond the digits.
func formatDecimal(u *big.Int, scale int32) string {
	digits := u.Text(10)
	sign := ""
	if digits[0] == '-' {
		sign, digits = "-", digits[1:]
	}
	switch {
	case scale < 0:
		return sign + digits + "e" + strconv.FormatInt(-int64(scale), 10)
	case scale == 0:
		return sign + digits
	case int(scale) > len(digits)+6:
		return sign + digits + "e-" + strconv.Itoa(int(scale))
	}
	if pad := int(scale) + 1 - len(digits); pad > 0 {
		digits = strings.Repeat("0", pad) + digits
	}
	cut := len(digits) - int(scale)
	return sign + digits[:cut] + "." + digits[cut:]
}

// Interval returns the literal of an INTERVAL value as the column stores
// it: months, days and milliseconds, three little-endian uint32. arrowio
// reads such a value as the month_day_nano interval {months, days,
// millis * 1e6}.
func Interval(months, days, millis uint32) Literal {
	b := binary.LittleEndian.AppendUint32(nil, months)
	b = binary.LittleEndian.AppendUint32(b, days)
	return Bytes(binary.LittleEndian.AppendUint32(b, millis))
}
