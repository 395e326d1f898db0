package colwrite

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"unsafe"

	"github.com/quiverio/quiver/internal/arrowmem"
	"github.com/quiverio/quiver/kernels"
)

// Dictionary builders for the column writer: each maps values to indices in
// the order values first appear, with an open-addressing hash table of
// int32 slots (-1 empty, linear probing, at most half full). Indices depend
// only on the order of values, never on hashes, so output is deterministic.

// minDictSlots is the table size a builder starts with.
const minDictSlots = 1 << 10

// hashSlots is a dictionary builder's hash table: slot s holds the index
// of a value, or -1 when empty, and a value of hash h starts its probe at
// slot h>>shift.
type hashSlots struct {
	slots []int32
	shift uint // 64 - log2(len(slots))
}

// reset empties the table, keeping its memory.
func (t *hashSlots) reset() {
	if t.slots == nil {
		t.slots = make([]int32, minDictSlots)
		t.shift = 64 - uint(bits.TrailingZeros(minDictSlots))
	}
	for i := range t.slots {
		t.slots[i] = -1
	}
}

// double replaces the table with an empty one of twice the slots, into
// which the builder places every value again (place).
func (t *hashSlots) double() {
	t.slots = make([]int32, 2*len(t.slots))
	t.shift--
	for i := range t.slots {
		t.slots[i] = -1
	}
}

// place puts index i, a value of hash hash not in the table, in the
// first empty slot of its probe.
func (t *hashSlots) place(hash uint64, i int) {
	mask := uint64(len(t.slots) - 1)
	h := hash >> t.shift
	for t.slots[h&mask] >= 0 {
		h++
	}
	t.slots[h&mask] = int32(i)
}

// fixedDict is the dictionary of a fixed-width column, keyed by the bit
// pattern of each value (so NaNs with equal bits are one entry, and -0 and
// +0 are two).
type fixedDict[U uint32 | uint64] struct {
	values []U
	hashSlots
}

// reset empties the dictionary, keeping its memory.
func (d *fixedDict[U]) reset() {
	d.values = d.values[:0]
	d.hashSlots.reset()
}

// hashU spreads the bits of v over the top bits of a word.
func hashU[U uint32 | uint64](v U) uint64 { return uint64(v) * 0x9e3779b97f4a7c15 }

// insert sets out[i] to the index of vals[i], adding new values. A value
// equal to the one before it (sorted keys, runs) takes that one's index
// without a table lookup.
func (d *fixedDict[U]) insert(vals []U, out []uint32) {
	out = out[:len(vals)]
	for i, v := range vals {
		if i > 0 && v == vals[i-1] {
			out[i] = out[i-1]
			continue
		}
		out[i] = d.index(v)
	}
}

// index returns the index of v, adding it when new.
func (d *fixedDict[U]) index(v U) uint32 {
	slots := d.slots
	mask := uint64(len(slots) - 1)
	h := hashU(v) >> d.shift
	for {
		s := slots[h&mask]
		if s < 0 {
			break
		}
		if d.values[s] == v {
			return uint32(s)
		}
		h++
	}
	i := len(d.values)
	slots[h&mask] = int32(i)
	d.values = append(d.values, v)
	if 2*len(d.values) > len(slots) {
		d.grow()
	}
	return uint32(i)
}

// grow doubles the table and reinserts every value.
func (d *fixedDict[U]) grow() {
	d.double()
	for i, v := range d.values {
		d.place(hashU(v), i)
	}
}

// plainSize returns the bytes of the dictionary page's PLAIN values.
func (d *fixedDict[U]) plainSize() int { return len(d.values) * int(unsafe.Sizeof(U(0))) }

// appendPlain appends the PLAIN encoding of the dictionary to dst.
func (d *fixedDict[U]) appendPlain(dst []byte) []byte {
	return append(dst, arrowmem.Bytes(d.values)...)
}

// bytesDict is the dictionary of a BYTE_ARRAY (prefixed: each value behind
// its 4-byte length, as PLAIN writes it) or FIXED_LEN_BYTE_ARRAY column.
// The dictionary page's PLAIN bytes are built as values arrive.
type bytesDict struct {
	plain  []byte   // the dictionary page's values
	starts []int32  // where each value's bytes begin in plain
	lens   []int32  // each value's length
	hashes []uint64 // each value's hash, to regrow without rehashing
	hashSlots
	prefixed bool
}

