package kernels

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// RLEEncoder writes Parquet's RLE/bit-packing hybrid encoding (without the
// 4-byte length prefix of data page v1 levels) for definition and repetition
// levels, dictionary indices and booleans. Reuse one with [RLEEncoder.Reset];
// it appends to the slice given there and allocates only when that slice
// runs out of capacity (size it with [MaxRLEEncodedLen] to avoid that).
//
// The output is never larger than that of the rule arrow-go's encoder
// follows (values in groups of eight aligned to the end of the last repeated
// run; a group of eight equal values starts a repeated run; every other
// group is bit-packed, 63 groups per bit-packed run), and usually smaller:
//
//   - The input is split into runs of equal values. Runs long enough that
//     an RLE run could pay for itself are kept as runs; stretches of shorter
//     runs are copied aside as values that will be bit-packed.
//   - Over a window of these items a dynamic program chooses, for each run,
//     to bit-pack it, or to lend the open bit-packed group the values it
//     lacks and write the rest as an RLE run, perhaps leaving up to seven
//     values to start the next bit-packed run. So a short repeat never
//     breaks a bit-packed run it cannot pay for, and a lone wide value
//     between repeats is written as an RLE run when that is cheaper.
//   - The rule's choices for the same values are worked out alongside, and
//     the size of its output kept. The planner's plan for a window is
//     written when, measured exactly, the bytes written stay no more than
//     the rule's: with no margin where it leaves the output in the rule's
//     state (as after an RLE run of both), with a margin that covers
//     catching up with the rule otherwise. When it cannot be, the rule's
//     choices are followed, which costs at most that margin more than the
//     rule until both next write an RLE run. So the whole stream is never
//     larger than the rule's.
//   - Bit-packed runs grow their header in place (1 byte up to 63 groups, 2
//     bytes up to 8191) instead of being cut every 63 groups.
//
// Long repeats cost one item whatever their length, and bit-packed
// stretches are copied and packed with the block kernels a group at a time.
type RLEEncoder struct {
	buf    []byte
	width  uint
	vb     int    // bytes of a repeated value
	maxV   uint64 // largest value of the width
	minRun int    // the shortest run kept as a run inside a stretch

	cur  uint32 // the run still growing: curN copies of cur
	curN int

	items [rleItems]rleItem // the window, not yet written
	ni    int
	vals  [rleVals + 8]uint32 // values of the window's stretches, and a run of fewer than 8 past rleVals

	nv      int
	stretch int // vals[stretch:nv] is the stretch still growing

	steps  [rleItems]rleStep            // the rule's plan for the window
	path   [rleItems]rleStep            // the planner's plan
	pen    [rleItems + 1]int            // the planner's cost of stopping (see optimize)
	choice [rleItems][rleStates]rleStep // the planner's back-pointers

	part   [8]uint32 // the partial group of bit-packed values
	np     int
	litAt  int // offset in buf of the open bit-packed run's header, or -1
	litHdr int // bytes reserved for that header
	litGrp int // groups written to it

	// The rule's encoding of what has been written: its output as this
	// encoder would lay it out (rule.bytes is its size), and its own
	// bit-packed run, open with ruleGrp groups since it last cut one at 63
	// (which decides the rule's last run).
	rule     rleSim
	ruleOpen bool
	ruleGrp  int
	// debt is the bytes written less the rule's for the same values.
	debt int
}

// Sizes of the planning window: items (runs and stretches), and values of
// the stretches among them. A stretch of fewer than rleCollapse values
// between two runs is kept as its runs, so that each can be weighed.
const (
	rleItems    = 512
	rleVals     = 2048
	rleCollapse = 16
)

// rleItem is a run of n copies of v, or (lit) a stretch of n values held in
// vals[off:], made of runs shorter than the encoder's minRun.
type rleItem struct {
	n   int
	off int32
	v   uint32
	lit bool
}

// rleStates are the planner's states between items: 0 when no bit-packed
// run is open, 1+p when one is open with p values in its partial group.
const rleStates = 9

