package kernels

import "fmt"

// LevelsToBitmap turns decoded definition levels into an Arrow validity
// bitmap: bit offset+i of dst is set when levels[i] >= threshold (the value
// at that position is present) and cleared otherwise. Bits of dst outside
// [offset, offset+len(levels)) are left as they were. It returns the number
// of cleared bits, the null count, or an error wrapping [ErrShortBuffer] when
// dst is too small, writing nothing.
//
// For flat optional columns, [DefLevelsToBitmap] does the same straight from
// the encoded level stream.
func LevelsToBitmap(dst []byte, offset int, levels []int16, threshold int16) (int, error) {
	if err := checkBitRange("LevelsToBitmap", len(dst), offset, len(levels)); err != nil {
		return 0, err
	}
	return levelsToBitmap16(dst, uint(offset), levels, threshold), nil
}

// LevelsToBitmapUint8 is [LevelsToBitmap] for levels held as bytes.
func LevelsToBitmapUint8(dst []byte, offset int, levels []uint8, threshold uint8) (int, error) {
	if err := checkBitRange("LevelsToBitmapUint8", len(dst), offset, len(levels)); err != nil {
		return 0, err
	}
	return levelsToBitmap8(dst, uint(offset), levels, threshold), nil
}

// levelType is the set of element types decoded levels are held in.
type levelType interface{ int16 | uint8 }

// checkMaxLevel reports a maximum level that is negative or does not fit the
// bit width of the stream it is checked against.
func checkMaxLevel(maxLevel int, width, maxWidth uint) error {
	if maxLevel < 0 || width > maxWidth {
		return fmt.Errorf("%w: max level %d with bit width %d (at most %d)", ErrOutOfRange, maxLevel, width, maxWidth)
	}
	return nil
}
