package colwrite

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio/internal/codec"
	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
)

// miniBatch is the most slots the column writer hands its value writer at
// once; pages are cut between mini-batches, as other writers cut them
// between write batches of this size.
const miniBatch = 1024

// valueWriter is the typed half of a column writer: it turns the physical
// values of one leaf into encoded page values, keeps the dictionary and
// the min/max statistics. Its methods are called once per mini-batch or
// page, never per value.
type valueWriter interface {
	// startChunk begins a column chunk, dictionary-encoded when dict is set.
	startChunk(dict bool)
	// bind makes slots [lo, hi) of arr the slots put reads (put's slot i is
	// arr's slot lo+i) and returns their validity: a bitmap (nil when every
	// slot is valid) and the bit of slot lo in it.
	bind(arr arrow.Array, lo, hi int) (valid []byte, voff int, err error)
	// put adds the values of the valid slots among [i, j), nonNull of them,
	// to the page.
	put(i, j int, valid []byte, voff, nonNull int) error
	// pageBytes estimates the encoded size of the page's values.
	pageBytes() int
	// flushPage appends the page's encoded values to dst and returns them
	// with their encoding; when st is not nil it also receives the page's
	// min and max. The page's statistics join the chunk's.
	flushPage(dst []byte, st *footer.Statistics) ([]byte, footer.Encoding, error)
	// dictBytes returns the PLAIN size of the dictionary, or -1 when the
	// chunk is not (or no longer) dictionary-encoded.
	dictBytes() int
	// dictLen returns the number of values in the dictionary.
	dictLen() int
	// dictPage appends the dictionary's PLAIN values to dst and returns
	// them with the number of values.
	dictPage(dst []byte) ([]byte, int)
	// fallback switches the chunk to the non-dictionary encoding. The page
	// must have been flushed.
	fallback()
	// appendIndices appends the page's dictionary indices as a
	// dictionary-encoded page holds them (see appendIndices).
	appendIndices(dst []byte) ([]byte, error)
	// maxIndexBytes bounds the bytes appendIndices appends, for a
	// dictionary of dictLen values.
	maxIndexBytes(dictLen int) int
	// keepIndices hands the page's flush the indices appendIndices
	// appended, to write instead of encoding them again; they must stay
	// unchanged until then.
	keepIndices(encoded []byte)
	// undict turns the page's dictionary indices into the values they
	// stand for, in the page of the non-dictionary encoding, and ends
	// dictionary encoding: the chunk then has no dictionary page. Only the chunk's
	// first page, while dictionary-encoded, can be undone so.
	undict()
	// chunkStats sets the chunk's min and max in st.
	chunkStats(st *footer.Statistics)
	// chunkNaNs returns the NaN values the chunk was given.
	chunkNaNs() int64
	// unencodedBytes returns the chunk's BYTE_ARRAY bytes (lengths left
	// out), and false for other physical types.
	unencodedBytes() (int64, bool)
}

// pageEncoding is the part every value writer shares: whether the chunk
// is (still) dictionary-encoded, the page's dictionary indices while it
// is, and the encoding of its pages otherwise (from the start, or after
// fallback); and the chunk's NaN count, which the writers of float
// values add to as they take their statistics. Its fallback is the value
// writers' valueWriter.fallback.
type pageEncoding struct {
	fallbackEnc footer.Encoding
	dictOn      bool
	idx         []uint32 // the page's dictionary indices
	// encoded is idx as appendIndices appends them, when judgeDict
	// encoded them at the page's end; nil otherwise.
	encoded []byte
	nans    int64 // the chunk's NaN values (FLOAT, DOUBLE, FLOAT16 leaves)
}

// startChunk begins a chunk, dictionary-encoded when dict is set.
func (e *pageEncoding) startChunk(dict bool) {
	e.dictOn = dict
	e.idx = e.idx[:0]
	e.nans = 0
}

// chunkNaNs returns the chunk's NaN values (see valueWriter).
func (e *pageEncoding) chunkNaNs() int64 { return e.nans }

// addIndices appends k indices to the page's and returns them, for the
// dictionary to set.
func (e *pageEncoding) addIndices(k int) []uint32 {
	n := len(e.idx)
	e.idx = growDoubling(e.idx, k)[:n+k]
	return e.idx[n:]
}

