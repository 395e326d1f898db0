package colread

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/quiverio/quiver/arrowio/internal/page"

	"github.com/quiverio/quiver/arrowio/internal/codec"
	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/internal/arrowmem"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
)

// Options are what the column readers take from arrowio.ReadOptions.
type Options struct {
	Mem       memory.Allocator // the memory of the returned arrays
	VerifyCRC bool             // check page CRCs and codec checksums
}

// LeafReader decodes one flat leaf column (no repetition, at most one
// definition level) of one row group, page by page, into Arrow arrays of
// any number of rows: a batch may end inside a page and the next one picks
// up there.
type LeafReader struct {
	node     *footer.Node
	rowGroup int
	codec    footer.CompressionCodec
	mem      memory.Allocator
	t        target

	// Pages walks the chunk's pages: the chunk in memory, or read from
	// the file as it goes (page.Iterator.AttachFile, when ReadsFromFile).
	Pages   page.Iterator
	dec     *codec.Decompressor
	pageBuf []byte
	dict    *dictionary // &dictStore once the chunk's dictionary page is read
	dictArr arrow.Array // dict as an Arrow array, for dictionary targets
	// dictStore holds the dictionary, part of the reader so that a chunk
	// does not allocate one.
	dictStore dictionary
	idx       []uint32 // dictionary index scratch

	// The current data page.
	page    int // ordinal of the current page within the chunk, for errors
	pageOff int64
	Left    int         // levels of the current page not consumed yet
	defs    levelReader // the current page's definition levels
	// ValueDecoder decodes the current page's values: the leaf's decoder
	// of the page's encoding, or one of the page kinds below.
	ValueDecoder valueDecoder
	started      bool // ValueDecoder.start ran for the current page
	// placed decodes a page whose values are read straight from the file
	// (see startPlacedPage), inPlace one whose values are decompressed
	// straight into the batch (see startDirectPage).
	placed  filePlain
	inPlace InPlace
	// pageValues and pageCount are the current page's values section and
	// level count, for starting its value decoder.
	pageValues []byte
	pageCount  int
	decoders   valueDecoders
	rows       int64 // rows still expected from the chunk
	// totalRows and uncompressed are the chunk's rows and uncompressed
	// bytes, for sizing byte-array data up front.
	totalRows, uncompressed int64
	// plain marks a chunk whose metadata lists PLAIN as its only value
	// encoding (valuesPlain).
	plain bool
	// out holds the batch read decodes into, until finish builds its array.
	out colOut
	// ChunkBuf is the chunk's pooled buffer when the leaf owns it (see
	// attach), returned with the leaf's other buffers.
	ChunkBuf []byte
	// pooled marks a reader from NewLeafReader, which Release hands back
	// to leafReaders; a LeafReader embedded in a nestedLeaf is not.
	pooled bool
}

// NewLeafReader prepares to read leaf node of row group rg from chunk, the
// column chunk's bytes starting at file offset base, as Arrow type dt.
func NewLeafReader(node *footer.Node, rg int, md *footer.ColumnMetaData, chunk []byte, base int64, rows int64,
	dt arrow.DataType, opts Options, dec *codec.Decompressor) (*LeafReader, error) {
	t, err := NewTarget(node, dt)
	if err != nil {
		return nil, err
	}
	if node.MaxRep > 0 || node.MaxDef > 1 {
		return nil, fmt.Errorf("%w: column %q is nested (max definition level %d, repetition level %d)", errs.ErrUnsupported, node.DottedPath(), node.MaxDef, node.MaxRep)
	}
	l := leafReaders.Get().(*LeafReader)
	l.init(node, rg, md, chunk, base, rows, t, opts)
	l.dec, l.pooled = dec, true
	return l, nil
}

