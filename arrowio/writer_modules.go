package arrowio

import (
	"fmt"
	"math"

	"github.com/quiverio/quiver/arrowio/internal/colwrite"

	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
)

// keepModules takes the modules of column writer c's finished chunk of
// row group rg, which starts at file offset base, for Close to write.
func (w *Writer) keepModules(rg int, c *colwrite.Writer, base int64) {
	for len(w.modules) <= rg {
		w.modules = append(w.modules, nil)
	}
	m := c.TakeModules()
	if m.OffsetIndex != nil {
		for i := range m.OffsetIndex.PageLocations {
			m.OffsetIndex.PageLocations[i].Offset += base
		}
	}
	w.modules[rg] = append(w.modules[rg], m)
}

// writeModules writes the kept bloom filters, then every ColumnIndex, then
// every OffsetIndex, after the last row group, and records where they are
// in the row groups' column chunks.
func (w *Writer) writeModules() error {
	var buf, plain []byte
	for pass := range 3 {
		for r, cols := range w.modules {
			for c, m := range cols {
				cc := &w.rowGroups[r].Columns[c]
				start := w.offset
				var ciph *encrypt.ChunkCipher
				if w.enc != nil {
					var err error
					if ciph, err = w.enc.Chunk(r, c); err != nil {
						return err
					}
				}
				var err error
				switch {
				case pass == 0 && m.Bloom != nil:
					buf, plain, err = colwrite.AppendBloomModule(buf[:0], plain, m.Bloom, ciph)
				case pass == 1 && m.ColumnIndex != nil:
					plain = footer.Marshal(plain[:0], m.ColumnIndex)
					buf, err = encrypt.SealModule(buf[:0], ciph, plain, encrypt.ModuleColumnIndex)
				case pass == 2 && m.OffsetIndex != nil:
					plain = footer.Marshal(plain[:0], m.OffsetIndex)
					buf, err = encrypt.SealModule(buf[:0], ciph, plain, encrypt.ModuleOffsetIndex)
				default:
					continue
				}
				if err != nil {
					return err
				}
				if len(buf) > math.MaxInt32 {
					return fmt.Errorf("%w: a page index or bloom filter of %d bytes", errs.ErrUnsupported, len(buf))
				}
				if err := w.write(buf); err != nil {
					return err
				}
				switch pass {
				case 0:
					cc.MetaData.BloomFilterOffset = footer.Some(start)
					cc.MetaData.BloomFilterLength = footer.Some(int32(len(buf)))
				case 1:
					cc.ColumnIndexOffset, cc.ColumnIndexLength = footer.Some(start), footer.Some(int32(len(buf)))
				case 2:
					cc.OffsetIndexOffset, cc.OffsetIndexLength = footer.Some(start), footer.Some(int32(len(buf)))
				}
			}
		}
	}
	w.modules = nil
	return nil
}