// indexBytes estimates the encoded size of the page's indices into a
// dictionary of dictLen values.
func (e *pageEncoding) indexBytes(dictLen int) int {
	return len(e.idx)*bits.Len(uint(dictLen))/8 + 1
}

// fallback switches the chunk to fallbackEnc (see valueWriter).
func (e *pageEncoding) fallback() { e.dictOn = false }

// appendIndices appends the page's indices as a dictionary-encoded values
// section (see valueWriter).
func (e *pageEncoding) appendIndices(dst []byte) ([]byte, error) {
	return appendIndices(dst, e.idx)
}

// maxIndexBytes bounds the bytes appendIndices appends for a dictionary
// of dictLen values: the width byte, then at most a byte more than the
// bits of each group of eight indices (see kernels.MaxRLEEncodedLen).
func (e *pageEncoding) maxIndexBytes(dictLen int) int {
	return 1 + kernels.MaxRLEEncodedLen(len(e.idx), uint(bits.Len(uint(dictLen))))
}

// keepIndices sets the page's encoded indices (see valueWriter).
func (e *pageEncoding) keepIndices(encoded []byte) { e.encoded = encoded }

// takeIndices returns the page's dictionary indices and switches the
// chunk to fallbackEnc, for a value writer's undict; the indices stay
// valid until the next addIndices.
func (e *pageEncoding) takeIndices() []uint32 {
	idx := e.idx
	e.idx = e.idx[:0]
	e.dictOn = false
	return idx
}

// endPage is the end of every value writer's flushPage, once the page's
// statistics are taken: it appends the page's values to dst and returns
// them with their encoding. A dictionary-encoded page is its indices; any
// other page is what appendValues, the value writer's own part, appends:
// its page's values encoded with enc, after which the page is empty.
func (e *pageEncoding) endPage(dst []byte, appendValues func(dst []byte, enc footer.Encoding) ([]byte, error)) ([]byte, footer.Encoding, error) {
	if e.dictOn {
		var err error
		if e.encoded != nil {
			dst = append(dst, e.encoded...)
		} else {
			dst, err = appendIndices(dst, e.idx)
		}
		e.idx, e.encoded = e.idx[:0], nil
		return dst, footer.EncodingRLEDictionary, err
	}
	dst, err := appendValues(dst, e.fallbackEnc)
	return dst, e.fallbackEnc, err
}

// Writer writes the column chunks of one leaf column, one row group
// after another, into memory: the row group's chunks are written out once
// all of them are encoded, so chunks can be encoded concurrently and the
// output does not depend on the order they finish in.
//
// Levels are kept here and values in the typed valueWriter. A flat column
// takes its definition levels from the Arrow validity bitmap; a leaf below
// a nested field takes the definition and repetition levels the levels
// package shreds, with its dense values, and cuts pages only where a
// repetition level is 0 (WriteNested, nested_write.go).
type Writer struct {
	node       *footer.Node
	Path       string // the leaf's dotted path, for errors
	set        Settings
	order      statOrder
	vals       valueWriter
	Compressor *codec.Compressor // the compressor of the goroutine encoding the chunk
	// snappy holds the column's snappy encoder choices (dictionary pages,
	// data pages by encoding), carried from page to page and from chunk to
	// chunk (from page to page only with content-defined chunking).
	snappy codec.SnappyChoices

	// The page being filled.
	defs      defBitmap
	levels    int // level entries (slots, nulls included)
	pageNulls int
	// fill counts the entries of the mini-batch being filled. A mini-batch
	// ends where the chunk's entries say, not where a Write call ends, so
	// that pages are cut alike however the rows arrive.
	fill int
	// Nested marks a leaf below a nested field, written with WriteNested:
	// its page keeps the levels as they are (defLv, repLv) and counts the
	// rows they start.
	Nested       bool
	defLv, repLv []int16
	pageRowsDone int
	// The page's level histograms (for the page index), and scratch
	// counts of one batch.
	pageDefHist, pageRepHist, batchHist []int64

	// The chunk being written.
	DictPage     PageBuffer // the dictionary page, header included, or empty
	DataPages    PageBuffer // the data pages, headers included
	dictChunk    bool       // the chunk began dictionary-encoded
	numValues    int64
	nulls        int64
	uncompressed int64 // page headers and uncompressed page bytes
	encStats     []footer.PageEncodingStats
	defHist      []int64
	dictCount    int // values in the dictionary page
	// The chunk's first dictionary-encoded page decides whether the
	// dictionary pays (see judgeDict); judged is set once it has.
	judged bool
	// The page index and bloom filter of the chunk (pageindex_write.go).
	idx chunkIndex
	// geo gathers a GEOMETRY or GEOGRAPHY chunk's GeospatialStatistics
	// (geo_stats.go); nil for other columns.
	geo *geoStats

	// Reused scratch.
	body, packed []byte
	zeros        []byte
	hdrBytes     []byte // the page header closePage places
	hdr          footer.PageHeader
	dph          footer.DataPageHeader
	dph2         footer.DataPageHeaderV2
	dictHdr      footer.DictionaryPageHeader

	// Crypt encrypts the chunk's pages and headers (colwriter_crypt.go),
	// nil for plaintext chunks.
	Crypt *PageSealer

	// cdc cuts pages where the values say (cdc.go), nil when content-
	// defined chunking is off; cuts holds the cuts of one write.
	cdc  *chunker
	cuts []int
}

