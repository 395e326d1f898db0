package footer

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// codecCorpusDir returns ../shared/parquet-testing relative to the module
// root (the directory holding go.mod, found by walking up from the test's
// working directory), skipping the test when it is absent.
func codecCorpusDir(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Skip("no go.mod above the working directory, so no parquet-testing corpus")
		}
		dir = parent
	}
	corpus := filepath.Join(dir, "..", "shared", "parquet-testing")
	if _, err := os.Stat(corpus); err != nil {
		tb.Skipf("parquet-testing corpus not found at %s: %v", corpus, err)
	}
	return corpus
}

// codecFooter is the metadata region of one corpus file.
type codecFooter struct {
	name  string // path relative to the corpus
	magic string // "PAR1" or "PARE"
	meta  []byte // FileMetaData, or FileCryptoMetaData followed by the encrypted footer
	bad   bool   // from bad_data/
}

// codecCorpusFooters reads the footer region of every .parquet and
// .parquet.encrypted file in the corpus. Files whose trailer cannot locate a footer are returned with nil
// meta.
func codecCorpusFooters(tb testing.TB) []codecFooter {
	tb.Helper()
	root := codecCorpusDir(tb)
	var out []codecFooter
	err := filepath.WalkDir(root, func(path string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() || !(strings.HasSuffix(path, ".parquet") || strings.HasSuffix(path, ".parquet.encrypted")) {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		f := codecFooter{name: rel, bad: strings.HasPrefix(rel, "bad_data")}
		if len(b) >= 12 {
			f.magic = string(b[len(b)-4:])
			n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
			if n <= len(b)-12 {
				f.meta = b[len(b)-8-n : len(b)-8]
			}
		}
		out = append(out, f)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(out) == 0 {
		tb.Skip("parquet-testing corpus holds no .parquet files")
	}
	return out
}

// roundTrip checks that v, decoded from some bytes, re-encodes to bytes
// that decode to an equal value, and returns those bytes.
func roundTrip[T any, P structPtr[T]](t *testing.T, v P) []byte {
	t.Helper()
	enc := Marshal(nil, v)
	var back T
	n, err := Unmarshal(enc, P(&back))
	if err != nil {
		t.Fatalf("re-parse of %T failed: %v", v, err)
	}
	if n != len(enc) {
		t.Fatalf("re-parse of %T consumed %d of %d bytes", v, n, len(enc))
	}
	if !reflect.DeepEqual(*v, back) && !bytes.Equal(enc, Marshal(nil, P(&back))) {
		t.Fatalf("%T changed in a round trip:\n got %+v\nwant %+v", v, back, *v)
	}
	return enc
}

func TestCorpusFooters(t *testing.T) {
	var plain, encrypted int
	for _, f := range codecCorpusFooters(t) {
		t.Run(f.name, func(t *testing.T) {
			if f.meta == nil {
				if !f.bad {
					t.Fatalf("trailer does not locate a footer")
				}
				return
			}
			switch f.magic {
			case "PAR1":
				var fm FileMetaData
				n, err := Unmarshal(f.meta, &fm)
				if err != nil {
					if !errors.Is(err, ErrCorrupt) {
						t.Fatalf("error does not wrap ErrCorrupt: %v", err)
					}
					if !f.bad {
						t.Fatal(err)
					}
					t.Logf("rejected: %v", err)
					return
				}
				want := len(f.meta)
				if fm.EncryptionAlgorithm != nil {
					want -= 28 // a signed plaintext footer ends with a nonce and a GCM tag
				}
				if n != want && !f.bad {
					t.Errorf("consumed %d of %d footer bytes", n, len(f.meta))
				}
				if len(fm.Schema) == 0 && !f.bad {
					t.Errorf("no schema")
				}
				roundTrip(t, &fm)
				plain++
			case "PARE":
				var cm FileCryptoMetaData
				n, err := Unmarshal(f.meta, &cm)
				if err != nil {
					t.Fatal(err)
				}
				if n >= len(f.meta) {
					t.Errorf("FileCryptoMetaData took all %d footer bytes; the encrypted FileMetaData should follow", n)
				}
				if cm.EncryptionAlgorithm.AesGcmV1 == nil && cm.EncryptionAlgorithm.AesGcmCtrV1 == nil {
					t.Errorf("no encryption algorithm: %+v", cm)
				}
				roundTrip(t, &cm)
				encrypted++
			default:
				if !f.bad {
					t.Fatalf("file ends with %q", f.magic)
				}
			}
		})
	}
	t.Logf("%d plaintext footers and %d encrypted footers round-tripped", plain, encrypted)
}

func TestCorpusBloomFilterHeader(t *testing.T) {
	path := filepath.Join(codecCorpusDir(t), "data", "bloom_filter.xxhash.bin")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("no bloom filter sample: %v", err)
	}
	var h BloomFilterHeader
	n, err := Unmarshal(b, &h)
	if err != nil {
		t.Fatal(err)
	}
	want := BloomFilterHeader{NumBytes: int32(len(b) - n), Algorithm: BloomAlgorithmSplitBlock,
		Hash: BloomHashXxHash, Compression: BloomCompressionUncompressed}
	if h != want || h.NumBytes != 1024 {
		t.Fatalf("got %+v after %d bytes, want %+v", h, n, want)
	}
	if enc := roundTrip(t, &h); !bytes.Equal(enc, b[:n]) {
		t.Errorf("re-encoded header %x, file has %x", enc, b[:n])
	}
}

// withUnknown returns enc, the encoding of a struct, with field id of wire
// type typ and value val inserted before the struct's closing stop. The
// header uses the long form, so it fits after any last field id.
func withUnknown(enc []byte, id int16, typ byte, val []byte) []byte {
	var e encoder
	e.b = append(e.b, enc[:len(enc)-1]...)
	last := int16(-32768)
	e.field(&last, id, typ)
	e.b = append(e.b, val...)
	e.stop()
	return e.b
}

// isUnion reports whether v is a thrift union, where an unknown field is an
// unknown member and changes the value.
func isUnion(v Message) bool {
	switch v.(type) {
	case *LogicalType, *TimeUnit, *ColumnOrder, *EncryptionAlgorithm, *ColumnCryptoMetaData:
		return true
	}
	return false
}

func TestUnknownFieldsSkipped(t *testing.T) {
	g := &gen{r: rand.New(rand.NewPCG(7, 7))}
	for _, zero := range allMessages() {
		if isUnion(zero) {
			continue
		}
		for _, p := range skipPayloads() {
			for _, id := range []int16{100, 32767, -5} {
				v := randomMessage(g, zero)
				in := withUnknown(Marshal(nil, v), id, p.typ, p.val)
				back := reflect.New(reflect.TypeOf(zero).Elem()).Interface().(Message)
				n, err := Unmarshal(in, back)
				if err != nil || n != len(in) {
					t.Fatalf("%T with unknown %s field %d: consumed %d of %d, %v", zero, p.name, id, n, len(in), err)
				}
				if !reflect.DeepEqual(v, back) {
					t.Fatalf("%T with unknown %s field %d: value changed at %s", zero, p.name, id,
						firstDiff(reflect.ValueOf(back), reflect.ValueOf(v), "v"))
				}
			}
		}
	}
}

// TestUnknownFieldsNested hides unknown fields in structs nested inside a
// FileMetaData, as a newer writer would.
func TestUnknownFieldsNested(t *testing.T) {
	payloads := skipPayloads()
	unk := func(enc []byte, i int) []byte {
		p := payloads[i%len(payloads)]
		return withUnknown(enc, int16(40+i), p.typ, p.val)
	}
	cmd := ColumnMetaData{Type: TypeInt64, Encodings: []Encoding{EncodingPlain, EncodingRLE},
		PathInSchema: []string{"a", "b"}, Codec: CodecZstd, NumValues: 3, DataPageOffset: 4,
		Statistics: &Statistics{NullCount: Some[int64](1), MaxValue: []byte{9}}}
	se := SchemaElement{Name: "root", NumChildren: Some[int32](1),
		LogicalType: LogicalType{Kind: LogicalTimestamp, Timestamp: TimestampType{IsAdjustedToUTC: true, Unit: TimeUnitNanos}}}
	want := FileMetaData{Version: 2, Schema: []SchemaElement{se}, NumRows: 3,
		RowGroups: []RowGroup{{Columns: []ColumnChunk{{FileOffset: 4, MetaData: &cmd}}, TotalByteSize: 10, NumRows: 3}}}

	var e encoder
	var last int16
	e.i32Field(&last, 1, want.Version)
	e.field(&last, 2, tList)
	e.list(1, tStruct)
	{ // SchemaElement whose logical type's timestamp has an unknown field
		var el encoder
		var l int16
		el.strField(&l, 4, se.Name)
		optI32(&el, &l, 5, se.NumChildren)
		el.field(&l, 10, tStruct)
		var lt encoder
		var ll int16
		lt.field(&ll, 8, tStruct)
		lt.b = append(lt.b, unk(Marshal(nil, &se.LogicalType.Timestamp), 0)...)
		lt.stop()
		el.b = append(el.b, lt.b...)
		el.stop()
		e.b = append(e.b, unk(el.b, 1)...)
	}
	e.i64Field(&last, 3, want.NumRows)
	e.field(&last, 4, tList)
	e.list(1, tStruct)
	{ // RowGroup > ColumnChunk > ColumnMetaData > Statistics, each with unknown fields
		var st encoder
		var l int16
		st.field(&l, 1, tList)
		st.list(1, tStruct)
		var cc encoder
		var lc int16
		cc.i64Field(&lc, 2, 4)
		cc.field(&lc, 3, tStruct)
		stats := unk(Marshal(nil, cmd.Statistics), 2)
		plain := Marshal(nil, &cmd)
		noStats := cmd
		noStats.Statistics = nil
		cmdBytes := Marshal(nil, &noStats)
		cmdBytes = append(cmdBytes[:len(cmdBytes)-1], 0x3c) // field 12 (delta 3 from 9): struct
		cmdBytes = append(append(cmdBytes, stats...), 0)
		if len(cmdBytes) <= len(plain) {
			t.Fatal("test construction: statistics not spliced in")
		}
		cc.b = append(cc.b, unk(cmdBytes, 3)...)
		cc.stop()
		st.b = append(st.b, unk(cc.b, 4)...)
		st.i64Field(&l, 2, 10)
		st.i64Field(&l, 3, 3)
		st.stop()
		e.b = append(e.b, unk(st.b, 5)...)
	}
	e.stop()
	in := unk(e.b, 6)

	var got FileMetaData
	if n, err := Unmarshal(in, &got); err != nil || n != len(in) {
		t.Fatalf("consumed %d of %d: %v", n, len(in), err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("value differs at %s", firstDiff(reflect.ValueOf(got), reflect.ValueOf(want), "FileMetaData"))
	}
}

// TestUnknownUnionMembers checks that members added to a union by a newer
// format version decode as "unrecognized" and re-encode the same way.
func TestUnknownUnionMembers(t *testing.T) {
	member := func(id int16) []byte {
		var e encoder
		var last int16
		e.emptyStructField(&last, id)
		e.stop()
		return e.b
	}
	var lt LogicalType
	if _, err := Unmarshal(member(25), &lt); err != nil || lt != (LogicalType{Kind: LogicalUnrecognized, UnknownField: 25}) {
		t.Errorf("LogicalType member 25: %+v, %v", lt, err)
	}
	var co ColumnOrder
	if _, err := Unmarshal(member(4), &co); err != nil || co != (ColumnOrder{Kind: ColumnOrderUnrecognized, UnknownField: 4}) {
		t.Errorf("ColumnOrder member 4: %+v, %v", co, err)
	}
	var tu TimeUnit
	if _, err := Unmarshal(member(4), &tu); err != nil || tu != TimeUnitUnrecognized {
		t.Errorf("TimeUnit member 4: %v, %v", tu, err)
	}
	var ea EncryptionAlgorithm
	if _, err := Unmarshal(member(3), &ea); err != nil || ea != (EncryptionAlgorithm{UnknownField: 3}) {
		t.Errorf("EncryptionAlgorithm member 3: %+v, %v", ea, err)
	}
	var bh BloomFilterHeader
	in := []byte{0x15, 0x80, 0x10, 0x1c, 0x2c, 0, 0, 0x1c, 0x1c, 0, 0, 0x1c, 0x1c, 0, 0, 0}
	if _, err := Unmarshal(in, &bh); err != nil || bh.Algorithm != BloomAlgorithmUnrecognized || bh.Hash != BloomHashXxHash {
		t.Errorf("BloomFilterHeader with algorithm member 2: %+v, %v", bh, err)
	}
	for _, v := range []Message{&lt, &co, &tu, &ea, &bh} {
		enc := Marshal(nil, v)
		back := reflect.New(reflect.TypeOf(v).Elem()).Interface().(Message)
		if _, err := Unmarshal(enc, back); err != nil || !reflect.DeepEqual(v, back) {
			t.Errorf("%T: re-encoded unknown member does not round-trip: %+v, %v", v, back, err)
		}
	}
}

func TestErrorsNameTheField(t *testing.T) {
	good := Marshal(nil, &FileMetaData{Version: 1, Schema: []SchemaElement{{Name: "s"}}, NumRows: 1,
		RowGroups: []RowGroup{{Columns: []ColumnChunk{{MetaData: &ColumnMetaData{PathInSchema: []string{"a"}}}}}}})
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"missing required", Marshal(nil, &PageLocation{})[2:], "PageLocation.offset: required field missing"},
		{"truncated", good[:len(good)-9], "ColumnMetaData.data_page_offset"},
		{"path", good[:len(good)-9], "(at FileMetaData.row_groups[0].columns[0].meta_data.data_page_offset, byte "},
	} {
		var fm FileMetaData
		var pl PageLocation
		msg := Message(&fm)
		if strings.HasPrefix(tc.want, "PageLocation") {
			msg = &pl
		}
		_, err := Unmarshal(tc.in, msg)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
}
