package colwrite

import (
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/quiverio/quiver/arrowio/internal/errs"
)

// Content-defined chunking (CDC) cuts a column's data pages where the
// values say, not where a page fills up, so that inserting or deleting
// rows changes only the pages around the edit and a deduplicating store
// keeps the rest. It is the algorithm of Arrow C++ 21 (pyarrow's
// use_content_defined_chunking) and arrow-rs, with their parameters and
// gear tables, so the three cut a column's pages at the same values:
//
//   - Every logical value of the column goes through a gear hash, one
//     byte at a time (h = h<<1 + table[byte]): the definition and
//     repetition levels of each entry as little-endian int16s (only the
//     levels a column has), then, for an entry that holds a value, the
//     value's bytes as Arrow lays them out (little-endian fixed-width
//     values, a string's or binary's bytes, a boolean as one byte 0 or
//     1, a dictionary array's index). Each entry adds its bytes to the
//     size of the chunk.
//   - Until the chunk reaches its minimum size, nothing is hashed.
//   - A hash whose top bits (mask) are all zero is a match. The chunk
//     ends after the entry that made the eighth match since the last cut,
//     each of the eight counted with its own gear table (the sum of eight
//     geometric waits is close to normally distributed), or once the
//     chunk reaches its maximum size. The mask's width is
//     floor(log2(((min+max)/2 - min)/8)) - NormLevel bits.
//   - The entry that ends a chunk begins the next page. A nested leaf is
//     cut only where a row begins (repetition level 0), at the first row
//     start after the condition holds.
//   - The hash and match count carry on from page to page and from write
//     to write within a column chunk, and start again with each chunk
//     (row group), as Arrow C++'s per-row-group column writers do.
//
// Page size still cuts a page that outgrows it, and the end of a column
// chunk ends its last page.
//
// What an edit costs. The pages before an insert keep their bytes and
// the pages holding inserted rows change. The pages after them are the
// same again only once both files cut at the same value: a cut needs a
// run of matches, each from the next of the eight gear tables, so two
// files whose hashes see the same bytes cut alike only while they count
// the same run, which takes from no page to several after the insert.
// (Where a column's dictionary still grows past the insert, values first
// seen after it also take other indices.) TestCDCDeduplicates in arrowio
// reports the bytes lost to each cause, column by column.

// CDCSettings are the content-defined chunking parameters of a column
// (nil Settings.CDC: off).
type CDCSettings struct {
	MinSize   int64 // bytes of logical values below which a chunk is not cut
	MaxSize   int64 // bytes of logical values at which a chunk is cut
	NormLevel int   // mask bits taken off (positive) or added (negative)
}

// gearTables are the eight gear tables: entry b of table t is the first
// eight bytes, big-endian, of the MD5 digest of 64 bytes of t followed by
// 64 bytes of b, the tables Arrow C++ generates (its
// chunker_internal_codegen.py) and arrow-rs carries.
var gearTables = func() *[8][256]uint64 {
	var t [8][256]uint64
	var in [128]byte
	for s := range t {
		for b := range t[s] {
			for i := range 64 {
				in[i], in[64+i] = byte(s), byte(b)
			}
			sum := md5.Sum(in[:])
			t[s][b] = binary.BigEndian.Uint64(sum[:8])
		}
	}
	return &t
}()

// CDCMask returns the mask a rolling hash is matched against, or an error
// for parameters Arrow C++ rejects: a negative minimum, a maximum not
// above it, or a mask of fewer than 1 or more than 63 bits.
func CDCMask(s CDCSettings) (uint64, error) {
	if s.MinSize < 0 {
		return 0, fmt.Errorf("%w: content-defined chunking minimum size %d is negative", errs.ErrUnsupported, s.MinSize)
	}
	if s.MaxSize <= s.MinSize {
		return 0, fmt.Errorf("%w: content-defined chunking maximum size %d is not above the minimum %d", errs.ErrUnsupported, s.MaxSize, s.MinSize)
	}
	target := ((s.MinSize+s.MaxSize)/2 - s.MinSize) / int64(len(gearTables))
	maskBits := max(0, bits.Len64(uint64(target))-1)
	eff := maskBits - s.NormLevel
	if eff < 1 || eff > 63 {
		return 0, fmt.Errorf("%w: content-defined chunking sizes %d..%d with normalization level %d give a %d-bit mask (1 to 63)",
			errs.ErrUnsupported, s.MinSize, s.MaxSize, s.NormLevel, eff)
	}
	return ^uint64(0) << (64 - eff), nil
}

// chunker is the rolling state of one column chunk's content-defined
// chunking.
type chunker struct {
	min, max int64
	mask     uint64
	hash     uint64
	size     int64 // bytes rolled since the last cut
	nth      int   // matches counted towards the next cut
	matched  bool  // a match since the last cutHere
}

// newChunker returns the chunker of s (see CDCMask for its errors).
func newChunker(s *CDCSettings) (*chunker, error) {
	mask, err := CDCMask(*s)
	if err != nil {
		return nil, err
	}
	return &chunker{min: s.MinSize, max: s.MaxSize, mask: mask}, nil
}

// reset starts a new column chunk.
func (c *chunker) reset() {
	c.hash, c.size, c.nth, c.matched = 0, 0, 0, false
}

// roll adds a value's bytes to the chunk, hashing them once the chunk has
// reached its minimum size.
func (c *chunker) roll(b []byte) {
	c.size += int64(len(b))
	if c.size < c.min {
		return
	}
	t := &gearTables[c.nth]
	h, m, mask := c.hash, c.matched, c.mask
	for _, x := range b {
		h = h<<1 + t[x]
		m = m || h&mask == 0
	}
	c.hash, c.matched = h, m
}

// rollByte adds a one-byte value (a boolean, 0 or 1).
func (c *chunker) rollByte(x byte) {
	c.size++
	if c.size < c.min {
		return
	}
	c.hash = c.hash<<1 + gearTables[c.nth][x]
	c.matched = c.matched || c.hash&c.mask == 0
}

// rollLevel adds a level, as a little-endian int16.
func (c *chunker) rollLevel(l int16) {
	c.size += 2
	if c.size < c.min {
		return
	}
	t := &gearTables[c.nth]
	c.hash = c.hash<<1 + t[byte(l)]
	c.matched = c.matched || c.hash&c.mask == 0
	c.hash = c.hash<<1 + t[byte(uint16(l)>>8)]
	c.matched = c.matched || c.hash&c.mask == 0
}

// cutHere reports whether the chunk ends after the entry rolled last,
// and starts the next one when it does.
func (c *chunker) cutHere() bool {
	if c.matched {
		c.matched = false
		c.nth++
		if c.nth >= len(gearTables) {
			c.nth, c.size = 0, 0
			return true
		}
	}
	if c.size >= c.max {
		c.size = 0
		return true
	}
	return false
}
