package kernels

import (
	"encoding/binary"
	"math/bits"

	"github.com/quiverio/quiver/internal/arrowmem"
)

// levelRunSkip lets [AppendRLE] pass over levels that hold no run it
// could write as an RLE run. Such a run has at least eight equal values,
// so it covers a whole word of four levels aligned to a multiple of four;
// a run starting before the first such word that lies in a run of eight,
// or one holding a value that does not fit, is shorter than eight and is
// bit-packed whatever its neighbours. Whole words are tested with two
// compares each, and only uniform ones measured.
type levelRunSkip struct {
	lv  []int16
	bad uint64 // the bits no level of the width may set, in each lane
	w   int    // the first aligned word of interest at or after the last scan, -1 before one
}

// newLevelRunSkip returns the skip for vals when they are levels of a
// width that leaves lanes a bit to spare (1 to 15), and ok false
// otherwise.
func newLevelRunSkip[T uint32 | int16](vals []T, width uint) (levelRunSkip, bool) {
	lv, ok := any(vals).([]int16)
	if !ok || width == 0 || width > 15 {
		return levelRunSkip{}, false
	}
	lane := ^uint64(1<<width-1) & 0xffff
	return levelRunSkip{lv: lv, bad: lane * 0x0001_0001_0001_0001, w: -1}, true
}

// next returns where AppendRLE, about to read the run starting at i,
// may resume instead: the start of the run holding the third level
// before the next word of interest, when that is past i.
func (s *levelRunSkip) next(i int) int {
	if i > s.w {
		s.w = s.scan(i)
	}
	p := s.w - 3
	if p <= i {
		return i
	}
	for p > i && s.lv[p-1] == s.lv[p] {
		p--
	}
	return p
}

// scan returns the first aligned word from the one holding level i that
// lies in a run of at least eight or holds a level too wide for the
// width, or where the last partial word starts when none does. A
// uniform word's run is measured no further than four levels each side.
func (s *levelRunSkip) scan(i int) int {
	lv := s.lv
	b := arrowmem.Bytes(lv)
	k := i &^ 3
	for ; k+4 <= len(lv); k += 4 {
		w := binary.NativeEndian.Uint64(b[2*k:])
		if w&s.bad != 0 {
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
		v, a, e := lv[k], k, k+4
		for a > 0 && a > k-4 && lv[a-1] == v {
			a--
		}
		for e < len(lv) && e < a+8 && lv[e] == v {
			e++
		}
		if e-a >= 8 {
			return k
		}
	}
	return k
}
