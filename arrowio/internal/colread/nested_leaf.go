package colread

import (
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/page"

	"github.com/quiverio/quiver/arrowio/internal/schema"
	"github.com/quiverio/quiver/internal/arrowmem"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
	"github.com/quiverio/quiver/levels"
)

// levelChunk is the most levels a nested leaf decodes at once while it
// looks for the end of a batch's last row.
const levelChunk = 4096

// nestedLeaf reads one leaf column below a nested field: for a batch of
// whole rows, the definition and repetition levels of every entry and the
// dense values (no nulls) of the entries at the maximum definition level.
// It reuses the flat leaf reader's pages, dictionary and value decoders;
// only the levels differ.
//
// A row ends where the next one starts (repetition level 0), so the
// reader decodes levels in chunks until it sees the start of the row
// after the batch: the levels past it stay in the buffers, decoded but
// with their values not yet read, for the next batch. They always belong
// to the current page, whose values decoder still holds their values.
type nestedLeaf struct {
	LeafReader
	maxDef, maxRep int16
	reps           levelReader // beside the definition levels, LeafReader.defs

	def, rep []int16 // the levels decoded: the batch's, then the carry
	carry    int     // start of the carry in def and rep
	seen     bool    // a level of the chunk has been read (the first must start a row)
	perRow   float64 // values per row of the previous batch, for sizing the next
	// levelsLeft counts down the chunk's levels (ColumnMetaData.num_values)
	// as pages start.
	levelsLeft int64
	// chunkLevels is the chunk's num_values, for the first size guess.
	chunkLevels int64
}

// newNestedLeaf prepares to read leaf l of a nested field from its column
// chunk (see NewLeafReader for the arguments).
func newNestedLeaf(l *schema.FieldPlan, rg int, md *footer.ColumnMetaData, chunk []byte, base int64, rows int64, opts Options) (*nestedLeaf, error) {
	t, err := NewTarget(l.Node, l.Field.Type)
	if err != nil {
		return nil, err
	}
	nl := &nestedLeaf{maxDef: l.Node.MaxDef, maxRep: l.Node.MaxRep, levelsLeft: md.NumValues, chunkLevels: md.NumValues}
	nl.init(l.Node, rg, md, chunk, base, rows, t, opts)
	return nl, nil
}

// readRows decodes the next n rows: it returns their levels (valid until
// the next call; rep is nil for a leaf without repetition) and their dense
// values, which the caller releases.
func (l *nestedLeaf) readRows(n int) (def, rep []int16, vals arrow.Array, err error) {
	if int64(n) > l.rows {
		return nil, nil, nil, l.corrupt(fmt.Errorf("%w: %d rows asked, the row group has %d left", errs.ErrCorrupt, n, l.rows))
	}
	// The previous batch's carry moves to the front.
	c := l.carry
	k := copy(l.def, l.def[c:])
	l.def, l.carry = l.def[:k], 0
	if l.maxRep > 0 {
		copy(l.rep, l.rep[c:])
		l.rep = l.rep[:k]
	}
	hint := l.valueHint(n)
	out := newColOut(l.mem, &l.t, hint, hint, false, l.dataHint(n))
	// Room for about the batch's levels up front (the hint is about
	// levels per row too), rather than doubling from a few chunks.
	l.def = growLevels(l.def, max(len(l.def), hint))[:len(l.def)]
	if l.maxRep > 0 {
		l.rep = growLevels(l.rep, max(len(l.rep), hint))[:len(l.rep)]
	}
	values, err := l.fill(out, n)
	if err != nil {
		out.release()
		return nil, nil, nil, l.corrupt(err)
	}
	l.rows -= int64(n)
	l.perRow = float64(values) / float64(max(n, 1))
	shrinkColOut(out, values)
	def = l.def[:l.carry]
	if l.maxRep > 0 {
		rep = l.rep[:l.carry]
	}
	return def, rep, out.finish(), nil
}

// fill decodes levels until the buffers hold n whole rows and the dense
// values of their entries into out, and sets l.carry to the end of the
// batch's levels. It returns the number of values.
func (l *nestedLeaf) fill(out *colOut, n int) (int, error) {
	values := 0 // values decoded into out
	done := 0   // levels whose values are decoded
	rows := 0   // row starts among the levels scanned
	scanned := 0
	for {
		// Look for the start of row n+1 among the levels not scanned yet.
		if l.maxRep == 0 {
			if len(l.def) >= n {
				l.carry = n
				break
			}
			scanned, rows = len(l.def), len(l.def)
		} else if cut, r := levels.RowStart(l.rep[scanned:], n-rows); cut >= 0 {
			l.carry = scanned + cut
			break
		} else {
			scanned, rows = len(l.rep), rows+r
		}
		if l.Left == 0 {
			// The page's levels are all in the batch: read their values
			// before the next page replaces it.
			k, err := l.decodeValues(out, values, done, len(l.def))
			if err != nil {
				return 0, err
			}
			values, done = values+k, len(l.def)
			if rows == n && (int64(n) == l.rows && l.levelsLeft <= 0 || l.Pages.Exhausted()) {
				// The row group's last row ends with the chunk's last
				// level (pages past the chunk's declared levels are not
				// read: a padded chunk may hold the next chunk's).
				l.carry = len(l.def)
				break
			}
			if err := l.nextPage(); err != nil {
				return 0, err
			}
			continue
		}
		want := levelChunk
		if l.maxRep == 0 {
			// At most doubling the levels decoded, not trusting the
			// page's declared count.
			want = min(n-len(l.def), max(levelChunk, len(l.def)))
		}
		if err := l.decodeLevels(min(l.Left, want)); err != nil {
			return 0, err
		}
	}
	k, err := l.decodeValues(out, values, done, l.carry)
	return values + k, err
}