// rleStep is how a plan writes a run: bit-packed whole (rle false), or
// lending the partial group the values it lacks, an RLE run, and then tail
// values opening a new bit-packed run. from is the planner's state before
// the item.
type rleStep struct {
	from int8
	rle  bool
	tail int8
}

// maxLitGroups is the most groups a bit-packed run with a 2-byte header can
// declare.
const maxLitGroups = 1<<13 - 1

// MaxRLEEncodedLen returns an upper bound on the bytes [RLEEncoder] writes
// for n values of the given width (at most 32): width+1 bytes per group of
// eight values. The encoder writes no more than the rule it is measured
// against, which spends per group either its bits and at most a header
// byte, or a share of an RLE run of at least eight values (a header byte
// and the value's bytes, at most width+1).
func MaxRLEEncodedLen(n int, width uint) int {
	groups := (n + 7) / 8
	return groups*(int(width)+1) + 5*(n/maxRunLen+1) + int(width+7)/8 + 1
}

// Reset makes e write a new stream of values width bits wide (at most 32)
// appended to dst. It returns an error wrapping [ErrOutOfRange] for a wider
// width.
func (e *RLEEncoder) Reset(dst []byte, width uint) error {
	if width > 32 {
		return fmt.Errorf("%w: RLE bit width %d above 32", ErrOutOfRange, width)
	}
	// Field by field: the window and the planner's tables need no clearing.
	e.buf, e.width, e.vb, e.maxV = dst, width, int(width+7)/8, 1<<width-1
	e.minRun = rleMinRun(width)
	e.curN, e.ni, e.nv, e.stretch = 0, 0, 0, 0
	e.np, e.litAt, e.litHdr, e.litGrp = 0, -1, 0, 0
	e.rule = rleSim{w: int(width)}
	e.ruleOpen, e.ruleGrp, e.debt = false, 0, 0
	return nil
}

// rleMinRun is the shortest run of values width bits wide that an RLE run
// can pay for in the middle of bit-packed data: its header and value, about
// one byte each and vb bytes, cost less than the bits it saves. It is at
// most 8, so that a stretch never holds a run the rule writes as an RLE
// run.
func rleMinRun(width uint) int {
	if width == 0 {
		return 1
	}
	return min(8, max(2, 8*(1+int(width+7)/8)/int(width)+1))
}

// PutUint32 appends values (dictionary indices, or any values of the width).
// A value wider than the width is an error wrapping [ErrOutOfRange]; the
// values before it are kept.
func (e *RLEEncoder) PutUint32(values []uint32) error { return rlePut(e, values) }

// PutLevels appends definition or repetition levels; a negative level or one
// wider than the width is an error wrapping [ErrOutOfRange], the levels
// before it being kept.
func (e *RLEEncoder) PutLevels(levels []int16) error { return rlePut(e, levels) }

// PutLevelsUint8 is [RLEEncoder.PutLevels] for levels held as bytes.
func (e *RLEEncoder) PutLevelsUint8(levels []uint8) error { return rlePut(e, levels) }

// PutBitmap appends bits [offset, offset+n) of an Arrow LSB-first bitmap as
// values of a width-1 stream (booleans, or the definition levels of a flat
// optional column from its validity bitmap).
func (e *RLEEncoder) PutBitmap(bitmap []byte, offset, n int) error {
	if e.width != 1 {
		return fmt.Errorf("%w: bitmap into an RLE stream of bit width %d, want 1", ErrOutOfRange, e.width)
	}
	if err := checkBitRange("PutBitmap", len(bitmap), offset, n); err != nil {
		return err
	}
	pos, end := uint(offset), uint(offset+n)
	for pos < end {
		v := uint32(bitmap[pos>>3] >> (pos & 7) & 1)
		// Find where the run of v ends, up to 57 bits per load.
		run := uint(0)
		for pos+run < end {
			k := min(57, end-pos-run)
			w := loadBits(bitmap, pos+run, k)
			if v == 1 {
				w = ^w
			}
			w |= ^uint64(0) << k // stop at the range's end
			z := uint(bits.TrailingZeros64(w))
			run += z
			if z < k {
				break
			}
		}
		e.putRun(v, int(run))
		pos += run
	}
	return nil
}