// NewWriter returns the writer of leaf n, whose values come from Arrow
// arrays of type dt. Before it writes a chunk, the caller sets
// Compressor, Nested for a leaf below a nested field, and Crypt for an
// encrypted column.
func NewWriter(n *footer.Node, dt arrow.DataType, set Settings) (*Writer, error) {
	if dt.ID() == arrow.NULL {
		set.Dictionary = false // nothing to put in one
	}
	c := &Writer{node: n, Path: n.DottedPath(), set: set, order: leafOrder(n), geo: newGeoStats(n)}
	vw, err := newValueWriter(n, dt, set, c.order)
	if err != nil {
		return nil, fmt.Errorf("column %q: %w", c.Path, err)
	}
	c.vals = vw
	if set.CDC != nil {
		if c.cdc, err = newChunker(set.CDC); err != nil {
			return nil, fmt.Errorf("column %q: %w", c.Path, err)
		}
	}
	if err := c.initIndex(); err != nil {
		return nil, err
	}
	return c, nil
}

// StartChunk begins a new column chunk.
func (c *Writer) StartChunk() {
	c.DictPage.reset()
	c.DataPages.reset()
	c.dictChunk = c.set.Dictionary
	c.numValues, c.nulls, c.uncompressed = 0, 0, 0
	c.encStats = c.encStats[:0]
	c.defHist = c.defHist[:0]
	if c.node.MaxDef > 0 {
		c.defHist = append(c.defHist, make([]int64, c.node.MaxDef+1)...)
	}
	c.vals.startChunk(c.set.Dictionary)
	c.judged = false
	if c.geo != nil {
		c.geo.reset()
	}
	c.fill = 0
	if c.cdc != nil {
		// Equal pages must compress to equal bytes wherever they fall, so
		// the chunk's first pages settle its snappy encoders for good,
		// instead of pages retrying them at places that move with an edit.
		c.cdc.reset()
		c.snappy.Reset(true)
	}
	c.startIndex()
	c.startPage()
}

// startPage begins a new data page.
func (c *Writer) startPage() {
	c.levels, c.pageNulls = 0, 0
	c.defs.reset()
	c.defLv, c.repLv, c.pageRowsDone = c.defLv[:0], c.repLv[:0], 0
	clear(c.pageDefHist)
	clear(c.pageRepHist)
}

