package colwrite

import (
	"slices"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
)

// bytesWriter is the value writer of BYTE_ARRAY columns; O is the type of
// the Arrow offsets it reads (int32 for string and binary, int64 for the
// large and view types).
type bytesWriter[O kernels.Offset] struct {
	pageEncoding
	order    statOrder
	text     bool // UTF-8 values: statistics are truncated between characters
	truncate int
	dict     bytesDict
	// seen[i] is pageNo when dictionary value i is in the page's
	// statistics: a dictionary-encoded page's bounds are those of the
	// distinct values it holds, each compared once.
	seen   []uint32
	pageNo uint32

	offs  []O // the bound slots: value i is data[offs[i]:offs[i+1]]
	data  []byte
	soffs []O // views, widened offsets and gathered dictionary values
	sdata []byte
	coffs []O // the non-null values of a mini-batch with nulls
	cdata []byte
	vals  bytesPage // the page's values, when not dictionary-encoded

	page, chunk bytesStats
	touched     byte // what touch read, kept so that its loads are not left out
	unencoded   int64
	bloom       *bloomSink // nil unless the column has a bloom filter

	// A bound dictionary array (encode_bytes_dictarr.go).
	darr  dictArray[O]
	voffs []O // scratch for its dictionary's values
	vdata []byte
}

func (w *bytesWriter[O]) startChunk(dict bool) {
	w.pageEncoding.startChunk(dict)
	if dict {
		w.dict.reset(true)
	}
	w.vals.reset(w.fallbackEnc)
	w.darr.forget()
	w.seen = w.seen[:0]
	w.nextPage()
	w.page.reset()
	w.chunk.reset()
	w.unencoded = 0
}

func (w *bytesWriter[O]) bind(arr arrow.Array, lo, hi int) ([]byte, int, error) {
	var err error
	w.darr.bound = false
	if d, ok := arr.(*array.Dictionary); ok {
		return w.bindDictionary(d, lo, hi)
	}
	if w.offs, w.data, w.soffs, w.sdata, err = byteSlots(w.soffs, w.sdata, arr, lo, hi); err != nil {
		return nil, 0, err
	}
	valid, voff := validity(arr)
	return valid, voff + lo, nil
}

// maxOffsetOf returns the largest value an O holds.
func maxOffsetOf[O kernels.Offset]() int64 {
	var o O
	return int64(^uint64(0) >> (65 - 8*unsafe.Sizeof(o)))
}

func (w *bytesWriter[O]) put(i, j int, valid []byte, voff, nonNull int) error {
	var offs []O
	var data []byte
	if w.darr.bound {
		if w.dictOn && w.bloom == nil {
			return w.putDictIndices(i, j, valid, voff, nonNull)
		}
		var err error
		if offs, data, err = w.gatherDictValues(i, j); err != nil {
			return err
		}
	} else {
		offs, data = w.offs[i:j+1], w.data
		// The offsets are checked here, a mini-batch at a time, rather
		// than all at once when bound, which read them from memory twice.
		if err := checkSpan(offs, len(data)); err != nil {
			return err
		}
	}
	if nonNull < j-i {
		offs, data = w.compact(offs, data, valid, voff+i)
	}
	if len(offs) < 2 {
		return nil
	}
	if err := checkLengths(offs); err != nil {
		return err
	}
	w.touched ^= touch(data[offs[0]:offs[len(offs)-1]])
	addOffsetHashes(w.bloom, offs, data)
	w.unencoded += int64(offs[len(offs)-1] - offs[0])
	if w.dictOn {
		idx := w.addIndices(len(offs) - 1)
		insertOffsets(&w.dict, offs, data, idx)
		w.dictStats(idx)
		return nil
	}
	if err := checkEncoding(w.vals.enc); err != nil {
		return err
	}
	plainDone := false
	if w.order == orderUnsigned && w.vals.enc == footer.EncodingPlain {
		// One pass both bounds the values and appends them.
		var b prefixBounds
		w.vals.vals, b = scanUnsigned(w.vals.vals, true, offs, data)
		b.widen(&w.page, data)
		plainDone = true
	} else {
		addOffsets(&w.page, offs, data, w.order)
	}
	return addPage(&w.vals, offs, data, plainDone)
}

// touch reads a byte of each 64 bytes of b and returns their xor: a loop
// of independent loads, which the processor runs many at a time, brings a
// mini-batch's values into the cache at about the speed of a copy, where
// the loads of the loops that work on each value (bounds, hashes) wait on
// their misses few at a time, behind branches that depend on them.
func touch(b []byte) byte {
	var x byte
	for i := 0; i < len(b); i += 64 {
		x ^= b[i]
	}
	return x
}

