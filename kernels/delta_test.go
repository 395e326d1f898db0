package kernels

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// deltaShape describes how testDeltaStream lays out a stream.
type deltaShape struct {
	blockSize, miniBlocks int
	garbageWidths         bool // unused miniblocks get widths 1..255 instead of 0
	garbagePadding        bool // padding bits of the last miniblock are random
	extraWidth            int  // added to every used miniblock's minimal width
}

// testDeltaStream is a plain, independent DELTA_BINARY_PACKED writer for
// tests: values are taken mod 2^bitSize and written with any block shape.
func testDeltaStream(r *rand.Rand, values []uint64, bitSize int, s deltaShape) []byte {
	mask := uint64(math.MaxUint64) >> (64 - bitSize)
	signExt := func(v uint64) int64 { return int64(v<<(64-bitSize)) >> (64 - bitSize) }
	zz := func(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }
	var out []byte
	out = binary.AppendUvarint(out, uint64(s.blockSize))
	out = binary.AppendUvarint(out, uint64(s.miniBlocks))
	out = binary.AppendUvarint(out, uint64(len(values)))
	first := uint64(0)
	if len(values) > 0 {
		first = values[0] & mask
	}
	out = binary.AppendUvarint(out, zz(signExt(first)))
	vpm := s.blockSize / s.miniBlocks
	for i := 1; i < len(values); i += s.blockSize {
		blk := values[i:min(i+s.blockSize, len(values))]
		deltas := make([]uint64, len(blk))
		minD := int64(math.MaxInt64)
		for j := range blk {
			deltas[j] = (blk[j] - values[i+j-1]) & mask
			minD = min(minD, signExt(deltas[j]))
		}
		out = binary.AppendUvarint(out, zz(minD))
		var body []byte
		for m := range s.miniBlocks {
			lo := m * vpm
			if lo >= len(blk) {
				w := byte(0)
				if s.garbageWidths {
					w = byte(1 + r.IntN(255))
				}
				out = append(out, w)
				continue
			}
			mini := make([]uint64, vpm)
			w := 0
			for j := lo; j < min(lo+vpm, len(blk)); j++ {
				mini[j-lo] = (deltas[j] - uint64(minD)) & mask
				w = max(w, bits.Len64(mini[j-lo]))
			}
			w = min(w+s.extraWidth, bitSize)
			for j := len(blk) - lo; j < vpm && s.garbagePadding && w > 0; j++ {
				mini[j] = r.Uint64() & (uint64(math.MaxUint64) >> (64 - w))
			}
			out = append(out, byte(w))
			body = append(body, testPackLSB(mini, w)...)
		}
		out = append(out, body...)
	}
	return out
}

// testPackLSB packs values of width bits LSB first, one bit at a time.
func testPackLSB(vals []uint64, w int) []byte {
	out := make([]byte, (len(vals)*w+7)/8)
	bit := 0
	for _, v := range vals {
		for k := range w {
			if v>>k&1 == 1 {
				out[bit/8] |= 1 << (bit % 8)
			}
			bit++
		}
	}
	return out
}

// deltaValues returns n test values of one of several patterns.
func deltaValues(r *rand.Rand, n, pattern int) []uint64 {
	v := make([]uint64, n)
	acc := r.Uint64()
	for i := range v {
		switch pattern {
		case 0: // random over the full range: wrapping deltas, widest miniblocks
			v[i] = r.Uint64()
		case 1: // small steps up and down
			acc += uint64(r.IntN(200) - 100)
			v[i] = acc
		case 2: // constant
			v[i] = acc
		case 3: // alternating extremes of both widths
			v[i] = []uint64{math.MaxInt32, 1 << 31, math.MaxInt64, 1 << 63, 0, math.MaxUint64}[r.IntN(6)]
		case 4: // sorted with occasional jumps
			acc += uint64(r.IntN(4))
			if r.IntN(50) == 0 {
				acc += r.Uint64() >> 8
			}
			v[i] = acc
		}
	}
	return v
}

