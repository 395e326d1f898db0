package kernels

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

// rleFuzzSeeds adds streams of each width from the encoder and the run
// builder, plus hand-made hostile headers, to a fuzz target taking
// (stream, width, count).
func rleFuzzSeeds(f *testing.F, maxWidth uint) {
	r := rand.New(rand.NewPCG(23, 24))
	for w := uint(0); w <= maxWidth; w += 1 + w/4 {
		src, vals := rleBuild(w, rleRandomRuns(r, w, 1<<w, 4))
		f.Add(src, uint8(w), uint16(min(len(vals), 3000)))
		var e RLEEncoder
		e.Reset(nil, w)
		e.PutUint32(rleMixed(500, w))
		f.Add(e.Flush(), uint8(w), uint16(500))
	}
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x01, 0xaa}, uint8(3), uint16(100))
	f.Add([]byte{0x81, 0x80, 0x80, 0x80, 0x80, 0x01}, uint8(1), uint16(10))
	f.Add([]byte{0, 5, 1, 0, 3, 0xff}, uint8(1), uint16(9))
}

// FuzzRLEDecodeUint32 decodes arbitrary bytes as a hybrid stream in uneven
// batches and checks the result against rleRefDecode.
func FuzzRLEDecodeUint32(f *testing.F) {
	rleFuzzSeeds(f, 32)
	f.Fuzz(func(t *testing.T, src []byte, width uint8, n uint16) {
		w := uint(width % 33)
		want, ok := rleRefDecode(src, w, int(n))
		var d RLEDecoder
		d.Reset(src, w)
		got := make([]uint32, n)
		done := 0
		var err error
		for step := 1; done < len(got) && err == nil; step = step*3 + 1 {
			var m int
			m, err = d.DecodeUint32(got[done:min(len(got), done+step)])
			done += m
		}
		if ok != (err == nil) || (err != nil && !errors.Is(err, ErrCorrupt)) || done != len(want) {
			t.Fatalf("width %d n %d: decoded %d, %v; reference %d values, ok %v", w, n, done, err, len(want), ok)
		}
		for i := range done {
			if uint64(got[i]) != want[i] {
				t.Fatalf("width %d: value %d = %d, want %d", w, i, got[i], want[i])
			}
		}
	})
}

// FuzzRLEDecodeLevels decodes arbitrary bytes as levels with a maximum and
// checks values, the count decoded and which error comes first.
func FuzzRLEDecodeLevels(f *testing.F) {
	rleFuzzSeeds(f, 16)
	f.Fuzz(func(t *testing.T, src []byte, width uint8, n uint16) {
		w := uint(width % 17)
		maxLevel := int16(min(1<<w-1, 1<<15-1) - int(n)%3)
		if maxLevel < 0 {
			maxLevel = 0
		}
		want, ok := rleRefDecode(src, w, int(n))
		bad := -1
		for i, v := range want {
			if v > uint64(maxLevel) {
				bad = i
				break
			}
		}
		var d RLEDecoder
		d.Reset(src, w)
		got := make([]int16, n)
		m, err := d.DecodeLevels(got, maxLevel)
		switch {
		case bad >= 0:
			if m != bad || !errors.Is(err, ErrOutOfRange) {
				t.Fatalf("width %d: level %d of %d above %d: got %d, %v", w, bad, want[bad], maxLevel, m, err)
			}
		case !ok:
			if m != len(want) || !errors.Is(err, ErrCorrupt) {
				t.Fatalf("width %d: reference stops at %d: got %d, %v", w, len(want), m, err)
			}
		case m != int(n) || err != nil:
			t.Fatalf("width %d: got %d, %v; want %d levels", w, m, err, n)
		}
		for i := range m {
			if uint64(got[i]) != want[i] {
				t.Fatalf("width %d: level %d = %d, want %d", w, i, got[i], want[i])
			}
		}
	})
}

