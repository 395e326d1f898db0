package arrowio_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/arrowio/internal/codec/codectest"
	"github.com/quiverio/quiver/arrowio/internal/colwrite"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
	"github.com/quiverio/quiver/pageindex"
)

// handFile assembles a one-column Parquet file (an optional INT32 leaf
// "v") from raw data pages, for page layouts no writer at hand produces.
func handFile(rows int64, pages ...[]byte) []byte {
	out := []byte(footer.MagicPlain)
	start := int64(len(out))
	for _, p := range pages {
		out = append(out, p...)
	}
	fm := &footer.FileMetaData{
		Version: 1,
		Schema: []footer.SchemaElement{
			{Name: "schema", NumChildren: footer.Some[int32](1)},
			{Name: "v", Type: footer.Some(footer.TypeInt32), RepetitionType: footer.Some(footer.RepetitionOptional)},
		},
		NumRows: rows,
		RowGroups: []footer.RowGroup{{NumRows: rows, TotalByteSize: int64(len(out)) - start, Columns: []footer.ColumnChunk{{
			FileOffset: start,
			MetaData: &footer.ColumnMetaData{
				Type: footer.TypeInt32, Encodings: []footer.Encoding{footer.EncodingPlain, footer.EncodingBitPacked},
				PathInSchema: []string{"v"}, Codec: footer.CodecUncompressed, NumValues: rows,
				TotalUncompressedSize: int64(len(out)) - start, TotalCompressedSize: int64(len(out)) - start, DataPageOffset: start,
			},
		}}}},
	}
	meta := footer.Marshal(nil, fm)
	out = append(out, meta...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(meta)))
	return append(out, footer.MagicPlain...)
}

// v1Page builds a DATA_PAGE of n levels with the given level section and
// PLAIN int32 values.
func v1Page(n int, levelEnc footer.Encoding, levels []byte, values ...int32) []byte {
	body := append([]byte(nil), levels...)
	for _, v := range values {
		body = binary.LittleEndian.AppendUint32(body, uint32(v))
	}
	h := footer.PageHeader{
		Type: footer.PageTypeData, UncompressedPageSize: int32(len(body)), CompressedPageSize: int32(len(body)),
		DataPageHeader: &footer.DataPageHeader{NumValues: int32(n), Encoding: footer.EncodingPlain,
			DefinitionLevelEncoding: levelEnc, RepetitionLevelEncoding: footer.EncodingRLE},
	}
	return append(footer.Marshal(nil, &h), body...)
}

func TestBitPackedDefinitionLevels(t *testing.T) {
	// Levels 1,0,1,1,0,0,1,1 | 1,0 MSB first: 0b10110011, 0b10000000.
	file := handFile(13,
		v1Page(10, footer.EncodingBitPacked, []byte{0b10110011, 0b10000000}, 1, 2, 3, 4, 5, 6),
		v1Page(3, footer.EncodingBitPacked, []byte{0b01000000}, 7))
	for _, batch := range []int{0, 4} {
		rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{BatchSize: batch})
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := rd.ReadTable(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got := chunkedStrings(tbl.Column(0).Data())
		tbl.Release()
		rd.Close()
		if want := "[1 <null> 2 3 <null> <null> 4 5 6 <null> <null> 7 <null>]"; fmt.Sprint(got) != want {
			t.Errorf("batch %d: got %v, want %s", batch, got, want)
		}
	}
}

func TestTruncatedBitPackedLevels(t *testing.T) {
	file := handFile(10, v1Page(10, footer.EncodingBitPacked, []byte{0xFF}))
	rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	_, err = rd.ReadTable(context.Background())
	var ce *arrowio.CorruptError
	if !errors.As(err, &ce) || ce.Column != "v" || ce.Page != 0 {
		t.Errorf("err = %v, want a CorruptError for column v, page 0", err)
	}
}