// rlePut appends values: runs of equal values are measured in place, and
// stretches of short runs are copied into the window in one tight loop.
// Each value is checked against the width where it is first read: a run's
// first value, or a value copied into a stretch.
func rlePut[T packable](e *RLEEncoder, values []T) error {
	for i := 0; i < len(values); {
		if e.curN == 0 {
			if uint64(values[i]) > e.maxV {
				return e.wide(uint64(values[i]), i)
			}
			e.cur, e.curN = uint32(values[i]), 1
			i++
			continue
		}
		// Extend the current run; if it ends, file it.
		j := runEnd(values, i, T(e.cur))
		e.curN += j - i
		if i = j; i == len(values) {
			break
		}
		short := e.curN < e.minRun
		e.endRun()
		if !short {
			continue
		}
		// Copy values into the stretch until a run reaches minRun. A run
		// that ends past rleVals values is taken out again and filed by
		// endRun, which plans first, as for runs from putRun.
		vals, nv := e.vals[:], e.nv
		last, run := uint32(values[i]), 0
		for i < len(values) {
			x := values[i]
			same := uint32(x) == last
			if uint64(x) > e.maxV || nv > rleVals && !same {
				break
			}
			r := 1
			if same {
				r = run + 1 // a conditional move, not a branch
			}
			if r == e.minRun {
				break
			}
			last, run = uint32(x), r
			vals[nv] = uint32(x)
			nv++
			i++
		}
		// The last run stays out of the stretch until it ends.
		e.nv, e.cur, e.curN = nv-run, last, run
		if i < len(values) && uint64(values[i]) > e.maxV {
			return e.wide(uint64(values[i]), i)
		}
	}
	return nil
}

// wide is the error for value v at index i, wider than the width.
func (e *RLEEncoder) wide(v uint64, i int) error {
	return fmt.Errorf("%w: value %d at index %d is wider than %d bits", ErrOutOfRange, v, i, e.width)
}

// runEnd returns the end of the run of v that starts at values[i], four
// values at a time while it lasts.
func runEnd[T packable](values []T, i int, v T) int {
	for ; i+4 <= len(values); i += 4 {
		q := (*[4]T)(values[i:])
		if (q[0]^v)|(q[1]^v)|(q[2]^v)|(q[3]^v) != 0 {
			break
		}
	}
	for i < len(values) && values[i] == v {
		i++
	}
	return i
}

// putRun appends n copies of v.
func (e *RLEEncoder) putRun(v uint32, n int) {
	if n == 0 {
		return
	}
	if e.curN > 0 && e.cur == v {
		e.curN += n
		return
	}
	e.endRun()
	e.cur, e.curN = v, n
}

// endRun ends the current run: a long one becomes an item after the
// stretch before it; a short one joins the stretch.
func (e *RLEEncoder) endRun() {
	n := e.curN
	if n == 0 {
		return
	}
	e.curN = 0
	if n >= e.minRun {
		e.closeStretch()
		e.pushItem(rleItem{v: e.cur, n: n})
		return
	}
	if e.nv+n > rleVals {
		e.pushStretch()
		e.plan(false)
	}
	for range n {
		e.vals[e.nv] = e.cur
		e.nv++
	}
}

// closeStretch ends the stretch: one item when it is long, otherwise an
// item per run, so that the planner can weigh each.
func (e *RLEEncoder) closeStretch() {
	s := e.vals[e.stretch:e.nv]
	if len(s) >= rleCollapse {
		e.pushStretch()
		return
	}
	var runs [rleCollapse]rleItem
	nr := 0
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j] == s[i] {
			j++
		}
		runs[nr] = rleItem{v: s[i], n: j - i}
		nr++
		i = j
	}
	e.nv = e.stretch
	for _, r := range runs[:nr] {
		e.pushItem(r)
	}
}

