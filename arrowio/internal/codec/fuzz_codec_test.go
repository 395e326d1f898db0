package codec_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/codec/codectest"

	"github.com/quiverio/quiver/arrowio/internal/codec"
	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
)

// fuzzDecompressor is shared by the inputs of FuzzDecompress, so that the
// state one page leaves behind (after an error too) meets the next.
var fuzzDecompressor codec.Decompressor

// FuzzDecompress decompresses arbitrary bytes as a page of any codec number
// (codec%10: the eight codecs and two unknown numbers) with a declared size
// of up to 1 MiB. It must never panic, never write past the declared size,
// never change its input, and either return exactly the declared size or an
// error wrapping ErrCorrupt or ErrUnsupported. Seeds are pages of every
// codec case and the small compressed pages of the corpus.
func FuzzDecompress(f *testing.F) {
	src, _ := codectest.PageData(1000, 1)
	for _, c := range codectest.Cases {
		f.Add(uint8(c.Codec), uint32(len(src)), codectest.Compress(f, c, src))
	}
	if root, err := corpus.Lookup(); err == nil {
		files, err := corpus.List(root)
		if err != nil {
			f.Fatal(err)
		}
		perCodec := map[footer.CompressionCodec]int{}
		for _, rel := range files {
			if !strings.HasPrefix(rel, "data") {
				continue
			}
			// Unreadable files simply give fewer seeds.
			_ = walkPages(filepath.Join(root, rel), func(p corpusPage) {
				if p.codec != footer.CodecUncompressed && p.size <= 64<<10 && perCodec[p.codec] < 8 {
					perCodec[p.codec]++
					f.Add(uint8(p.codec), uint32(p.size), bytes.Clone(p.data))
				}
			})
		}
	}
	const canary, canaryLen = 0xfe, 64
	f.Fuzz(func(t *testing.T, codec uint8, size uint32, page []byte) {
		n := int(size % (1<<20 + 1))
		buf := make([]byte, n+canaryLen)
		for i := range buf {
			buf[i] = canary
		}
		orig := bytes.Clone(page)
		c := footer.CompressionCodec(codec % 10)
		out, err := fuzzDecompressor.Decompress(c, buf[:n], page, n)
		if !bytes.Equal(page, orig) {
			t.Fatalf("%s: decompress changed its input", c)
		}
		for i, b := range buf[n:] {
			if b != canary {
				t.Fatalf("%s: byte %d past the declared %d was written", c, i, n)
			}
		}
		switch {
		case err != nil && !errors.Is(err, errs.ErrCorrupt) && !errors.Is(err, errs.ErrUnsupported):
			t.Fatalf("%s: %v wraps neither ErrCorrupt nor ErrUnsupported", c, err)
		case err == nil && len(out) != n:
			t.Fatalf("%s: %d bytes for a page declared as %d", c, len(out), n)
		case err == nil && n > 0 && c != footer.CodecUncompressed && &out[0] != &buf[0]:
			t.Fatalf("%s: output is not in the caller's buffer", c)
		}
	})
}