// WriteFlat writes slots [lo, hi) of arr, the Arrow array of a flat
// column, to the chunk.
func (c *Writer) WriteFlat(arr arrow.Array, lo, hi int) error {
	if c.geo != nil {
		if err := c.geo.addArray(arr, lo, hi, "row"); err != nil {
			return fmt.Errorf("column %q: %w", c.Path, err)
		}
	}
	valid, voff, err := c.vals.bind(arr, lo, hi)
	if err != nil {
		return fmt.Errorf("column %q: %w", c.Path, err)
	}
	n := hi - lo
	c.reservePlain(arr, lo, hi)
	if arr.DataType().ID() == arrow.NULL {
		c.zeros = resize(c.zeros, (n+7)/8)
		clear(c.zeros)
		valid, voff = c.zeros, 0
	}
	if c.node.MaxDef == 0 && valid != nil {
		if k, _ := kernels.CountSetBits(valid, voff, n); k != n {
			return fmt.Errorf("%w: column %q is required but has %d nulls", errs.ErrUnsupported, c.Path, n-k)
		}
		valid = nil
	}
	cuts, err := c.flatCuts(arr, lo, hi, valid, voff)
	if err != nil {
		return err
	}
	if cuts, err = c.cutFirst(cuts); err != nil {
		return err
	}
	for i := 0; i < n; {
		j := min(n, i+miniBatch-c.fill)
		rows := c.pageRows()
		if rows > 0 {
			j = min(j, i+rows-c.levels)
		}
		if len(cuts) > 0 {
			j = min(j, cuts[0])
		}
		nonNull := j - i
		if c.node.MaxDef > 0 {
			if valid != nil {
				nonNull, _ = kernels.CountSetBits(valid, voff+i, j-i)
			}
			if err := c.defs.add(valid, voff+i, j-i); err != nil {
				return fmt.Errorf("column %q: %w", c.Path, err)
			}
			c.defHist[0] += int64(j - i - nonNull)
			c.defHist[1] += int64(nonNull)
		}
		if err := c.vals.put(i, j, valid, voff, nonNull); err != nil {
			return fmt.Errorf("column %q: %w", c.Path, err)
		}
		c.levels += j - i
		c.pageNulls += j - i - nonNull
		c.fill += j - i
		rowsFull := rows > 0 && c.levels >= rows
		cut := len(cuts) > 0 && cuts[0] == j // content-defined chunking ends the page here
		if cut {
			cuts = cuts[1:]
		}
		i = j
		if c.fill < miniBatch && !rowsFull && !cut {
			continue // the call ended inside a mini-batch, which the next one goes on filling
		}
		full := c.vals.pageBytes()+c.levels/8 >= c.set.PageSize || rowsFull || cut
		if err := c.endMiniBatch(full); err != nil {
			return err
		}
	}
	return nil
}

// pageRows returns the rows at which the page being filled is cut, 0 for
// no limit: the page row limit, or while the page is dictionary-encoded,
// the limit of such pages.
func (c *Writer) pageRows() int {
	if c.set.PageRows > 0 || c.vals.dictBytes() < 0 {
		return c.set.PageRows
	}
	return c.set.DictPageRows
}

// endMiniBatch ends a mini-batch of a flat or nested leaf: it writes the
// page when full is set (or when the page, turned from dictionary indices
// to values by judgeDict, now fills it), and ends dictionary encoding
// once the dictionary reaches its size limit.
func (c *Writer) endMiniBatch(full bool) error {
	c.fill = 0
	if c.looksDistinct() {
		if err := c.judgeDict(false); err != nil {
			return err
		}
		full = full || c.pageFull()
	}
	if full {
		if err := c.flushPage(); err != nil {
			return err
		}
	}
	if c.vals.dictBytes() >= c.set.DictLimit {
		return c.fallback()
	}
	return nil
}

// fallback ends dictionary encoding for the rest of the chunk: the page
// so far is written with the dictionary, then the dictionary page, and
// later pages use the non-dictionary encoding.
func (c *Writer) fallback() error {
	if err := c.flushPage(); err != nil {
		return err
	}
	if c.vals.dictBytes() < 0 {
		return nil // the page was the first, and the dictionary did not pay
	}
	if err := c.writeDictPage(); err != nil {
		return err
	}
	c.vals.fallback()
	return nil
}