// decodeLevels appends the page's next k levels to the buffers.
func (l *nestedLeaf) decodeLevels(k int) error {
	at := len(l.def)
	l.def = growLevels(l.def, at+k)
	if l.maxDef == 0 {
		clear(l.def[at:])
	} else if err := l.defs.read(l.def[at:]); err != nil {
		return err
	}
	if l.maxRep > 0 {
		l.rep = growLevels(l.rep, at+k)
		if err := l.reps.read(l.rep[at:]); err != nil {
			return err
		}
		if !l.seen && k > 0 && l.rep[at] != 0 {
			return fmt.Errorf("%w: the column chunk starts with repetition level %d, not a row", errs.ErrCorrupt, l.rep[at])
		}
	}
	l.seen = l.seen || k > 0
	l.Left -= k
	return nil
}

// growLevels returns s resized to n, keeping its contents. Level buffers
// come from the byte pools (see arrowmem.GetBytes) and go back to them when they
// grow and when the reader is released, so that a read does not allocate
// and zero fresh levels for every row group.
func growLevels(s []int16, n int) []int16 {
	if n <= cap(s) {
		return s[:n]
	}
	b := arrowmem.GetBytes(2 * max(n, 2*cap(s), levelChunk))
	g := arrowmem.ViewCap[int16](b)[:n]
	copy(g, s)
	putLevels(s)
	return g
}

// putLevels returns a level buffer from growLevels to the byte pools; s
// must not be used afterwards.
func putLevels(s []int16) {
	if cap(s) > 0 {
		arrowmem.PutBytes(arrowmem.BytesCap(s[:cap(s)]))
	}
}

// release returns the reader's pooled buffers, its levels included.
func (l *nestedLeaf) release() {
	l.LeafReader.Release()
	l.reps.release()
	putLevels(l.def)
	putLevels(l.rep)
	l.def, l.rep = nil, nil
}

// decodeValues decodes, from the current page, the values of the entries
// [from, to) at the maximum definition level into out after its first at
// values, and returns how many there were.
func (l *nestedLeaf) decodeValues(out *colOut, at, from, to int) (int, error) {
	// The level decoders check every level against maxDef, so the
	// levels at least maxDef are those equal to it.
	k := kernels.CountLevelsAtLeast(l.def[from:to], l.maxDef)
	if k == 0 || l.t.kind == nullTarget {
		return k, nil
	}
	if !l.started {
		if err := l.ValueDecoder.start(l.pageValues, l.pageCount); err != nil {
			return 0, err
		}
		l.started = true
	}
	growColOut(out, at+k)
	return k, l.ValueDecoder.next(out, at, k)
}

// valueHint guesses how many values n rows hold, to size the first
// buffers: the previous batch's rate, or to begin with the chunk's levels
// per row (an upper bound for an honest file, as nulls and empty lists
// are levels without values). The guess from metadata is capped at 64
// values per byte of the chunk, so a file that lies about its levels
// cannot make the reader allocate more than a multiple of its size.
func (l *nestedLeaf) valueHint(n int) int {
	if l.perRow > 0 {
		return int(min(l.perRow*float64(n)*1.1+64, 1<<26))
	}
	est := float64(n)
	if l.totalRows > 0 && l.chunkLevels > 0 {
		est = float64(l.chunkLevels) / float64(l.totalRows) * float64(n)
	}
	return int(min(est, 64*float64(l.Pages.ChunkBytes()), 1<<26))
}

// nextPage reads pages until a data page with levels and prepares its
// levels and values.
func (l *nestedLeaf) nextPage() error {
	var p page.Raw
	for l.Left == 0 {
		if err := l.nextDataPage(&p); err != nil {
			return err
		}
		dp, err := l.splitPage(&p)
		if err != nil {
			return err
		}
		if l.maxRep > 0 {
			if err := l.reps.reset(dp.LevelEncoding, dp.RepLevels, dp.NumValues, l.maxRep); err != nil {
				return err
			}
		}
		if err := l.startPage(&dp, nil); err != nil {
			return err
		}
		l.levelsLeft -= int64(dp.NumValues)
	}
	return nil
}

// growColOut makes room in out, a colOut without validity, for n values.
func growColOut(o *colOut, n int) {
	if n > o.slots {
		o.n = max(n, o.slots+o.slots/2)
		o.resize(o.n)
	}
}

// shrinkColOut sets the length of out, a colOut without validity, and of
// its buffers to its first n values.
func shrinkColOut(o *colOut, n int) {
	if o.t.kind == nullTarget || n > o.slots {
		growColOut(o, n)
	}
	o.truncate(n)
}
