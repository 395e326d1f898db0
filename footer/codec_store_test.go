package footer

import (
	"reflect"
	"testing"
)

// TestUnmarshalPageHeaderInto decodes a sequence of page headers into one
// PageHeader with one store and checks each against a fresh Unmarshal:
// fields of the previous page never survive into the next (statistics
// fields the new page lacks, a nested header of another kind), and the
// nested structs are the store's.
func TestUnmarshalPageHeaderInto(t *testing.T) {
	pages := []PageHeader{
		{Type: PageTypeDictionary, UncompressedPageSize: 10, CompressedPageSize: 8,
			DictionaryPageHeader: &DictionaryPageHeader{NumValues: 3, Encoding: EncodingPlain, IsSorted: Some(true)}},
		{Type: PageTypeData, UncompressedPageSize: 100, CompressedPageSize: 90, CRC: Some[int32](7),
			DataPageHeader: &DataPageHeader{NumValues: 5, Encoding: EncodingRLEDictionary,
				DefinitionLevelEncoding: EncodingRLE, RepetitionLevelEncoding: EncodingRLE,
				Statistics: &Statistics{Min: []byte("a"), MinValue: []byte("b"), NullCount: Some[int64](1)}}},
		{Type: PageTypeData, UncompressedPageSize: 200, CompressedPageSize: 150,
			DataPageHeader: &DataPageHeader{NumValues: 6, Encoding: EncodingPlain,
				DefinitionLevelEncoding: EncodingRLE, RepetitionLevelEncoding: EncodingRLE,
				Statistics: &Statistics{MaxValue: []byte("z")}}},
		{Type: PageTypeData, UncompressedPageSize: 20, CompressedPageSize: 20,
			DataPageHeader: &DataPageHeader{NumValues: 1, Encoding: EncodingPlain,
				DefinitionLevelEncoding: EncodingRLE, RepetitionLevelEncoding: EncodingRLE}},
		{Type: PageTypeDataV2, UncompressedPageSize: 30, CompressedPageSize: 25,
			DataPageHeaderV2: &DataPageHeaderV2{NumValues: 4, NumNulls: 1, NumRows: 4, Encoding: EncodingDeltaBinaryPacked,
				DefinitionLevelsByteLength: 2, IsCompressed: Some(false), Statistics: &Statistics{NanCount: Some[int64](2)}}},
		{Type: PageTypeDataV2, UncompressedPageSize: 31, CompressedPageSize: 26,
			DataPageHeaderV2: &DataPageHeaderV2{NumValues: 3, NumRows: 3, Encoding: EncodingPlain,
				Statistics: &Statistics{Max: []byte("m")}}},
		{Type: PageTypeIndex, IndexPageHeader: &IndexPageHeader{}},
		// Both data headers at once, each with statistics: malformed, but
		// decoded faithfully, so their statistics must not share storage.
		{Type: PageTypeData, UncompressedPageSize: 40, CompressedPageSize: 40,
			DataPageHeader: &DataPageHeader{NumValues: 2, Encoding: EncodingPlain,
				DefinitionLevelEncoding: EncodingRLE, RepetitionLevelEncoding: EncodingRLE,
				Statistics: &Statistics{Min: []byte("q")}},
			DataPageHeaderV2: &DataPageHeaderV2{NumValues: 2, NumRows: 2, Statistics: &Statistics{Min: []byte("r")}}},
	}
	var h PageHeader
	var store PageHeaderStore
	for i, p := range pages {
		in := Marshal(nil, &p)
		var want PageHeader
		if _, err := Unmarshal(in, &want); err != nil {
			t.Fatalf("page %d: %v", i, err)
		}
		n, err := UnmarshalPageHeaderInto(in, &h, &store)
		if err != nil || n != len(in) {
			t.Fatalf("page %d: read %d of %d bytes: %v", i, n, len(in), err)
		}
		if !reflect.DeepEqual(h, want) {
			t.Fatalf("page %d: got %+v, want %+v", i, h, want)
		}
		if h.DataPageHeader != nil && h.DataPageHeader != &store.dp {
			t.Errorf("page %d: the data page header is not the store's", i)
		}
	}
}

// TestUnmarshalPageHeaderIntoAllocs checks that decoding a stream of
// dictionary and data page headers with statistics allocates nothing.
func TestUnmarshalPageHeaderIntoAllocs(t *testing.T) {
	dict := Marshal(nil, &PageHeader{Type: PageTypeDictionary, UncompressedPageSize: 10, CompressedPageSize: 8,
		DictionaryPageHeader: &DictionaryPageHeader{NumValues: 3, Encoding: EncodingPlain}})
	data := Marshal(nil, &PageHeader{Type: PageTypeData, UncompressedPageSize: 100, CompressedPageSize: 90,
		DataPageHeader: &DataPageHeader{NumValues: 5, Encoding: EncodingPlain, DefinitionLevelEncoding: EncodingRLE,
			RepetitionLevelEncoding: EncodingRLE, Statistics: &Statistics{NullCount: Some[int64](1)}}})
	var h PageHeader
	var store PageHeaderStore
	if a := testing.AllocsPerRun(50, func() {
		for _, in := range [][]byte{dict, data} {
			if _, err := UnmarshalPageHeaderInto(in, &h, &store); err != nil {
				t.Fatal(err)
			}
		}
	}); a != 0 {
		t.Fatalf("%v allocations per pair of headers", a)
	}
}
