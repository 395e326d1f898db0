package kernels

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// fuzzCount reads a value count (at most 4095) from the first two bytes of
// data and returns it with the rest.
func fuzzCount(data []byte) (int, []byte) {
	if len(data) < 2 {
		return 0, nil
	}
	return int(data[0]) | int(data[1]&0x0f)<<8, data[2:]
}

// fuzzSeed prefixes an encoded stream with its value count.
func fuzzSeed(n int, enc []byte) []byte { return append([]byte{byte(n), byte(n >> 8)}, enc...) }

// fuzzDeltaSeeds adds streams of every shape the tests build.
func fuzzDeltaSeeds(f *testing.F, bitSize int) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{0, 1, 2, 33, 129, 300} {
		for i, s := range testDeltaShapes() {
			f.Add(fuzzSeed(n, testDeltaStream(r, deltaValues(r, n, i%5), bitSize, s)))
		}
	}
}

// checkDecoded fails unless a decode that succeeded reports a sane length
// and its values survive a round trip through the encoder.
func checkDeltaRoundTrip[T int32 | int64](t *testing.T, got []T, used, have int, enc func([]byte, []T) []byte, dec func([]T, []byte) (int, error)) {
	if used < 0 || used > have {
		t.Fatalf("consumed %d of %d bytes", used, have)
	}
	again := make([]T, len(got))
	re := enc(nil, got)
	if u, err := dec(again, re); err != nil || u != len(re) || !slices.Equal(again, got) {
		t.Fatalf("re-encoded values decode differently: %v", err)
	}
}

func FuzzDeltaBinaryPacked32(f *testing.F) {
	fuzzDeltaSeeds(f, 32)
	f.Fuzz(func(t *testing.T, data []byte) {
		n, src := fuzzCount(data)
		got := make([]int32, n)
		used, err := DeltaBinaryPackedInt32(got, src)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		checkDeltaRoundTrip(t, got, used, len(src), AppendDeltaBinaryPackedInt32, DeltaBinaryPackedInt32)
	})
}

func FuzzDeltaBinaryPacked64(f *testing.F) {
	fuzzDeltaSeeds(f, 64)
	f.Fuzz(func(t *testing.T, data []byte) {
		n, src := fuzzCount(data)
		got := make([]int64, n)
		used, err := DeltaBinaryPackedInt64(got, src)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		checkDeltaRoundTrip(t, got, used, len(src), AppendDeltaBinaryPackedInt64, DeltaBinaryPackedInt64)
	})
}

// checkOffsetsValid fails unless offsets run from base, never decrease and
// end base+dataLen in.
func checkOffsetsValid[O Offset](t *testing.T, offsets []O, base, dataLen int) {
	if int(offsets[0]) != base || int(offsets[len(offsets)-1]) != base+dataLen {
		t.Fatalf("offsets run %d..%d, want %d..%d", offsets[0], offsets[len(offsets)-1], base, base+dataLen)
	}
	for i := 1; i < len(offsets); i++ {
		if offsets[i] < offsets[i-1] {
			t.Fatalf("offset %d decreases", i)
		}
	}
}

func FuzzDeltaLengthByteArray(f *testing.F) {
	r := rand.New(rand.NewPCG(2, 2))
	for _, n := range []int{0, 1, 5, 200} {
		for kind := range 4 {
			f.Add(fuzzSeed(n, testDLBA(r, testStrings(r, n, kind))))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, src := fuzzCount(data)
		offsets := make([]int32, n+1)
		offsets[0] = 3
		buf := make([]byte, 3+len(src))
		dataLen, used, err := DeltaLengthByteArray(offsets, buf, src)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		if used > len(src) || dataLen > len(src) {
			t.Fatalf("consumed %d, data %d, of %d bytes", used, dataLen, len(src))
		}
		checkOffsetsValid(t, offsets, 3, dataLen)
		enc, err := AppendDeltaLengthByteArray(nil, offsets, buf)
		if err != nil {
			t.Fatal(err)
		}
		again := make([]int64, n+1)
		again[0] = 3
		if _, _, err := DeltaLengthByteArray(again, make([]byte, 3+dataLen), enc); err != nil {
			t.Fatalf("re-encoded values: %v", err)
		}
		for i := range again {
			if again[i] != int64(offsets[i]) {
				t.Fatalf("re-encoded offset %d differs", i)
			}
		}
	})
}

