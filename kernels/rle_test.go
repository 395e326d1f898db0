package kernels

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// rleRefDecode is the plainest hybrid decoder: it reads n values a bit at a
// time and reports false where the stream cannot supply them, with the same
// leniency as RLEDecoder (zero-length runs, a final bit-packed run shorter
// than declared when its missing values are not wanted).
func rleRefDecode(src []byte, width uint, n int) ([]uint64, bool) {
	var out []uint64
	pos := 0
	for len(out) < n {
		var h uint64
		for i := 0; ; i++ {
			if pos >= len(src) || i == 5 {
				return out, false
			}
			b := src[pos]
			pos++
			h |= uint64(b&0x7f) << (7 * i)
			if b < 0x80 {
				break
			}
		}
		count := int(h >> 1)
		if h>>1 > math.MaxInt32 {
			return out, false
		}
		if h&1 == 0 {
			vb := int(width+7) / 8
			if pos+vb > len(src) {
				return out, false
			}
			var v uint64
			for i := range vb {
				v |= uint64(src[pos+i]) << (8 * i)
			}
			if v>>width != 0 {
				return out, false
			}
			pos += vb
			for j := 0; j < count && len(out) < n; j++ {
				out = append(out, v)
			}
			continue
		}
		if count*8 > math.MaxInt32 {
			return out, false
		}
		for j := 0; j < count*8 && len(out) < n; j++ {
			start := uint(pos)*8 + uint(j)*width
			if start+width > uint(len(src))*8 {
				return out, false
			}
			var v uint64
			for k := uint(0); k < width; k++ {
				b := start + k
				v |= uint64(src[b/8]>>(b%8)&1) << k
			}
			out = append(out, v)
		}
		pos += count * int(width)
	}
	return out, true
}

// rleRun is one run of a test stream: count copies of val, or vals
// bit-packed (padded with zeros to a whole group).
type rleRun struct {
	packed bool
	val    uint64
	count  int
	vals   []uint64
}

// rleBuild writes runs as a hybrid stream of width bits and returns it with
// the values it holds (padding excluded).
func rleBuild(width uint, runs []rleRun) ([]byte, []uint64) {
	var out []byte
	var vals []uint64
	for _, r := range runs {
		if !r.packed {
			out = binary.AppendUvarint(out, uint64(r.count)<<1)
			for i := range int(width+7) / 8 {
				out = append(out, byte(r.val>>(8*i)))
			}
			for range r.count {
				vals = append(vals, r.val)
			}
			continue
		}
		groups := (len(r.vals) + 7) / 8
		out = binary.AppendUvarint(out, uint64(groups)<<1|1)
		padded := make([]uint64, groups*8)
		copy(padded, r.vals)
		b := make([]byte, groups*int(width))
		bpRefPack(b, padded, width)
		out = append(out, b...)
		vals = append(vals, r.vals...)
	}
	return out, vals
}

// rleRandomRuns returns runs of every kind the decoder must handle: repeats
// of 1, 7, 8, 9 and a few hundred values, one very long repeat, and
// bit-packed runs of 1 to 20 groups, with values below bound (at most
// 1<<width). Only the last bit-packed run may be padded.
func rleRandomRuns(r *rand.Rand, width uint, bound uint64, nruns int) []rleRun {
	val := func() uint64 {
		if bound == 0 {
			return 0
		}
		return r.Uint64N(bound)
	}
	var runs []rleRun
	for i := range nruns {
		switch r.IntN(6) {
		case 0, 1:
			runs = append(runs, rleRun{val: val(), count: []int{1, 7, 8, 9, 1 + r.IntN(300)}[r.IntN(5)]})
		case 2:
			if i%16 == 5 {
				runs = append(runs, rleRun{val: val(), count: 20000 + r.IntN(50000)})
				continue
			}
			fallthrough
		default:
			vs := make([]uint64, 8*(1+r.IntN(20)))
			if i == nruns-1 {
				vs = vs[:len(vs)-r.IntN(8)]
			}
			for j := range vs {
				vs[j] = val()
			}
			runs = append(runs, rleRun{packed: true, vals: vs})
		}
	}
	return runs
}