// reset empties the dictionary, keeping its memory.
func (d *bytesDict) reset(prefixed bool) {
	d.plain, d.starts, d.lens, d.hashes = d.plain[:0], d.starts[:0], d.lens[:0], d.hashes[:0]
	d.prefixed = prefixed
	d.hashSlots.reset()
}

// len returns the number of values.
func (d *bytesDict) len() int { return len(d.starts) }

// value returns the bytes of value i, without a length prefix.
func (d *bytesDict) value(i uint32) []byte {
	st := d.starts[i]
	return d.plain[st : st+d.lens[i]]
}

// index returns the index of v, adding it when new.
//
// Values of up to 8 bytes (codes, flags, short decimals) are hashed as one
// word by a multiplication, which is one-to-one: two of them of the same
// length are equal exactly when their hashes are, so their bytes are never
// compared. Longer values are hashed with maphash (the runtime's hash of
// map keys, AES-based where the processor has it: twice as fast as
// xxhash on values of 16 to 100 bytes).
func (d *bytesDict) index(v []byte) uint32 {
	short := len(v) <= 8
	var hash uint64
	if short {
		hash = hashU(shortWord(v))
	} else {
		hash = maphash.Bytes(dictSeed, v)
	}
	mask := uint64(len(d.slots) - 1)
	h := hash >> d.shift
	for {
		s := d.slots[h&mask]
		if s < 0 {
			break
		}
		if d.hashes[s] == hash && int(d.lens[s]) == len(v) {
			if short {
				return uint32(s)
			}
			st := d.starts[s]
			if string(d.plain[st:int(st)+len(v)]) == string(v) {
				return uint32(s)
			}
		}
		h++
	}
	i := len(d.starts)
	d.slots[h&mask] = int32(i)
	if d.prefixed {
		d.plain = binary.LittleEndian.AppendUint32(d.plain, uint32(len(v)))
	}
	d.starts = append(d.starts, int32(len(d.plain)))
	d.lens = append(d.lens, int32(len(v)))
	d.hashes = append(d.hashes, hash)
	d.plain = append(d.plain, v...)
	if 2*len(d.starts) > len(d.slots) {
		d.grow()
	}
	return uint32(i)
}

// dictSeed seeds the hashes of long dictionary values. It differs from
// process to process, which changes where values sit in the hash table
// but never their indices.
var dictSeed = maphash.MakeSeed()

// shortWord returns the bytes of v, at most 8 of them, as a little-endian
// word with zeros above them. It loads the word at once when v's capacity
// reaches 8 bytes (values sliced from a page's data usually do).
func shortWord(v []byte) uint64 {
	if cap(v) >= 8 {
		return binary.LittleEndian.Uint64(v[:8]) & (^uint64(0) >> (64 - 8*uint(len(v))))
	}
	var w uint64
	for i := len(v) - 1; i >= 0; i-- {
		w = w<<8 | uint64(v[i])
	}
	return w
}

// grow doubles the table and reinserts every value.
func (d *bytesDict) grow() {
	d.double()
	for i, hash := range d.hashes {
		d.place(hash, i)
	}
}

// insertOffsets sets out[i] to the index of value i of offs and data; a
// value equal to the one before it takes that one's index, as in insert.
func insertOffsets[O kernels.Offset](d *bytesDict, offs []O, data []byte, out []uint32) {
	out = out[:len(offs)-1]
	var prev []byte
	for i := range out {
		v := data[offs[i]:offs[i+1]]
		if i > 0 && string(v) == string(prev) {
			out[i] = out[i-1]
			continue
		}
		out[i] = d.index(v)
		prev = v
	}
}

// insertFixed sets out[i] to the index of the i-th width-byte value of data.
func (d *bytesDict) insertFixed(data []byte, width int, out []uint32) {
	out = out[:len(data)/width]
	for i := range out {
		out[i] = d.index(data[i*width : (i+1)*width])
	}
}

// appendIndices appends a dictionary-encoded values section holding idx:
// the bit width (the fewest bits that hold the largest index) in one byte,
// then the indices in the RLE/bit-packing hybrid encoding, written in one
// greedy pass (kernels.AppendRLE: the whole page is at hand, and the
// planned kernels.RLEEncoder costs several times as much per index).
func appendIndices(dst []byte, idx []uint32) ([]byte, error) {
	var hi uint32
	for _, v := range idx {
		hi = max(hi, v)
	}
	width := uint(bits.Len32(hi))
	return kernels.AppendRLE(append(dst, byte(width)), idx, width)
}
