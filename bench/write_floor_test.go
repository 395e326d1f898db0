package bench

import (
	"bytes"
	"fmt"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"

	"github.com/quiverio/quiver/bench/datasets"
	"github.com/quiverio/quiver/bench/pqfiles"
	"github.com/quiverio/quiver/footer"
)

// zstdEnc compresses the write floor's zstd pages with the options
// arrow-go's zstd codec gives klauspost/compress (default level, one
// goroutine, no empty frames' header, entropy coding of every literal),
// which quiver's writer gives it too.
var zstdEnc, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1),
	zstd.WithZeroFrames(true), zstd.WithAllLitEntropyCompression(true))

// floorPages caches, per dataset, size and configuration, the
// decompressed pages of quiver's file, which writeFloor compresses.
var floorPages sync.Map // floorKey → [][]byte

type floorKey struct {
	dataset, config string
	size            datasets.Size
}

// writeFloor is the compression floor of a write: it compresses, with the
// configuration's codec, the pages of quiver's file of the same batches
// (decompressed once, ahead of the timing), and nothing else. Every writer
// compresses about these bytes with the same library at the same level
// (pqarrow's pages differ only where its encodings choose otherwise), so
// pqarrow's time over the floor's is about the most any writer could beat
// pqarrow by with this codec. Snappy pages go through s2.EncodeSnappy, the
// fastest snappy-compatible encoder of klauspost/compress. w is not
// written: the floor makes no file.
func writeFloor(_ io.Writer, d *datasets.Dataset, s datasets.Size, c *pqfiles.Config, recs []arrow.RecordBatch) error {
	if err := prepareFloor(d, s, c, recs); err != nil {
		return err
	}
	pages, _ := floorPages.Load(floorKey{d.Name, c.Name, s})
	var out []byte
	for _, p := range pages.([][]byte) {
		switch c.Codec() {
		case footer.CodecSnappy:
			out = s2.EncodeSnappy(grow(out, s2.MaxEncodedLen(len(p))), p)
		case footer.CodecZstd:
			out = zstdEnc.EncodeAll(p, out[:0])
		default:
			return fmt.Errorf("no compression floor for codec %v", c.Codec())
		}
	}
	return nil
}

// prepareFloor decompresses the pages writeFloor compresses, once per
// dataset, size and configuration.
func prepareFloor(d *datasets.Dataset, s datasets.Size, c *pqfiles.Config, recs []arrow.RecordBatch) error {
	key := floorKey{d.Name, c.Name, s}
	if _, ok := floorPages.Load(key); ok {
		return nil
	}
	pages, err := quiverPages(d, s, c, recs)
	if err != nil {
		return err
	}
	floorPages.Store(key, pages)
	return nil
}

// quiverPages writes recs with quiver's writer in configuration c and
// returns the decompressed compressed part of every page of the file.
func quiverPages(d *datasets.Dataset, s datasets.Size, c *pqfiles.Config, recs []arrow.RecordBatch) ([][]byte, error) {
	var file bytes.Buffer
	if err := c.WriteQuiver(&file, d, s, recs, 1); err != nil {
		return nil, err
	}
	ft, err := footer.ReadFooter(bytes.NewReader(file.Bytes()), int64(file.Len()))
	if err != nil {
		return nil, err
	}
	var pages [][]byte
	for i, rg := range ft.Meta.RowGroups {
		for j, cc := range rg.Columns {
			md := cc.MetaData
			if md == nil {
				return nil, fmt.Errorf("row group %d column %d: no column metadata", i, j)
			}
			start := md.DataPageOffset
			if d, ok := md.DictionaryPageOffset.Get(); ok && d > 0 && d < start {
				start = d
			}
			if start < 0 || md.TotalCompressedSize < 0 || start+md.TotalCompressedSize > int64(file.Len()) {
				return nil, fmt.Errorf("row group %d column %d: chunk outside the file", i, j)
			}
			chunk := file.Bytes()[start : start+md.TotalCompressedSize]
			err := walkPages(chunk, func(body []byte, full int) error {
				page := make([]byte, full)
				pages = append(pages, page)
				return decompress(page, body, md.Codec)
			})
			if err != nil {
				return nil, fmt.Errorf("row group %d column %d: %w", i, j, err)
			}
		}
	}
	return pages, nil
}