// init makes l, a LeafReader not in use, the reader of leaf node of row
// group rg (see NewLeafReader), decoding into target t.
func (l *LeafReader) init(node *footer.Node, rg int, md *footer.ColumnMetaData, chunk []byte, base int64, rows int64, t target, opts Options) {
	*l = LeafReader{
		node:         node,
		rowGroup:     rg,
		codec:        md.Codec,
		mem:          opts.Mem,
		t:            t,
		Pages:        page.Iterator{Data: chunk, Base: base, VerifyCRC: opts.VerifyCRC},
		page:         -1,
		rows:         rows,
		totalRows:    rows,
		uncompressed: DataBound(md),
		plain:        valuesPlain(md),
	}
}

// leafReaders recycles the flat leaf readers of released row groups: a
// file of many small column chunks would otherwise allocate a reader, and
// the page header structs its iterator decodes into, for every chunk.
var leafReaders = sync.Pool{New: func() any { return new(LeafReader) }}

// corrupt wraps err with the leaf's place in the file: unsupported
// features (and byte arrays past what 32-bit offsets address) keep their
// sentinel behind a location prefix, and every other failure while
// decoding the chunk's bytes is a *CorruptError.
func (l *LeafReader) corrupt(err error) error {
	var ce *errs.CorruptError
	if errors.Is(err, kernels.ErrOffsetOverflow) {
		err = fmt.Errorf("%w: %w; read the column as large_string/large_binary (SchemaOptions.Strings) or in smaller batches", errs.ErrUnsupported, err)
	}
	var fe *page.ReadError
	switch {
	case errors.As(err, &ce):
		return err
	case errors.Is(err, errs.ErrUnsupported), errors.Is(err, errs.ErrOutOfRange), errors.As(err, &fe):
		return fmt.Errorf("row group %d, column %q, page %d: %w", l.rowGroup, l.node.DottedPath(), l.page, err)
	}
	return &errs.CorruptError{Offset: l.pageOff, RowGroup: l.rowGroup, Column: l.node.DottedPath(), Page: l.page, Err: err}
}

// read decodes the next n rows into a new array.
func (l *LeafReader) read(n int) (arrow.Array, error) {
	if int64(n) > l.rows {
		return nil, l.corrupt(fmt.Errorf("%w: %d rows asked, the row group has %d left", errs.ErrCorrupt, n, l.rows))
	}
	out := &l.out
	out.init(l.mem, &l.t, n, batchSlots(n, l.Pages.ChunkBytes()), l.node.MaxDef > 0, l.dataHint(n))
	err := l.fill(out, n)
	if err == nil && l.t.kind == dictTarget {
		// The chunk's dictionary page comes before its data pages, so
		// after fill it has been read if the chunk has one.
		if l.dictArr != nil {
			l.dictArr.Retain()
			out.dict = l.dictArr
		}
		err = out.buildDictionary()
	}
	if err != nil {
		out.release()
		return nil, l.corrupt(err)
	}
	if l.rows -= int64(n); l.rows == 0 {
		l.releaseBuffers()
	}
	return out.finish(), nil
}

// DataBound returns a bound of the chunk's value bytes, or 0 (no
// estimate) when it has none. The exact size comes from the chunk's size
// statistics when the writer gave them. Otherwise the uncompressed size
// bounds the data of PLAIN pages, less the 4-byte length of each present
// value when the statistics count the nulls. Both get a sixteenth spare,
// as the batches of a chunk do not all hold the same share of its data
// and one that outgrows its estimate copies its data to a larger buffer.
// Values may expand past the uncompressed size when they share prefixes
// in DELTA_BYTE_ARRAY pages or repeat through a dictionary: with those,
// or when encoding_stats shows only dictionary-encoded data pages, there
// is no estimate, so that the data buffer is better sized from the first
// page's values (see colOut.growDataFor) than grown from a short first
// guess. A dictionary chunk without that proof keeps the uncompressed
// size as a first guess: one that falls back to PLAIN would otherwise
// size its buffer from the dictionary-encoded first page and reallocate
// it (measured: +20% peak heap on lineitem).
func DataBound(md *footer.ColumnMetaData) int64 {
	if ss := md.SizeStatistics; ss != nil {
		if b, ok := ss.UnencodedByteArrayDataBytes.Get(); ok && b >= 0 && b < 1<<56 {
			return b + b/16
		}
	}
	if slices.Contains(md.Encodings, footer.EncodingDeltaByteArray) || DictionaryOnly(md) {
		return 0
	}
	size := md.TotalUncompressedSize
	if st := md.Statistics; st != nil && valuesPlain(md) {
		if nulls, ok := st.NullCount.Get(); ok && nulls >= 0 && nulls <= md.NumValues {
			data := max(size-4*(md.NumValues-nulls), 0)
			return min(size, data+data/16)
		}
	}
	return size
}