// pushStretch makes the stretch (if any) one item.
func (e *RLEEncoder) pushStretch() {
	if e.nv == e.stretch {
		return
	}
	if e.ni == rleItems {
		e.plan(false) // moves the stretch's values, and e.stretch with them
	}
	e.items[e.ni] = rleItem{lit: true, off: int32(e.stretch), n: e.nv - e.stretch}
	e.ni++
	e.stretch = e.nv
}

// pushItem appends a run to the window, planning when it is full.
func (e *RLEEncoder) pushItem(it rleItem) {
	if e.ni == rleItems {
		e.plan(false)
	}
	e.items[e.ni] = it
	e.ni++
}

// Flush ends the stream, padding a partial bit-packed group with zeros, and
// returns the slice given to [RLEEncoder.Reset] with the stream appended.
// Call Reset before writing another stream.
func (e *RLEEncoder) Flush() []byte {
	e.endRun()
	e.closeStretch()
	e.splitLast()
	e.plan(true)
	if e.np > 0 {
		e.writeGroup()
	}
	e.closeLiteral()
	return e.buf
}

// splitLast makes the last run of a final stretch an item of its own: the
// rule treats the values after the last whole group specially when they
// are all equal, and the planner reasons about runs.
func (e *RLEEncoder) splitLast() {
	if e.ni == 0 || !e.items[e.ni-1].lit {
		return
	}
	it := &e.items[e.ni-1]
	s := e.vals[it.off : int(it.off)+it.n]
	v := s[len(s)-1]
	r := 1
	for r < len(s) && s[len(s)-1-r] == v {
		r++
	}
	if r == len(s) {
		*it = rleItem{v: v, n: r}
		return
	}
	it.n -= r
	e.pushItem(rleItem{v: v, n: r})
}

// varintLen returns the bytes of the ULEB128 encoding of x.
func varintLen(x uint64) int { return (bits.Len64(x|1) + 6) / 7 }

// rleBytes is the size of RLE runs of m values of vb bytes, cut at the
// spec's longest run.
func rleBytes(m, vb int) int {
	n := 0
	for ; m > maxRunLen; m -= maxRunLen {
		n += varintLen(maxRunLen<<1) + vb
	}
	return n + varintLen(uint64(m)<<1) + vb
}

// plan writes the window, or when not final most of it, and moves what is
// left to the front.
//
// It keeps the output no larger than the rule's by bookkeeping: debt is
// the bytes written less the rule's for the same values. Whatever state
// each is left in, following the rule's choices from this encoder's state
// (lending what its own partial group lacks) costs at most slack more than
// the rule until the rule next writes an RLE run, after which the two are
// in the same state. So a plan may be written when it leaves debt at most
// zero with both in the same state, or at most -slack otherwise; when
// neither of the planner's plans may, the rule's choices are followed.
func (e *RLEEncoder) plan(final bool) {
	items := e.items[:e.ni]
	if e.width == 0 {
		// Every value is zero, so there is one run: RLE costs its header.
		for _, it := range items {
			e.writeRLE(0, it.n)
		}
		e.ni, e.nv, e.stretch = 0, 0, 0
		return
	}
	n := len(items)
	e.rulePlan(items, final)
	end := e.optimize(items, final)
	// The planner's best plan, short of the last items unless final or
	// they hold most of the stretch values.
	cut := n
	if !final {
		cut = n - min(n/4, 64)
		if e.nv-e.valsFrom(cut) > rleVals/2 {
			cut = n
		}
	}
	if e.try(items[:cut], e.backtrack(n, end)[:cut], final && cut == n) {
		e.shift(cut)
		return
	}
	// The planner's plan up to the place after a repeated run of the
	// rule's where ending with no bit-packed run open costs it least, in
	// the second half of the window if there is one, else the last.
	cut = 0
	for b := n; b > 0; b-- {
		if e.steps[b-1].rle && (cut == 0 || 2*b >= n && e.pen[b] < e.pen[cut]) {
			cut = b
		}
	}
	if cut > 0 && e.try(items[:cut], e.backtrack(cut, 0), final && cut == n) {
		if final || 2*cut >= n && e.nv-e.valsFrom(cut) <= rleVals/2 {
			e.shift(cut)
			return
		}
		items = items[cut:]
		e.rulePlan(items, final) // from the state just reached
	}
	// The rule's choices for the rest.
	e.commit(items, e.steps[:len(items)], final)
	e.shift(e.ni)
}

