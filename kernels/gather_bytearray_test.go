package kernels

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// testByteArrayDict returns the dictionary of vals, its data without
// slack, so that NewByteArrayDict pads a copy.
func testByteArrayDict(t testing.TB, vals [][]byte) ByteArrayDict {
	t.Helper()
	off, data := testFlatten[int32](vals, 0)
	d, err := NewByteArrayDict(off, data[:len(data):len(data)])
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// testGatherRef is the plainest gather: the values dict[idx[i]] appended
// to base filler bytes, with their offsets.
func testGatherRef[O Offset](dict [][]byte, idx []uint32, base int) ([]O, []byte) {
	want := make([][]byte, len(idx))
	for i, ix := range idx {
		want[i] = dict[ix]
	}
	return testFlatten[O](want, base)
}

func TestGatherByteArray(t *testing.T) {
	t.Run("int32", testGatherByteArray[int32])
	t.Run("int64", testGatherByteArray[int64])
}

func testGatherByteArray[O Offset](t *testing.T) {
	r := rand.New(rand.NewPCG(77, 78))
	// Kind 2 mixes values longer and shorter than a block; kind 0 are all
	// short; kind 3 all empty; kind 4 free text of 10 to 70 bytes; kind -1
	// every length from 0 to past gatherBlockMax.
	for _, kind := range []int{0, 2, 3, 4, -1} {
		var dictVals [][]byte
		if kind >= 0 {
			dictVals = testStrings(r, 60, kind)
		} else {
			for l := 0; l <= gatherBlockMax+GatherSlack+1; l++ {
				dictVals = append(dictVals, randBytes(r, l))
			}
		}
		dict := testByteArrayDict(t, dictVals)
		for _, n := range testLengths(t) {
			idx := testIndices(r, n, len(dictVals))
			wantOff, wantData := testGatherRef[O](dictVals, idx, 2)
			size, err := GatherByteArraySize(&dict, idx)
			if err != nil || size != len(wantData)-2 {
				t.Fatalf("kind %d, n=%d: size %d, want %d, %v", kind, n, size, len(wantData)-2, err)
			}
			// Exact room (the last values copied exactly), room for the
			// slack, and room for the longest value at every index (where
			// dictionaries of short values take gatherShort), each with a
			// canary after it.
			for _, slack := range []int{0, GatherSlack, n*dict.MaxLen() - size + GatherSlack} {
				offsets := make([]O, n+1)
				offsets[0] = 2
				data := make([]byte, 2+size+slack+1)
				data[len(data)-1] = 0xfe
				copy(data, wantData[:2])
				got, err := GatherByteArray(offsets, data[:len(data)-1], &dict, idx)
				if err != nil || got != size {
					t.Fatalf("kind %d, n=%d, slack %d: wrote %d, %v", kind, n, slack, got, err)
				}
				if !slices.Equal(offsets, wantOff) || !bytes.Equal(data[:2+size], wantData) || data[len(data)-1] != 0xfe {
					t.Fatalf("kind %d, n=%d, slack %d: gathered values differ", kind, n, slack)
				}
			}
		}
	}
}

func TestGatherByteArrayErrors(t *testing.T) {
	dictVals := [][]byte{[]byte("a"), []byte("bb"), bytes.Repeat([]byte("c"), 40)}
	dict := testByteArrayDict(t, dictVals)
	if dict.Len() != 3 || dict.MaxLen() != 40 {
		t.Fatalf("Len %d, MaxLen %d", dict.Len(), dict.MaxLen())
	}
	idx := []uint32{1, 3}
	if _, err := GatherByteArraySize(&dict, idx); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("size, bad index: %v", err)
	}
	if _, err := GatherByteArray(make([]int32, 3), make([]byte, 100), &dict, idx); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("bad index: %v", err)
	}
	short := testByteArrayDict(t, dictVals[:2])
	if _, err := GatherByteArray(make([]int32, 4), make([]byte, 100), &short, []uint32{1, 0, 2}); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("short values, bad index: %v", err)
	}
	if _, err := GatherByteArray(make([]int32, 2), make([]byte, 100), &dict, idx); !errors.Is(err, ErrShortBuffer) {
		t.Fatalf("short offsets: %v", err)
	}
	if _, err := GatherByteArray([]int32{-1, 0, 0}, make([]byte, 100), &dict, []uint32{0, 1}); !errors.Is(err, ErrShortBuffer) {
		t.Fatalf("negative first offset: %v", err)
	}
	if _, err := GatherByteArray([]int32{11}, make([]byte, 10), &dict, nil); !errors.Is(err, ErrShortBuffer) {
		t.Fatalf("start past the data: %v", err)
	}
	for _, idx := range [][]uint32{{0, 1, 2}, {2, 0}} {
		size, _ := GatherByteArraySize(&dict, idx)
		if _, err := GatherByteArray(make([]int32, len(idx)+1), make([]byte, size-1), &dict, idx); !errors.Is(err, ErrShortBuffer) {
			t.Fatalf("short data for %v: %v", idx, err)
		}
	}
	var empty ByteArrayDict
	if _, err := GatherByteArraySize(&empty, []uint32{0}); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("empty dictionary: %v", err)
	}
}

func TestNewByteArrayDict(t *testing.T) {
	off, data := testFlatten[int32]([][]byte{[]byte("ab"), []byte("cde")}, 1)
	for name, bad := range map[string][]int32{
		"negative":   {-1, 3, 6},
		"decreasing": {1, 4, 3},
		"past data":  {1, 3, 7},
	} {
		if _, err := NewByteArrayDict(bad, data); !errors.Is(err, ErrOutOfRange) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Data with room for the slack is kept, without it copied.
	roomy := append(make([]byte, 0, len(data)+GatherSlack), data...)
	d, err := NewByteArrayDict(off, roomy)
	if err != nil || &d.data[0] != &roomy[0] || len(d.data) != len(data)+GatherSlack {
		t.Fatalf("roomy data: %v", err)
	}
	d, err = NewByteArrayDict(off, data[:len(data):len(data)])
	if err != nil || &d.data[0] == &data[0] || !bytes.Equal(d.data[:len(data)], data) {
		t.Fatalf("tight data: %v", err)
	}
	if d, err := NewByteArrayDict(nil, nil); err != nil || d.Len() != 0 {
		t.Fatalf("no offsets: %d values, %v", d.Len(), err)
	}
}

// BenchmarkGatherByteArray times the one-pass gather, into data with room
// for the slack.
func BenchmarkGatherByteArray(b *testing.B) {
	const n = 4096
	for _, c := range []struct {
		name       string
		dict, kind int
	}{{"short", 1000, 0}, {"tiny-dict", 6, 0}, {"mixed", 1000, 2}, {"text", 1000, 4}} {
		b.Run(fmt.Sprintf("values=%s", c.name), func(b *testing.B) {
			r := rand.New(rand.NewPCG(83, 84))
			idx := testIndices(r, n, c.dict)
			dict := testByteArrayDict(b, testStrings(r, c.dict, c.kind))
			offsets := make([]int32, n+1)
			size, _ := GatherByteArraySize(&dict, idx)
			data := make([]byte, size+GatherSlack)
			b.SetBytes(int64(size + 4*n))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := GatherByteArray(offsets, data, &dict, idx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "values/s")
		})
	}
}