// valuesPlain reports whether the chunk's values are all PLAIN encoded: no
// dictionary page, and no value encoding but PLAIN among its encodings
// (RLE and BIT_PACKED there are levels).
func valuesPlain(md *footer.ColumnMetaData) bool {
	if d, ok := md.DictionaryPageOffset.Get(); ok && d > 0 {
		return false
	}
	for _, e := range md.Encodings {
		if e != footer.EncodingPlain && e != footer.EncodingRLE && e != footer.EncodingBitPacked {
			return false
		}
	}
	return true
}

// dataHint estimates the value bytes n rows of a byte-array leaf take:
// their share of the chunk's uncompressed size, which bounds PLAIN data
// (dictionary-encoded data can be larger; colOut grows it then). Like
// batchSlots, it trusts the declared size only up to 64 times the chunk's
// bytes; past that there is no estimate, rather than one known to fall
// short, and the batch's first values size its data (colOut.growDataFor).
func (l *LeafReader) dataHint(n int) int {
	if l.t.kind != binaryTarget || l.totalRows <= 0 || l.uncompressed <= 0 {
		return 0
	}
	share := float64(l.uncompressed) / float64(l.totalRows) * float64(n)
	if share > 64*float64(l.Pages.ChunkBytes()) {
		return 0
	}
	return int(min(share, 1<<31))
}

// fill decodes n rows into out, crossing pages as needed.
func (l *LeafReader) fill(out *colOut, n int) error {
	for at := 0; at < n; {
		if l.Left == 0 {
			if err := l.nextPage(out, at, n); err != nil {
				return err
			}
			continue
		}
		k := out.growStep(at, min(n-at, l.Left))
		present := k
		if l.node.MaxDef > 0 {
			set, err := l.defs.readBitmap(out.validity.Bytes(), at, k)
			if err != nil {
				return err
			}
			present = set
			out.nulls += k - set
		}
		if l.t.kind != nullTarget && present > 0 {
			if !l.started {
				// Started on the first value: an all-null page may carry an
				// empty or degenerate values section.
				if err := l.ValueDecoder.start(l.pageValues, l.pageCount); err != nil {
					return err
				}
				l.started = true
			}
			if err := l.ValueDecoder.next(out, at, present); err != nil {
				return err
			}
		}
		if present < k && l.t.kind != nullTarget {
			if err := out.spread(at, k, present); err != nil {
				return err
			}
		}
		l.Left -= k
		at += k
	}
	return nil
}

// nextPage reads pages until a data page with levels and prepares its
// levels and values, which fill decodes into out from slot at of a batch
// of n slots.
func (l *LeafReader) nextPage(out *colOut, at, n int) error {
	var p page.Raw
	for l.Left == 0 {
		if err := l.nextDataPage(&p); err != nil {
			return err
		}
		if err := l.startData(&p, out, at, n); err != nil {
			return err
		}
	}
	return nil
}

