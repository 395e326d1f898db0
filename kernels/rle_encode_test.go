package kernels

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// rleRuleEncoder encodes by the rule arrow-go's encoder documents and
// follows: values go through groups of eight aligned to the end of the last
// repeated run; a group of eight equal values starts a repeated run that
// lasts while the value repeats; every other group is bit-packed, with one
// header byte reserved per bit-packed run, so at most 63 groups each; at the
// end a lone repeat is a repeated run and anything else is padded.
type rleRuleEncoder struct {
	out     []byte
	width   uint
	buf     []uint64
	cur     uint64
	repeat  int
	litAt   int // header offset of the open bit-packed run, or -1
	litGrps int
}

func rleRuleEncode(vals []uint64, width uint) []byte {
	e := &rleRuleEncoder{width: width, litAt: -1}
	for i, v := range vals {
		if i > 0 && v == e.cur {
			e.repeat++
			if e.repeat > 8 {
				continue
			}
		} else {
			if e.repeat >= 8 {
				e.flushRepeat()
			}
			e.repeat, e.cur = 1, v
		}
		e.buf = append(e.buf, v)
		if len(e.buf) == 8 {
			e.flushGroup()
		}
	}
	if e.repeat > 0 && e.litAt < 0 && (e.repeat == len(e.buf) || len(e.buf) == 0) {
		e.flushRepeat()
	} else if len(e.buf) > 0 || e.repeat > 0 {
		if e.repeat >= 8 {
			e.flushRepeat()
		} else {
			for len(e.buf) < 8 {
				e.buf = append(e.buf, 0)
			}
			e.flushGroup()
			e.closeLit()
		}
	}
	e.closeLit()
	return e.out
}

func (e *rleRuleEncoder) flushRepeat() {
	e.closeLit()
	e.out = binary.AppendUvarint(e.out, uint64(e.repeat)<<1)
	for i := range int(e.width+7) / 8 {
		e.out = append(e.out, byte(e.cur>>(8*i)))
	}
	e.repeat, e.buf = 0, e.buf[:0]
}

func (e *rleRuleEncoder) flushGroup() {
	if e.repeat >= 8 {
		e.buf = e.buf[:0]
		e.closeLit()
		return
	}
	if e.litAt < 0 {
		e.litAt, e.litGrps = len(e.out), 0
		e.out = append(e.out, 0)
	}
	b := make([]byte, e.width)
	bpRefPack(b, e.buf, e.width)
	e.out = append(e.out, b...)
	e.buf = e.buf[:0]
	e.litGrps++
	if e.litGrps == 63 {
		e.closeLit()
	}
	e.repeat = 0
}

func (e *rleRuleEncoder) closeLit() {
	if e.litAt >= 0 {
		e.out[e.litAt] = byte(e.litGrps<<1 | 1)
		e.litAt = -1
	}
}

// rleEncodeInputs returns named inputs of width bits: random, all zero, all
// maximal, alternating runs of many lengths, runs of 7, 8 and 9 behind
// literals of every phase, and a very long repeat.
func rleEncodeInputs(r *rand.Rand, width uint) map[string][]uint64 {
	maxV := uint64(1)<<width - 1
	rnd := func() uint64 { return r.Uint64() & maxV }
	in := map[string][]uint64{}
	n := 3000
	if testing.Short() {
		n = 600
	}
	random, zero, ones := make([]uint64, n), make([]uint64, n), make([]uint64, n)
	for i := range random {
		random[i], ones[i] = rnd(), maxV
	}
	in["random"], in["zero"], in["max"] = random, zero, ones
	for _, L := range []int{1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 24, 31, 63, 64, 65, 200} {
		var alt []uint64
		for len(alt) < n {
			v := rnd()
			for range L {
				alt = append(alt, v)
			}
		}
		in[fmt.Sprintf("runs-of-%d", L)] = alt
	}
	for lit := range 9 {
		for _, L := range []int{7, 8, 9} {
			var s []uint64
			for len(s) < n/4 {
				for range lit {
					s = append(s, rnd())
				}
				v := rnd()
				for range L {
					s = append(s, v)
				}
			}
			in[fmt.Sprintf("lit-%d-then-%d", lit, L)] = s
		}
	}
	mixed := make([]uint64, 0, n)
	for len(mixed) < n {
		k, v := 1+r.IntN(40), rnd()
		for range k {
			if r.IntN(3) == 0 {
				v = rnd()
			}
			mixed = append(mixed, v)
		}
	}
	in["mixed"] = mixed
	long := make([]uint64, 100000)
	for i := range long {
		long[i] = maxV
	}
	long[50000] = 0
	in["very-long"] = long
	for k := range 20 {
		in[fmt.Sprintf("short-%d", k)] = random[:k]
	}
	return in
}

