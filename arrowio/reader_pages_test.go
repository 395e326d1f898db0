package arrowio_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
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
// they read without VerifyCRC and fail, naming the page, with it.
func TestVerifyCRC(t *testing.T) {
	root := corpus.Dir(t)
	for _, name := range []string{"datapage_v1-corrupt-checksum.parquet", "rle-dict-uncompressed-corrupt-checksum.parquet"} {
		path := filepath.Join(root, "data", name)
		for _, verify := range []bool{false, true} {
			rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{VerifyCRC: verify})
			if err != nil {
				t.Fatal(err)
			}
			tbl, err := rd.ReadTable(context.Background())
			rd.Close()
			switch {
			case !verify && err != nil:
				t.Errorf("%s without VerifyCRC: %v", name, err)
			case verify && (err == nil || !strings.Contains(err.Error(), "CRC-32")):
				t.Errorf("%s with VerifyCRC: err = %v, want a CRC mismatch", name, err)
			}
			if tbl != nil {
				tbl.Release()
			}
		}
	}
	// The files with correct checksums pass verification.
	for _, name := range []string{"datapage_v1-snappy-compressed-checksum.parquet", "datapage_v1-uncompressed-checksum.parquet", "rle-dict-snappy-checksum.parquet"} {
		rd, err := arrowio.OpenFile(filepath.Join(root, "data", name), arrowio.ReadOptions{VerifyCRC: true})
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