// TestVerifyCRC reads the corpus files whose pages carry wrong checksums:
// they read with SkipCRC and fail, naming the page, with it.
func TestVerifyCRC(t *testing.T) {
	root := corpus.Dir(t)
	for _, name := range []string{"datapage_v1-corrupt-checksum.parquet", "rle-dict-uncompressed-corrupt-checksum.parquet"} {
		path := filepath.Join(root, "data", name)
		for _, verify := range []bool{false, true} {
			rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{SkipCRC: !verify})
			if err != nil {
				t.Fatal(err)
			}
			tbl, err := rd.ReadTable(context.Background())
			rd.Close()
			switch {
			case !verify && err != nil:
				t.Errorf("%s with SkipCRC: %v", name, err)
			case verify && (err == nil || !strings.Contains(err.Error(), "CRC-32")):
				t.Errorf("%s with CRCs checked: err = %v, want a CRC mismatch", name, err)
			}
			if tbl != nil {
				tbl.Release()
			}
		}
	}
	// The files with correct checksums pass verification.
	for _, name := range []string{"datapage_v1-snappy-compressed-checksum.parquet", "datapage_v1-uncompressed-checksum.parquet", "rle-dict-snappy-checksum.parquet"} {
		rd, err := arrowio.OpenFile(filepath.Join(root, "data", name), arrowio.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := rd.ReadTable(context.Background())
		rd.Close()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		tbl.Release()
	}
}

// slotPage is the content of one data page of handFile's optional INT32
// column "v": valid[i] says whether slot i holds a value, and the value
// of slot i is first+i.
type slotPage struct {
	valid []bool
	first int32
}

// levels returns p's definition levels in the RLE/bit-packing hybrid,
// without a length prefix.
func (p slotPage) levels() []byte {
	bits := make([]byte, (len(p.valid)+7)/8)
	for i, v := range p.valid {
		if v {
			bits[i/8] |= 1 << (i % 8)
		}
	}
	return colwrite.AppendBitsRLE(nil, bits, len(p.valid))
}

// values returns p's present values.
func (p slotPage) values() []int32 {
	var out []int32
	for i, v := range p.valid {
		if v {
			out = append(out, p.first+int32(i))
		}
	}
	return out
}

// plain returns p's present values PLAIN-encoded.
func (p slotPage) plain() []byte {
	var out []byte
	for _, v := range p.values() {
		out = binary.LittleEndian.AppendUint32(out, uint32(v))
	}
	return out
}

// v1 returns p as a DATA_PAGE (RLE levels, PLAIN values), built by v1Page.
func (p slotPage) v1() []byte {
	lv := p.levels()
	return v1Page(len(p.valid), footer.EncodingRLE, append(binary.LittleEndian.AppendUint32(nil, uint32(len(lv))), lv...), p.values()...)
}

// v2 returns p as a DATA_PAGE_V2 whose values are stored as stored says
// (PLAIN as they are when stored is nil) and whose header's
// is_compressed is isCompressed. The levels are never compressed.
func (p slotPage) v2(stored func([]byte) []byte, isCompressed footer.Optional[bool]) []byte {
	lv, values := p.levels(), p.plain()
	body := values
	if stored != nil {
		body = stored(values)
	}
	nulls := len(p.valid) - len(p.values())
	h := footer.PageHeader{
		Type:                 footer.PageTypeDataV2,
		UncompressedPageSize: int32(len(lv) + len(values)),
		CompressedPageSize:   int32(len(lv) + len(body)),
		DataPageHeaderV2: &footer.DataPageHeaderV2{NumValues: int32(len(p.valid)), NumNulls: int32(nulls), NumRows: int32(len(p.valid)),
			Encoding: footer.EncodingPlain, DefinitionLevelsByteLength: int32(len(lv)), IsCompressed: isCompressed},
	}
	out := append(footer.Marshal(nil, &h), lv...)
	return append(out, body...)
}

// slotRecord returns the record of handFile's column "v" holding pages'
// slots in order, which the caller releases.
func slotRecord(pages ...slotPage) arrow.RecordBatch {
	b := array.NewInt32Builder(memory.DefaultAllocator)
	defer b.Release()
	for _, p := range pages {
		for i, v := range p.valid {
			if v {
				b.Append(p.first + int32(i))
			} else {
				b.AppendNull()
			}
		}
	}
	col := b.NewArray()
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
}

// slotRows is the number of slots of pages.
func slotRows(pages ...slotPage) int64 {
	n := 0
	for _, p := range pages {
		n += len(p.valid)
	}
	return int64(n)
}

// otherPage returns a page of type typ with payload and no per-type
// header, or an IndexPageHeader for INDEX_PAGE. extra, when set, is
// spliced into the header before its stop as further fields (a header
// member of a page type this reader does not know).
func otherPage(typ footer.PageType, payload, extra []byte) []byte {
	h := footer.PageHeader{Type: typ, UncompressedPageSize: int32(len(payload)), CompressedPageSize: int32(len(payload))}
	if typ == footer.PageTypeIndex {
		h.IndexPageHeader = &footer.IndexPageHeader{}
	}
	hdr := footer.Marshal(nil, &h)
	if extra != nil {
		stop := hdr[len(hdr)-1:]
		hdr = append(append(hdr[:len(hdr)-1:len(hdr)-1], extra...), stop...)
	}
	return append(hdr, payload...)
}

