package levels

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/quiverio/quiver/kernels"
)

// maskChunk is how many level entries the mask walks turn into bitmaps at
// a time: 32 words per mask, so that the masks stay in the first-level
// cache beside the levels they come from.
const maskChunk = 2048

// levelMask is one bit per level entry of a chunk, least significant
// first: whether the entry's level reaches a threshold.
type levelMask [maskChunk / 8]byte

// word returns the mask's bits of entries 64*w to 64*w+63.
func (mask *levelMask) word(w int) uint64 {
	return binary.LittleEndian.Uint64(mask[8*w:])
}

// fill sets the first len(levels) bits of mask to levels[i] >= t (the
// levels kernel compares) and clears the bits of its last word past them;
// a threshold above every level clears the mask.
func (mask *levelMask) fill(levels []int16, t int32) {
	words := (len(levels) + 63) / 64
	b := mask[:8*words]
	if t > math.MaxInt16 {
		clear(b)
		return
	}
	if words > 0 {
		clear(b[8*words-8:])
	}
	// The bitmap holds exactly the chunk's bits, so the kernel cannot fail.
	_, _ = kernels.LevelsToBitmap(b, 0, levels, int16(t))
}

// bitsAppender appends runs of bits to a bitmap a word at a time and counts
// the set ones.
type bitsAppender struct {
	dst  []byte
	word uint64 // the bits since the last multiple of 64
	n    int    // bits appended
	set  int
}

// add appends the low c bits of v (whose higher bits are zero). The caller
// has checked that the bitmap holds n+c bits, rounded up to whole words.
func (a *bitsAppender) add(v uint64, c int) {
	sh := a.n & 63
	a.word |= v << sh
	a.set += bits.OnesCount64(v)
	if sh+c >= 64 {
		binary.LittleEndian.PutUint64(a.dst[a.n>>6<<3:], a.word)
		a.word = v >> (64 - sh) // zero when sh is 0: Go shifts by 64 to 0
	}
	a.n += c
}

// flush stores the last partial word.
func (a *bitsAppender) flush() {
	if a.n&63 != 0 {
		binary.LittleEndian.PutUint64(a.dst[a.n>>6<<3:], a.word)
	}
}

// compressBits returns the bits of x at the set positions of m, packed
// into the low bits in order (what x86's PEXT computes), with the bits
// above them zero. It works through the set bits of m or, when fewer, its
// clear ones, removing them from the top down.
func compressBits(x, m uint64) uint64 {
	c := bits.OnesCount64(m)
	if c == 64 {
		return x
	}
	if c < 32 {
		var r uint64
		for k := 0; m != 0; k++ {
			r |= (x >> bits.TrailingZeros64(m) & 1) << k
			m &= m - 1
		}
		return r
	}
	x &= m
	for g := ^m; g != 0; {
		p := 63 - bits.LeadingZeros64(g)
		low := uint64(1)<<p - 1
		x = x&low | x>>(p+1)<<p
		g &= low
	}
	return x
}

// walkLeaf is walk for a leaf that no fixed-size list pads and whose
// nulls are all allowed. Its repetition level is its column's highest, so
// every entry defined down to its slot level is a slot: the pass needs
// no repetition levels. Chunk by chunk, the definition levels become a
// mask of slots and a mask of values, and the validity of the slots is
// the value bits at the slot positions.
func walkLeaf(p *plan, def []int16, slots int, valid []byte, m *walkMasks) (nulls, elems int, err error) {
	in, present := &m.slot, &m.present
	out := bitsAppender{dst: valid}
	slot := 0
	for i := 0; i < len(def); i += maskChunk {
		c := def[i:min(i+maskChunk, len(def))]
		in.fill(c, int32(p.SlotDefLevel))
		if valid != nil {
			present.fill(c, int32(p.DefLevel))
		}
		for w := range (len(c) + 63) / 64 {
			iw := in.word(w)
			k := bits.OnesCount64(iw)
			if k > slots-slot {
				return 0, 0, errSlots(p, fmt.Sprintf("more than %d (at level entry %d)", slots, i+64*w), slots)
			}
			if valid != nil {
				out.add(compressBits(present.word(w), iw), k)
			}
			slot += k
		}
	}
	if slot != slots {
		return 0, 0, errSlots(p, fmt.Sprint(slot), slots)
	}
	if valid == nil {
		return 0, 0, nil
	}
	out.flush()
	return slots - out.set, 0, nil
}

// walkNested is walk for a node inside a list that no fixed-size list
// pads and whose nulls are all allowed. Chunk by chunk, the levels become
// masks: of slots (defined to the slot level and repeated at most at the
// node's), of values and of elements (defined to the element level and
// repeated at most at the element's). A slot's offset is the elements
// before it, the count of element bits below its position; its validity,
// the value bit there.
func walkNested[O offset](p *plan, def, rep []int16, slots int, valid []byte, offsets []O, m *walkMasks) (nulls, elems int, err error) {
	rep = rep[:len(def)]
	out := bitsAppender{dst: valid}
	slot := 0
	for i := 0; i < len(def); i += maskChunk {
		end := min(i+maskChunk, len(def))
		m.fill(p, def[i:end], rep[i:end], valid != nil, offsets != nil)
		for w := range (end - i + 63) / 64 {
			in := m.slot.word(w) &^ m.slotRep.word(w)
			k := bits.OnesCount64(in)
			if k > slots-slot {
				return 0, 0, errSlots(p, fmt.Sprintf("more than %d (at level entry %d)", slots, i+64*w), slots)
			}
			if offsets == nil {
				if valid != nil {
					out.add(compressBits(m.present.word(w), in), k)
				}
				slot += k
				continue
			}
			el := m.elem.word(w) &^ m.elemRep.word(w)
			pw := m.present.word(w)
			at := offsets[slot : slot+k]
			var v uint64
			for j := range at {
				pos := bits.TrailingZeros64(in)
				at[j] = O(elems + bits.OnesCount64(el&(uint64(1)<<pos-1)))
				v |= (pw >> pos & 1) << j
				in &= in - 1
			}
			if valid != nil {
				out.add(v, k)
			}
			slot += k
			elems += bits.OnesCount64(el)
		}
	}
	if slot != slots {
		return 0, 0, errSlots(p, fmt.Sprint(slot), slots)
	}
	if valid != nil {
		out.flush()
		nulls = slots - out.set
	}
	if err := endOffsets(p, offsets, slots, elems); err != nil {
		return 0, 0, err
	}
	return nulls, elems, nil
}

// walkMasks are the masks the walks read for one chunk: an entry is a
// slot where slot is set and slotRep clear, a value where present is set,
// and an element where elem is set and elemRep clear. An [Assembler]
// keeps one as scratch, so that the walks neither allocate nor zero it.
type walkMasks struct {
	slot, slotRep, present, elem, elemRep levelMask
}

// fill computes the masks of a chunk of p's levels; present only when
// values is set (walkNested reads it only then), and the element masks
// only when lists is.
func (m *walkMasks) fill(p *plan, def, rep []int16, values, lists bool) {
	m.slot.fill(def, int32(p.SlotDefLevel))
	m.slotRep.fill(rep, int32(p.RepLevel)+1)
	if values {
		m.present.fill(def, int32(p.DefLevel))
	}
	if lists {
		m.elem.fill(def, int32(p.elemDef))
		m.elemRep.fill(rep, int32(p.elemRep)+1)
	}
}
