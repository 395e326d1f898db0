package levels

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"github.com/quiverio/quiver/kernels"
)

// offset is the type of list offsets.
type offset interface{ int32 | int64 }

// walk is one pass over the levels of p's representative leaf column
// (def, and rep unless the column has no repetition) that finds p's slots,
// of which there must be exactly slots. It writes the validity of each
// slot to valid (nil when p cannot be null; otherwise at least
// 8*ceil(slots/64) bytes, every bit written) and, when offsets is not nil
// (slots+1 entries), the number of p's elements before each slot and in
// all. It returns the null count and the number of elements (entries that
// give p's child a slot of its own; null slots a fixed-size list gives its
// child are not counted). m is scratch for the masks of the levels.
func walk[O offset](p *plan, def, rep []int16, slots int, valid []byte, offsets []O, m *walkMasks) (nulls, elems int, err error) {
	if p.padCount != nil && valid == nil {
		return 0, 0, fmt.Errorf("%w: field %q below a fixed-size list needs a validity bitmap", ErrPlan, p.Name)
	}
	if rep == nil {
		if offsets != nil || p.padCount != nil {
			return 0, 0, fmt.Errorf("%w: field %q is below a list but its leaf column has no repetition levels", ErrCorrupt, p.Name)
		}
		return walkFlat(p, def, slots, valid)
	}
	if len(rep) != len(def) {
		return 0, 0, fmt.Errorf("%w: %d repetition levels for %d definition levels", ErrCorrupt, len(rep), len(def))
	}
	rep = rep[:len(def)]
	s, d0, rl := p.SlotDefLevel, p.DefLevel, p.RepLevel
	ed, er := p.elemDef, p.elemRep
	bad := int16(-1)
	if p.NullCorrupt && d0-1 >= s {
		bad = d0 - 1
	}
	var (
		slot, set int
		word      uint64
	)
	if valid != nil && len(valid) < (slots+63)/64*8 {
		return 0, 0, fmt.Errorf("%w: validity of %d bytes for %d slots", ErrPlan, len(valid), slots)
	}
	if offsets != nil && len(offsets) != slots+1 {
		return 0, 0, fmt.Errorf("%w: %d offsets for %d slots", ErrPlan, len(offsets), slots)
	}
	if p.padCount == nil && bad < 0 {
		if p.Kind == Leaf {
			return walkLeaf(p, def, slots, valid, m)
		}
		return walkNested(p, def, rep, slots, valid, offsets, m)
	}
	for i, d := range def {
		r := rep[i]
		if d >= s {
			if r <= rl {
				if slot >= slots {
					return 0, 0, errSlots(p, fmt.Sprintf("more than %d", slots), slots)
				}
				if d == bad {
					return 0, 0, fmt.Errorf("%w: field %q is null at level entry %d, which its type does not allow", ErrCorrupt, p.Name, i)
				}
				if offsets != nil {
					offsets[slot] = O(elems)
				}
				if valid != nil {
					word |= b2u(d >= d0) << (slot & 63)
					if (slot+1)&63 == 0 {
						binary.LittleEndian.PutUint64(valid[slot>>6<<3:], word)
						set += bits.OnesCount64(word)
						word = 0
					}
				}
				slot++
			}
			if d >= ed && r <= er {
				elems++
			}
			continue
		}
		if p.padCount == nil || d < 0 || r > p.padRep[d] {
			continue
		}
		// Null slots under a null fixed-size list above p.
		m := p.padCount[d]
		if m > slots-slot {
			return 0, 0, errSlots(p, fmt.Sprintf("more than %d", slots), slots)
		}
		for range m {
			if offsets != nil {
				offsets[slot] = O(elems)
			}
			if (slot+1)&63 == 0 {
				binary.LittleEndian.PutUint64(valid[slot>>6<<3:], word)
				set += bits.OnesCount64(word)
				word = 0
			}
			slot++
		}
	}
	if slot != slots {
		return 0, 0, errSlots(p, strconv.Itoa(slot), slots)
	}
	if valid != nil {
		if slot&63 != 0 {
			binary.LittleEndian.PutUint64(valid[slot>>6<<3:], word)
			set += bits.OnesCount64(word)
		}
		nulls = slots - set
	}
	if err := endOffsets(p, offsets, slots, elems); err != nil {
		return 0, 0, err
	}
	return nulls, elems, nil
}

// endOffsets stores the last of a walk's offsets (when it has offsets),
// elems, after checking that O holds it.
func endOffsets[O offset](p *plan, offsets []O, slots, elems int) error {
	if offsets == nil {
		return nil
	}
	var o O
	if _, small := any(o).(int32); small && elems > math.MaxInt32 {
		return fmt.Errorf("%w: list %q has %d elements in one batch, more than 32-bit offsets hold", ErrUnsupported, p.Name, elems)
	}
	offsets[slots] = O(elems)
	return nil
}

// walkFlat is walk for a column without repetition: p is outside every
// list, so every entry is a slot of p.
func walkFlat(p *plan, def []int16, slots int, valid []byte) (nulls, elems int, err error) {
	if len(def) != slots {
		return 0, 0, errSlots(p, strconv.Itoa(len(def)), slots)
	}
	if valid == nil {
		return 0, 0, nil
	}
	if p.NullCorrupt && p.DefLevel-1 >= p.SlotDefLevel {
		for i, d := range def {
			if d == p.DefLevel-1 {
				return 0, 0, fmt.Errorf("%w: field %q is null at level entry %d, which its type does not allow", ErrCorrupt, p.Name, i)
			}
		}
	}
	nulls, err = kernels.LevelsToBitmap(valid, 0, def, p.DefLevel)
	return nulls, 0, err
}

// errSlots reports a node whose levels give it a number of slots (got)
// other than the want its parent's levels give it.
func errSlots(p *plan, got string, want int) error {
	return fmt.Errorf("%w: the levels give field %q %s slots where its parent has %d", ErrCorrupt, p.Name, got, want)
}

// b2u is 1 for true and 0 for false, without a branch.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