// flushPage writes the page being filled, if it holds any slots. The
// chunk's first dictionary-encoded page decides whether the dictionary
// pays (judgeDict) before it is written.
func (c *Writer) flushPage() error {
	if c.levels == 0 {
		return nil
	}
	if err := c.judgeDict(true); err != nil {
		return err
	}
	st, hdrStats := c.pageStats()
	pageStart := c.DataPages.Len()
	// An uncompressed page that is not encrypted is built where it is
	// kept, in the chunk's segment: its bytes are then written once, not
	// into the page's scratch first and copied.
	body, at := c.body[:0], 0
	inPlace := c.set.Codec == footer.CodecUncompressed && c.Crypt == nil
	if inPlace {
		body, at = c.DataPages.openPage(c.pageBound())
	}
	body, ls, err := c.appendLevels(body)
	if err != nil {
		return err
	}
	body, enc, err := c.vals.flushPage(body, st)
	if !inPlace {
		c.body = body
	}
	if err != nil {
		return fmt.Errorf("column %q: %w", c.Path, err)
	}
	if err := c.writeDataPage(body, at, ls, enc, hdrStats); err != nil {
		return err
	}
	c.numValues += int64(c.levels)
	c.nulls += int64(c.pageNulls)
	c.indexPage(st, pageStart, ls.rows)
	c.startPage()
	return nil
}

// earlyJudgeValues is how many values the chunk's first page holds before
// judgeDict may look at its dictionary ahead of the page's end: a
// dictionary that has taken nearly every value so far as a new entry
// is then dropped at once, instead of holding the page as indices and
// the values in a hash table up to the page's end (on a table of 1,000
// columns of 100k rows that was 2.2 MB a column of distinct int64 until
// the row group was written).
const earlyJudgeValues = 16 * miniBatch

// looksDistinct reports whether the chunk's first page is dictionary-
// encoded, not yet judged, holds at least earlyJudgeValues values, and
// nearly all of them (all but 1 in 64) are distinct.
func (c *Writer) looksDistinct() bool {
	if c.judged || c.vals.dictBytes() < 0 {
		return false
	}
	values := c.levels - c.pageNulls
	return values >= earlyJudgeValues && c.vals.dictLen() >= values-values/64
}

// pageBound bounds the bytes of the page being filled, as built in
// place: its values as pageFull counts them (exact for PLAIN and
// BYTE_STREAM_SPLIT, a little short at worst for the bit-packed runs of
// indices or deltas), its levels at two bits a slot where a flat leaf's
// take at most one and a run header each eight slots, and section
// lengths. A page that still outgrew it would grow its segment, moving
// the segment's bytes once.
func (c *Writer) pageBound() int {
	return c.vals.pageBytes() + c.levels/4 + 256
}

// pageFull reports whether the page being filled has reached the page
// size: its values as encoded and its levels (one bit a slot for a flat
// leaf's definition levels, two for a nested leaf's levels).
func (c *Writer) pageFull() bool {
	lv := c.levels / 8
	if c.Nested {
		lv = c.levels / 4
	}
	return c.vals.pageBytes()+lv >= c.set.PageSize
}

// judgeDict decides, once a chunk, whether its dictionary pays for itself
// (dictPays) on the values of the chunk's first page so far: at the
// page's end, or earlier when they look distinct (looksDistinct), and by
// the exact bytes of the indices only where bounds on them do not decide
// (at the page's end, atEnd, the page then writes those bytes). When it
// does not, the page goes on with the values themselves (undict) and the
// chunk has no dictionary page, as parquet-java's writer falls back on
// its first page; writing the page as indices and then the dictionary
// stored the page's values once and its indices besides.
func (c *Writer) judgeDict(atEnd bool) error {
	if c.judged || c.vals.dictBytes() < 0 {
		return nil
	}
	c.judged = true
	values := c.levels - c.pageNulls
	switch {
	case c.dictPays(values, c.vals.maxIndexBytes(c.vals.dictLen())):
		return nil // without encoding the indices an extra time
	case !c.dictPays(values, 0): // distinct values: the dictionary alone is their size
		c.vals.undict()
		return nil
	}
	idx, err := c.vals.appendIndices(c.packed[:0])
	c.packed = idx
	if err != nil {
		return fmt.Errorf("column %q: %w", c.Path, err)
	}
	switch {
	case !c.dictPays(values, len(idx)):
		c.vals.undict()
	case atEnd:
		c.vals.keepIndices(idx)
	}
	return nil
}

// pageStats returns the statistics the page's values are summed into, st
// (nil when neither the page header nor the page index takes them), and
// hdr, st when the page header carries it and nil otherwise.
func (c *Writer) pageStats() (st, hdr *footer.Statistics) {
	if c.set.PageStats || c.idx.builder != nil && c.set.Statistics {
		st = &footer.Statistics{NullCount: footer.Some(int64(c.pageNulls))}
	}
	if c.set.PageStats {
		hdr = st
	}
	return st, hdr
}