// withPageCRC returns page with its header's crc set to the CRC-32 of
// its payload xor flip (0 for the right checksum).
func withPageCRC(t *testing.T, page []byte, flip uint32) []byte {
	t.Helper()
	var h footer.PageHeader
	n, err := footer.UnmarshalPageHeader(page, &h)
	if err != nil {
		t.Fatal(err)
	}
	h.CRC = footer.Some(int32(crc32.ChecksumIEEE(page[n:]) ^ flip))
	return append(footer.Marshal(nil, &h), page[n:]...)
}

// withCodec returns file, a handFile, with its column chunk's codec set to
// codec.
func withCodec(t *testing.T, file []byte, codec footer.CompressionCodec) []byte {
	t.Helper()
	ft, err := footer.ReadFooter(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	for i := range ft.Meta.RowGroups {
		ft.Meta.RowGroups[i].Columns[0].MetaData.Codec = codec
	}
	out := append([]byte(nil), file[:ft.MetaOffset]...)
	meta := footer.Marshal(nil, ft.Meta)
	out = append(out, meta...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(meta)))
	return append(out, footer.MagicPlain...)
}

// testSlotPages are three data pages of 10, 8 and 13 slots, with nulls,
// a page without any and one all null but the last.
var testSlotPages = []slotPage{
	{valid: []bool{true, false, true, true, false, false, true, true, true, false}, first: 100},
	{valid: []bool{true, true, true, true, true, true, true, true}, first: 200},
	{valid: []bool{false, false, false, false, false, false, false, false, false, false, false, false, true}, first: 300},
}

// TestSkipIndexAndUnknownPages reads a column chunk with an INDEX_PAGE
// and pages of unknown types (99, and 42 with a header member of an
// unknown field id) before, between and after its data pages, some of
// them larger than the window of a chunk read page by page: every way of
// reading it (checkReadsBack: whole chunks, page by page, batches,
// filtered) gives the values of the chunk without those pages, which
// reads the same.
func TestSkipIndexAndUnknownPages(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	want := slotRecord(testSlotPages...)
	defer want.Release()
	rows := slotRows(testSlotPages...)
	d0, d1, d2 := testSlotPages[0].v1(), testSlotPages[1].v1(), testSlotPages[2].v1()
	junk := codectest.RandomBytes(700, 9)
	index := otherPage(footer.PageTypeIndex, junk[:40], nil)
	unknown := otherPage(footer.PageType(99), junk, nil)
	// Field 9 (delta 6 from field 3), a struct holding field 1 = i32 7.
	unknownMember := otherPage(footer.PageType(42), junk[:90], []byte{0x6c, 0x15, 0x0e, 0x00})
	emptyUnknown := otherPage(footer.PageType(1000), nil, nil)

	for _, c := range []struct {
		name  string
		pages [][]byte
	}{
		{"data pages only", [][]byte{d0, d1, d2}},
		{"index page between", [][]byte{d0, index, d1, d2}},
		{"unknown page between", [][]byte{d0, d1, unknown, d2}},
		{"unknown header member", [][]byte{d0, unknownMember, d1, d2}},
		{"all kinds everywhere", [][]byte{index, d0, unknown, index, emptyUnknown, d1, unknownMember, d2, unknown, index}},
	} {
		file := handFile(rows, c.pages...)
		// The reader must parse the pages it skips.
		for _, p := range c.pages {
			var h footer.PageHeader
			n, err := footer.UnmarshalPageHeader(p, &h)
			if err != nil || n+int(h.CompressedPageSize) != len(p) {
				t.Fatalf("%s: a page header does not parse (%v) or its page is %d+%d bytes, not %d", c.name, err, n, h.CompressedPageSize, len(p))
			}
		}
		checkReadsBack(t, c.name, file, want, mem, rand.New(rand.NewPCG(uint64(len(file)), 1)))
		for _, batch := range []int{1, 3, 9} {
			rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Allocator: mem, BatchSize: batch})
			if err != nil {
				t.Fatal(err)
			}
			arrowio.FileOf(rd).ChunkReads, arrowio.FileOf(rd).Window = true, 64
			tbl, err := arrowiotest.ReadBatches(rd)
			rd.Close()
			if err != nil {
				t.Fatalf("%s: batch %d, page by page: %v", c.name, batch, err)
			}
			arrowiotest.CheckTable(t, fmt.Sprintf("%s: batch %d, page by page", c.name, batch), tbl, want)
			tbl.Release()
		}
	}
}

