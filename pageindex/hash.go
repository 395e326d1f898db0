package pageindex

import (
	"encoding/binary"
	"math"

	"github.com/cespare/xxhash/v2"
)

// The bloom filter hash of a value is xxHash64 (seed 0) of its PLAIN
// encoding: little-endian bytes for fixed-width physical types, the raw
// bytes without a length prefix for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY.

// HashInt32 returns the bloom hash of an INT32 value (also the physical
// value of Arrow int8, int16, uint8, uint16, uint32 and date32 columns).
func HashInt32(v int32) uint64 {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], uint32(v))
	return xxhash.Sum64(b[:])
}

// HashInt64 returns the bloom hash of an INT64 value.
func HashInt64(v int64) uint64 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(v))
	return xxhash.Sum64(b[:])
}

// HashFloat32 returns the bloom hash of a FLOAT value.
func HashFloat32(v float32) uint64 { return HashInt32(int32(math.Float32bits(v))) }

// HashFloat64 returns the bloom hash of a DOUBLE value.
func HashFloat64(v float64) uint64 { return HashInt64(int64(math.Float64bits(v))) }

// HashBytes returns the bloom hash of a BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY
// value.
func HashBytes(v []byte) uint64 { return xxhash.Sum64(v) }