// levelSections describes the level sections at the start of a data
// page's body.
type levelSections struct {
	size    int // bytes of both sections, without v1 length prefixes
	repSize int // bytes of the repetition levels, the first section
	rows    int // rows the page holds
}

// appendLevels appends the page's level sections to body: the
// repetition and definition levels of a nested leaf, the definition
// bitmap of a flat optional one, nothing for a required one.
func (c *Writer) appendLevels(body []byte) ([]byte, levelSections, error) {
	if c.Nested {
		return c.appendNestedLevels(body)
	}
	ls := levelSections{rows: c.levels}
	if c.node.MaxDef > 0 {
		var at int
		body, at = c.openSection(body)
		body = c.defs.appendRLE(body)
		ls.size = c.closeSection(body, at)
	}
	return body, ls, nil
}

// openSection begins a level section at the end of body, behind a
// 4-byte length on a version 1 page, and returns body with where the
// section begins, for closeSection.
func (c *Writer) openSection(body []byte) ([]byte, int) {
	at := len(body)
	if c.set.PageVersion == PageV1 {
		body = append(body, 0, 0, 0, 0)
	}
	return body, at
}

// closeSection ends the level section that began at body[at]: it sets
// the length of a version 1 page's section and returns the section's
// size without it.
func (c *Writer) closeSection(body []byte, at int) int {
	size := len(body) - at
	if c.set.PageVersion == PageV1 {
		size -= 4
		binary.LittleEndian.PutUint32(body[at:], uint32(size))
	}
	return size
}

// writeDataPage writes body[at:], a data page whose level sections ls
// describes and whose values are encoded with enc, behind its header
// (with hdrStats, nil for none); at is not 0 for a page built in place
// (see writePage).
func (c *Writer) writeDataPage(body []byte, at int, ls levelSections, enc footer.Encoding, hdrStats *footer.Statistics) error {
	if c.set.PageVersion == PageV1 {
		c.dph = footer.DataPageHeader{
			NumValues:               int32(c.levels),
			Encoding:                enc,
			DefinitionLevelEncoding: footer.EncodingRLE,
			RepetitionLevelEncoding: footer.EncodingRLE,
			Statistics:              hdrStats,
		}
		c.hdr = footer.PageHeader{Type: footer.PageTypeData, DataPageHeader: &c.dph}
		return c.writePage(&c.DataPages, body, at, 0, false, enc)
	}
	c.dph2 = footer.DataPageHeaderV2{
		NumValues:                  int32(c.levels),
		NumNulls:                   int32(c.pageNulls),
		NumRows:                    int32(ls.rows),
		Encoding:                   enc,
		RepetitionLevelsByteLength: int32(ls.repSize),
		DefinitionLevelsByteLength: int32(ls.size - ls.repSize),
		Statistics:                 hdrStats,
	}
	c.hdr = footer.PageHeader{Type: footer.PageTypeDataV2, DataPageHeaderV2: &c.dph2}
	return c.writePage(&c.DataPages, body, at, ls.size, true, enc)
}

// dictPays reports whether the chunk's first dictionary-encoded page, of
// values values in idxBytes bytes of indices, says the dictionary pays
// for itself: the dictionary and the indices take less than the values
// would in PLAIN, each of which is estimated as the dictionary's mean
// entry. A chunk of mostly distinct values (keys, free text) fails it and
// falls back at once, as parquet-java's writer does, instead of growing
// its dictionary to the size limit first.
func (c *Writer) dictPays(values, idxBytes int) bool {
	db, n := c.vals.dictBytes(), c.vals.dictLen()
	return n == 0 || int64(db+idxBytes) < int64(values)*int64(db)/int64(n)
}

// writeDictPage writes the dictionary page of the chunk.
func (c *Writer) writeDictPage() error {
	plain, n := c.vals.dictPage(c.body[:0])
	c.body = plain
	c.dictCount = n
	c.dictHdr = footer.DictionaryPageHeader{NumValues: int32(n), Encoding: footer.EncodingPlain}
	c.hdr = footer.PageHeader{Type: footer.PageTypeDictionary, DictionaryPageHeader: &c.dictHdr}
	return c.writePage(&c.DictPage, plain, 0, 0, false, footer.EncodingPlain)
}

