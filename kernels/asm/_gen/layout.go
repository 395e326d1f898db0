package main

import "fmt"

// A bit-packed block holds 8 values of w bits, LSB first: w bytes. Value j
// starts at bit j*w, that is at byte (j*w)/8 and bit (j*w)%8 of that byte.
//
// The SIMD kernels load a window of bytes into each 128-bit lane (amd64) or
// table register set (arm64), then use a byte shuffle to put the bytes of
// each value into its own element, a variable right shift to drop the bits
// of the previous value, and a mask to drop the bits of the next. A value
// that spans one byte more than the element holds (s+w > element bits) gets
// that extra byte from a second shuffle, shifted left into place.

// place describes where one value of a block sits relative to the start of
// the window its element is shuffled from.
type place struct {
	byte  int // first byte of the value, relative to the window
	shift int // bit offset of the value in that byte
}

// spanBytes is how many bytes a value of w bits starting at bit s covers.
func spanBytes(s, w int) int { return (s + w + 7) / 8 }

// placeIn returns where value j of a width-w block lies relative to a
// window that starts at byte base of the block.
func placeIn(j, w, base int) place {
	bit := j * w
	return place{byte: bit/8 - base, shift: bit % 8}
}

// shuffleElem fills one element of a byte-shuffle control: the first
// shuffle gathers the value's first size bytes, the second its extra byte
// (size+1 bytes in all), or nothing when the value fits. Indices at or past
// limit (the window size the shuffle reads from) become 0x80, which zeroes
// the byte; the generator checks that only unneeded bytes are dropped.
func shuffleElem(a, b []byte, p place, w, size, limit int) {
	need := spanBytes(p.shift, w)
	for k := range size {
		i := p.byte + k
		switch {
		case i < limit:
			a[k] = byte(i)
		case k < need:
			panic(fmt.Sprintf("width %d: byte %d of a value lies outside its %d-byte window", w, k, limit))
		default:
			a[k] = 0x80
		}
	}
	for k := range size {
		b[k] = 0x80
	}
	if need > size {
		i := p.byte + size
		if i >= limit {
			panic(fmt.Sprintf("width %d: extra byte lies outside its %d-byte window", w, limit))
		}
		b[0] = byte(i)
	}
}

// needsExtraByte reports whether some value of a width-w block spans more
// bytes than an element of size bytes holds.
func needsExtraByte(w, size int) bool {
	for j := range 8 {
		if spanBytes(j*w%8, w) > size {
			return true
		}
	}
	return false
}

// blockShifts returns the right shift of each of the 8 values of a block.
func blockShifts(w int) [8]int {
	var s [8]int
	for j := range s {
		s[j] = j * w % 8
	}
	return s
}