// rleBatches yields random batch sizes summing to n: mostly small, so that
// batches end inside runs and inside groups, sometimes large.
func rleBatches(r *rand.Rand, n int) []int {
	var bs []int
	for n > 0 {
		k := 1 + r.IntN(20)
		if r.IntN(4) == 0 {
			k = 1 + r.IntN(3000)
		}
		k = min(k, n)
		bs = append(bs, k)
		n -= k
	}
	return bs
}

func rleStreams() int {
	if testing.Short() {
		return 2
	}
	return 6
}

func TestRLEDecodeUint32(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, im := range unpack32Impls {
		for w := uint(0); w <= 32; w++ {
			for s := range rleStreams() {
				src, want := rleBuild(w, rleRandomRuns(r, w, 1<<w, 40))
				var d RLEDecoder
				d.Reset(src, w)
				got := make([]uint32, len(want)+1)
				got[len(want)] = bpCanary
				n := 0
				for _, k := range rleBatches(r, len(want)) {
					if s%2 == 1 && r.IntN(3) == 0 {
						m, err := d.Skip(k)
						if m != k || err != nil {
							t.Fatalf("%s width %d: Skip(%d) = %d, %v", im.name, w, k, m, err)
						}
						for i := n; i < n+k; i++ {
							got[i] = uint32(want[i])
						}
					} else if m, err := rleDecode(&d, got[n:n+k], 1<<32, im.fn); m != k || err != nil {
						t.Fatalf("%s width %d: decode %d at %d = %d, %v", im.name, w, k, n, m, err)
					}
					n += k
				}
				for i, v := range want {
					if uint64(got[i]) != v {
						t.Fatalf("%s width %d stream %d: value %d = %d, want %d", im.name, w, s, i, got[i], v)
					}
				}
				if got[len(want)] != bpCanary {
					t.Fatalf("%s width %d: wrote past dst", im.name, w)
				}
				// One more value than the stream holds (bar padding) is an error.
				if m, err := d.DecodeUint32(make([]uint32, 9)); err == nil || !errors.Is(err, ErrCorrupt) || m > 8 {
					t.Fatalf("%s width %d: decoding past the end = %d, %v", im.name, w, m, err)
				}
			}
		}
	}
}

func TestRLEDecodeLevels(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for w := uint(0); w <= 16; w++ {
		maxLevel := int16(min(1<<w-1, math.MaxInt16) - r.IntN(2)*min(1<<w-1, 3))
		src, want := rleBuild(w, rleRandomRuns(r, w, uint64(maxLevel)+1, 30))
		var d RLEDecoder
		d.Reset(src, w)
		got := make([]int16, len(want))
		if n, err := d.DecodeLevels(got, maxLevel); n != len(want) || err != nil {
			t.Fatalf("width %d: DecodeLevels = %d, %v", w, n, err)
		}
		for i, v := range want {
			if uint64(got[i]) != v {
				t.Fatalf("width %d: level %d = %d, want %d", w, i, got[i], v)
			}
		}
		if w <= 8 {
			d.Reset(src, w)
			got8 := make([]uint8, len(want))
			if n, err := d.DecodeLevelsUint8(got8, uint8(maxLevel)); n != len(want) || err != nil {
				t.Fatalf("width %d: DecodeLevelsUint8 = %d, %v", w, n, err)
			}
			for i, v := range want {
				if uint64(got8[i]) != v {
					t.Fatalf("width %d: uint8 level %d = %d, want %d", w, i, got8[i], v)
				}
			}
		}
	}
}