// pageHeaderRoom is the room writePage reserves for a page header beside
// the page, so that the header's append does not grow the segment on its
// own (a header with statistics may still need more).
const pageHeaderRoom = 64

// writePage compresses body (after its first keep bytes, the levels of a
// version 2 page), completes c.hdr and appends the header and page to
// dst. For a version 2 page (v2) whose values do not shrink, the values
// are stored uncompressed and is_compressed says so. When at is not 0,
// body is dst's open segment as openPage returned it, holding the page,
// uncompressed and unencrypted, from at on: its header goes in the room
// before it.
func (c *Writer) writePage(dst *PageBuffer, body []byte, at, keep int, v2 bool, enc footer.Encoding) error {
	page := body[at:]
	if len(page) > math.MaxInt32 {
		return fmt.Errorf("%w: column %q: a page of %d bytes is larger than a page header can declare", errs.ErrUnsupported, c.Path, len(page))
	}
	if at > 0 {
		if v2 {
			c.dph2.IsCompressed = footer.Some(false)
		}
		c.setPageSizes(page, page)
		c.hdrBytes = footer.Marshal(c.hdrBytes[:0], &c.hdr)
		dst.closePage(body, at, c.hdrBytes)
		c.pageWritten(len(c.hdrBytes), len(page), enc)
		return nil
	}
	out, compressed := body, false
	if c.set.Codec != footer.CodecUncompressed {
		c.Compressor.Snappy = c.snappy.Of(c.hdr.Type, enc)
		c.Compressor.FastSnappy = c.set.FastSnappy
		packed, err := c.Compressor.Compress(c.set.Codec, c.set.Level, append(c.packed[:0], body[:keep]...), body[keep:])
		c.Compressor.Snappy, c.Compressor.FastSnappy = nil, false
		c.packed = packed
		if err != nil {
			return fmt.Errorf("column %q: %w", c.Path, err)
		}
		if !v2 || len(packed) < len(body) {
			out, compressed = packed, true
		}
	}
	if v2 {
		c.dph2.IsCompressed = footer.Some(compressed)
	}
	if len(out) > math.MaxInt32 {
		return fmt.Errorf("%w: column %q: a compressed page of %d bytes is larger than a page header can declare", errs.ErrUnsupported, c.Path, len(out))
	}
	seg := dst.open(pageHeaderRoom + len(out))
	defer func() { dst.close(seg) }()
	if c.Crypt != nil {
		return c.writeEncryptedPage(&seg, body, out, enc)
	}
	c.setPageSizes(body, out)
	before := len(seg)
	seg = footer.Marshal(seg, &c.hdr)
	hdrLen := len(seg) - before
	seg = append(seg, out...)
	c.pageWritten(hdrLen, len(body), enc)
	return nil
}

// setPageSizes sets the sizes of c.hdr for a page of body, stored as out
// (body compressed), and its CRC of out when the chunk has CRCs.
func (c *Writer) setPageSizes(body, out []byte) {
	c.hdr.UncompressedPageSize = int32(len(body))
	c.hdr.CompressedPageSize = int32(len(out))
	if c.set.CRC {
		c.hdr.CRC = footer.Some(int32(crc32.ChecksumIEEE(out)))
	}
}

// pageWritten counts a written page of a hdrLen-byte header and a
// bodyLen-byte uncompressed body in the chunk's size and encoding
// statistics.
func (c *Writer) pageWritten(hdrLen, bodyLen int, enc footer.Encoding) {
	c.uncompressed += int64(hdrLen + bodyLen)
	c.countPage(c.hdr.Type, enc)
}

// countPage adds a page to the chunk's encoding statistics.
func (c *Writer) countPage(t footer.PageType, enc footer.Encoding) {
	for i := range c.encStats {
		if s := &c.encStats[i]; s.PageType == t && s.Encoding == enc {
			s.Count++
			return
		}
	}
	c.encStats = append(c.encStats, footer.PageEncodingStats{PageType: t, Encoding: enc, Count: 1})
}