// dictStats widens the page's statistics to cover the dictionary values
// idx, the indices put just added: each value the page has not yet
// counted is compared once.
func (w *bytesWriter[O]) dictStats(idx []uint32) {
	if w.order == orderNone {
		return
	}
	for len(w.seen) < w.dict.len() {
		w.seen = append(w.seen, 0)
	}
	seen := w.seen[:w.dict.len()]
	for _, x := range idx {
		if seen[x] == w.pageNo {
			continue
		}
		seen[x] = w.pageNo
		w.page.add(w.dict.value(x), w.order)
	}
}

// nextPage makes the page's statistics count no dictionary value yet.
func (w *bytesWriter[O]) nextPage() {
	w.pageNo++
	if w.pageNo == 0 {
		clear(w.seen)
		w.pageNo = 1
	}
}

// compact returns the offsets of the values of the valid slots of offs
// (slot k's bit is off+k). When null slots are empty, as Arrow builders
// leave them, the valid values stay where they are in data; otherwise they
// are copied.
func (w *bytesWriter[O]) compact(offs []O, data []byte, valid []byte, off int) ([]O, []byte) {
	d := append(w.coffs[:0], offs[0])
	contiguous := true
	for k := range len(offs) - 1 {
		b := off + k
		if valid[b>>3]>>(b&7)&1 == 0 {
			continue
		}
		if offs[k] != d[len(d)-1] {
			contiguous = false
			break
		}
		d = append(d, offs[k+1])
	}
	if contiguous {
		w.coffs = d
		return d, data
	}
	d, buf := append(d[:0], 0), w.cdata[:0]
	for k := range len(offs) - 1 {
		b := off + k
		if valid[b>>3]>>(b&7)&1 != 0 {
			buf = append(buf, data[offs[k]:offs[k+1]]...)
			d = append(d, O(len(buf)))
		}
	}
	w.coffs, w.cdata = d, buf
	return d, buf
}

func (w *bytesWriter[O]) undict() {
	idx := w.takeIndices()
	w.vals.reset(w.fallbackEnc)
	if w.vals.enc == footer.EncodingPlain {
		// The dictionary holds each value PLAIN, behind its length.
		n := 0
		for _, i := range idx {
			n += 4 + int(w.dict.lens[i])
		}
		w.vals.vals = slices.Grow(w.vals.vals, n)
		for _, i := range idx {
			st := w.dict.starts[i]
			w.vals.vals = append(w.vals.vals, w.dict.plain[st-4:st+w.dict.lens[i]]...)
		}
		w.vals.count, w.vals.size = len(idx), n-4*len(idx)
		return
	}
	for _, i := range idx {
		// Only PLAIN values, handled above, can fail to be added (an
		// encoding the page cannot hold adds nothing, and its flush says
		// so).
		_ = w.vals.addValue(w.dict.value(i))
	}
}

func (w *bytesWriter[O]) pageBytes() int {
	if w.dictOn {
		return w.indexBytes(w.dict.len())
	}
	return w.vals.bytes()
}

func (w *bytesWriter[O]) flushPage(dst []byte, st *footer.Statistics) ([]byte, footer.Encoding, error) {
	if st != nil {
		w.page.encode(st, w.order, w.truncate, w.text)
	}
	w.chunk.merge(&w.page, w.order)
	w.page.reset()
	w.nextPage()
	return w.endPage(dst, w.appendValues)
}

// appendValues appends the page's values, encoded with enc (the page's
// own), and empties the page (see pageEncoding.endPage).
func (w *bytesWriter[O]) appendValues(dst []byte, enc footer.Encoding) ([]byte, error) {
	if err := checkEncoding(enc); err != nil {
		return dst, err
	}
	return w.vals.appendTo(dst), nil
}

func (w *bytesWriter[O]) dictLen() int { return w.dict.len() }

func (w *bytesWriter[O]) dictBytes() int {
	if !w.dictOn {
		return -1
	}
	return len(w.dict.plain)
}

func (w *bytesWriter[O]) dictPage(dst []byte) ([]byte, int) {
	return append(dst, w.dict.plain...), w.dict.len()
}

func (w *bytesWriter[O]) chunkStats(st *footer.Statistics) {
	w.chunk.encode(st, w.order, w.truncate, w.text)
}

func (w *bytesWriter[O]) unencodedBytes() (int64, bool) { return w.unencoded, true }
