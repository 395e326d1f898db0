package footer

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"
)

// countingReaderAt counts the ReadAt calls and bytes requested from r.
type countingReaderAt struct {
	r            io.ReaderAt
	calls, bytes int
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	c.calls++
	c.bytes += len(p)
	return c.r.ReadAt(p, off)
}

// fileWith builds a Parquet file image: magic, body, metadata, length, magic.
func fileWith(body []byte, fm *FileMetaData) []byte {
	out := append([]byte(MagicPlain), body...)
	meta := Marshal(nil, fm)
	out = append(out, meta...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(meta)))
	return append(out, MagicPlain...)
}

func smallMeta() *FileMetaData {
	return &FileMetaData{
		Version: 2,
		Schema:  []SchemaElement{root(1), leaf("a", RepetitionOptional, TypeInt64)},
		NumRows: 3,
		RowGroups: []RowGroup{{
			NumRows:       3,
			TotalByteSize: 10,
			Columns: []ColumnChunk{{FileOffset: 4, MetaData: &ColumnMetaData{
				Type: TypeInt64, Encodings: []Encoding{EncodingPlain}, PathInSchema: []string{"a"},
				Codec: CodecSnappy, NumValues: 3, TotalUncompressedSize: 10, TotalCompressedSize: 10, DataPageOffset: 4,
			}}},
		}},
	}
}

func TestReadFooterOneRead(t *testing.T) {
	img := fileWith(make([]byte, 10), smallMeta())
	cr := &countingReaderAt{r: bytes.NewReader(img)}
	ft, err := ReadFooter(cr, int64(len(img)))
	if err != nil {
		t.Fatal(err)
	}
	if cr.calls != 1 {
		t.Errorf("small footer took %d reads, want 1", cr.calls)
	}
	if ft.Meta.NumRows != 3 || len(ft.Schema.Leaves) != 1 || ft.Schema.Leaves[0].DottedPath() != "a" {
		t.Errorf("parsed %+v", ft.Meta)
	}
	if want := int64(len(img) - 8 - int(ft.MetaLength)); ft.MetaOffset != want {
		t.Errorf("MetaOffset = %d, want %d", ft.MetaOffset, want)
	}
}

func TestReadFooterLargeMetadata(t *testing.T) {
	// Metadata longer than the tail read needs exactly one more read.
	fm := smallMeta()
	fm.KeyValueMetadata = []KeyValue{{Key: "big", Value: Some(strings.Repeat("x", 2*TailReadSize))}}
	img := fileWith(make([]byte, 100), fm)
	cr := &countingReaderAt{r: bytes.NewReader(img)}
	ft, err := ReadFooter(cr, int64(len(img)))
	if err != nil {
		t.Fatal(err)
	}
	if cr.calls != 2 {
		t.Errorf("large footer took %d reads, want 2", cr.calls)
	}
	if v := ft.Meta.KeyValueMetadata[0].Value.Value; len(v) != 2*TailReadSize {
		t.Errorf("key-value value of %d bytes, want %d", len(v), 2*TailReadSize)
	}
}

func TestReadFooterErrors(t *testing.T) {
	good := fileWith(make([]byte, 10), smallMeta())
	mutate := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	mismatched := smallMeta()
	mismatched.RowGroups[0].Columns = append(mismatched.RowGroups[0].Columns, mismatched.RowGroups[0].Columns[0])
	negative := smallMeta()
	negative.RowGroups[0].NumRows = -1
	cases := []struct {
		name string
		img  []byte
		want error
		msg  string
	}{
		{"empty", nil, ErrCorrupt, "too small"},
		{"eleven bytes", []byte("PAR1\x00\x00\x00PAR1")[:11], ErrCorrupt, "too small"},
		{"bad tail magic", mutate(func(b []byte) []byte { copy(b[len(b)-4:], "PAR2"); return b }), ErrCorrupt, "not the Parquet magic"},
		{"bad head magic", mutate(func(b []byte) []byte { copy(b, "PAR0"); return b }), ErrCorrupt, "starts with"},
		{"encrypted", mutate(func(b []byte) []byte { copy(b, "PARE"); copy(b[len(b)-4:], "PARE"); return b }), ErrEncryptedFooter, "PARE"},
		{"mixed magics", mutate(func(b []byte) []byte { copy(b[len(b)-4:], "PARE"); return b }), ErrCorrupt, "not the magic"},
		{"length past start", mutate(func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[len(b)-8:], uint32(len(b)))
			return b
		}), ErrCorrupt, "exceeds"},
		{"length huge", mutate(func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[len(b)-8:], 0xFFFFFFFF)
			return b
		}), ErrCorrupt, "exceeds"},
		{"garbage metadata", mutate(func(b []byte) []byte {
			for i := 14; i < len(b)-8; i++ {
				b[i] = 0xFF
			}
			return b
		}), ErrCorrupt, "file metadata at offset"},
		{"chunk count mismatch", fileWith(nil, mismatched), ErrCorrupt, "2 column chunks for 1 leaf"},
		{"negative rows", fileWith(nil, negative), ErrCorrupt, "negative"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadFooter(bytes.NewReader(c.img), int64(len(c.img)))
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("err = %v, want %v mentioning %q", err, c.want, c.msg)
			}
		})
	}
}

// shortReaderAt claims a larger file than it holds.
type shortReaderAt struct{ b []byte }

func (s shortReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(s.b)) {
		return 0, io.EOF
	}
	n := copy(p, s.b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func TestReadFooterShortRead(t *testing.T) {
	img := fileWith(make([]byte, 10), smallMeta())
	_, err := ReadFooter(shortReaderAt{img[:len(img)-3]}, int64(len(img)))
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("err = %v, want io.ErrUnexpectedEOF", err)
	}
}
