package page

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/quiverio/quiver/footer"
)

// pagesChunk builds a column chunk of random pages for the page iterator:
// data pages v1 and v2, dictionary and index pages, payloads from empty to
// several windows, and headers whose statistics outgrow small windows.
func pagesChunk(rng *rand.Rand, pages int) []byte {
	var chunk []byte
	for range pages {
		payload := make([]byte, []int{0, 1, 30, 500, 3000}[rng.IntN(5)]+rng.IntN(40))
		for i := range payload {
			payload[i] = byte(rng.Uint32())
		}
		h := footer.PageHeader{UncompressedPageSize: int32(len(payload)), CompressedPageSize: int32(len(payload))}
		stats := &footer.Statistics{Min: make([]byte, rng.IntN(2)*rng.IntN(400)), Max: []byte("max")}
		switch rng.IntN(4) {
		case 0:
			h.Type = footer.PageTypeData
			h.DataPageHeader = &footer.DataPageHeader{NumValues: int32(rng.IntN(100)), Statistics: stats}
		case 1:
			h.Type = footer.PageTypeDataV2
			h.DataPageHeaderV2 = &footer.DataPageHeaderV2{NumValues: 5, NumRows: 5, Statistics: stats}
		case 2:
			h.Type = footer.PageTypeDictionary
			h.DictionaryPageHeader = &footer.DictionaryPageHeader{NumValues: 3}
		default:
			h.Type = footer.PageTypeIndex
			h.IndexPageHeader = &footer.IndexPageHeader{}
		}
		chunk = footer.Marshal(chunk, &h)
		chunk = append(chunk, payload...)
	}
	return chunk
}

// comparePageIterators walks chunk, which starts at file offset base of
// file, in memory and from the file through a window of the given size,
// and reports the first difference in the pages, their payloads (which
// the file iterator materializes, unless skip says to leave a page's rest
// unread) or whether they fail.
func comparePageIterators(file []byte, base int64, chunk []byte, window int, skip func() bool) error {
	mem := Iterator{Data: chunk, Base: base}
	var fromFile Iterator
	fromFile.AttachFile(bytes.NewReader(file), base, base+int64(len(chunk)), window)
	defer fromFile.ReleaseWindow()
	for page := 0; ; page++ {
		want, wok, werr := mem.Next()
		got, gok, gerr := fromFile.Next()
		if (werr == nil) != (gerr == nil) || wok != gok {
			return fmt.Errorf("page %d: from the file ok=%v, %v; in memory ok=%v, %v", page, gok, gerr, wok, werr)
		}
		if !wok || werr != nil {
			if !fromFile.Exhausted() && werr == nil {
				return fmt.Errorf("page %d: the file iterator is not exhausted at the end", page)
			}
			return nil
		}
		if got.Offset != want.Offset || got.Header.Type != want.Header.Type ||
			got.Header.CompressedPageSize != want.Header.CompressedPageSize || fromFile.Ordinal != mem.Ordinal {
			return fmt.Errorf("page %d: from the file %+v (ordinal %d), in memory %+v (%d)", page, got.Header, fromFile.Ordinal, want.Header, mem.Ordinal)
		}
		if len(got.Payload)+got.More != len(want.Payload) || !bytes.Equal(got.Payload, want.Payload[:len(got.Payload)]) {
			return fmt.Errorf("page %d: %d+%d payload bytes from the file, %d in memory, or they differ", page, len(got.Payload), got.More, len(want.Payload))
		}
		if got.More > 0 && skip() {
			continue
		}
		if err := fromFile.Materialize(&got); err != nil {
			return fmt.Errorf("page %d: materialize: %v", page, err)
		}
		if !bytes.Equal(got.Payload, want.Payload) {
			return fmt.Errorf("page %d: materialized payload differs", page)
		}
	}
}

// TestPageIteratorFromFile checks that a chunk read from the file page by
// page gives the pages of the same chunk held in memory, through windows
// from one byte to larger than the chunk, and through truncations and
// bit flips of the chunk.
func TestPageIteratorFromFile(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := range 200 {
		chunk := pagesChunk(rng, 1+rng.IntN(12))
		switch iter % 4 {
		case 1:
			chunk = chunk[:rng.IntN(len(chunk)+1)]
		case 2:
			for range 3 {
				chunk[rng.IntN(len(chunk))] ^= byte(1 << rng.IntN(8))
			}
		}
		base := int64(rng.IntN(100))
		file := append(make([]byte, base), chunk...)
		file = append(file, "trailing bytes past the chunk"...)
		for _, window := range []int{1, 7, 64, 1000, 1 << 20} {
			if err := comparePageIterators(file, base, chunk, window, func() bool { return rng.IntN(2) == 0 }); err != nil {
				t.Fatalf("iteration %d, window %d: %v", iter, window, err)
			}
		}
	}
}

// FuzzPageIteratorFromFile walks arbitrary bytes as a column chunk read
// from the file, through a window the first byte sizes, and requires the
// pages the same chunk gives in memory.
func FuzzPageIteratorFromFile(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 8 {
		f.Add(append([]byte{byte(rng.IntN(64))}, pagesChunk(rng, 1+rng.IntN(6))...))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 {
			return
		}
		window, chunk := 1+int(b[0]), b[1:]
		skip := false
		if err := comparePageIterators(chunk, 0, chunk, window, func() bool { skip = !skip; return skip }); err != nil {
			t.Fatal(err)
		}
	})
}
