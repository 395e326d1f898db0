package colwrite

// BufferedBytes estimates the compressed size of the chunk being written:
// the pages written so far as they are, and the page being filled and the
// dictionary not yet written at the compression ratio of the chunk's pages
// so far, or at ratio (compressed over uncompressed bytes, the caller's
// guess: the column's previous chunk, say) before its first page. It
// depends only on the values written to the chunk and ratio, not on how
// the calls that wrote them split them.
func (c *Writer) BufferedBytes(ratio float64) int64 {
	written := int64(c.DictPage.Len() + c.DataPages.Len())
	pending := int64(c.vals.pageBytes())
	if c.Nested {
		pending += int64(c.levels / 4)
	} else {
		pending += int64(c.levels / 8)
	}
	if c.DictPage.Len() == 0 {
		pending += int64(max(c.vals.dictBytes(), 0))
	}
	if c.uncompressed > 0 {
		return written + pending*written/c.uncompressed
	}
	return written + int64(float64(pending)*ratio)
}

// Nulls returns the null entries of the chunk FinishChunk finished.
func (c *Writer) Nulls() int64 { return c.nulls }

// NaNs returns the NaN values of the chunk FinishChunk finished: those of
// a FLOAT, DOUBLE or FLOAT16 leaf, counted as its statistics are taken
// (whether or not they are written), and 0 for other leaves.
func (c *Writer) NaNs() int64 { return c.vals.chunkNaNs() }

// PageScratch holds the buffers a column writer builds and compresses a
// page in. They matter only while a page is written, so the column
// writers run by one goroutine can share one PageScratch instead of each
// keeping buffers of a page's size: on a 1,000-column table that is the
// difference between two pages' bytes and two thousand.
type PageScratch struct{ body, packed []byte }

// UseScratch lends s's buffers to c until ReturnScratch.
func (c *Writer) UseScratch(s *PageScratch) {
	c.body, c.packed = s.body, s.packed
	s.body, s.packed = nil, nil
}

// ReturnScratch gives the buffers UseScratch lent, grown as c grew them,
// back to s.
func (c *Writer) ReturnScratch(s *PageScratch) {
	s.body, s.packed = c.body, c.packed
	c.body, c.packed = nil, nil
}