func TestRLEEncode(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	var e RLEEncoder
	var d RLEDecoder
	widths := []uint{0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 12, 16, 17, 20, 24, 31, 32}
	if testing.Short() {
		widths = []uint{0, 1, 3, 8, 10, 32}
	}
	for _, w := range widths {
		for name, vals := range rleEncodeInputs(r, w) {
			u32 := make([]uint32, len(vals))
			for i, v := range vals {
				u32[i] = uint32(v)
			}
			prefix := []byte{0xee}
			if err := e.Reset(prefix, w); err != nil {
				t.Fatal(err)
			}
			// Feed in uneven batches so runs cross calls.
			for rest := u32; len(rest) > 0; {
				k := min(len(rest), 1+r.IntN(50))
				if err := e.PutUint32(rest[:k]); err != nil {
					t.Fatal(err)
				}
				rest = rest[k:]
			}
			out := e.Flush()
			if out[0] != 0xee {
				t.Fatalf("width %d %s: the prefix was overwritten", w, name)
			}
			enc := out[1:]
			got, ok := rleRefDecode(enc, w, len(vals))
			if !ok {
				t.Fatalf("width %d %s: encoded stream does not decode: %x", w, name, enc)
			}
			for i := range vals {
				if got[i] != vals[i] {
					t.Fatalf("width %d %s: value %d round-trips to %d from %d", w, name, i, got[i], vals[i])
				}
			}
			d.Reset(enc, w)
			back := make([]uint32, len(vals))
			if n, err := d.DecodeUint32(back); n != len(vals) || err != nil {
				t.Fatalf("width %d %s: RLEDecoder on encoder output: %d, %v", w, name, n, err)
			}
			rule := rleRuleEncode(vals, w)
			if len(enc) > len(rule) {
				t.Errorf("width %d %s: %d bytes, the rule's encoder writes %d", w, name, len(enc), len(rule))
			}
			if len(enc) > MaxRLEEncodedLen(len(vals), w) {
				t.Errorf("width %d %s: %d bytes, above MaxRLEEncodedLen %d", w, name, len(enc), MaxRLEEncodedLen(len(vals), w))
			}
			if w == 1 {
				bm := make([]byte, len(vals)/8+2)
				for i, v := range vals {
					setBit(bm, uint(i+3), v == 1)
				}
				e.Reset(nil, 1)
				if err := e.PutBitmap(bm, 3, len(vals)); err != nil {
					t.Fatal(err)
				}
				if fromBits := e.Flush(); !bytes.Equal(fromBits, enc) {
					t.Fatalf("%s: PutBitmap wrote %x, PutUint32 %x", name, fromBits, enc)
				}
			}
			if w <= 8 {
				lv, lv8 := make([]int16, len(vals)), make([]uint8, len(vals))
				for i, v := range vals {
					lv[i], lv8[i] = int16(v), uint8(v)
				}
				e.Reset(nil, w)
				e.PutLevels(lv)
				if got := e.Flush(); !bytes.Equal(got, enc) {
					t.Fatalf("width %d %s: PutLevels differs from PutUint32", w, name)
				}
				e.Reset(nil, w)
				e.PutLevelsUint8(lv8)
				if got := e.Flush(); !bytes.Equal(got, enc) {
					t.Fatalf("width %d %s: PutLevelsUint8 differs from PutUint32", w, name)
				}
			}
		}
	}
}

