package arrowiotest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// FlatTypes are the flat Arrow types the writer tests cover, and
// RandomArray draws values of.
var FlatTypes = []arrow.DataType{
	arrow.FixedWidthTypes.Boolean,
	arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64,
	arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64,
	arrow.FixedWidthTypes.Float16, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64,
	&arrow.Decimal32Type{Precision: 9, Scale: 2}, &arrow.Decimal64Type{Precision: 18, Scale: 3},
	&arrow.Decimal128Type{Precision: 38, Scale: 5}, &arrow.Decimal128Type{Precision: 7, Scale: 1},
	&arrow.Decimal256Type{Precision: 76, Scale: 10},
	arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString, arrow.BinaryTypes.StringView,
	arrow.BinaryTypes.Binary, arrow.BinaryTypes.LargeBinary, arrow.BinaryTypes.BinaryView,
	&arrow.FixedSizeBinaryType{ByteWidth: 5},
	arrow.FixedWidthTypes.Date32, arrow.FixedWidthTypes.Date64,
	arrow.FixedWidthTypes.Time32s, arrow.FixedWidthTypes.Time32ms, arrow.FixedWidthTypes.Time64us, arrow.FixedWidthTypes.Time64ns,
	&arrow.TimestampType{Unit: arrow.Second}, &arrow.TimestampType{Unit: arrow.Millisecond},
	&arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "America/New_York"},
	arrow.FixedWidthTypes.Duration_s, arrow.FixedWidthTypes.Duration_ns,
	arrow.FixedWidthTypes.MonthDayNanoInterval,
	&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String},
	&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint8, ValueType: arrow.PrimitiveTypes.Int64},
	extensions.NewUUIDType(), jsonType(),
	arrow.Null,
}

// jsonType returns the arrow.json extension type over string.
func jsonType() arrow.DataType {
	j, err := extensions.NewJSONType(arrow.BinaryTypes.String)
	if err != nil {
		panic(err)
	}
	return j
}

// Rows returns n, or a quarter of it in -short runs (which the arm64
// tests run under qemu).
func Rows(n int) int {
	if testing.Short() {
		return n / 4
	}
	return n
}

// RandomArray returns n random values of type dt, about nullFrac of them
// null (none when nullFrac is 0), with few distinct values when lowCard.
func RandomArray(t testing.TB, mem memory.Allocator, dt arrow.DataType, n int, nullFrac float64, lowCard bool, rng *rand.Rand) arrow.Array {
	t.Helper()
	if dt.ID() == arrow.NULL {
		return array.NewNull(n)
	}
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	card := uint64(1 << 62)
	if lowCard {
		card = 50
	}
	r := func() uint64 { return rng.Uint64N(card) * 0x9e3779b97f4a7c15 }
	for range n {
		if nullFrac > 0 && rng.Float64() < nullFrac {
			b.AppendNull()
			continue
		}
		appendRandom(t, b, r, rng)
	}
	return b.NewArray()
}

