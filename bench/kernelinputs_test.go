package bench

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
)

// Kernel inputs are built by this file's own encoders (bit packing, the
// RLE/bit-packing hybrid, PLAIN) or by parquet-go's (DELTA_BINARY_PACKED,
// DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT), never by quiver's, so a quiver
// encoder bug cannot make its own decoder look right. Every implementation
// decodes the same bytes.

// kernelRNG returns the generator for one kernel input.
func kernelRNG(name string) *rand.Rand {
	var seed uint64
	for _, c := range name {
		seed = seed*131 + uint64(c)
	}
	return rand.New(rand.NewPCG(seed, 0x5eed))
}

// packPadding is appended to every bit-packed input: parquet-go's bitpack
// reads up to 32 bytes past the last value (bitpack.PaddingInt64).
const packPadding = 32

// packBits packs the low width bits of each value LSB first, the Parquet
// bit-packing layout, and appends packPadding zero bytes.
func packBits(vals []uint64, width uint) []byte {
	out := make([]byte, (len(vals)*int(width)+7)/8, (len(vals)*int(width)+7)/8+packPadding)
	bit := 0
	for _, v := range vals {
		for k := range width {
			if v>>k&1 != 0 {
				out[bit/8] |= 1 << (bit % 8)
			}
			bit++
		}
	}
	return append(out, make([]byte, packPadding)...)
}

// randomBits returns n random values of width bits.
func randomBits(rng *rand.Rand, n int, width uint) []uint64 {
	v := make([]uint64, n)
	for i := range v {
		v[i] = rng.Uint64()
		if width < 64 {
			v[i] &= 1<<width - 1
		}
	}
	return v
}

// rleMixed returns n values below 1<<width and their RLE/bit-packing hybrid
// encoding: repeated runs of 8 to 100 values alternate at random with
// bit-packed runs of 8 to 64 values, as dictionary indices of columns
// with local repetition look. The stream is preceded by the bit-width byte
// of a dictionary-indices page.
func rleMixed(rng *rand.Rand, n int, width uint) ([]uint32, []byte) {
	vals := make([]uint32, 0, n)
	src := []byte{byte(width)}
	limit := uint32(1) << width
	for len(vals) < n {
		rem := n - len(vals)
		if rng.IntN(2) == 0 || rem < 8 {
			l := min(8+rng.IntN(93), rem)
			v := rng.Uint32N(limit)
			for range l {
				vals = append(vals, v)
			}
			src = binary.AppendUvarint(src, uint64(l)<<1)
			for b := uint(0); b < width; b += 8 {
				src = append(src, byte(v>>b))
			}
			continue
		}
		groups := min(1+rng.IntN(8), rem/8)
		run := make([]uint64, 8*groups)
		for i := range run {
			run[i] = uint64(rng.Uint32N(limit))
			vals = append(vals, uint32(run[i]))
		}
		src = binary.AppendUvarint(src, uint64(groups)<<1|1)
		packed := packBits(run, width)
		src = append(src, packed[:len(packed)-packPadding]...)
	}
	return vals, src
}

// byteArrays holds n strings as Arrow-style offsets (n+1, from 0) and data.
type byteArrays struct {
	offsets []uint32
	data    []byte
}

func (s *byteArrays) add(v []byte) {
	if len(s.offsets) == 0 {
		s.offsets = append(s.offsets, 0)
	}
	s.data = append(s.data, v...)
	s.offsets = append(s.offsets, uint32(len(s.data)))
}

func (s *byteArrays) len() int { return len(s.offsets) - 1 }

// arrowBytes is the decoded Arrow size: int32 offsets plus data.
func (s *byteArrays) arrowBytes() int64 { return int64(4*len(s.offsets) + len(s.data)) }

// sortedKeys returns n 20-byte keys "cust-" + 15 digits in increasing order
// with random gaps, so neighbours share 10 to 14 bytes of prefix.
func sortedKeys(rng *rand.Rand, n int) *byteArrays {
	s := &byteArrays{}
	k := uint64(rng.IntN(1_000_000))
	for range n {
		k += 1 + uint64(rng.IntN(5000))
		s.add(fmt.Appendf(nil, "cust-%015d", k))
	}
	return s
}

// shortStrings returns n random lowercase strings of 0 to 16 bytes.
func shortStrings(rng *rand.Rand, n int) *byteArrays {
	s := &byteArrays{}
	var b []byte
	for range n {
		b = b[:0]
		for range rng.IntN(17) {
			b = append(b, byte('a'+rng.IntN(26)))
		}
		s.add(b)
	}
	return s
}

// plainByteArray is the PLAIN encoding of s: each value's 4-byte
// little-endian length, then its bytes.
func plainByteArray(s *byteArrays) []byte {
	out := make([]byte, 0, 4*s.len()+len(s.data))
	for i := range s.len() {
		v := s.data[s.offsets[i]:s.offsets[i+1]]
		out = binary.LittleEndian.AppendUint32(out, uint32(len(v)))
		out = append(out, v...)
	}
	return out
}
