package kernels

import "fmt"

// ByteStreamSplitDecode reverses the BYTE_STREAM_SPLIT encoding: src holds
// width streams of len(dst)/width bytes each (stream k carries byte k of
// every value), and dst receives the values back to back, each width bytes
// long. len(src) must equal len(dst) and be a multiple of width, because
// the encoding has no header and the streams run to the end of the page.
// Widths 2, 4 and 8 (FLOAT16, FLOAT/INT32, DOUBLE/INT64) take a dispatched
// fast path; any other positive width (FIXED_LEN_BYTE_ARRAY) a plain loop.
// Errors wrap [ErrCorrupt].
func ByteStreamSplitDecode(dst, src []byte, width int) error {
	if err := bssCheck(dst, src, width); err != nil {
		return err
	}
	switch width {
	case 2:
		bssDecode2(dst, src)
	case 4:
		bssDecode4(dst, src)
	case 8:
		bssDecode8(dst, src)
	default:
		bssDecodeWidth(dst, src, width)
	}
	return nil
}

// ByteStreamSplitEncode applies the BYTE_STREAM_SPLIT encoding to the values
// in src (back to back, width bytes each) and writes the width streams to
// dst, which must be exactly as long as src. Errors wrap [ErrOutOfRange]
// (width not positive or len(src) not a multiple of it) or [ErrShortBuffer]
// (len(dst) differs from len(src)).
func ByteStreamSplitEncode(dst, src []byte, width int) error {
	if width <= 0 || len(src)%width != 0 {
		return fmt.Errorf("%w: byte stream split: %d bytes is not a whole number of %d-byte values", ErrOutOfRange, len(src), width)
	}
	if len(dst) != len(src) {
		return fmt.Errorf("%w: byte stream split: %d stream bytes for %d value bytes", ErrShortBuffer, len(dst), len(src))
	}
	switch width {
	case 2:
		bssEncode2(dst, src)
	case 4:
		bssEncode4(dst, src)
	case 8:
		bssEncode8(dst, src)
	default:
		bssEncodeWidth(dst, src, width)
	}
	return nil
}

// bssCheck validates the decoder's value buffer against its stream buffer.
func bssCheck(values, streams []byte, width int) error {
	if width <= 0 {
		return fmt.Errorf("%w: byte stream split width %d", ErrCorrupt, width)
	}
	if len(streams)%width != 0 {
		return fmt.Errorf("%w: byte stream split: %d bytes is not a whole number of %d-byte values", ErrCorrupt, len(streams), width)
	}
	if len(values) != len(streams) {
		if len(values) < len(streams) {
			return fmt.Errorf("%w: byte stream split: %d value bytes for %d stream bytes", ErrShortBuffer, len(values), len(streams))
		}
		return fmt.Errorf("%w: byte stream split: %d stream bytes hold %d values, want %d", ErrCorrupt, len(streams), len(streams)/width, len(values)/width)
	}
	return nil
}

// bssFunc is the shape of every dispatched byte-stream-split routine: dst
// and src have the same length, a multiple of the routine's width.
type bssFunc = func(dst, src []byte)

// Dispatch variables; an arch init() may replace them once.
var (
	bssDecode2 bssFunc = bssDecode2Generic
	bssDecode4 bssFunc = bssDecode4Generic
	bssDecode8 bssFunc = bssDecode8Generic
	bssEncode2 bssFunc = bssEncode2Generic
	bssEncode4 bssFunc = bssEncode4Generic
	bssEncode8 bssFunc = bssEncode8Generic
)

// Every implementation usable on this CPU, portable twin first, for tests.
var (
	bssDecode2Impls = []impl[bssFunc]{{"go", bssDecode2Generic}}
	bssDecode4Impls = []impl[bssFunc]{{"go", bssDecode4Generic}}
	bssDecode8Impls = []impl[bssFunc]{{"go", bssDecode8Generic}}
	bssEncode2Impls = []impl[bssFunc]{{"go", bssEncode2Generic}}
	bssEncode4Impls = []impl[bssFunc]{{"go", bssEncode4Generic}}
	bssEncode8Impls = []impl[bssFunc]{{"go", bssEncode8Generic}}
)
