package page

import (
	"bytes"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/quiverio/quiver/arrowio/internal/codec"
	"github.com/quiverio/quiver/footer"
)

// TestDecompressSkipsChecksumUnderCRC checks that zstd's content checksum
// is verified for a page without a CRC and left to the CRC for a page
// with one, and that the decompressor's setting is restored.
func TestDecompressSkipsChecksumUnderCRC(t *testing.T) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
	if err != nil {
		t.Fatal(err)
	}
	plain := bytes.Repeat([]byte("quiver page "), 100)
	frame := enc.EncodeAll(plain, nil)
	frame[len(frame)-1] ^= 0xff // the content checksum is the frame's last 4 bytes
	d := &codec.Decompressor{Checksums: true}
	for _, withCRC := range []bool{false, true} {
		p := &Raw{Payload: frame}
		if withCRC {
			p.Header.CRC = footer.Some(int32(0))
		}
		got, err := Decompress(d, p, footer.CodecZstd, make([]byte, 0, len(plain)), frame, len(plain))
		switch {
		case !withCRC && err == nil:
			t.Error("a page without a CRC: the wrong zstd checksum went unnoticed")
		case withCRC && (err != nil || !bytes.Equal(got, plain)):
			t.Errorf("a page with a CRC: %v", err)
		}
		if !d.Checksums {
			t.Fatal("Decompress left the decompressor's checksums off")
		}
	}
}