// TestVerifyCRCNamesPage reads a chunk whose second data page (after an
// index page in one layout) has a wrong CRC-32, the others right ones: with
// CRCs checked, every way of reading (ReadTable, RecordReader, ReadRowGroup,
// OpenFile with and without MemoryMap, a filtered read) fails with a
// *CorruptError for row group 0, column "v", the bad page's index within
// the chunk and its file offset, with a message naming both. Without
// SkipCRC the same file reads the right values, and with the right CRC
// on every page it reads with CRCs checked too. (TestVerifyCRC covers the
// corpus files with wrong checksums.)
func TestVerifyCRCNamesPage(t *testing.T) {
	want := slotRecord(testSlotPages...)
	defer want.Release()
	rows := slotRows(testSlotPages...)
	var good [][]byte
	for _, p := range testSlotPages {
		good = append(good, withPageCRC(t, p.v1(), 0))
	}
	bad := withPageCRC(t, testSlotPages[1].v1(), 0x10)
	index := otherPage(footer.PageTypeIndex, codectest.RandomBytes(30, 4), nil)
	ctx := context.Background()

	for _, c := range []struct {
		name    string
		pages   [][]byte
		badPage int
	}{
		{"data pages", [][]byte{good[0], bad, good[2]}, 1},
		{"after an index page", [][]byte{good[0], index, bad, good[2]}, 2},
	} {
		file := handFile(rows, c.pages...)
		off := int64(len(footer.MagicPlain))
		for _, p := range c.pages[:c.badPage] {
			off += int64(len(p))
		}
		path := filepath.Join(t.TempDir(), "crc.parquet")
		if err := os.WriteFile(path, file, 0o644); err != nil {
			t.Fatal(err)
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		opts := arrowio.ReadOptions{Allocator: mem}
		open := func(o arrowio.ReadOptions) *arrowio.Reader {
			rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), o)
			if err != nil {
				t.Fatal(err)
			}
			return rd
		}
		openFile := func(o arrowio.ReadOptions) *arrowio.Reader {
			rd, err := arrowio.OpenFile(path, o)
			if err != nil {
				t.Fatal(err)
			}
			return rd
		}
		filtered := opts
		filtered.Filter = pageindex.Not(pageindex.IsNull("v"))
		mapped := opts
		mapped.MemoryMap = true
		batches := opts
		batches.BatchSize = 4
		batchwise := func(rd *arrowio.Reader) error {
			tbl, err := arrowiotest.ReadBatches(rd)
			if err == nil {
				tbl.Release()
			}
			return err
		}
		group := func(rd *arrowio.Reader) error {
			rec, err := rd.ReadRowGroup(ctx, 0)
			if err == nil {
				rec.Release()
			}
			return err
		}
		for _, way := range []struct {
			name string
			rd   func() *arrowio.Reader
			read func(*arrowio.Reader) error
		}{
			{"ReadTable", func() *arrowio.Reader { return open(opts) }, readTableErr},
			{"RecordReader", func() *arrowio.Reader { return open(batches) }, batchwise},
			{"ReadRowGroup", func() *arrowio.Reader { return open(opts) }, group},
			{"OpenFile", func() *arrowio.Reader { return openFile(batches) }, batchwise},
			{"OpenFile MemoryMap", func() *arrowio.Reader { return openFile(mapped) }, readTableErr},
			{"Filter", func() *arrowio.Reader { return open(filtered) }, readTableErr},
		} {
			desc := c.name + ", " + way.name
			rd := way.rd()
			err := way.read(rd)
			rd.Close()
			var ce *arrowio.CorruptError
			switch {
			case !errors.As(err, &ce):
				t.Errorf("%s: err = %v, want a *CorruptError", desc, err)
			case ce.Page != c.badPage || ce.Offset != off || ce.RowGroup != 0 || ce.Column != "v" || !errors.Is(err, arrowio.ErrCorrupt):
				t.Errorf("%s: CorruptError{Page: %d, Offset: %d, RowGroup: %d, Column: %q}, want page %d at offset %d of row group 0, column v",
					desc, ce.Page, ce.Offset, ce.RowGroup, ce.Column, c.badPage, off)
			default:
				msg := err.Error()
				for _, s := range []string{fmt.Sprintf("page %d,", c.badPage), fmt.Sprintf("offset %d", off), "CRC-32"} {
					if !strings.Contains(msg, s) {
						t.Errorf("%s: message %q does not say %q", desc, msg, s)
					}
				}
			}
		}

		// With SkipCRC the checksums are not looked at.
		for _, batch := range []int{0, 5} {
			rd := open(arrowio.ReadOptions{Allocator: mem, BatchSize: batch, SkipCRC: true})
			tbl, err := arrowiotest.ReadBatches(rd)
			rd.Close()
			if err != nil {
				t.Fatalf("%s: with SkipCRC, batch %d: %v", c.name, batch, err)
			}
			arrowiotest.CheckTable(t, c.name+": with SkipCRC", tbl, want)
			tbl.Release()
		}
		tbl := arrowiotest.ReadTable(t, file, arrowio.ReadOptions{Allocator: mem, SkipCRC: true})
		arrowiotest.CheckTable(t, c.name+": ReadTable with SkipCRC", tbl, want)
		tbl.Release()
		mem.AssertSize(t, 0)
	}

	// The right checksums pass verification, every way (checkReadsBack
	// reads with CRCs checked first).
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	checkReadsBack(t, "right CRCs", handFile(rows, good[0], index, good[1], good[2]), want, mem, rand.New(rand.NewPCG(5, 5)))
}