func testDeltaShapes() []deltaShape {
	return []deltaShape{
		{blockSize: 128, miniBlocks: 4},
		{blockSize: 128, miniBlocks: 1},
		{blockSize: 128, miniBlocks: 2, garbageWidths: true, garbagePadding: true},
		{blockSize: 256, miniBlocks: 8, garbageWidths: true},
		{blockSize: 256, miniBlocks: 2, garbagePadding: true, extraWidth: 3},
		{blockSize: 384, miniBlocks: 3, garbageWidths: true, garbagePadding: true},
		{blockSize: 1024, miniBlocks: 16, garbagePadding: true},
	}
}

func TestDeltaBinaryPackedShapes(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, s := range testDeltaShapes() {
		t.Run(fmt.Sprintf("block=%d/mini=%d/garbage=%v,%v/extra=%d", s.blockSize, s.miniBlocks, s.garbageWidths, s.garbagePadding, s.extraWidth), func(t *testing.T) {
			for _, n := range testLengths(t) {
				vals := deltaValues(r, n, n%5)
				// int32
				src := testDeltaStream(r, vals, 32, s)
				src = append(src, 0xde, 0xad) // what follows the stream in a page
				got := make([]int32, n)
				used, err := DeltaBinaryPackedInt32(got, src)
				if err != nil {
					t.Fatalf("int32 n=%d: %v", n, err)
				}
				if used != len(src)-2 {
					t.Fatalf("int32 n=%d: consumed %d of %d", n, used, len(src)-2)
				}
				for i := range got {
					if got[i] != int32(vals[i]) {
						t.Fatalf("int32 n=%d: value %d = %d, want %d", n, i, got[i], int32(vals[i]))
					}
				}
				// int64
				src = testDeltaStream(r, vals, 64, s)
				got64 := make([]int64, n)
				used, err = DeltaBinaryPackedInt64(got64, src)
				if err != nil {
					t.Fatalf("int64 n=%d: %v", n, err)
				}
				if used != len(src) {
					t.Fatalf("int64 n=%d: consumed %d of %d", n, used, len(src))
				}
				for i := range got64 {
					if got64[i] != int64(vals[i]) {
						t.Fatalf("int64 n=%d: value %d = %d, want %d", n, i, got64[i], int64(vals[i]))
					}
				}
			}
		})
	}
}

func TestDeltaBinaryPackedRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range testLengths(t) {
		for pattern := range 5 {
			vals := deltaValues(r, n, pattern)
			v32 := make([]int32, n)
			v64 := make([]int64, n)
			for i, v := range vals {
				v32[i], v64[i] = int32(v), int64(v)
			}
			enc32 := AppendDeltaBinaryPackedInt32([]byte{7}, v32)[1:]
			// Same shape and minimal widths: the independent writer's bytes.
			if want := testDeltaStream(r, vals, 32, deltaShape{blockSize: 128, miniBlocks: 4}); !slices.Equal(enc32, want) {
				t.Fatalf("int32 n=%d pattern=%d: encoding differs from the reference writer", n, pattern)
			}
			if len(enc32) > DeltaBinaryPackedBound(n, 32) {
				t.Fatalf("int32 n=%d: %d bytes above bound %d", n, len(enc32), DeltaBinaryPackedBound(n, 32))
			}
			got32 := make([]int32, n)
			if used, err := DeltaBinaryPackedInt32(got32, enc32); err != nil || used != len(enc32) || !slices.Equal(got32, v32) {
				t.Fatalf("int32 n=%d pattern=%d: round trip: used %d of %d, %v", n, pattern, used, len(enc32), err)
			}
			enc64 := AppendDeltaBinaryPackedInt64(nil, v64)
			if want := testDeltaStream(r, vals, 64, deltaShape{blockSize: 128, miniBlocks: 4}); !slices.Equal(enc64, want) {
				t.Fatalf("int64 n=%d pattern=%d: encoding differs from the reference writer", n, pattern)
			}
			if len(enc64) > DeltaBinaryPackedBound(n, 64) {
				t.Fatalf("int64 n=%d: %d bytes above bound %d", n, len(enc64), DeltaBinaryPackedBound(n, 64))
			}
			got64 := make([]int64, n)
			if used, err := DeltaBinaryPackedInt64(got64, enc64); err != nil || used != len(enc64) || !slices.Equal(got64, v64) {
				t.Fatalf("int64 n=%d pattern=%d: round trip: used %d of %d, %v", n, pattern, used, len(enc64), err)
			}
		}
	}
}

