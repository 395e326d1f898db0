package colwrite

import (
	"fmt"
	"slices"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
	"github.com/quiverio/quiver/pageindex"
)

// BloomFilterOptions sizes the bloom filters of a column: one per column
// chunk (arrowio.BloomFilterOptions documents the fields).
type BloomFilterOptions struct {
	// NDV is the expected number of distinct values in a column chunk;
	// 0 counts the chunk's distinct values and sizes each filter for them.
	NDV int64
	// FPP is the false-positive probability the filter is sized for (0
	// means 0.01); it must be below 1.
	FPP float64
	// Bytes, when positive, is the bitset size (rounded up to a power of
	// two), and NDV and FPP are not used.
	Bytes int
}

// Check reports options that do not suit leaf n.
func (o *BloomFilterOptions) Check(n *footer.Node) error {
	switch {
	case n.Physical == footer.TypeBoolean || n.Physical == footer.TypeInt96:
		return fmt.Errorf("%w: bloom filter on a %s column", errs.ErrUnsupported, n.Physical)
	case o.NDV < 0 || o.Bytes < 0 || !(o.FPP >= 0 && o.FPP < 1):
		return fmt.Errorf("%w: bloom filter NDV %d, FPP %g, bytes %d", errs.ErrUnsupported, o.NDV, o.FPP, o.Bytes)
	}
	return nil
}

// size returns the bitset size for a chunk with distinct distinct values.
func (o *BloomFilterOptions) size(distinct int64) int {
	if o.Bytes > 0 {
		return o.Bytes
	}
	fpp := o.FPP
	if fpp == 0 {
		fpp = 0.01
	}
	if o.NDV > 0 {
		distinct = o.NDV
	}
	return pageindex.BloomBytes(distinct, fpp)
}

// bloomSink collects the bloom hashes of a column chunk's non-null
// values; the filter is sized and filled when the chunk ends. A nil sink
// takes nothing.
type bloomSink struct {
	hashes []uint64
}

// addFixedHashes adds the hashes of fixed-width physical values.
func addFixedHashes[T fixedValue](s *bloomSink, vals []T) {
	if s == nil {
		return
	}
	switch v := any(vals).(type) {
	case []int32:
		for _, x := range v {
			s.hashes = append(s.hashes, pageindex.HashInt32(x))
		}
	case []int64:
		for _, x := range v {
			s.hashes = append(s.hashes, pageindex.HashInt64(x))
		}
	case []float32:
		for _, x := range v {
			s.hashes = append(s.hashes, pageindex.HashFloat32(x))
		}
	case []float64:
		for _, x := range v {
			s.hashes = append(s.hashes, pageindex.HashFloat64(x))
		}
	}
}

// addOffsetHashes adds the hashes of the byte arrays offs delimit in
// data.
func addOffsetHashes[O kernels.Offset](s *bloomSink, offs []O, data []byte) {
	if s == nil {
		return
	}
	for k := 1; k < len(offs); k++ {
		s.hashes = append(s.hashes, pageindex.HashBytes(data[offs[k-1]:offs[k]]))
	}
}

// addFixed adds the hashes of fixed-width byte arrays of width bytes.
func (s *bloomSink) addFixed(vals []byte, width int) {
	if s == nil || width <= 0 {
		return
	}
	for k := 0; k+width <= len(vals); k += width {
		s.hashes = append(s.hashes, pageindex.HashBytes(vals[k:k+width]))
	}
}

// filter builds the chunk's bloom filter from the collected hashes. When
// the options size it by the chunk's distinct values and distinct (the
// dictionary's size, or -1) does not give their number, the distinct
// hashes are counted.
func (s *bloomSink) filter(o *BloomFilterOptions, distinct int64) *pageindex.Bloom {
	if o.Bytes <= 0 && o.NDV <= 0 && distinct < 0 {
		slices.Sort(s.hashes)
		s.hashes = slices.Compact(s.hashes)
		distinct = int64(len(s.hashes))
	}
	b := pageindex.NewBloom(o.size(distinct))
	b.InsertHashes(s.hashes)
	return b
}

func (w *fixedWriter[T, U]) setBloom(s *bloomSink) { w.bloom = s }
func (w *bytesWriter[O]) setBloom(s *bloomSink)    { w.bloom = s }
func (w *flbaWriter) setBloom(s *bloomSink)        { w.bloom = s }

// chunkIndex is a column writer's page index and bloom filter state.
type chunkIndex struct {
	builder   *pageindex.IndexBuilder // nil when the page index is off
	sink      *bloomSink              // nil without a bloom filter
	unencoded int64                   // the chunk's BYTE_ARRAY bytes at the last page
	rows      int64                   // rows of the chunk's pages so far
	// The finished chunk's modules, with page offsets relative to the
	// chunk's first byte.
	ChunkModules
}