// nextDataPage reads pages into p until the next data page (v1 or v2),
// for flat and nested leaves alike: dictionary pages on the way are
// decoded, index pages and pages of unknown types are skipped.
func (l *LeafReader) nextDataPage(p *page.Raw) error {
	for {
		var ok bool
		var err error
		*p, ok, err = l.Pages.Next()
		l.page = l.Pages.Ordinal - 1
		l.pageOff = p.Offset
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("%w: column chunk ended with %d rows still to read", errs.ErrCorrupt, l.rows)
		}
		switch p.Header.Type {
		case footer.PageTypeDictionary:
			if err := l.Pages.Materialize(p); err != nil {
				return err
			}
			if err := l.readDictionary(p); err != nil {
				return err
			}
		case footer.PageTypeData, footer.PageTypeDataV2:
			return nil
		}
	}
}

// startData starts data page p, whose values fill decodes into out from
// slot at of a batch of n slots. Values that need no decoding go there
// straight from the file (startPlacedPage) or from the decompressor
// (startDirectPage) when they can; other pages are decompressed into the
// page buffer and decoded from it.
func (l *LeafReader) startData(p *page.Raw, out *colOut, at, n int) error {
	if p.More > 0 {
		if placed, err := l.startPlacedPage(p); placed || err != nil {
			return err
		}
		if err := l.Pages.Materialize(p); err != nil {
			return err
		}
	}
	if direct, err := l.startDirectPage(p, out, at, n); direct || err != nil {
		return err
	}
	return l.startDataPage(p)
}

// pageBuffer returns reusable storage for a page of n decompressed bytes,
// or nil when the chunk is uncompressed and pages are read in place.
func (l *LeafReader) pageBuffer(n int) []byte {
	if l.codec == footer.CodecUncompressed {
		return nil
	}
	if cap(l.pageBuf) < n {
		arrowmem.PutBytes(l.pageBuf)
		l.pageBuf = arrowmem.GetBytes(n)
	}
	return l.pageBuf[:n]
}

// attach makes chunk, a pooled buffer of the column chunk's bytes, the
// leaf's to decode and to return.
func (l *LeafReader) attach(chunk []byte) {
	l.Pages.Data, l.ChunkBuf = chunk, chunk
}

// Release returns the leaf's pooled buffers, and the leaf to its pool.
func (l *LeafReader) Release() {
	l.releaseBuffers()
	l.decoders.release()
	if l.pooled {
		// Drop every reference (the chunk's bytes, decoders) before the
		// next chunk takes the reader.
		*l = LeafReader{}
		leafReaders.Put(l)
	}
}

// releaseBuffers returns the leaf's pooled buffers: at release, or as soon
// as the chunk's last row is decoded, so that the columns of a row group
// read one after another pass the same few page, index and dictionary
// buffers on instead of each holding its own until the group ends.
func (l *LeafReader) releaseBuffers() {
	arrowmem.PutBytes(l.ChunkBuf)
	l.Pages.ReleaseWindow()
	l.ChunkBuf, l.Pages.Data = nil, nil
	arrowmem.PutBytes(l.pageBuf)
	arrowmem.PutBytes(l.placed.bounce)
	l.placed.bounce = nil
	arrowmem.PutBytes(arrowmem.BytesCap(l.idx))
	l.defs.release()
	if l.dict != nil {
		l.dict.release()
	}
	if l.dictArr != nil {
		l.dictArr.Release()
	}
	l.pageBuf, l.idx, l.dict, l.dictArr = nil, nil, nil, nil
}

