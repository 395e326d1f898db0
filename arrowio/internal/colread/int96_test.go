package colread

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// TestInt96Range checks SchemaOptions.Int96's documented range policy:
// microseconds read dates far outside the nanosecond span exactly, and
// nanoseconds wrap around in int64 outside it.
func TestInt96Range(t *testing.T) {
	for _, when := range []time.Time{
		time.Date(1500, 3, 1, 12, 30, 0, 123_456_000, time.UTC),
		time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2024, 2, 29, 23, 59, 59, 999_999_000, time.UTC),
		time.Date(2400, 12, 31, 1, 2, 3, 4_000, time.UTC),
	} {
		days := when.Unix()/86400 + JulianUnixEpoch
		if when.Unix() < 0 && when.Unix()%86400 != 0 {
			days--
		}
		midnight := time.Unix((days-JulianUnixEpoch)*86400, 0).UTC()
		var raw [12]byte
		binary.LittleEndian.PutUint64(raw[:], uint64(when.Sub(midnight).Nanoseconds()))
		binary.LittleEndian.PutUint32(raw[8:], uint32(days))

		var dst [8]byte
		Int96ToTimestamp(arrow.Microsecond)(dst[:], raw[:], 1)
		if got, want := int64(binary.LittleEndian.Uint64(dst[:])), when.UnixMicro(); got != want {
			t.Errorf("%v in microseconds: got %d, want %d", when, got, want)
		}
		Int96ToTimestamp(arrow.Nanosecond)(dst[:], raw[:], 1)
		// The exact count of nanoseconds, wrapped to 64 bits.
		wantNs := uint64(days-JulianUnixEpoch)*uint64(86_400_000_000_000) + uint64(when.Sub(midnight).Nanoseconds())
		if got := binary.LittleEndian.Uint64(dst[:]); got != wantNs {
			t.Errorf("%v in nanoseconds: got %d, want %d (wrapped)", when, int64(got), int64(wantNs))
		}
		inSpan := when.Year() > 1677 && when.Year() < 2262
		if inSpan && int64(wantNs) != when.UnixNano() {
			t.Errorf("%v is inside the nanosecond span but reads as %d, not %d", when, int64(wantNs), when.UnixNano())
		}
	}
}
