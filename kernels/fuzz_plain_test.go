package kernels

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

func FuzzPlainByteArray(f *testing.F) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, n := range []int{0, 1, 5, 200} {
		for kind := range 4 {
			f.Add(fuzzSeed(n, testPlainByteArray(testStrings(r, n, kind))))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, src := fuzzCount(data)
		offsets := make([]int32, n+1)
		offsets[0] = 1
		buf := make([]byte, 1+len(src))
		dataLen, used, err := PlainByteArray(offsets, buf, src)
		size, serr := PlainByteArraySize(src, n)
		if (err == nil) != (serr == nil) {
			t.Fatalf("decoding says %v, sizing says %v", err, serr)
		}
		if err != nil {
			if !errors.Is(err, ErrCorrupt) || !errors.Is(serr, ErrCorrupt) {
				t.Fatalf("errors %v, %v do not wrap ErrCorrupt", err, serr)
			}
			return
		}
		if size != dataLen {
			t.Fatalf("sized %d data bytes, decoded %d", size, dataLen)
		}
		checkOffsetsValid(t, offsets, 1, dataLen)
		enc, err := AppendPlainByteArray(nil, offsets, buf)
		if err != nil || !bytes.Equal(enc, src[:used]) {
			t.Fatalf("re-encoding differs from the %d bytes read: %v", used, err)
		}
	})
}

func FuzzByteStreamSplit(f *testing.F) {
	for _, w := range []byte{1, 2, 3, 4, 8, 12, 16} {
		f.Add(append([]byte{w}, bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, int(w)*3)...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		width := int(data[0] % 20) // 0 is an error
		src := data[1:]
		dst := make([]byte, len(src))
		err := ByteStreamSplitDecode(dst, src, width)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		if !bytes.Equal(dst, bssRef(src, width)) && !bytes.Equal(bssRef(dst, width), src) {
			t.Fatal("decode is not the inverse of the reference encoding")
		}
		enc := make([]byte, len(dst))
		if err := ByteStreamSplitEncode(enc, dst, width); err != nil || !bytes.Equal(enc, src) {
			t.Fatalf("round trip differs: %v", err)
		}
	})
}

func FuzzGather(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6})
	f.Add([]byte{6, 6, 7, 0, 255})
	dict32 := []uint32{10, 11, 12, 13, 14, 15, 16}
	dict12 := make([][12]byte, 7)
	for i := range dict12 {
		dict12[i][0] = byte(i)
	}
	dictVals := [][]byte{{}, []byte("a"), []byte("bb"), []byte("ccc"), []byte("dddd"), []byte("eeeee"), bytes.Repeat([]byte("f"), 40)}
	bd := testByteArrayDict(f, dictVals)
	f.Fuzz(func(t *testing.T, data []byte) {
		idx := make([]uint32, len(data))
		bad := -1
		for i, b := range data {
			idx[i] = uint32(b) % 9 // 7 and 8 are out of range
			if idx[i] >= 7 && bad < 0 {
				bad = i
			}
		}
		got := make([]uint32, len(idx))
		err := Gather(got, dict32, idx)
		if (err != nil) != (bad >= 0) || err != nil && !errors.Is(err, ErrOutOfRange) {
			t.Fatalf("bad index at %d, error %v", bad, err)
		}
		good := len(idx)
		if bad >= 0 {
			good = bad
		}
		for i := range good {
			if got[i] != dict32[idx[i]] {
				t.Fatalf("value %d differs", i)
			}
		}
		got12 := make([][12]byte, len(idx))
		if err := Gather(got12, dict12, idx); (err != nil) != (bad >= 0) {
			t.Fatalf("12-byte values: bad index at %d, error %v", bad, err)
		}
		size, err := GatherByteArraySize(&bd, idx)
		if (err != nil) != (bad >= 0) {
			t.Fatalf("size: bad index at %d, error %v", bad, err)
		}
		if err != nil {
			return
		}
		offsets := make([]int64, len(idx)+1)
		buf := make([]byte, size+len(data)%(GatherSlack+1))
		if n, err := GatherByteArray(offsets, buf, &bd, idx); err != nil || n != size {
			t.Fatalf("byte arrays: wrote %d of %d, %v", n, size, err)
		}
		for i, ix := range idx {
			if !slices.Equal(buf[offsets[i]:offsets[i+1]], dictVals[ix]) {
				t.Fatalf("byte array %d differs", i)
			}
		}
	})
}
