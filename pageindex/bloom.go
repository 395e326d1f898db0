package pageindex

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
)

// Bitset sizes a split-block bloom filter may have: the spec bounds them,
// and every size is a power of two between these.
const (
	MinBloomBytes = 32
	MaxBloomBytes = 128 << 20
)

// Bloom is a split-block bloom filter (the Parquet BLOCK algorithm): 256-bit
// blocks of eight 32-bit words, one bit set per word for each inserted
// 64-bit hash. The upper 32 bits of a hash choose the block, the lower 32
// the bits.
type Bloom struct {
	words []uint32
}

// BloomBytes returns the bitset size in bytes for ndv distinct values at a
// false-positive probability of fpp: the spec's bits per value,
// -8/ln(1-fpp^(1/8)), times ndv, rounded up to a power of two between
// MinBloomBytes and MaxBloomBytes. An ndv below 1 counts as 1; an fpp
// outside (0, 1) as 0.01.
func BloomBytes(ndv int64, fpp float64) int {
	if !(fpp > 0 && fpp < 1) {
		fpp = 0.01
	}
	bitsPerValue := -8 / math.Log1p(-math.Pow(fpp, 1.0/8))
	return roundBloomBytes(math.Ceil(float64(max(ndv, 1)) * bitsPerValue / 8))
}

// roundBloomBytes rounds n up to a power of two within the spec's bounds.
func roundBloomBytes(n float64) int {
	if !(n > MinBloomBytes) {
		return MinBloomBytes
	}
	if n >= MaxBloomBytes {
		return MaxBloomBytes
	}
	return 1 << bits.Len64(uint64(n)-1)
}

// NewBloom returns an empty filter of numBytes bytes rounded up to a power
// of two between MinBloomBytes and MaxBloomBytes.
func NewBloom(numBytes int) *Bloom {
	return &Bloom{words: make([]uint32, roundBloomBytes(float64(numBytes))/4)}
}

// NumBytes returns the size of the filter's bitset.
func (b *Bloom) NumBytes() int { return len(b.words) * 4 }

// Insert adds the value whose hash is h, through the same kernel as
// InsertHashes: one hash per call still measured faster with AVX2.
func (b *Bloom) Insert(h uint64) {
	hs := [1]uint64{h}
	kernels.BloomInsert(b.words, hs[:])
}

// InsertHashes adds every hash in hs in one batch through
// [kernels.BloomInsert], whose AVX2 and NEON kernels hold a block in
// vector registers. Measured on a shared 2-core AMD EPYC, 4096 hashes,
// benchstat of 8 interleaved runs against the scalar loop it replaced:
// 71.6 -> 22.7 µs into a 1 KiB filter, 95.3 -> 18.6 µs into 1 MiB,
// 132.5 -> 22.9 µs into 16 MiB (-68% to -83%, p <= 0.001).
func (b *Bloom) InsertHashes(hs []uint64) { kernels.BloomInsert(b.words, hs) }

// Check reports whether the value whose hash is h may have been inserted;
// false means it surely was not. It is scalar and stops at the first
// missing bit: a batched AVX2 check measured no faster on the absent
// literals that pruning checks (see [kernels.BloomCheckOne]).
func (b *Bloom) Check(h uint64) bool { return kernels.BloomCheckOne(b.words, h) }

// Append appends the filter as a file stores it, its BloomFilterHeader
// (BLOCK, XXHASH, UNCOMPRESSED) then the little-endian bitset, to dst.
func (b *Bloom) Append(dst []byte) []byte {
	h := footer.BloomFilterHeader{
		NumBytes:    int32(b.NumBytes()),
		Algorithm:   footer.BloomAlgorithmSplitBlock,
		Hash:        footer.BloomHashXxHash,
		Compression: footer.BloomCompressionUncompressed,
	}
	dst = footer.Marshal(dst, &h)
	for _, w := range b.words {
		dst = binary.LittleEndian.AppendUint32(dst, w)
	}
	return dst
}