// FuzzDefLevelsToBitmap decodes arbitrary bytes as width-1 definition levels
// into a bitmap at an offset and checks bits, untouched neighbours and the
// null count.
func FuzzDefLevelsToBitmap(f *testing.F) {
	f.Add([]byte{16, 1, 3, 0xa5}, uint8(3), uint16(16))
	f.Add([]byte{5, 0xff, 0x0f, 40, 0}, uint8(0), uint16(40))
	r := rand.New(rand.NewPCG(25, 26))
	src, vals := rleBuild(1, rleRandomRuns(r, 1, 2, 10))
	f.Add(src, uint8(7), uint16(len(vals)))
	f.Fuzz(func(t *testing.T, src []byte, offset uint8, n uint16) {
		off := int(offset % 64)
		want, ok := rleRefDecode(src, 1, int(n))
		dst := make([]byte, (off+int(n))/8+2)
		for i := range dst {
			dst[i] = 0xa5
		}
		nulls, err := DefLevelsToBitmap(dst, off, src, int(n))
		if ok != (err == nil) || (err != nil && !errors.Is(err, ErrCorrupt)) {
			t.Fatalf("n %d: %d nulls, %v; reference ok %v", n, nulls, err, ok)
		}
		wantNulls := 0
		for i := range 8 * len(dst) {
			exp := bitmapRef([]byte{0xa5}, i%8)
			if i >= off && i < off+len(want) {
				exp = want[i-off] == 1
				wantNulls += int(1 - want[i-off])
			}
			if i >= off+len(want) && i < off+int(n) {
				continue // bits after a corrupt stream's end are unspecified
			}
			if bitmapRef(dst, i) != exp {
				t.Fatalf("n %d off %d: bit %d wrong", n, off, i)
			}
		}
		if ok && nulls != wantNulls {
			t.Fatalf("n %d: %d nulls, want %d", n, nulls, wantNulls)
		}
	})
}

// FuzzBitPackedMSB decodes arbitrary bytes as deprecated BIT_PACKED levels,
// checks them against msbRefUnpack and packs them back.
func FuzzBitPackedMSB(f *testing.F) {
	f.Add([]byte{0x05, 0x39, 0x77}, uint8(3), uint16(8))
	f.Add([]byte{0xff, 0xff, 0xff}, uint8(16), uint16(1))
	f.Fuzz(func(t *testing.T, src []byte, width uint8, n uint16) {
		w := uint(width % 17)
		got := make([]int16, n)
		m, err := UnpackLevelsMSB(got, src, w, 1<<15-1)
		need := (int(n)*int(w) + 7) / 8
		if need > len(src) {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("width %d n %d from %d bytes: %v", w, n, len(src), err)
			}
			return
		}
		want := make([]int16, n)
		msbRefUnpack(want, src, w)
		if err != nil && (w != 16 || !errors.Is(err, ErrOutOfRange)) || err == nil && m != need {
			t.Fatalf("width %d n %d: %d, %v", w, n, m, err)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("width %d: level %d = %d, want %d", w, i, got[i], want[i])
			}
		}
		packed := make([]byte, need)
		PackLevelsMSB(packed, want, w)
		back := make([]int16, n)
		msbRefUnpack(back, packed, w)
		for i := range want {
			if back[i] != want[i] {
				t.Fatalf("width %d: level %d packs back to %d, want %d", w, i, back[i], want[i])
			}
		}
	})
}

// FuzzRLEEncode encodes values built from arbitrary bytes (a width, then
// value and run-length byte pairs, some runs long) and checks that the
// stream decodes to them and is never larger than the rule's.
func FuzzRLEEncode(f *testing.F) {
	f.Add([]byte{1, 1, 8, 0, 1, 1, 7, 0, 9})
	f.Add([]byte{10, 3, 200, 7, 1, 9, 1, 3, 150})
	f.Add([]byte{32, 0xff, 0x85, 1, 1, 2, 1, 0xff, 0x90})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		width := uint(data[0] % 33)
		maxV := uint64(1)<<width - 1
		var vals []uint64
		for i := 1; i+1 < len(data) && len(vals) < 100000; i += 2 {
			v := uint64(data[i]) * 0x9e3779b97f4a7c15 >> 7 & maxV
			if data[i]&1 == 0 {
				v = uint64(data[i]>>1) & maxV // small values repeat across pairs
			}
			n := int(data[i+1] & 0x7f)
			if data[i+1] >= 0x80 {
				n *= 37
			}
			for range n {
				vals = append(vals, v)
			}
		}
		checkRLEEncode(t, rand.New(rand.NewPCG(uint64(len(data)), 1)), vals, width)
		// AppendRLE skips through uint32 values, and int16 levels of
		// widths to 15, by quads; the streams are those of walking every
		// run.
		u32 := make([]uint32, len(vals))
		for i, v := range vals {
			u32[i] = uint32(v)
		}
		want, err := appendRLE(nil, u32, width, false)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := AppendRLE(nil, u32, width); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("AppendRLE of values differs from the walk of every run (%v)", err)
		}
		if width <= 15 {
			lv := make([]int16, len(vals))
			for i, v := range vals {
				lv[i] = int16(v)
			}
			if got, err := AppendRLE(nil, lv, width); err != nil || !bytes.Equal(got, want) {
				t.Fatalf("AppendRLE of levels differs from the walk of every run (%v)", err)
			}
		}
	})
}