// TestVerifyCRCNamesEncryptedPage flips the last stored byte of the second
// data page of column "b" (strings of few distinct values) in files quiver writes encrypted (uniform key,
// page CRCs on, with and without a dictionary page first): with CRCs checked
// the read fails with a *CorruptError naming that page's index within the
// chunk and its file offset, which the OffsetIndex gives, and for
// AES_GCM_V1, whose pages authenticate, the read with SkipCRC fails
// naming the same page with an error wrapping encrypt.ErrAuthentication.
// Encrypted chunks used to count the page only once it had decrypted, and
// so named the page before it.
func TestVerifyCRCNamesEncryptedPage(t *testing.T) {
	rec := encRecord(t, memory.NewGoAllocator(), 1000, 3)
	defer rec.Release()
	for _, alg := range []encrypt.Algorithm{encrypt.AesGcmV1, encrypt.AesGcmCtrV1} {
		m := encModes(alg, 16)[0] // encrypted footer, every column with the footer key
		for _, dict := range []bool{false, true} {
			desc := fmt.Sprintf("%v, dictionary %v", alg, dict)
			file := arrowiotest.WriteFile(t, encSchema, arrowio.WriteOptions{DataPageRows: 200, DisableDictionary: !dict, Encryption: &m.enc}, rec)
			rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Decryption: &m.dec})
			if err != nil {
				t.Fatal(err)
			}
			_, oi, err := rd.PageIndex(0, "b")
			md := rd.Metadata().RowGroups[0].Columns[1].MetaData
			rd.Close()
			if err != nil || oi == nil || len(oi.PageLocations) < 3 {
				t.Fatalf("%s: offset index of column b: %v", desc, err)
			}
			badPage := 1 // the second data page, after the dictionary page if any
			if _, ok := md.DictionaryPageOffset.Get(); ok {
				badPage++
			}
			if dict != (badPage == 2) {
				t.Fatalf("%s: the chunk has a dictionary page: %v", desc, badPage == 2)
			}
			loc := oi.PageLocations[1]
			file[loc.Offset+int64(loc.CompressedPageSize)-1] ^= 0x40
			for _, verify := range []bool{true, false} {
				if !verify && alg != encrypt.AesGcmV1 {
					continue // AES_GCM_CTR_V1 pages do not authenticate
				}
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Decryption: &m.dec, SkipCRC: !verify, Columns: []string{"b"}, Allocator: mem})
				if err != nil {
					t.Fatal(err)
				}
				err = readTableErr(rd)
				rd.Close()
				var ce *arrowio.CorruptError
				switch {
				case !errors.As(err, &ce):
					t.Errorf("%s, CRCs checked %v: err = %v, want a *CorruptError", desc, verify, err)
				case ce.Page != badPage || ce.Offset != loc.Offset || ce.Column != "b":
					t.Errorf("%s, CRCs checked %v: CorruptError{Page: %d, Offset: %d, Column: %q}, want page %d at offset %d of column b",
						desc, verify, ce.Page, ce.Offset, ce.Column, badPage, loc.Offset)
				case verify && !strings.Contains(err.Error(), "CRC-32"):
					t.Errorf("%s: %v is not a CRC mismatch", desc, err)
				case !verify && !errors.Is(err, encrypt.ErrAuthentication):
					t.Errorf("%s with SkipCRC: %v does not wrap encrypt.ErrAuthentication", desc, err)
				}
				mem.AssertSize(t, 0)
			}
		}
	}
}