// ChunkModules are the page indexes and bloom filter of one column chunk.
type ChunkModules struct {
	ColumnIndex *footer.ColumnIndex // nil without a page index
	OffsetIndex *footer.OffsetIndex // nil without a page index
	Bloom       *pageindex.Bloom    // nil without a bloom filter
}

// TakeModules returns the page indexes and bloom filter of the chunk
// FinishChunk finished (each nil when the settings leave it out), with
// page offsets relative to the chunk's first byte, and forgets them: they
// are the caller's.
func (c *Writer) TakeModules() ChunkModules {
	m := c.idx.ChunkModules
	c.idx.ChunkModules = ChunkModules{}
	return m
}

// initIndex prepares the column writer's page index and bloom filter.
func (c *Writer) initIndex() error {
	if c.set.PageIndex {
		c.idx.builder = pageindex.NewIndexBuilder(c.node)
	}
	if c.set.Bloom != nil {
		bw, ok := c.vals.(interface{ setBloom(*bloomSink) })
		if !ok {
			return fmt.Errorf("%w: column %q: bloom filter on a %s column", errs.ErrUnsupported, c.Path, c.node.Physical)
		}
		c.idx.sink = &bloomSink{}
		bw.setBloom(c.idx.sink)
	}
	return nil
}

// startIndex begins the index and filter of a new chunk.
func (c *Writer) startIndex() {
	if c.idx.builder != nil {
		c.idx.builder.Reset()
	}
	if c.idx.sink != nil {
		c.idx.sink.hashes = c.idx.sink.hashes[:0]
	}
	c.idx.unencoded, c.idx.rows = 0, 0
	c.idx.ChunkModules = ChunkModules{}
}

// indexPage records the data page just written: it starts at pageStart
// in c.DataPages, holds rows rows, and st (nil without statistics) has its
// bounds.
func (c *Writer) indexPage(st *footer.Statistics, pageStart, rows int) {
	first := c.idx.rows
	c.idx.rows += int64(rows)
	if c.idx.builder == nil {
		return
	}
	e := pageindex.PageEntry{
		Offset:    int64(pageStart),
		Size:      int32(c.DataPages.Len() - pageStart),
		FirstRow:  first,
		NullCount: int64(c.pageNulls),
		NonNull:   int64(c.levels - c.pageNulls),
	}
	if st != nil && st.MinValue != nil && st.MaxValue != nil {
		e.Min, e.Max = slices.Clone(st.MinValue), slices.Clone(st.MaxValue)
	}
	switch {
	case c.Nested:
		if c.node.MaxDef > 0 {
			e.DefHistogram = slices.Clone(c.pageDefHist)
		}
		if c.node.MaxRep > 0 {
			e.RepHistogram = slices.Clone(c.pageRepHist)
		}
	case c.node.MaxDef > 0:
		e.DefHistogram = []int64{int64(c.pageNulls), int64(c.levels - c.pageNulls)}
	}
	if b, ok := c.vals.unencodedBytes(); ok {
		e.UnencodedBytes = b - c.idx.unencoded
		c.idx.unencoded = b
	}
	c.idx.builder.AddPage(e)
}

// finishIndex builds the finished chunk's indexes and bloom filter.
func (c *Writer) finishIndex() {
	if c.idx.builder != nil {
		c.idx.ColumnIndex, c.idx.OffsetIndex = c.idx.builder.Finish(int64(c.DictPage.Len()))
	}
	if c.idx.sink != nil {
		distinct, ok := c.distinctValues()
		if !ok {
			distinct = -1
		}
		c.idx.Bloom = c.idx.sink.filter(c.set.Bloom, distinct)
	}
}

// AppendBloomModule appends a bloom filter as stored: header and bitset,
// each a module of its own sealed with c when the chunk is encrypted.
// plain is scratch, returned for reuse.
func AppendBloomModule(dst, plain []byte, b *pageindex.Bloom, c *encrypt.ChunkCipher) ([]byte, []byte, error) {
	plain = b.Append(plain[:0])
	if c == nil {
		return append(dst, plain...), plain, nil
	}
	var h footer.BloomFilterHeader
	n, err := footer.Unmarshal(plain, &h)
	if err != nil {
		return dst, plain, err
	}
	if dst, err = c.Seal(dst, plain[:n], encrypt.ModuleBloomFilterHeader, 0); err != nil {
		return dst, plain, err
	}
	dst, err = c.Seal(dst, plain[n:], encrypt.ModuleBloomFilterBitset, 0)
	return dst, plain, err
}