// rleSlack bounds how much more than the rule following the rule's
// choices from another state costs, until both have written the rule's
// next RLE run or the stream ends: a group of padding or of alignment, a
// header opened and widened, an RLE run's header a byte longer or cut once
// more at the longest run, and the rule's last short run as RLE against
// padding.
func (e *RLEEncoder) rleSlack() int { return 2*int(e.width) + 2*e.vb + 12 }

// try writes items by steps if that keeps the bookkeeping (see plan)
// sound, and reports whether it did.
func (e *RLEEncoder) try(items []rleItem, steps []rleStep, final bool) bool {
	ours, os := e.planSize(e.ourSim(), items, steps, final)
	rule, rs := e.planSize(e.rule, items, e.steps[:len(items)], final)
	debt := e.debt + ours - rule
	if debt > 0 || !final && !os.same(rs) && debt > -e.rleSlack() {
		return false
	}
	e.commit(items, steps, final)
	return true
}

// commit writes items by steps and moves the rule's bookkeeping past them.
func (e *RLEEncoder) commit(items []rleItem, steps []rleStep, final bool) {
	before := len(e.buf)
	e.write(items, steps)
	rule, rs := e.planSize(e.rule, items, e.steps[:len(items)], final)
	e.debt += len(e.buf) - before - rule
	e.ruleOpen, e.ruleGrp = e.ruleAfter(items)
	e.rule = rs
}

// ourSim is the state of the output as an rleSim.
func (e *RLEEncoder) ourSim() rleSim {
	return rleSim{open: e.litAt >= 0, grp: e.litGrp, hdr: e.litHdr, p: e.np, w: int(e.width)}
}

// valsFrom returns where the values of items[i:] and the stretch begin.
func (e *RLEEncoder) valsFrom(i int) int {
	for _, it := range e.items[i:e.ni] {
		if it.lit {
			return int(it.off)
		}
	}
	return e.stretch
}

// shift drops the first cut items, which have been written, and moves the
// values the rest (and the stretch) hold to the front.
func (e *RLEEncoder) shift(cut int) {
	base := e.valsFrom(cut)
	e.nv = copy(e.vals[:], e.vals[base:e.nv])
	e.stretch -= base
	e.ni = copy(e.items[:], e.items[cut:e.ni])
	for i := range e.items[:e.ni] {
		e.items[i].off -= int32(base)
	}
}

// rulePlan sets e.steps to the rule's choices for items from the rule's
// own state: an RLE run (after lending the partial group what it lacks)
// for a run with eight values past that, and at the end for the values
// after the last whole group when they are all equal and the rule has no
// bit-packed run open; bit-packing for everything else.
func (e *RLEEncoder) rulePlan(items []rleItem, final bool) {
	p, open, grp := e.rule.p, e.ruleOpen, e.ruleGrp
	for i, it := range items {
		k := (8 - p) & 7 // values that complete the partial group
		rle := !it.lit && it.n-k >= 8
		if !rle && final && i == len(items)-1 && !it.lit && it.n > k {
			o, _ := ruleGroups(open, grp, (p+k)/8)
			rle = !o
		}
		e.steps[i] = rleStep{rle: rle}
		if rle {
			p, open, grp = 0, false, 0
			continue
		}
		open, grp = ruleGroups(open, grp, (p+it.n)/8)
		p = (p + it.n) & 7
	}
}

