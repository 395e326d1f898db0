package codec

import (
	"encoding/binary"
	"fmt"

	"github.com/pierrec/lz4/v4"
)

// lz4FrameMagic opens an LZ4 frame (little-endian 0x184D2204).
const lz4FrameMagic = "\x04\x22\x4d\x18"

// decodeLZ4Block decodes a raw LZ4 block (the LZ4_RAW codec) into dst.
func decodeLZ4Block(dst, src []byte) (int, error) {
	n, err := lz4.UncompressBlock(src, dst)
	if err != nil {
		return 0, fmt.Errorf("not an LZ4 block that decodes to at most %d bytes: %w", len(dst), err)
	}
	return n, nil
}

// decodeLZ4 decodes a page of the deprecated LZ4 codec, which writers
// disagreed about. Like Arrow C++ it tries, in order: Hadoop's framing
// (parquet-mr), a raw LZ4 block (older parquet-cpp), and the LZ4 frame
// format.
func (d *Decompressor) decodeLZ4(dst, src []byte) (int, error) {
	if n, ok := DecodeHadoopLZ4(dst, src); ok {
		return n, nil
	}
	n, rawErr := lz4.UncompressBlock(src, dst)
	if rawErr == nil && n == len(dst) {
		return n, nil
	}
	if len(src) < len(lz4FrameMagic) || string(src[:len(lz4FrameMagic)]) != lz4FrameMagic {
		if rawErr == nil {
			return n, nil // a raw block of the wrong size: the caller reports both
		}
		return 0, fmt.Errorf("neither Hadoop-framed LZ4, nor an LZ4 block that decodes to at most %d bytes (%w), nor an LZ4 frame", len(dst), rawErr)
	}
	d.src.Reset(src)
	if d.lz4 == nil {
		d.lz4 = lz4.NewReader(&d.src)
	} else {
		d.lz4.Reset(&d.src)
	}
	return d.readExactly(d.lz4, dst)
}

// DecodeHadoopLZ4 decodes src as Hadoop's LZ4 framing: blocks, each a
// big-endian uint32 uncompressed size, a big-endian uint32 compressed size
// and that many bytes of raw LZ4 block. ok reports that src is exactly such
// a sequence, every block decoding to its stated size within dst; n is then
// the bytes written.
func DecodeHadoopLZ4(dst, src []byte) (n int, ok bool) {
	const prefix = 8
	for len(src) >= prefix {
		raw := uint64(binary.BigEndian.Uint32(src))
		packed := uint64(binary.BigEndian.Uint32(src[4:]))
		src = src[prefix:]
		if packed > uint64(len(src)) || raw > uint64(len(dst)-n) {
			return 0, false
		}
		m, err := lz4.UncompressBlock(src[:packed], dst[n:n+int(raw)])
		if err != nil || uint64(m) != raw {
			return 0, false
		}
		n += m
		src = src[packed:]
	}
	return n, len(src) == 0
}