// TestRLEBounds checks values above the caller's bound, in repeated and in
// bit-packed runs, for indices and levels.
func TestRLEBounds(t *testing.T) {
	src, _ := rleBuild(4, []rleRun{{val: 3, count: 5}, {packed: true, vals: []uint64{1, 2, 9, 1, 1, 1, 1, 1}}, {val: 12, count: 3}})
	var d RLEDecoder
	d.Reset(src, 4)
	dst := make([]uint32, 20)
	if n, err := d.DecodeIndices(dst, 9); n != 7 || !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("DecodeIndices = %d, %v; want 7, ErrOutOfRange", n, err)
	}
	d.Reset(src, 4)
	if n, err := d.DecodeIndices(dst[:16], 12); n != 13 || !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("DecodeIndices = %d, %v; want 13, ErrOutOfRange", n, err)
	}
	d.Reset(src, 4)
	if n, err := d.DecodeIndices(dst[:16], 13); n != 16 || err != nil {
		t.Fatalf("DecodeIndices = %d, %v; want 16, nil", n, err)
	}
	lv := make([]int16, 16)
	d.Reset(src, 4)
	if n, err := d.DecodeLevels(lv, 3); n != 7 || !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("DecodeLevels = %d, %v; want 7, ErrOutOfRange", n, err)
	}
	d.Reset(src, 4)
	if n, err := d.DecodeLevelsUint8(make([]uint8, 16), 15); n != 16 || err != nil {
		t.Fatalf("DecodeLevelsUint8 = %d, %v; want 16, nil", n, err)
	}
	for _, c := range []struct {
		name string
		call func() (int, error)
	}{
		{"indices/wide", func() (int, error) { d.Reset(src, 33); return d.DecodeIndices(dst, 5) }},
		{"indices/negative", func() (int, error) { d.Reset(src, 4); return d.DecodeIndices(dst, -1) }},
		{"uint32/wide", func() (int, error) { d.Reset(src, 33); return d.DecodeUint32(dst) }},
		{"levels/wide", func() (int, error) { d.Reset(src, 17); return d.DecodeLevels(lv, 3) }},
		{"levels/negative", func() (int, error) { d.Reset(src, 4); return d.DecodeLevels(lv, -1) }},
		{"levels8/wide", func() (int, error) { d.Reset(src, 9); return d.DecodeLevelsUint8(make([]uint8, 3), 3) }},
		{"bitmap/width", func() (int, error) { d.Reset(src, 4); return d.DecodeBitmap(make([]byte, 4), 0, 3) }},
		{"skip/wide", func() (int, error) { d.Reset(src, 33); return d.Skip(3) }},
	} {
		if n, err := c.call(); n != 0 || !errors.Is(err, ErrOutOfRange) {
			t.Errorf("%s: %d, %v; want ErrOutOfRange", c.name, n, err)
		}
	}
	// An empty dictionary admits no index, even at width 0.
	d.Reset([]byte{2 << 1}, 0)
	if n, err := d.DecodeIndices(dst[:1], 0); n != 0 || !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("index into empty dictionary = %d, %v", n, err)
	}
}

// TestRLEMalformed compares decoder and reference on every prefix of valid
// streams and on hand-made hostile headers.
func TestRLEMalformed(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, w := range []uint{0, 1, 3, 8, 13, 32} {
		src, want := rleBuild(w, rleRandomRuns(r, w, 1<<w, 6))
		n := min(len(want), 2000)
		for cut := 0; cut <= len(src); cut++ {
			checkAgainstRef(t, src[:cut], w, n)
		}
	}
	hostile := []struct {
		name  string
		src   []byte
		width uint
	}{
		{"varint too long", []byte{0x81, 0x80, 0x80, 0x80, 0x80, 0x01, 1}, 1},
		{"rle run above 2^31-1", []byte{0x80, 0x80, 0x80, 0x80, 0x10, 1}, 1},
		{"rle run 2^31-1", []byte{0xfe, 0xff, 0xff, 0xff, 0x0f, 1}, 1},
		{"bit-packed 2^28 groups, few bytes", []byte{0xff, 0xff, 0xff, 0xff, 0x01, 0xaa, 0x55}, 3},
		{"bit-packed above 2^31-1 values", []byte{0x81, 0x80, 0x80, 0x80, 0x02, 0xaa}, 1},
		{"zero-length runs", []byte{0, 5, 1, 0, 1, 2, 1}, 1},
		{"value wider than width", []byte{4, 5}, 2},
		{"value cut off", []byte{4, 5}, 9},
		{"header cut off", []byte{0x80}, 1},
		{"empty", nil, 1},
	}
	for _, h := range hostile {
		for _, n := range []int{0, 1, 2, 3, 10, 1000} {
			t.Run(fmt.Sprintf("%s/%d", h.name, n), func(t *testing.T) { checkAgainstRef(t, h.src, h.width, n) })
		}
	}
}

