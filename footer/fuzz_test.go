package footer

import (
	"bytes"
	"testing"
)

// fuzzSeeds adds every corpus footer region to f, plus a few hand-made
// encodings of the fuzzed type.
func fuzzSeeds(f *testing.F, extra ...Message) {
	for _, c := range codecCorpusFooters(f) {
		if c.meta != nil {
			f.Add(c.meta)
		}
	}
	for _, m := range extra {
		f.Add(Marshal(nil, m))
	}
}

// fuzzDecode decodes in into a new value from newMsg; when that succeeds,
// the value must re-encode to bytes that decode to an equal value (compared
// as their encodings, which also covers NaN bounds).
func fuzzDecode(t *testing.T, in []byte, newMsg func() Message) {
	orig := bytes.Clone(in)
	v := newMsg()
	n, err := Unmarshal(in, v)
	if !bytes.Equal(in, orig) {
		t.Fatal("Unmarshal modified its input")
	}
	if err != nil {
		return
	}
	if n <= 0 || n > len(in) {
		t.Fatalf("consumed %d of %d bytes", n, len(in))
	}
	enc := Marshal(nil, v)
	back := newMsg()
	m, err := Unmarshal(enc, back)
	if err != nil {
		t.Fatalf("re-encoded value does not decode: %v", err)
	}
	if m != len(enc) {
		t.Fatalf("re-decode consumed %d of %d bytes", m, len(enc))
	}
	if again := Marshal(nil, back); !bytes.Equal(enc, again) {
		t.Fatalf("value changed in a round trip:\n%x\n%x", enc, again)
	}
}

func FuzzFileMetaData(f *testing.F) {
	fuzzSeeds(f, &FileMetaData{Schema: []SchemaElement{{Name: "s", NumChildren: Some[int32](0)}}})
	f.Fuzz(func(t *testing.T, in []byte) {
		fuzzDecode(t, in, func() Message { return new(FileMetaData) })
	})
}

func FuzzPageHeader(f *testing.F) {
	fuzzSeeds(f,
		&PageHeader{Type: PageTypeData, DataPageHeader: &DataPageHeader{NumValues: 10, Statistics: &Statistics{Max: []byte{1}}}},
		&PageHeader{Type: PageTypeDictionary, CRC: Some[int32](7), DictionaryPageHeader: &DictionaryPageHeader{NumValues: 3, IsSorted: Some(true)}},
		&PageHeader{Type: PageTypeDataV2, DataPageHeaderV2: &DataPageHeaderV2{NumRows: 4, IsCompressed: Some(false)}},
		&PageHeader{Type: PageTypeIndex, IndexPageHeader: &IndexPageHeader{}})
	f.Fuzz(func(t *testing.T, in []byte) {
		fuzzDecode(t, in, func() Message { return new(PageHeader) })
	})
}

func FuzzColumnIndex(f *testing.F) {
	fuzzSeeds(f, &ColumnIndex{NullPages: []bool{true, false}, MinValues: [][]byte{{}, {1}}, MaxValues: [][]byte{{}, {9}},
		BoundaryOrder: BoundaryAscending, NullCounts: []int64{3, 0}, NanCounts: []int64{0, 1}})
	f.Fuzz(func(t *testing.T, in []byte) {
		fuzzDecode(t, in, func() Message { return new(ColumnIndex) })
	})
}

func FuzzOffsetIndex(f *testing.F) {
	fuzzSeeds(f, &OffsetIndex{PageLocations: []PageLocation{{Offset: 4, CompressedPageSize: 100, FirstRowIndex: 0},
		{Offset: 104, CompressedPageSize: 90, FirstRowIndex: 1000}}, UnencodedByteArrayDataBytes: []int64{5, 6}})
	f.Fuzz(func(t *testing.T, in []byte) {
		fuzzDecode(t, in, func() Message { return new(OffsetIndex) })
	})
}