func TestDeltaBinaryPackedWrapping(t *testing.T) {
	cases := [][]int32{
		{math.MinInt32, math.MaxInt32, math.MinInt32, math.MaxInt32},
		{math.MaxInt32, math.MinInt32, 0, -1, math.MaxInt32},
		{0, math.MaxInt32, -math.MaxInt32, math.MinInt32},
	}
	for _, vals := range cases {
		enc := AppendDeltaBinaryPackedInt32(nil, vals)
		got := make([]int32, len(vals))
		if _, err := DeltaBinaryPackedInt32(got, enc); err != nil || !slices.Equal(got, vals) {
			t.Fatalf("%v: got %v, %v", vals, got, err)
		}
	}
	cases64 := [][]int64{
		{math.MinInt64, math.MaxInt64, math.MinInt64, math.MaxInt64},
		{math.MaxInt64, math.MinInt64, 0, -1, math.MaxInt64},
	}
	for _, vals := range cases64 {
		enc := AppendDeltaBinaryPackedInt64(nil, vals)
		got := make([]int64, len(vals))
		if _, err := DeltaBinaryPackedInt64(got, enc); err != nil || !slices.Equal(got, vals) {
			t.Fatalf("%v: got %v, %v", vals, got, err)
		}
	}
	// A hand-built int32 stream whose first value and min delta only make
	// sense wrapped: first MaxInt32, min delta +1 (zigzag 2), width 0, so
	// every later value wraps to MinInt32 and counts up.
	src := []byte{0x80, 0x01, 4, 3, 0xfe, 0xff, 0xff, 0xff, 0x0f, 2, 0, 0, 0, 0}
	got := make([]int32, 3)
	if _, err := DeltaBinaryPackedInt32(got, src); err != nil || !slices.Equal(got, []int32{math.MaxInt32, math.MinInt32, math.MinInt32 + 1}) {
		t.Fatalf("wrapped stream: got %v, %v", got, err)
	}
}

// The spec's examples, with a legal block size of 128 in one miniblock.
func TestDeltaBinaryPackedSpecExamples(t *testing.T) {
	// 1, 2, 3, 4, 5: min delta 1, width 0.
	src := []byte{0x80, 0x01, 1, 5, 2, 2, 0}
	got := make([]int32, 5)
	if used, err := DeltaBinaryPackedInt32(got, src); err != nil || used != len(src) || !slices.Equal(got, []int32{1, 2, 3, 4, 5}) {
		t.Fatalf("example 1: got %v, used %d, %v", got, used, err)
	}
	// 7, 5, 3, 1, 2, 3, 4, 5: min delta -2, width 2, relative 0,0,0,3,3,3,3.
	src = []byte{0x80, 0x01, 1, 8, 14, 3, 2, 0b11000000, 0b00111111}
	src = append(src, make([]byte, 128*2/8-2)...)
	got = make([]int32, 8)
	if used, err := DeltaBinaryPackedInt32(got, src); err != nil || used != len(src) || !slices.Equal(got, []int32{7, 5, 3, 1, 2, 3, 4, 5}) {
		t.Fatalf("example 2: got %v, used %d, %v", got, used, err)
	}
}