func FuzzDeltaByteArray(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{0, 1, 5, 200} {
		for kind := range 4 {
			f.Add(fuzzSeed(n, testDBA(r, testStrings(r, n, kind))))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, src := fuzzCount(data)
		offsets := make([]int64, n+1)
		prefix := make([]int32, n)
		dataLen, at, err := DeltaByteArrayOffsets(offsets, prefix, src)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		if at > len(src) {
			t.Fatalf("suffixes at %d of %d bytes", at, len(src))
		}
		checkOffsetsValid(t, offsets, 0, dataLen)
		if dataLen > 1<<20 {
			return // a legal page can expand this far; the caller decides
		}
		buf := make([]byte, dataLen)
		used, err := DeltaByteArrayData(buf, offsets, prefix, src[at:])
		if err != nil || used > len(src)-at {
			t.Fatalf("second step after a good first: used %d, %v", used, err)
		}
		enc, _, err := AppendDeltaByteArray(nil, offsets, buf, nil)
		if err != nil {
			t.Fatal(err)
		}
		again := make([]int64, n+1)
		if l, _, err := testDecodeDBA(again, make([]byte, dataLen), prefix, enc); err != nil || l != dataLen || !slices.Equal(again, offsets) {
			t.Fatalf("re-encoded values: %v", err)
		}
	})
}

// FuzzDeltaByteArrayData gives the second step arbitrary arguments: value
// lengths (some negative), prefix lengths (some past the previous value)
// and suffix bytes, one byte each after the count. It must fail exactly
// when refDeltaByteArrayData does, and otherwise write the same bytes and
// nothing past the last value.
func FuzzDeltaByteArrayData(f *testing.F) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, n := range []int{1, 3, 40, 200} {
		seed := []byte{byte(n)}
		for i := range n {
			seed = append(seed, byte(r.IntN(45)))
			if i > 0 && r.IntN(4) > 0 {
				seed = append(seed, byte(r.IntN(int(seed[len(seed)-2])+1)))
			} else {
				seed = append(seed, 0)
			}
		}
		f.Add(append(seed, randBytes(r, 45*n)...))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 {
			return
		}
		n := min(int(in[0]), (len(in)-1)/2)
		offsets := make([]int32, n+1)
		prefix := make([]int32, n)
		offsets[0] = 3
		for i := range n {
			offsets[i+1] = offsets[i] + int32(int8(in[1+2*i]))
			prefix[i] = int32(int8(in[2+2*i]))
		}
		suffixes := in[1+2*n:]
		end := max(offsets[n], 0)
		got, want := make([]byte, end+40), make([]byte, end+40)
		for i := range got {
			got[i], want[i] = byte(i), byte(i)
		}
		used, err := DeltaByteArrayData(got[:end], offsets, prefix, suffixes)
		wantUsed, ok := refDeltaByteArrayData(want[:end], offsets, prefix, suffixes)
		if (err == nil) != ok {
			t.Fatalf("error %v, reference accepts %v", err, ok)
		}
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrShortBuffer) {
				t.Fatalf("error %v wraps neither ErrCorrupt nor ErrShortBuffer", err)
			}
			return
		}
		if used != wantUsed || !slices.Equal(got, want) {
			t.Fatalf("used %d (reference %d), bytes equal %v", used, wantUsed, slices.Equal(got, want))
		}
	})
}

// refDeltaByteArrayData is DeltaByteArrayData one byte at a time: it
// reports whether the arguments are consistent and, if so, the suffix
// bytes used.
func refDeltaByteArrayData(data []byte, offsets, prefix []int32, suffixes []byte) (int, bool) {
	if offsets[0] < 0 || int(offsets[len(offsets)-1]) > len(data) {
		return 0, false
	}
	sp, prevStart, prevLen := 0, int(offsets[0]), 0
	for i, p := range prefix[:len(offsets)-1] {
		start, stop := int(offsets[i]), int(offsets[i+1])
		s := stop - start - int(p)
		if p < 0 || int(p) > prevLen || s < 0 || stop > len(data) || s > len(suffixes)-sp {
			return 0, false
		}
		for j := range int(p) {
			data[start+j] = data[prevStart+j]
		}
		for j := range s {
			data[start+int(p)+j] = suffixes[sp+j]
		}
		sp += s
		prevStart, prevLen = start, stop-start
	}
	return sp, true
}
