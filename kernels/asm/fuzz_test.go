package asm

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/quiverio/quiver/internal/corpus"
)

// The kernels decode untrusted bytes only through package kernels, which
// checks lengths first; these targets feed them arbitrary bytes directly
// (with the input ending at a guard page) and check them against the plain
// references, so an overread faults and a wrong value fails.

// addCorpusSeeds adds the start of a few files of the parquet-testing
// corpus, when it is present, as seeds built by seed.
func addCorpusSeeds(f *testing.F, seed func(data []byte)) {
	root, err := corpus.Lookup()
	if err != nil {
		return
	}
	files, err := corpus.List(root)
	if err != nil {
		f.Fatal(err)
	}
	for i, name := range files {
		if i == 8 {
			break
		}
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			f.Fatal(err)
		}
		seed(b[:min(len(b), 2048)])
	}
}

func FuzzUnpack(f *testing.F) {
	f.Add([]byte{0xff, 0x01, 0x80}, uint8(3))
	f.Add(make([]byte, 100), uint8(63))
	addCorpusSeeds(f, func(b []byte) { f.Add(b, uint8(len(b))) })
	f.Fuzz(func(t *testing.T, data []byte, width uint8) {
		w := uint(width) % 66
		src := guarded(t, len(data))
		copy(src, data)
		n := min(len(src)*8/max(int(w), 1), 4096)
		for _, im := range unpack32Impls {
			if im.ok {
				verifyUnpack(t, im.fn, src, n, w, 32)
			}
		}
		for _, im := range unpack64Impls {
			if im.ok {
				verifyUnpack(t, im.fn, src, n, w, 64)
			}
		}
	})
}

func FuzzBSS(f *testing.F) {
	f.Add([]byte("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"), uint8(2))
	addCorpusSeeds(f, func(b []byte) { f.Add(b, uint8(len(b))) })
	f.Fuzz(func(t *testing.T, data []byte, sel uint8) {
		w := []int{2, 4, 8}[sel%3]
		src := guarded(t, len(data))
		copy(src, data)
		for _, im := range bssImpls[w].decode {
			if im.ok {
				verifyBSS(t, im.fn, w, src, true)
			}
		}
		for _, im := range bssImpls[w].encode {
			if im.ok {
				verifyBSS(t, im.fn, w, src, false)
			}
		}
	})
}

func FuzzGather(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 2, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}, uint16(3))
	addCorpusSeeds(f, func(b []byte) { f.Add(b, uint16(len(b))) })
	f.Fuzz(func(t *testing.T, data []byte, size uint16) {
		idx := guardedUint32(t, len(data)/4)
		for i := range idx {
			idx[i] = binary.LittleEndian.Uint32(data[4*i:])
		}
		d32, d64 := make([]uint32, size), make([]uint64, size)
		for i := range d32 {
			d32[i], d64[i] = uint32(i)*2654435761, uint64(i)*0x9e3779b97f4a7c15
		}
		for _, im := range gather32Impls {
			if im.ok {
				verifyGather(t, im.fn, d32, idx)
			}
		}
		for _, im := range gather64Impls {
			if im.ok {
				verifyGather(t, im.fn, d64, idx)
			}
		}
	})
}

func FuzzLevelsToBitmap(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 0, 1, 0, 0x80}, uint16(1), uint16(8))
	addCorpusSeeds(f, func(b []byte) { f.Add(b, uint16(1), uint16(len(b)/8)) })
	f.Fuzz(func(t *testing.T, data []byte, th, room uint16) {
		room %= 1024
		lv8 := guarded(t, len(data))
		copy(lv8, data)
		for _, im := range levels8Impls {
			if im.ok {
				verifyLevels(t, im.fn, lv8, uint8(th), int(room))
			}
		}
		lv16 := unsafeInt16s(guarded(t, len(data)&^1))
		for i := range lv16 {
			lv16[i] = int16(binary.LittleEndian.Uint16(data[2*i:]))
		}
		for _, im := range levels16Impls {
			if im.ok {
				verifyLevels(t, im.fn, lv16, int16(th), int(room))
			}
		}
	})
}

func FuzzMinMaxNaN(f *testing.F) {
	var seed []byte
	for _, x := range append(append([]float64{}, values64.nans...), values64.edges...) {
		seed = binary.LittleEndian.AppendUint64(seed, math.Float64bits(x))
	}
	for _, x := range append(append([]float32{}, values32.nans...), values32.edges...) {
		seed = binary.LittleEndian.AppendUint32(seed, math.Float32bits(x))
	}
	f.Add(bytes.Repeat(seed, 3))
	addCorpusSeeds(f, func(b []byte) { f.Add(b) })
	f.Fuzz(func(t *testing.T, data []byte) {
		v64 := make([]float64, len(data)/8)
		for i := range v64 {
			v64[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
		}
		verifyMinMaxNaN(t, minMaxNaN64Impls, v64, 16)
		v32 := make([]float32, len(data)/4)
		for i := range v32 {
			v32[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		}
		verifyMinMaxNaN(t, minMaxNaN32Impls, v32, 32)
	})
}

// verifyMinMaxNaN runs every usable kernel of impls on v, copied to end at
// a guard page, against the reference.
func verifyMinMaxNaN[T float32 | float64](t *testing.T, impls []impl[func([]T) (T, T, int, int)], v []T, block int) {
	v = guardedFloats(t, v)
	for _, im := range impls {
		if im.ok {
			lo, hi, nans, k := im.fn(v)
			checkMinMaxNaN(t, v, block, lo, hi, nans, k)
		}
	}
}