func TestDeltaBinaryPackedPartial(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	vals := deltaValues(r, 1000, 1)
	src := testDeltaStream(r, vals, 64, deltaShape{blockSize: 256, miniBlocks: 8, garbageWidths: true})
	for _, k := range []int{0, 1, 2, 100, 256, 257, 999, 1000} {
		got := make([]int64, k)
		used, err := DeltaBinaryPackedInt64(got, src)
		if err != nil || used != len(src) {
			t.Fatalf("k=%d: used %d of %d, %v", k, used, len(src), err)
		}
		for i := range got {
			if got[i] != int64(vals[i]) {
				t.Fatalf("k=%d: value %d differs", k, i)
			}
		}
	}
	if _, err := DeltaBinaryPackedInt64(make([]int64, 1001), src); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("asking for more values than the stream holds: %v", err)
	}
	h, err := ParseDeltaHeader(src)
	if err != nil || h.Count != 1000 || h.BlockSize != 256 || h.MiniBlocks != 8 || h.First != int64(vals[0]) {
		t.Fatalf("header %+v, %v", h, err)
	}
}

func TestDeltaBinaryPackedTruncated(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for _, n := range []int{1, 2, 33, 129, 300} {
		vals := deltaValues(r, n, 1)
		full := testDeltaStream(r, vals, 32, deltaShape{blockSize: 128, miniBlocks: 4})
		errs := 0
		for cut := range len(full) {
			got := make([]int32, n)
			used, err := DeltaBinaryPackedInt32(got, full[:cut])
			if err != nil {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("n=%d cut=%d: %v does not wrap ErrCorrupt", n, cut, err)
				}
				errs++
				continue
			}
			// Only the last miniblock's padding may be missing.
			if used != cut {
				t.Fatalf("n=%d cut=%d: consumed %d", n, cut, used)
			}
			for i := range got {
				if got[i] != int32(vals[i]) {
					t.Fatalf("n=%d cut=%d: value %d differs", n, cut, i)
				}
			}
		}
		if n > 1 && errs < len(full)/2 {
			t.Fatalf("n=%d: only %d of %d truncations rejected", n, errs, len(full))
		}
	}
}

func TestDeltaBinaryPackedHostile(t *testing.T) {
	uv := func(vs ...uint64) []byte {
		var b []byte
		for _, v := range vs {
			b = binary.AppendUvarint(b, v)
		}
		return b
	}
	cases := []struct {
		name string
		src  []byte
		n    int
	}{
		{"empty", nil, 0},
		{"block size 0", uv(0, 1, 0, 0), 0},
		{"block size 100", uv(100, 1, 1, 0), 0},
		{"block size 2^40", uv(1<<40, 1, 1, 0), 0},
		{"no miniblocks", uv(128, 0, 1, 0), 0},
		{"miniblocks not dividing", uv(128, 3, 1, 0), 0},
		{"16-value miniblocks", uv(128, 8, 1, 0), 0},
		{"count above int32", uv(128, 4, 1<<31, 0), 0},
		{"overlong varint", append(uv(128, 4, 5), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), 1},
		{"truncated first value", append(uv(128, 4, 5), 0x80), 1},
		{"missing block", uv(128, 4, 5, 0), 5},
		{"missing widths", uv(128, 4, 5, 0, 0, 0), 5},
		{"width 33", append(uv(128, 4, 5, 0, 0), 33, 0, 0, 0), 5},
		{"huge count, tiny input", uv(1<<20*128, 1, math.MaxInt32, 0, 0, 0), 10},
		{"huge count, zero widths", append(uv(128, 1, math.MaxInt32, 0), 0, 0, 0, 0, 0, 0, 0, 0), 3},
		{"missing miniblock bytes", append(uv(128, 4, 65, 0, 0), 8, 8, 0, 0), 65},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := DeltaBinaryPackedInt32(make([]int32, c.n), c.src); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("int32: got %v", err)
			}
			if c.name == "width 33" {
				// 33 bits is fine for INT64 streams; the stream is then
				// only short of miniblock bytes.
				return
			}
			if _, err := DeltaBinaryPackedInt64(make([]int64, c.n), c.src); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("int64: got %v", err)
			}
		})
	}
	if _, err := DeltaBinaryPackedInt64(make([]int64, 5), append(uv(128, 4, 5, 0, 0), 65, 0, 0, 0)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("width 65: got %v", err)
	}
}

