package colwrite

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
)

// testDictValue returns a random value for the dictionary tests: mostly
// short (where the word hash applies, zero bytes included so that "A" and
// "A\x00" both occur), sometimes 8 or 9 bytes, sometimes long.
func testDictValue(r *rand.Rand) []byte {
	var n int
	switch r.IntN(4) {
	case 0, 1:
		n = r.IntN(4)
	case 2:
		n = 7 + r.IntN(3)
	default:
		n = 10 + r.IntN(30)
	}
	v := make([]byte, n)
	for i := range v {
		v[i] = "A\x00\xffz"[r.IntN(4)]
	}
	return v
}

func TestBytesDict(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 72))
	for _, prefixed := range []bool{false, true} {
		var d bytesDict
		d.reset(prefixed)
		want := map[string]uint32{}
		var wantPlain []byte
		var data []byte
		var offs []int32
		for range 20000 {
			v := testDictValue(r)
			offs = append(offs, int32(len(data)))
			data = append(data, v...)
			if _, ok := want[string(v)]; !ok {
				want[string(v)] = uint32(len(want))
				if prefixed {
					wantPlain = binary.LittleEndian.AppendUint32(wantPlain, uint32(len(v)))
				}
				wantPlain = append(wantPlain, v...)
			}
		}
		offs = append(offs, int32(len(data)))
		// Values sliced from one buffer (word loads past short values)
		// and copied into slices of their own size (byte loads).
		got := make([]uint32, len(offs)-1)
		insertOffsets(&d, offs, data, got)
		for i := range got {
			v := data[offs[i]:offs[i+1]]
			if got[i] != want[string(v)] {
				t.Fatalf("prefixed=%v: value %d %q: index %d, want %d", prefixed, i, v, got[i], want[string(v)])
			}
			if k := d.index(bytes.Clone(v)); k != got[i] {
				t.Fatalf("prefixed=%v: value %d %q alone: index %d, want %d", prefixed, i, v, k, got[i])
			}
		}
		if d.len() != len(want) || !bytes.Equal(d.plain, wantPlain) {
			t.Fatalf("prefixed=%v: %d values, %d plain bytes; want %d, %d", prefixed, d.len(), len(d.plain), len(want), len(wantPlain))
		}
	}
}

func TestShortWord(t *testing.T) {
	buf := []byte("abcdefghij")
	for n := range 9 {
		var want uint64
		for i := n - 1; i >= 0; i-- {
			want = want<<8 | uint64(buf[i])
		}
		if got := shortWord(buf[:n]); got != want {
			t.Fatalf("%d bytes in a larger slice: %#x, want %#x", n, got, want)
		}
		if got := shortWord(bytes.Clone(buf[:n])[:n:n]); got != want {
			t.Fatalf("%d bytes alone: %#x, want %#x", n, got, want)
		}
	}
}

func TestGrowDoubling(t *testing.T) {
	s := make([]uint32, 1000)
	g := growDoubling(s, 10)
	if len(g) != 1000 || cap(g) < 2000 {
		t.Fatalf("room for 10 more of 1000: len %d, cap %d; want the capacity doubled", len(g), cap(g))
	}
	if h := growDoubling(g, 5); cap(h) != cap(g) {
		t.Fatalf("room that is there: capacity %d became %d", cap(g), cap(h))
	}
	if h := growDoubling(s, 5000); cap(h) < 6000 {
		t.Fatalf("room for 5000 more of 1000: cap %d", cap(h))
	}
}

func TestFixedDict(t *testing.T) {
	r := rand.New(rand.NewPCG(73, 74))
	var d fixedDict[uint64]
	d.reset()
	for round := range 2 { // the second round reuses the emptied table
		want := map[uint64]uint32{}
		var wantValues []uint64
		vals := make([]uint64, 50000)
		for i := range vals {
			switch r.IntN(3) {
			case 0: // few values, often repeated
				vals[i] = r.Uint64N(16)
			case 1: // equal low bits, different high bits
				vals[i] = r.Uint64N(1<<12) << 52
			default:
				vals[i] = r.Uint64()
			}
		}
		got := make([]uint32, len(vals))
		d.insert(vals, got)
		for i, v := range vals {
			k, ok := want[v]
			if !ok {
				k = uint32(len(want))
				want[v] = k
				wantValues = append(wantValues, v)
			}
			if got[i] != k {
				t.Fatalf("round %d value %d (%#x): index %d, want %d", round, i, v, got[i], k)
			}
		}
		if !slices.Equal(d.values, wantValues) {
			t.Fatalf("round %d: %d dictionary values, want %d", round, len(d.values), len(wantValues))
		}
		d.reset()
	}
}

// TestMaxIndexBytes checks that maxIndexBytes bounds what appendIndices
// writes, on pages of every mix of runs and scattered indices, so that a
// dictionary it says pays would pay by the exact bytes too.
func TestMaxIndexBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 500 {
		dictLen := 1 + r.IntN(1<<uint(1+round%20))
		var e pageEncoding
		for len(e.idx) < 1+r.IntN(5000) {
			v := uint32(r.IntN(dictLen))
			run := 1
			if r.IntN(3) == 0 {
				run = 1 + r.IntN(40)
			}
			for range run {
				e.idx = append(e.idx, v)
			}
		}
		got, err := e.appendIndices(nil)
		if err != nil {
			t.Fatal(err)
		}
		if bound := e.maxIndexBytes(dictLen); len(got) > bound {
			t.Fatalf("round %d: %d indices into %d values took %d bytes, bound %d", round, len(e.idx), dictLen, len(got), bound)
		}
	}
}