// ParseBloom parses a bloom filter (header and bitset) from the start of
// src and returns it with the number of bytes it took. A header that does
// not parse, or a bitset size that is not a power of two within the spec's
// bounds or runs past src, is an error wrapping ErrCorrupt; a filter in the
// legacy layout (a binary header for Murmur3 hashing) or with an algorithm,
// hash or compression other than BLOCK, XXHASH, UNCOMPRESSED wraps
// ErrUnsupported.
func ParseBloom(src []byte) (*Bloom, int, error) {
	var h footer.BloomFilterHeader
	n, err := footer.Unmarshal(src, &h)
	if err != nil {
		if legacyBloom(src) {
			return nil, 0, fmt.Errorf("%w: bloom filter in the legacy layout (binary header, Murmur3 hash)", ErrUnsupported)
		}
		return nil, 0, fmt.Errorf("%w: bloom filter header: %w", ErrCorrupt, err)
	}
	if h.Algorithm != footer.BloomAlgorithmSplitBlock || h.Hash != footer.BloomHashXxHash || h.Compression != footer.BloomCompressionUncompressed {
		return nil, 0, fmt.Errorf("%w: bloom filter %s, %s, %s", ErrUnsupported, h.Algorithm, h.Hash, h.Compression)
	}
	size := int(h.NumBytes)
	if size < MinBloomBytes || size > MaxBloomBytes || size&(size-1) != 0 {
		return nil, 0, fmt.Errorf("%w: bloom filter bitset of %d bytes", ErrCorrupt, size)
	}
	if size > len(src)-n {
		return nil, 0, fmt.Errorf("%w: bloom filter bitset of %d bytes, %d bytes follow its header", ErrCorrupt, size, len(src)-n)
	}
	b := &Bloom{words: make([]uint32, size/4)}
	for i := range b.words {
		b.words[i] = binary.LittleEndian.Uint32(src[n+4*i:])
	}
	return b, n + size, nil
}

// legacyBloom reports whether src starts like a filter of the legacy
// layout: three little-endian int32s (bitset size, algorithm 0, hash 0)
// and the bitset.
func legacyBloom(src []byte) bool {
	if len(src) < 12 {
		return false
	}
	size := int64(binary.LittleEndian.Uint32(src))
	return size > 0 && size <= int64(len(src)-12) && binary.LittleEndian.Uint64(src[4:]) == 0
}

// bloomHeaderGuess is how many bytes ReadBloom reads for a header when
// the file does not give the filter's length; a BloomFilterHeader takes
// at most 20.
const bloomHeaderGuess = 64

// ReadBloom reads the bloom filter stored at offset in r. length is the
// column chunk's bloom_filter_length, or 0 when the writer left it out:
// the header is then read first and the bitset after it. limit is where
// the region the filter may occupy ends (the footer's start). Errors are
// those of ParseBloom, with the offset, or an error of r.
func ReadBloom(r io.ReaderAt, offset int64, length int32, limit int64) (*Bloom, error) {
	if offset < 0 || offset >= limit {
		return nil, fmt.Errorf("%w: bloom filter offset %d outside the %d bytes before the footer", ErrCorrupt, offset, limit)
	}
	if length < 0 || int64(length) > limit-offset || int64(length) > MaxBloomBytes+bloomHeaderGuess {
		return nil, fmt.Errorf("%w: bloom filter at offset %d: length %d runs past offset %d or exceeds the largest filter", ErrCorrupt, offset, length, limit)
	}
	want := int64(length)
	if length == 0 {
		want = min(bloomHeaderGuess, limit-offset)
	}
	buf := make([]byte, want)
	if _, err := r.ReadAt(buf, offset); err != nil {
		return nil, fmt.Errorf("reading the bloom filter at offset %d: %w", offset, err)
	}
	if length == 0 {
		var h footer.BloomFilterHeader
		n, err := footer.Unmarshal(buf, &h)
		if err == nil && h.NumBytes > 0 && int64(h.NumBytes) <= min(MaxBloomBytes, limit-offset-int64(n)) {
			full := make([]byte, int64(n)+int64(h.NumBytes))
			copy(full, buf[:n])
			if _, err := r.ReadAt(full[n:], offset+int64(n)); err != nil {
				return nil, fmt.Errorf("reading the bloom filter at offset %d: %w", offset, err)
			}
			buf = full
		}
	}
	b, _, err := ParseBloom(buf)
	if err != nil {
		return nil, fmt.Errorf("bloom filter at offset %d: %w", offset, err)
	}
	return b, nil
}