// FinishChunk writes the last page and the dictionary page and returns the
// chunk's metadata, with offsets relative to the chunk's first byte
// (finalized by [Place]). The chunk's bytes are DictPage then DataPages;
// TakeModules has its page indexes and bloom filter.
func (c *Writer) FinishChunk() (*footer.ColumnMetaData, error) {
	if err := c.flushPage(); err != nil {
		return nil, err
	}
	if c.vals.dictBytes() >= 0 {
		if err := c.writeDictPage(); err != nil {
			return nil, err
		}
	}
	md := &footer.ColumnMetaData{
		Type:                  c.node.Physical,
		PathInSchema:          c.node.Path,
		Codec:                 c.set.Codec,
		NumValues:             c.numValues,
		TotalUncompressedSize: c.uncompressed,
		TotalCompressedSize:   int64(c.DictPage.Len() + c.DataPages.Len()),
		DataPageOffset:        int64(c.DictPage.Len()),
		EncodingStats:         append([]footer.PageEncodingStats(nil), c.encStats...),
	}
	if c.DictPage.Len() > 0 {
		md.DictionaryPageOffset = footer.Some(int64(0))
	}
	for _, s := range c.encStats {
		md.Encodings = appendUnique(md.Encodings, s.Encoding)
	}
	if c.node.MaxDef > 0 || c.node.MaxRep > 0 {
		md.Encodings = appendUnique(md.Encodings, footer.EncodingRLE)
	}
	if c.set.Statistics {
		md.Statistics = c.chunkStatistics()
		if c.geo != nil {
			md.GeospatialStatistics = c.geo.statistics()
		}
	}
	md.SizeStatistics = c.sizeStatistics()
	c.finishIndex()
	return md, nil
}

// chunkStatistics returns the finished chunk's statistics.
func (c *Writer) chunkStatistics() *footer.Statistics {
	st := &footer.Statistics{NullCount: footer.Some(c.nulls)}
	c.vals.chunkStats(st)
	if n, ok := c.distinctValues(); ok {
		st.DistinctCount = footer.Some(n)
	}
	return st
}

// distinctValues returns the number of distinct values of the finished
// chunk when its dictionary tells it: every value went through the
// dictionary, whose size is then that number. Floats are keyed by their
// bits, which can tell equal values apart, so their dictionary does not
// tell it.
func (c *Writer) distinctValues() (int64, bool) {
	if c.dictChunk && c.vals.dictBytes() >= 0 && c.order != orderFloat && c.order != orderFloat16 {
		return int64(c.dictCount), true
	}
	return 0, false
}

// sizeStatistics returns the finished chunk's size statistics, or nil
// when it has none: the BYTE_ARRAY bytes and the definition level
// histogram.
func (c *Writer) sizeStatistics() *footer.SizeStatistics {
	size := &footer.SizeStatistics{}
	if b, ok := c.vals.unencodedBytes(); ok {
		size.UnencodedByteArrayDataBytes = footer.Some(b)
	}
	if len(c.defHist) > 0 {
		size.DefinitionLevelHistogram = append([]int64(nil), c.defHist...)
	}
	if !size.UnencodedByteArrayDataBytes.Set && size.DefinitionLevelHistogram == nil {
		return nil
	}
	return size
}

// appendUnique appends e to list unless it is there.
func appendUnique(list []footer.Encoding, e footer.Encoding) []footer.Encoding {
	for _, x := range list {
		if x == e {
			return list
		}
	}
	return append(list, e)
}

// Place moves the offsets of md, relative to the chunk, to the file
// offset base where the chunk starts.
func Place(md *footer.ColumnMetaData, base int64) {
	md.DataPageOffset += base
	if md.DictionaryPageOffset.Set {
		md.DictionaryPageOffset.Value += base
	}
}

// Check reports an Arrow type the column writer cannot convert, by binding
// an empty array of it.
func (c *Writer) Check(dt arrow.DataType) error {
	arr := array.MakeArrayOfNull(memory.DefaultAllocator, dt, 0)
	defer arr.Release()
	if _, _, err := c.vals.bind(arr, 0, 0); err != nil {
		return fmt.Errorf("column %q: %w", c.Path, err)
	}
	return nil
}