// ruleAfter returns the rule's bit-packed run after items by e.steps.
func (e *RLEEncoder) ruleAfter(items []rleItem) (bool, int) {
	p, open, grp := e.rule.p, e.ruleOpen, e.ruleGrp
	for i, it := range items {
		if e.steps[i].rle {
			p, open, grp = 0, false, 0
			continue
		}
		open, grp = ruleGroups(open, grp, (p+it.n)/8)
		p = (p + it.n) & 7
	}
	return open, grp
}

// ruleGroups moves the rule's bit-packed run (open, with grp groups since
// it last cut one) on by g whole groups: the rule cuts it every 63.
func ruleGroups(open bool, grp, g int) (bool, int) {
	if g == 0 {
		return open, grp
	}
	if !open {
		grp = 0
	}
	grp = (grp + g) % 63
	return grp != 0, grp
}

// optimize runs a dynamic program over the nine states (see [rleStep])
// through items, leaving in e.choice how it reached each state after each
// item and in e.pen[b] how much more than its best it costs to have no
// bit-packed run open after the first b items. It returns the cheapest
// state after the last item, which when final is charged the padding of
// its partial group. Costs are in 63rds of a bit, and a bit-packed value
// also carries 1/64 of a header byte: a run's header grows by a byte after
// 63 groups, and the planner cannot see how long runs get. The plan is
// exact in everything but that; plan weighs it against the rule's by their
// real sizes.
func (e *RLEEncoder) optimize(items []rleItem, final bool) int {
	const inf = math.MaxInt / 2
	w, hdr := 63*int(e.width)+1, 63*8
	rle := func(m int) int { return 63 * 8 * (varintLen(uint64(m)<<1) + e.vb) }
	var cost [rleStates]int
	for i := range cost {
		cost[i] = inf
	}
	start := 0
	if e.litAt >= 0 {
		start = 1 + e.np
	}
	cost[start] = 0
	for i, it := range items {
		var next [rleStates]int
		for j := range next {
			next[j] = inf
		}
		steps := &e.choice[i]
		L := it.n
		// A run of 15 or more whose RLE runs all have headers of one size,
		// however much is lent and left: every RLE choice costs the same
		// but for what is lent, so only the cheapest state to lend from
		// needs trying.
		same := !it.lit && L >= 15 && varintLen(uint64(L-14)<<1) == varintLen(uint64(L)<<1)
		minBase, minFrom := inf, int8(0)
		for s, c := range cost {
			if c == inf {
				continue
			}
			p, open := 0, hdr
			if s > 0 {
				p, open = s-1, 0
			}
			from := int8(s)
			to := 1 + (p+L)&7
			if c2 := c + open + L*w; c2 < next[to] {
				next[to], steps[to] = c2, rleStep{from: from}
			}
			k := (8 - p) & 7
			if it.lit || L <= k {
				continue
			}
			base := c + k*w
			if same {
				if base < minBase {
					minBase, minFrom = base, from
				}
				continue
			}
			if c2 := base + rle(L-k); c2 < next[0] {
				next[0], steps[0] = c2, rleStep{from: from, rle: true}
			}
			for t := 1; t <= 7 && t < L-k; t++ {
				if c2 := base + rle(L-k-t) + hdr + t*w; c2 < next[1+t] {
					next[1+t], steps[1+t] = c2, rleStep{from: from, rle: true, tail: int8(t)}
				}
			}
		}
		if minBase < inf {
			r := rle(L)
			if c2 := minBase + r; c2 < next[0] {
				next[0], steps[0] = c2, rleStep{from: minFrom, rle: true}
			}
			for t := 1; t <= 7; t++ {
				if c2 := minBase + r + hdr + t*w; c2 < next[1+t] {
					next[1+t], steps[1+t] = c2, rleStep{from: minFrom, rle: true, tail: int8(t)}
				}
			}
		}
		cost = next
		e.pen[i+1] = next[0] - min(next[0], next[1], next[2], next[3], next[4], next[5], next[6], next[7], next[8])
	}
	best, bestCost := 0, inf
	for s, c := range cost {
		if final && s > 1 {
			c += (9 - s) * w // padding the partial group
		}
		if c < bestCost {
			best, bestCost = s, c
		}
	}
	return best
}