func (l *LeafReader) readDictionary(p *page.Raw) error {
	dh := p.Header.DictionaryPageHeader
	if dh == nil {
		return fmt.Errorf("%w: DICTIONARY_PAGE without dictionary_page_header", errs.ErrCorrupt)
	}
	if l.dict != nil {
		return fmt.Errorf("%w: a second dictionary page in one column chunk", errs.ErrCorrupt)
	}
	if l.t.kind == nullTarget {
		return nil // a column of nulls reads no values
	}
	// newDictionary copies what it keeps out of the page buffer, or takes
	// the buffer (the next page then takes another from the pool).
	body, err := page.Decompress(l.dec, p, l.codec, l.pageBuffer(max(int(p.Header.UncompressedPageSize), 0)), p.Payload, int(p.Header.UncompressedPageSize))
	if err != nil {
		return err
	}
	vt := &l.t
	if l.t.kind == dictTarget {
		vt = l.t.value
	}
	var pooled *[]byte
	if l.codec != footer.CodecUncompressed {
		pooled = &l.pageBuf // body was decompressed into it
	}
	if l.dict, err = newDictionary(&l.dictStore, vt, dh.Encoding, int(dh.NumValues), body, pooled); err != nil {
		return err
	}
	if l.t.kind == dictTarget {
		l.dictArr = l.dict.arrowDictionary(l.mem)
	}
	return nil
}

// startDataPage starts data page p from the page buffer.
func (l *LeafReader) startDataPage(p *page.Raw) error {
	dp, err := l.splitPage(p)
	if err != nil {
		return err
	}
	return l.usePage(dp, nil)
}

// splitPage decompresses data page p into the page buffer and splits it
// into its level and value sections.
func (l *LeafReader) splitPage(p *page.Raw) (page.Data, error) {
	size := int(p.Header.UncompressedPageSize)
	if size < 0 {
		return page.Data{}, fmt.Errorf("%w: page declares %d uncompressed bytes", errs.ErrCorrupt, size)
	}
	return page.SplitData(p, l.codec, l.dec, l.pageBuffer(size)[:0], l.node.MaxDef, l.node.MaxRep)
}

// usePage prepares the levels and values of data page dp of a flat leaf.
// vd decodes its values, or nil for the leaf's decoder of the page's
// encoding.
func (l *LeafReader) usePage(dp page.Data, vd valueDecoder) error {
	if int64(dp.NumValues) > l.rows {
		return fmt.Errorf("%w: data page holds %d values, the row group has %d rows left", errs.ErrCorrupt, dp.NumValues, l.rows)
	}
	return l.startPage(&dp, vd)
}

// startPage prepares the definition levels and the values of data page
// dp, for flat and nested leaves alike, and sets Left to its level count.
// vd decodes its values, or nil for the leaf's decoder of the page's
// encoding, made at the chunk's first page of that encoding.
func (l *LeafReader) startPage(dp *page.Data, vd valueDecoder) error {
	if l.node.MaxDef > 0 {
		if err := l.defs.reset(dp.LevelEncoding, dp.DefLevels, dp.NumValues, l.node.MaxDef); err != nil {
			return err
		}
	}
	if l.t.kind != nullTarget {
		if vd == nil {
			vd = l.decoders.get(dp.Encoding)
		}
		if vd == nil {
			var err error
			if l.t.kind == dictTarget {
				vd, err = newDictValueDecoder(dp.Encoding, &l.t, l.dict, &l.idx)
			} else {
				vd, err = newValueDecoder(dp.Encoding, &l.t, l.dict, &l.idx)
			}
			if err != nil {
				return err
			}
			l.decoders.set(dp.Encoding, vd)
		}
		l.ValueDecoder, l.started = vd, false
		l.pageValues, l.pageCount = dp.Values, dp.NumValues
	}
	l.Left = dp.NumValues
	return nil
}

// DictionaryOnly reports whether the chunk's encoding_stats show a
// dictionary page and only dictionary-encoded data pages.
func DictionaryOnly(md *footer.ColumnMetaData) bool {
	dict, data := false, false
	for _, s := range md.EncodingStats {
		switch s.PageType {
		case footer.PageTypeDictionary:
			dict = dict || s.Count > 0
		case footer.PageTypeData, footer.PageTypeDataV2:
			if s.Count > 0 && s.Encoding != footer.EncodingRLEDictionary && s.Encoding != footer.EncodingPlainDictionary {
				return false
			}
			data = data || s.Count > 0
		}
	}
	return dict && data
}