// checkRLEEncode encodes vals at width in batches split by r (through
// PutUint32, and for width 1 also PutBitmap) and fails unless the stream
// decodes to vals and is no larger than the rule's encoding or
// MaxRLEEncodedLen. It returns the stream's size and the rule's.
func checkRLEEncode(t *testing.T, r *rand.Rand, vals []uint64, width uint) (int, int) {
	t.Helper()
	var e RLEEncoder
	e.Reset(nil, width)
	u32 := make([]uint32, len(vals))
	for i, v := range vals {
		u32[i] = uint32(v)
	}
	for rest := u32; len(rest) > 0; {
		k := min(len(rest), 1+r.IntN(1+r.IntN(3000)))
		if err := e.PutUint32(rest[:k]); err != nil {
			t.Fatal(err)
		}
		rest = rest[k:]
	}
	enc := e.Flush()
	if got, ok := rleRefDecode(enc, width, len(vals)); !ok || !slices.Equal(got, vals) {
		t.Fatalf("width %d, %d values: the stream does not decode to them", width, len(vals))
	}
	rule := len(rleRuleEncode(vals, width))
	if len(enc) > rule || len(enc) > MaxRLEEncodedLen(len(vals), width) {
		t.Fatalf("width %d, %d values: %d bytes, the rule writes %d, MaxRLEEncodedLen %d", width, len(vals), len(enc), rule, MaxRLEEncodedLen(len(vals), width))
	}
	if width == 1 {
		bm := make([]byte, len(vals)/8+2)
		for i, v := range vals {
			setBit(bm, uint(i+5), v == 1)
		}
		e.Reset(nil, 1)
		for pos := 0; pos < len(vals); {
			k := min(len(vals)-pos, 1+r.IntN(1000))
			e.PutBitmap(bm, 5+pos, k)
			pos += k
		}
		if b := e.Flush(); !bytes.Equal(b, enc) {
			t.Fatalf("%d values: PutBitmap writes %d bytes, PutUint32 %d", len(vals), len(b), len(enc))
		}
	}
	return len(enc), rule
}

// rleShapeValues returns n values of width bits in one of several shapes,
// each a mix of runs of some length distribution and random values, with
// lengths chosen to land on the encoder's thresholds (7 to 9, 15 to 17,
// 63 to 65 groups) and its window sizes.
func rleShapeValues(r *rand.Rand, n int, width uint, shape int) []uint64 {
	maxV := uint64(1)<<width - 1
	out := make([]uint64, 0, n)
	for len(out) < n {
		var run, lit int
		switch shape {
		case 0: // short runs and stretches
			run, lit = r.IntN(10), r.IntN(10)
		case 1: // runs at the RLE thresholds behind literals of every phase
			run, lit = 6+r.IntN(5), r.IntN(9)
		case 2: // long bit-packed stretches between long runs
			run, lit = 500+r.IntN(3000), 8*(60+r.IntN(10))+r.IntN(8)
		case 3: // lone values between repeats
			run, lit = 20+r.IntN(200), 1+r.IntN(2)
		default: // anything
			run, lit = r.IntN(1+r.IntN(300)), r.IntN(1+r.IntN(600))
		}
		v := r.Uint64() & maxV
		for range min(run, n-len(out)) {
			out = append(out, v)
		}
		for range min(lit, n-len(out)) {
			out = append(out, r.Uint64()&maxV)
		}
	}
	return out
}

// TestRLEEncodeNeverAboveRule checks the encoder's guarantee over many
// seeds, widths and shapes: the stream round-trips and is never larger
// than the rule's.
func TestRLEEncodeNeverAboveRule(t *testing.T) {
	seeds, n := 60, 6000
	if testing.Short() {
		seeds, n = 12, 3000
	}
	smaller, total := 0, 0
	for seed := range seeds {
		r := rand.New(rand.NewPCG(uint64(seed), 77))
		for _, w := range []uint{1, 2, 3, 5, 8, 10, 13, 17, 24, 32} {
			for shape := range 5 {
				got, rule := checkRLEEncode(t, r, rleShapeValues(r, 1+r.IntN(n), w, shape), w)
				total++
				if got < rule {
					smaller++
				}
			}
		}
	}
	t.Logf("smaller than the rule in %d of %d streams", smaller, total)
}