// appendRandom appends one random value (drawn from r) to b.
func appendRandom(t testing.TB, b array.Builder, r func() uint64, rng *rand.Rand) {
	switch b := b.(type) {
	case *array.BooleanBuilder:
		b.Append(r()&(1<<40) != 0)
	case *array.Int8Builder:
		b.Append(int8(r() >> 40))
	case *array.Int16Builder:
		b.Append(int16(r() >> 40))
	case *array.Int32Builder:
		b.Append(int32(r() >> 20))
	case *array.Int64Builder:
		b.Append(int64(r()))
	case *array.Uint8Builder:
		b.Append(uint8(r() >> 40))
	case *array.Uint16Builder:
		b.Append(uint16(r() >> 40))
	case *array.Uint32Builder:
		b.Append(uint32(r() >> 20))
	case *array.Uint64Builder:
		b.Append(r())
	case *array.Float16Builder:
		b.Append(float16.New(float32(int64(r()>>50)-1000) / 8))
	case *array.Float32Builder:
		b.Append(float32(int64(r()>>40)-1e6) / 64)
	case *array.Float64Builder:
		b.Append(float64(int64(r()>>20)) / 1024)
	case *array.Decimal32Builder:
		b.Append(decimal.Decimal32(int32(r()>>34) % 999999999))
	case *array.Decimal64Builder:
		b.Append(decimal.Decimal64(int64(r()>>8) % 999999999999999999))
	case *array.Decimal128Builder:
		// A value of at most nbits bits fits the precision.
		nbits := int(float64(b.Type().(*arrow.Decimal128Type).Precision)*3.32) - 1
		v := decimal128.FromU64(r() >> max(0, 64-nbits))
		if nbits > 64 {
			v = decimal128.New(int64(r()>>(128-nbits)), r())
		}
		if r()&1 == 1 {
			v = v.Negate()
		}
		b.Append(v)
	case *array.Decimal256Builder:
		v := decimal256.New(r()>>4, r(), r(), r())
		if r()&1 == 1 {
			v = v.Negate()
		}
		b.Append(v)
	case *array.StringBuilder:
		b.Append(randomString(r(), rng))
	case *array.LargeStringBuilder:
		b.Append(randomString(r(), rng))
	case *array.StringViewBuilder:
		b.Append(randomString(r(), rng))
	case *array.BinaryBuilder:
		b.Append([]byte(randomString(r(), rng)))
	case *array.BinaryViewBuilder:
		b.Append([]byte(randomString(r(), rng)))
	case *array.FixedSizeBinaryBuilder:
		v := make([]byte, b.Type().(*arrow.FixedSizeBinaryType).ByteWidth)
		x := r()
		for i := range v {
			v[i] = byte(x >> (8 * (i % 8)))
		}
		b.Append(v)
	case *array.Date32Builder:
		b.Append(arrow.Date32(int32(r() >> 48)))
	case *array.Date64Builder:
		b.Append(arrow.Date64(int64(r()>>48) * 86400000))
	case *array.Time32Builder:
		b.Append(arrow.Time32(r() % 86400))
	case *array.Time64Builder:
		b.Append(arrow.Time64(r() % 86400e9))
	case *array.TimestampBuilder:
		b.Append(arrow.Timestamp(int64(r() >> 14)))
	case *array.DurationBuilder:
		b.Append(arrow.Duration(int64(r())))
	case *array.MonthDayNanoIntervalBuilder:
		// INTERVAL keeps milliseconds.
		b.Append(arrow.MonthDayNanoInterval{Months: int32(r() >> 50), Days: int32(r() >> 52), Nanoseconds: int64(r()>>40) * 1e6})
	case *array.BinaryDictionaryBuilder:
		if err := b.AppendString(randomString(r(), rng)); err != nil {
			t.Fatal(err)
		}
	case *array.Int64DictionaryBuilder:
		if err := b.Append(int64(r())); err != nil {
			t.Fatal(err)
		}
	case *extensions.UUIDBuilder:
		var u [16]byte
		x, y := r(), r()
		for i := range 8 {
			u[i], u[8+i] = byte(x>>(8*i)), byte(y>>(8*i))
		}
		b.Append(u)
	case *array.ExtensionBuilder:
		// JSON
		b.StorageBuilder().(*array.StringBuilder).Append(fmt.Sprintf(`{"v":%d}`, r()>>40))
	default:
		t.Fatalf("no random values for %T", b)
	}
}

// randomString returns a string derived from x: short or long, ASCII or
// not, sometimes empty.
func randomString(x uint64, rng *rand.Rand) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyzé€𝄞0123456789"
	n := int(x>>58) % 24
	if x&7 == 0 {
		n += 60
	}
	runes := []rune(alphabet)
	b := make([]rune, n)
	for i := range b {
		b[i] = runes[(x>>(i%50))%uint64(len(runes))]
	}
	return string(b)
}