// checkAgainstRef decodes n values of src both ways and fails unless both
// succeed with the same values or both fail, the decoder with ErrCorrupt or
// (for a bad width) ErrOutOfRange.
func checkAgainstRef(t *testing.T, src []byte, width uint, n int) {
	t.Helper()
	want, ok := rleRefDecode(src, width, n)
	var d RLEDecoder
	d.Reset(src, width)
	got := make([]uint32, n)
	m, err := d.DecodeUint32(got)
	if ok != (err == nil) || (err != nil && !errors.Is(err, ErrCorrupt)) {
		t.Fatalf("width %d n %d src %x: decoder %d, %v; reference ok %v", width, n, src, m, err, ok)
	}
	if ok && m != n || !ok && m != len(want) {
		t.Fatalf("width %d n %d src %x: decoded %d, reference %d (ok %v)", width, n, src, m, len(want), ok)
	}
	for i := range m {
		if uint64(got[i]) != want[i] {
			t.Fatalf("width %d src %x: value %d = %d, want %d", width, src, i, got[i], want[i])
		}
	}
}

// bitmapRef returns bit i of b.
func bitmapRef(b []byte, i int) bool { return b[i/8]>>(i%8)&1 == 1 }

func TestRLEDecodeBitmap(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for s := range 3 * rleStreams() {
		src, want := rleBuild(1, rleRandomRuns(r, 1, 2, 40))
		for _, off := range []int{0, 1, 5, 8, 13} {
			// Exactly the bytes the bits reach on even streams, more on odd.
			dst := make([]byte, (off+len(want)+7)/8+s%2*3)
			for i := range dst {
				dst[i] = byte(r.Uint32())
			}
			orig := slices.Clone(dst)
			var d RLEDecoder
			d.Reset(src, 1)
			set, n := 0, 0
			for _, k := range rleBatches(r, len(want)) {
				c, err := d.DecodeBitmap(dst, off+n, k)
				if err != nil {
					t.Fatalf("stream %d off %d: DecodeBitmap(%d at %d): %v", s, off, k, n, err)
				}
				set += c
				n += k
			}
			wantSet := 0
			for i := range 8 * len(dst) {
				exp := bitmapRef(orig, i)
				if i >= off && i < off+len(want) {
					exp = want[i-off] == 1
					wantSet += int(want[i-off])
				}
				if bitmapRef(dst, i) != exp {
					t.Fatalf("stream %d off %d: bit %d = %v, want %v", s, off, i, !exp, exp)
				}
			}
			if set != wantSet {
				t.Fatalf("stream %d off %d: %d set bits reported, want %d", s, off, set, wantSet)
			}
			nulls, err := DefLevelsToBitmap(dst, off, src, len(want))
			if err != nil || nulls != len(want)-wantSet {
				t.Fatalf("DefLevelsToBitmap = %d, %v; want %d nulls", nulls, err, len(want)-wantSet)
			}
		}
		if _, err := DefLevelsToBitmap(make([]byte, len(want)/8+2), 0, src, len(want)+9); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("DefLevelsToBitmap past the end: %v", err)
		}
	}
	if _, err := DefLevelsToBitmap(make([]byte, 1), 1, []byte{16, 1}, 8); !errors.Is(err, ErrShortBuffer) {
		t.Fatalf("DefLevelsToBitmap into a short bitmap: %v", err)
	}
}

func TestRLEAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	src10, want10 := rleBuild(10, rleRandomRuns(r, 10, 1000, 30))
	src1, want1 := rleBuild(1, rleRandomRuns(r, 1, 2, 30))
	idx, lv := make([]uint32, len(want10)), make([]int16, len(want1))
	bm := make([]byte, len(want1)/8+2)
	enc := make([]byte, 0, MaxRLEEncodedLen(len(idx), 10))
	var d RLEDecoder
	var e RLEEncoder
	if a := testing.AllocsPerRun(10, func() {
		d.Reset(src10, 10)
		d.DecodeIndices(idx, 1000)
		d.Reset(src1, 1)
		d.DecodeLevels(lv, 1)
		DefLevelsToBitmap(bm, 3, src1, len(want1))
		e.Reset(enc[:0], 10)
		e.PutUint32(idx)
		e.Flush()
	}); a != 0 {
		t.Errorf("RLE decode/encode allocates %v times", a)
	}
}

// rleMixed returns n values of width bits in runs: half the time a repeat
// of 1 to 64 values, otherwise 8 to 64 random values.
func rleMixed(n int, width uint) []uint32 {
	r := rand.New(rand.NewPCG(uint64(n), uint64(width)))
	out := make([]uint32, 0, n)
	for len(out) < n {
		k := min(1+r.IntN(64), n-len(out))
		if r.IntN(2) == 0 {
			v := uint32(r.Uint64N(1 << width))
			for range k {
				out = append(out, v)
			}
		} else {
			for range max(k, min(8, n-len(out))) {
				out = append(out, uint32(r.Uint64N(1<<width)))
			}
		}
	}
	return out
}

func BenchmarkRLEIndices(b *testing.B) {
	for _, w := range []uint{1, 4, 10, 16, 20} {
		b.Run(fmt.Sprintf("width=%d", w), func(b *testing.B) {
			vals := rleMixed(64*1024, w)
			var e RLEEncoder
			e.Reset(nil, w)
			e.PutUint32(vals)
			src := e.Flush()
			dst := make([]uint32, len(vals))
			b.SetBytes(int64(4 * len(dst)))
			b.ReportAllocs()
			var d RLEDecoder
			for b.Loop() {
				d.Reset(src, w)
				if _, err := d.DecodeIndices(dst, 1<<w); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*len(dst))/b.Elapsed().Seconds(), "values/s")
		})
	}
}

func BenchmarkRLELevels(b *testing.B) {
	vals := rleMixed(64*1024, 2)
	var e RLEEncoder
	e.Reset(nil, 2)
	e.PutUint32(vals)
	src := e.Flush()
	dst := make([]int16, len(vals))
	b.SetBytes(int64(2 * len(dst)))
	b.ReportAllocs()
	var d RLEDecoder
	for b.Loop() {
		d.Reset(src, 2)
		if _, err := d.DecodeLevels(dst, 3); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(dst))/b.Elapsed().Seconds(), "values/s")
}

func BenchmarkDefLevelsToBitmap(b *testing.B) {
	for _, c := range []struct {
		name string
		vals []uint32
	}{{"mixed", rleMixed(64*1024, 1)}, {"sparse-nulls", rleSparse(64*1024, 200)}} {
		b.Run(c.name, func(b *testing.B) {
			var e RLEEncoder
			e.Reset(nil, 1)
			e.PutUint32(c.vals)
			src := e.Flush()
			dst := make([]byte, len(c.vals)/8+1)
			b.SetBytes(int64(len(dst)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := DefLevelsToBitmap(dst, 3, src, len(c.vals)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*len(c.vals))/b.Elapsed().Seconds(), "values/s")
		})
	}
}

// rleSparse returns n definition levels, 1 but for a null about every gap.
func rleSparse(n, gap int) []uint32 {
	r := rand.New(rand.NewPCG(uint64(n), uint64(gap)))
	out := make([]uint32, n)
	for i := range out {
		out[i] = uint32(min(1, r.IntN(gap)))
	}
	return out
}