// backtrack returns the planner's plan for the first n items that leaves
// them in state end, read back from e.choice.
func (e *RLEEncoder) backtrack(n, end int) []rleStep {
	state := int8(end)
	for i := n - 1; i >= 0; i-- {
		e.path[i] = e.choice[i][state]
		state = e.path[i].from
	}
	return e.path[:n]
}

// planSize returns the bytes that writing items by steps from the state
// sim adds to the output, as write would write them, with the last partial
// group's padding when final, and the state after them.
func (e *RLEEncoder) planSize(sim rleSim, items []rleItem, steps []rleStep, final bool) (int, rleSim) {
	before := sim.bytes
	for i, it := range items {
		k := (8 - sim.p) & 7
		st := steps[i]
		if !st.rle || it.n <= k {
			sim.pack(it.n)
			continue
		}
		sim.pack(k)
		sim.open = false
		sim.bytes += rleBytes(it.n-k-int(st.tail), e.vb)
		sim.pack(int(st.tail))
	}
	if final && sim.p > 0 {
		sim.pack(8 - sim.p)
	}
	return sim.bytes - before, sim
}

// rleSim follows the output of a plan without writing it, as
// [RLEEncoder.addLiteral], [RLEEncoder.openGroups] and
// [RLEEncoder.closeLiteral] shape it: the open bit-packed run, its groups
// and header bytes, and the values in its partial group.
type rleSim struct {
	open     bool
	grp, hdr int
	p, w     int // values in the partial group; bytes per group
	bytes    int
}

// same reports whether s and o are in the same state: what follows costs
// the same from both.
func (s rleSim) same(o rleSim) bool {
	return s.open == o.open && s.p == o.p && (!s.open || s.grp == o.grp && s.hdr == o.hdr)
}

// pack bit-packs m values.
func (s *rleSim) pack(m int) {
	for m > 0 {
		if !s.open {
			s.open, s.grp, s.hdr = true, 0, 1
			s.bytes++
		}
		take := min(m, 8*(maxLitGroups-s.grp)-s.p)
		g := (s.p + take) / 8
		s.p = (s.p + take) & 7
		if s.hdr == 1 && s.grp+g > 1<<6-1 {
			s.hdr = 2
			s.bytes++
		}
		s.grp += g
		s.bytes += g * s.w
		m -= take
		if s.grp == maxLitGroups {
			s.open = false
		}
	}
}

// write writes items by steps.
func (e *RLEEncoder) write(items []rleItem, steps []rleStep) {
	for i, it := range items {
		st := steps[i]
		k := (8 - e.np) & 7
		if !st.rle || it.n <= k { // the rule's choice, from a state lending more than the run
			if it.lit {
				e.packValues(e.vals[it.off : int(it.off)+it.n])
			} else {
				e.packRun(it.v, it.n)
			}
			continue
		}
		e.packRun(it.v, k)
		e.closeLiteral()
		e.writeRLE(it.v, it.n-k-int(st.tail))
		e.packRun(it.v, int(st.tail))
	}
}

// writeRLE appends RLE runs of n copies of v, each at most the spec's
// longest run.
func (e *RLEEncoder) writeRLE(v uint32, n int) {
	for n > 0 {
		c := min(n, maxRunLen)
		e.buf = binary.AppendUvarint(e.buf, uint64(c)<<1)
		for i := range e.vb {
			e.buf = append(e.buf, byte(v>>(8*i)))
		}
		n -= c
	}
}