// TestRLEEncodeSmaller pins cases where choosing runs by size beats the
// rule: width-1 repeats of 8 inside bit-packed data, and long bit-packed runs.
func TestRLEEncodeSmaller(t *testing.T) {
	var s []uint64
	for i := range 4000 {
		s = append(s, uint64(i/8%2^i%3%2))
	}
	var e RLEEncoder
	e.Reset(nil, 1)
	u := make([]uint32, len(s))
	for i, v := range s {
		u[i] = uint32(v)
	}
	e.PutUint32(u)
	if got, rule := len(e.Flush()), len(rleRuleEncode(s, 1)); got >= rule {
		t.Errorf("width 1: %d bytes, rule %d; want fewer", got, rule)
	}
}

func TestRLEEncodeErrors(t *testing.T) {
	var e RLEEncoder
	if err := e.Reset(nil, 33); !errors.Is(err, ErrOutOfRange) {
		t.Errorf("Reset(33) = %v", err)
	}
	e.Reset(nil, 3)
	if err := e.PutUint32([]uint32{1, 2, 8}); !errors.Is(err, ErrOutOfRange) {
		t.Errorf("PutUint32 of a 4-bit value at width 3 = %v", err)
	}
	// The values before a wide one are kept, after a run or in a stretch.
	for _, vals := range [][]uint32{{5, 5, 5, 9, 1}, {1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 12, 1}} {
		bad := slices.IndexFunc(vals, func(v uint32) bool { return v > 7 })
		e.Reset(nil, 3)
		if err := e.PutUint32(vals); !errors.Is(err, ErrOutOfRange) {
			t.Fatalf("PutUint32(%v) at width 3 = %v", vals, err)
		}
		if got, ok := rleRefDecode(e.Flush(), 3, bad); !ok || !slices.Equal(got, u64s(vals[:bad])) {
			t.Fatalf("PutUint32(%v) then Flush: %v, want the first %d values", vals, got, bad)
		}
	}
	e.Reset(nil, 3)
	if err := e.PutLevels([]int16{1, -1}); !errors.Is(err, ErrOutOfRange) {
		t.Errorf("PutLevels of -1 = %v", err)
	}
	if err := e.PutBitmap([]byte{1}, 0, 8); !errors.Is(err, ErrOutOfRange) {
		t.Errorf("PutBitmap at width 3 = %v", err)
	}
	e.Reset(nil, 1)
	if err := e.PutBitmap([]byte{1}, 3, 6); !errors.Is(err, ErrShortBuffer) {
		t.Errorf("PutBitmap past the bitmap = %v", err)
	}
}

// u64s widens values to uint64.
func u64s(vals []uint32) []uint64 {
	out := make([]uint64, len(vals))
	for i, v := range vals {
		out[i] = uint64(v)
	}
	return out
}

// rleEncodeShapes are the benchmark inputs of n values of width bits:
// mixed runs and stretches (rleMixed), long runs of 1000 to 5000 equal
// values, and random values with no repeats to speak of.
func rleEncodeShapes(n int, width uint) []struct {
	name string
	vals []uint32
} {
	r := rand.New(rand.NewPCG(uint64(n), uint64(width)+100))
	runs, random := make([]uint32, 0, n), make([]uint32, n)
	for len(runs) < n {
		v := uint32(r.Uint64N(1 << width))
		for range min(1000+r.IntN(4000), n-len(runs)) {
			runs = append(runs, v)
		}
	}
	for i := range random {
		random[i] = uint32(r.Uint64N(1 << width))
	}
	return []struct {
		name string
		vals []uint32
	}{{"mixed", rleMixed(n, width)}, {"long-runs", runs}, {"random", random}}
}

func BenchmarkRLEEncode(b *testing.B) {
	for _, w := range []uint{1, 10} {
		for _, c := range rleEncodeShapes(64*1024, w) {
			b.Run(fmt.Sprintf("width=%d/%s", w, c.name), func(b *testing.B) {
				dst := make([]byte, 0, MaxRLEEncodedLen(len(c.vals), w))
				var e RLEEncoder
				b.SetBytes(int64(4 * len(c.vals)))
				b.ReportAllocs()
				for b.Loop() {
					e.Reset(dst, w)
					e.PutUint32(c.vals)
					e.Flush()
				}
				b.ReportMetric(float64(b.N*len(c.vals))/b.Elapsed().Seconds(), "values/s")
			})
		}
	}
}