func TestDeltaPrefixSumImpls(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for _, im := range deltaPrefixSum32Impls {
		t.Run("32/"+im.name, func(t *testing.T) {
			for _, n := range testLengths(t) {
				v := make([]uint32, n)
				for i := range v {
					v[i] = r.Uint32()
				}
				want := slices.Clone(v)
				last, md := r.Uint32(), r.Uint32()
				wantLast := last
				for i := range want {
					wantLast = wantLast + want[i] + md
					want[i] = wantLast
				}
				if got := im.fn(v, last, md); got != wantLast || !slices.Equal(v, want) {
					t.Fatalf("n=%d: prefix sum differs", n)
				}
			}
		})
	}
	for _, im := range deltaPrefixSum64Impls {
		t.Run("64/"+im.name, func(t *testing.T) {
			for _, n := range testLengths(t) {
				v := make([]uint64, n)
				for i := range v {
					v[i] = r.Uint64()
				}
				want := slices.Clone(v)
				last, md := r.Uint64(), r.Uint64()
				wantLast := last
				for i := range want {
					wantLast = wantLast + want[i] + md
					want[i] = wantLast
				}
				if got := im.fn(v, last, md); got != wantLast || !slices.Equal(v, want) {
					t.Fatalf("n=%d: prefix sum differs", n)
				}
			}
		})
	}
}

func TestDeltaBinaryPackedAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	vals := deltaValues(r, 1000, 1)
	v32 := make([]int32, len(vals))
	v64 := make([]int64, len(vals))
	for i, v := range vals {
		v32[i], v64[i] = int32(v), int64(v)
	}
	buf := make([]byte, 0, DeltaBinaryPackedBound(len(vals), 64))
	if a := testing.AllocsPerRun(20, func() {
		enc := AppendDeltaBinaryPackedInt32(buf, v32)
		_, _ = DeltaBinaryPackedInt32(v32, enc)
		enc = AppendDeltaBinaryPackedInt64(buf, v64)
		_, _ = DeltaBinaryPackedInt64(v64, enc)
	}); a != 0 {
		t.Fatalf("%v allocations per run", a)
	}
}

// deltaBenchValues returns n int64 values with small random steps.
func deltaBenchValues(n int) []int64 {
	r := rand.New(rand.NewPCG(23, 24))
	v := make([]int64, n)
	acc := int64(0)
	for i := range v {
		acc += int64(r.IntN(1000))
		v[i] = acc
	}
	return v
}

func BenchmarkDeltaInt32(b *testing.B) {
	const n = 8192
	v64 := deltaBenchValues(n)
	vals := make([]int32, n)
	for i, v := range v64 {
		vals[i] = int32(v)
	}
	enc := AppendDeltaBinaryPackedInt32(nil, vals)
	b.Run("decode", func(b *testing.B) {
		dst := make([]int32, n)
		b.SetBytes(4 * n)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := DeltaBinaryPackedInt32(dst, enc); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "values/s")
	})
	b.Run("encode", func(b *testing.B) {
		dst := make([]byte, 0, DeltaBinaryPackedBound(n, 32))
		b.SetBytes(int64(len(enc)))
		b.ReportAllocs()
		for b.Loop() {
			dst = AppendDeltaBinaryPackedInt32(dst[:0], vals)
		}
		b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "values/s")
	})
}

func BenchmarkDeltaInt64(b *testing.B) {
	const n = 8192
	vals := deltaBenchValues(n)
	enc := AppendDeltaBinaryPackedInt64(nil, vals)
	b.Run("decode", func(b *testing.B) {
		dst := make([]int64, n)
		b.SetBytes(8 * n)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := DeltaBinaryPackedInt64(dst, enc); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "values/s")
	})
	b.Run("encode", func(b *testing.B) {
		dst := make([]byte, 0, DeltaBinaryPackedBound(n, 64))
		b.SetBytes(int64(len(enc)))
		b.ReportAllocs()
		for b.Loop() {
			dst = AppendDeltaBinaryPackedInt64(dst[:0], vals)
		}
		b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "values/s")
	})
}