// addLiteral adds v to the partial group, opening a bit-packed run when none
// is open and writing the group when it is full.
func (e *RLEEncoder) addLiteral(v uint32) {
	if e.litAt < 0 {
		e.litAt, e.litHdr, e.litGrp = len(e.buf), 1, 0
		e.buf = append(e.buf, 0)
	}
	e.part[e.np] = v
	e.np++
	if e.np == 8 {
		e.writeGroup()
	}
}

// writeGroup bit-packs the partial group (zero-padded) into the open run.
func (e *RLEEncoder) writeGroup() {
	clear(e.part[e.np:])
	e.openGroups(1)
	at := e.grow(int(e.width))
	pack32(e.buf[at:], e.part[:], e.width)
	e.np = 0
	e.wroteGroups(1)
}

// packRun bit-packs n copies of v: whole groups as copies of one packed
// group.
func (e *RLEEncoder) packRun(v uint32, n int) {
	for ; n > 0 && (e.np > 0 || n < 8); n-- {
		e.addLiteral(v)
	}
	if n == 0 {
		return
	}
	group := [8]uint32{v, v, v, v, v, v, v, v}
	var packed [32]byte
	w := int(e.width)
	pack32(packed[:w], group[:], e.width)
	for n >= 8 {
		g := e.openGroups(n / 8)
		at := e.grow(g * w)
		out := e.buf[at:]
		copy(out, packed[:w])
		for f := w; f < len(out); f *= 2 {
			copy(out[f:], out[:f])
		}
		e.wroteGroups(g)
		n -= 8 * g
	}
	for range n {
		e.addLiteral(v)
	}
}

// packValues bit-packs vals: whole groups straight from vals with the
// block kernels.
func (e *RLEEncoder) packValues(vals []uint32) {
	for len(vals) > 0 && (e.np > 0 || len(vals) < 8) {
		e.addLiteral(vals[0])
		vals = vals[1:]
	}
	for len(vals) >= 8 {
		g := e.openGroups(len(vals) / 8)
		at := e.grow(g * int(e.width))
		pack32(e.buf[at:], vals[:8*g], e.width)
		e.wroteGroups(g)
		vals = vals[8*g:]
	}
	for _, v := range vals {
		e.addLiteral(v)
	}
}

// openGroups prepares the open bit-packed run (opening one if none is) for
// up to g more whole groups and returns how many it takes: all g, or as
// many as its 2-byte header can still count. The header is widened from 1
// to 2 bytes, moving the run's bytes, before the groups that need it.
func (e *RLEEncoder) openGroups(g int) int {
	if e.litAt < 0 {
		e.litAt, e.litHdr, e.litGrp = len(e.buf), 1, 0
		e.buf = append(e.buf, 0)
	}
	g = min(g, maxLitGroups-e.litGrp)
	if e.litHdr == 1 && e.litGrp+g > 1<<6-1 {
		e.buf = append(e.buf, 0)
		copy(e.buf[e.litAt+2:], e.buf[e.litAt+1:len(e.buf)-1])
		e.litHdr = 2
	}
	return g
}

// wroteGroups counts g groups written to the open run, closing it at the
// largest count a 2-byte header holds.
func (e *RLEEncoder) wroteGroups(g int) {
	e.litGrp += g
	if e.litGrp == maxLitGroups {
		e.closeLiteral()
	}
}

// grow extends buf by n bytes and returns where they start.
func (e *RLEEncoder) grow(n int) int {
	at := len(e.buf)
	e.buf = slices.Grow(e.buf, n)[:at+n]
	return at
}

// closeLiteral writes the open bit-packed run's header into the bytes
// reserved for it. The partial group must be empty.
func (e *RLEEncoder) closeLiteral() {
	if e.litAt < 0 {
		return
	}
	h := uint64(e.litGrp)<<1 | 1
	if e.litHdr == 1 {
		e.buf[e.litAt] = byte(h)
	} else {
		e.buf[e.litAt] = byte(h) | 0x80
		e.buf[e.litAt+1] = byte(h >> 7)
	}
	e.litAt = -1
}
