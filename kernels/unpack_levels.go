package kernels

// unpackLevels is the unpack kernel of [RLEDecoder.DecodeLevels]. Widths 1
// and 2 (maximum levels 1 to 3, those of almost every nested column) expand
// a byte of levels at a time through a table, one load and one store per
// byte, which suits the short bit-packed runs that level streams hold
// between their repeated runs; other widths go to unpackGeneric.
func unpackLevels(dst []int16, src []byte, width uint) {
	switch width {
	case 1:
		n := len(dst) &^ 7
		for i := 0; i < n; i += 8 {
			*(*[8]int16)(dst[i : i+8]) = levelBytes1[src[i>>3]]
		}
		unpackTail(dst[n:], src[n>>3:], 1)
	case 2:
		n := len(dst) &^ 3
		for i := 0; i < n; i += 4 {
			*(*[4]int16)(dst[i : i+4]) = levelBytes2[src[i>>2]]
		}
		unpackTail(dst[n:], src[n>>2:], 2)
	default:
		unpackGeneric(dst, src, width)
	}
}

// levelBytes1 and levelBytes2 hold, for every byte, the levels of width 1
// and 2 it packs, least significant bits first.
var (
	levelBytes1 = func() (t [256][8]int16) {
		for b := range t {
			for j := range t[b] {
				t[b][j] = int16(b >> j & 1)
			}
		}
		return t
	}()
	levelBytes2 = func() (t [256][4]int16) {
		for b := range t {
			for j := range t[b] {
				t[b][j] = int16(b >> (2 * j) & 3)
			}
		}
		return t
	}()
)
