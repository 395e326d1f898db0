package kernels

import (
	"encoding/binary"
	"math/bits"

	"github.com/quiverio/quiver/internal/arrowmem"
)

// runSkip lets [AppendRLE] pass over values that hold no run it could
// write as an RLE run. Such a run has at least eight equal values, so it
// covers a whole quad of four values aligned to a multiple of four; a run
// starting before the first such quad that lies in a run of eight, or one
// holding a value that does not fit, is shorter than eight and is
// bit-packed whatever its neighbours. Whole quads are tested a word or two
// at a time (an int16 quad is one word, a uint32 quad two), and only
// uniform ones measured. Levels and dictionary indices, which a writer
// encodes so a page at a time, are mostly such short runs.
type runSkip[T uint32 | int16] struct {
	vals []T
	bad  uint64 // the bits no value of the width may set, in each lane
	w    int    // the first aligned quad of interest at or after the last scan, -1 before one
}

// newRunSkip returns the skip for vals when the width leaves their lanes
// of a word a bit to spare, or uses a whole uint32 lane (1 to 15 for
// int16 levels, 1 to 32 for uint32 values), and ok false otherwise.
func newRunSkip[T uint32 | int16](vals []T, width uint) (runSkip[T], bool) {
	var lanes uint64
	switch any(vals).(type) {
	case []int16:
		if width == 0 || width > 15 {
			return runSkip[T]{}, false
		}
		lanes = ^uint64(1<<width-1) & 0xffff * 0x0001_0001_0001_0001
	default:
		if width == 0 || width > 32 {
			return runSkip[T]{}, false
		}
		lanes = ^uint64(1<<width-1) & 0xffff_ffff * 0x0000_0001_0000_0001
	}
	return runSkip[T]{vals: vals, bad: lanes, w: -1}, true
}

// next returns where AppendRLE, about to read the run starting at i,
// may resume instead: the start of the run holding the third value
// before the next quad of interest, when that is past i.
func (s *runSkip[T]) next(i int) int {
	if i > s.w {
		s.w = s.scan(i)
	}
	p := s.w - 3
	if p <= i {
		return i
	}
	for p > i && s.vals[p-1] == s.vals[p] {
		p--
	}
	return p
}

// scan returns the first aligned quad from the one holding value i that
// lies in a run of at least eight or holds a value too wide for the
// width, or where the last partial quad starts when none does.
func (s *runSkip[T]) scan(i int) int {
	switch v := any(s.vals).(type) {
	case []int16:
		return scanLevelQuads(v, i, s.bad)
	case []uint32:
		return scanValueQuads(v, i, s.bad)
	}
	return i
}

// scanLevelQuads is scan for int16 levels, a quad a word. A uniform
// quad's run is measured no further than four levels each side.
func scanLevelQuads(lv []int16, i int, bad uint64) int {
	b := arrowmem.Bytes(lv)
	k := i &^ 3
	for ; k+4 <= len(lv); k += 4 {
		w := binary.NativeEndian.Uint64(b[2*k:])
		if w&bad != 0 {
			return k
		}
		if w != w<<16|w>>48 {
			continue
		}
		if k >= 4 && k+8 <= len(lv) {
			// The equal lanes next to the word, from the words on either
			// side, lane i being bytes 2i and 2i+1 whatever the host.
			u := binary.LittleEndian.Uint64(b[2*k:])
			before := bits.LeadingZeros64(binary.LittleEndian.Uint64(b[2*k-8:])^u) / 16
			after := bits.TrailingZeros64(binary.LittleEndian.Uint64(b[2*k+8:])^u) / 16
			if before+4+after >= 8 {
				return k
			}
			continue
		}
		if quadInRun(lv, k) {
			return k
		}
	}
	return k
}

// scanValueQuads is scan for uint32 values, a quad two words.
func scanValueQuads(u []uint32, i int, bad uint64) int {
	b := arrowmem.Bytes(u)
	k := i &^ 3
	for ; k+4 <= len(u); k += 4 {
		w0, w1 := binary.NativeEndian.Uint64(b[4*k:]), binary.NativeEndian.Uint64(b[4*k+8:])
		if (w0|w1)&bad != 0 {
			return k
		}
		if w0 != w1 || uint32(w0) != uint32(w0>>32) {
			continue
		}
		if quadInRun(u, k) {
			return k
		}
	}
	return k
}

// quadInRun reports whether the uniform quad at k lies in a run of at
// least eight, measuring no further than four values each side.
func quadInRun[T uint32 | int16](vals []T, k int) bool {
	v, a, e := vals[k], k, k+4
	for a > 0 && a > k-4 && vals[a-1] == v {
		a--
	}
	for e < len(vals) && e < a+8 && vals[e] == v {
		e++
	}
	return e-a >= 8
}