// TestDataPageV2IsCompressed reads data pages v2 in chunks of every
// compressed codec: a page whose is_compressed is false stores its values
// as they are, one whose is_compressed is true (or absent, the default)
// stores them compressed, and in both the level section is stored
// uncompressed before them. A chunk mixing the three reads back the
// values of its pages every way (checkReadsBack, and in batches smaller
// than a page, which do not decompress into the batch directly); a
// reader that decompressed an is_compressed=false page, or the levels,
// would fail or read other values.
func TestDataPageV2IsCompressed(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	want := slotRecord(testSlotPages...)
	defer want.Release()
	rows := slotRows(testSlotPages...)
	for _, cc := range codectest.Cases {
		if cc.Codec == footer.CodecUncompressed || cc.Slow {
			continue
		}
		compressed := func(b []byte) []byte { return codectest.Compress(t, cc, b) }
		for _, c := range []struct {
			name  string
			pages [][]byte
		}{
			{"is_compressed=false", [][]byte{
				testSlotPages[0].v2(nil, footer.Some(false)),
				testSlotPages[1].v2(nil, footer.Some(false)),
				testSlotPages[2].v2(nil, footer.Some(false)),
			}},
			{"is_compressed=true", [][]byte{
				testSlotPages[0].v2(compressed, footer.Some(true)),
				testSlotPages[1].v2(compressed, footer.Some(true)),
				testSlotPages[2].v2(compressed, footer.Some(true)),
			}},
			{"mixed", [][]byte{
				testSlotPages[0].v2(nil, footer.Some(false)),
				testSlotPages[1].v2(compressed, footer.Some(true)),
				testSlotPages[2].v2(compressed, footer.Optional[bool]{}),
			}},
		} {
			desc := cc.Name + " " + c.name
			file := withCodec(t, handFile(rows, c.pages...), cc.Codec)
			checkReadsBack(t, desc, file, want, mem, rand.New(rand.NewPCG(uint64(len(file)), 2)))
			for _, batch := range []int{3, 7} {
				rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Allocator: mem, BatchSize: batch})
				if err != nil {
					t.Fatal(err)
				}
				tbl, err := arrowiotest.ReadBatches(rd)
				rd.Close()
				if err != nil {
					t.Fatalf("%s, batch %d: %v", desc, batch, err)
				}
				arrowiotest.CheckTable(t, fmt.Sprintf("%s, batch %d", desc, batch), tbl, want)
				tbl.Release()
			}
		}
	}
}

// TestBadPageHeaderNamesPage reads a chunk whose second page header does
// not parse: the *CorruptError names that page (index 1) and its offset,
// not the page before it, whether the chunk is read whole (Open) or page
// by page from the file (OpenFile).
func TestBadPageHeaderNamesPage(t *testing.T) {
	rows := slotRows(testSlotPages...)
	broken := testSlotPages[1].v1()
	broken[0] = 0xff // field delta 15 of type 15: no Thrift compact type
	pages := [][]byte{testSlotPages[0].v1(), broken, testSlotPages[2].v1()}
	file := handFile(rows, pages...)
	off := int64(len(footer.MagicPlain) + len(pages[0]))
	path := filepath.Join(t.TempDir(), "header.parquet")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		open func() (*arrowio.Reader, error)
	}{
		{"Open", func() (*arrowio.Reader, error) {
			return arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{})
		}},
		{"OpenFile", func() (*arrowio.Reader, error) { return arrowio.OpenFile(path, arrowio.ReadOptions{}) }},
	} {
		rd, err := c.open()
		if err != nil {
			t.Fatal(err)
		}
		err = readTableErr(rd)
		rd.Close()
		var ce *arrowio.CorruptError
		if !errors.As(err, &ce) || ce.Page != 1 || ce.Offset != off {
			t.Errorf("%s: err = %v, want a *CorruptError for page 1 at offset %d", c.name, err, off)
		}
	}
}

// readTableErr reads rd's table, releases it and returns the read's error.
func readTableErr(rd *arrowio.Reader) error {
	tbl, err := rd.ReadTable(context.Background())
	if err == nil {
		tbl.Release()
	}
	return err
}
