package colread

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/arrowio/internal/errs"
)

// int96At returns the INT96 encoding of days since the epoch and
// nanoseconds into the day.
func int96At(days, nanos int64) []byte {
	raw := make([]byte, 12)
	binary.LittleEndian.PutUint64(raw, uint64(nanos))
	binary.LittleEndian.PutUint32(raw[8:], uint32(days+JulianUnixEpoch))
	return raw
}

// int96Of returns the INT96 encoding of when.
func int96Of(when time.Time) []byte {
	days := when.Unix() / 86400
	if when.Unix() < 0 && when.Unix()%86400 != 0 {
		days--
	}
	midnight := time.Unix(days*86400, 0).UTC()
	return int96At(days, when.Sub(midnight).Nanoseconds())
}

// TestInt96Convert checks that INT96 timestamps inside a unit's span
// convert exactly in every unit.
func TestInt96Convert(t *testing.T) {
	for _, when := range []time.Time{
		time.Date(1700, 3, 1, 12, 30, 0, 123_456_000, time.UTC),
		time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2024, 2, 29, 23, 59, 59, 999_999_000, time.UTC),
		time.Date(2200, 12, 31, 1, 2, 3, 4_000, time.UTC),
	} {
		raw := int96Of(when)
		for _, u := range []arrow.TimeUnit{arrow.Second, arrow.Millisecond, arrow.Microsecond, arrow.Nanosecond} {
			tg := target{physWidth: 12, width: 8, conv: Int96ToTimestamp(u), check: int96Fits(u), typ: &arrow.TimestampType{Unit: u}}
			var dst [8]byte
			if err := tg.convert(dst[:], raw, 1); err != nil {
				t.Fatalf("%v in %s: %v", when, u, err)
			}
			want := when.UnixNano() / int64(u.Multiplier())
			if when.UnixNano()%int64(u.Multiplier()) < 0 {
				want-- // the instant's unit, counted down from it
			}
			if got := int64(binary.LittleEndian.Uint64(dst[:])); got != want {
				t.Errorf("%v in %s: got %d, want %d", when, u, got, want)
			}
		}
	}
}

// TestInt96RangeEdges checks both edges of each unit's span: the first
// and last instants an int64 holds convert exactly, the next ones out are
// ErrOutOfRange, and the value is never written wrapped around.
func TestInt96RangeEdges(t *testing.T) {
	for _, u := range []arrow.TimeUnit{arrow.Microsecond, arrow.Nanosecond} {
		per := int64(u.Multiplier()) // nanoseconds per unit
		perDay := 86_400_000_000_000 / per
		for _, edge := range []struct {
			units int64 // the instant, in u since the epoch
			fits  bool
		}{
			{math.MaxInt64, true},
			{math.MinInt64, true},
			{0, true},
		} {
			days := edge.units / perDay
			rem := edge.units % perDay
			if rem < 0 {
				days, rem = days-1, rem+perDay
			}
			if days+JulianUnixEpoch < 0 {
				continue // before Julian day 0: INT96 cannot store it
			}
			tg := target{physWidth: 12, width: 8, conv: Int96ToTimestamp(u), check: int96Fits(u), typ: &arrow.TimestampType{Unit: u}}
			var dst [8]byte
			if err := tg.convert(dst[:], int96At(days, rem*per), 1); err != nil {
				t.Errorf("%s: %d units (day %d): %v", u, edge.units, days, err)
			} else if got := int64(binary.LittleEndian.Uint64(dst[:])); got != edge.units {
				t.Errorf("%s: %d units read as %d", u, edge.units, got)
			}
			if edge.units == 0 {
				continue
			}
			// One unit further out: past MaxInt64 or before MinInt64.
			out, outRem := days, rem+1
			if edge.units < 0 {
				outRem = rem - 1
			}
			if outRem < 0 {
				out, outRem = out-1, outRem+perDay
			}
			binary.LittleEndian.PutUint64(dst[:], 0xdeadbeef)
			err := tg.convert(dst[:], int96At(out, outRem*per), 1)
			if !errors.Is(err, errs.ErrOutOfRange) {
				t.Errorf("%s: one unit past %d: got %v, want ErrOutOfRange", u, edge.units, err)
			}
			if binary.LittleEndian.Uint64(dst[:]) != 0xdeadbeef {
				t.Errorf("%s: one unit past %d: the value was written", u, edge.units)
			}
		}
	}
	// Milliseconds and seconds hold every Julian day: no check needed.
	for _, u := range []arrow.TimeUnit{arrow.Second, arrow.Millisecond} {
		if int96Fits(u) != nil {
			t.Errorf("%s checks INT96 values, which all fit", u)
		}
		tg := target{physWidth: 12, width: 8, conv: Int96ToTimestamp(u), typ: &arrow.TimestampType{Unit: u}}
		var dst [8]byte
		for _, day := range []int64{math.MaxUint32 - JulianUnixEpoch, -JulianUnixEpoch} {
			if err := tg.convert(dst[:], int96At(day, 86_399_999_999_999), 1); err != nil {
				t.Fatal(err)
			}
			perDay := int64(86_400 * time.Second / u.Multiplier())
			if got, want := int64(binary.LittleEndian.Uint64(dst[:])), day*perDay+perDay-1; got != want {
				t.Errorf("%s: the last unit of day %d: %d, want %d", u, day, got, want)
			}
		}
	}
}
