package colread

import (
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/page"
	"github.com/quiverio/quiver/footer"
)

// TestDataBound checks the data size estimates column chunk metadata gives.
func TestDataBound(t *testing.T) {
	plain := []footer.Encoding{footer.EncodingPlain, footer.EncodingRLE}
	stats := func(nulls int64) *footer.Statistics { return &footer.Statistics{NullCount: footer.Some(nulls)} }
	for _, c := range []struct {
		name string
		md   footer.ColumnMetaData
		want int64
	}{
		{"size statistics", footer.ColumnMetaData{Encodings: plain, TotalUncompressedSize: 5000,
			SizeStatistics: &footer.SizeStatistics{UnencodedByteArrayDataBytes: footer.Some[int64](3200)}}, 3400},
		{"size statistics beat the delta rule", footer.ColumnMetaData{Encodings: []footer.Encoding{footer.EncodingDeltaByteArray},
			SizeStatistics: &footer.SizeStatistics{UnencodedByteArrayDataBytes: footer.Some[int64](160)}}, 170},
		{"absurd size statistics", footer.ColumnMetaData{Encodings: plain, TotalUncompressedSize: 5000,
			SizeStatistics: &footer.SizeStatistics{UnencodedByteArrayDataBytes: footer.Some[int64](1 << 62)}}, 5000},
		{"plain less lengths", footer.ColumnMetaData{Encodings: plain, TotalUncompressedSize: 5000, NumValues: 500,
			Statistics: stats(100)}, 3612},
		{"plain without a null count", footer.ColumnMetaData{Encodings: plain, TotalUncompressedSize: 5000, NumValues: 500,
			Statistics: &footer.Statistics{}}, 5000},
		{"plain, more nulls than values", footer.ColumnMetaData{Encodings: plain, TotalUncompressedSize: 5000, NumValues: 500,
			Statistics: stats(501)}, 5000},
		{"plain, lengths past the size", footer.ColumnMetaData{Encodings: plain, TotalUncompressedSize: 100, NumValues: 500,
			Statistics: stats(0)}, 0},
		{"dictionary page", footer.ColumnMetaData{Encodings: plain, TotalUncompressedSize: 5000, NumValues: 500,
			DictionaryPageOffset: footer.Some[int64](4), Statistics: stats(0)}, 5000},
		{"delta", footer.ColumnMetaData{Encodings: []footer.Encoding{footer.EncodingDeltaByteArray}, TotalUncompressedSize: 5000}, 0},
	} {
		if got := DataBound(&c.md); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

// TestDataHint checks a byte-array leaf's first guess at a batch's data:
// the batch's share of the chunk's data bound, and none at all when that
// share passes the 64 bytes per chunk byte the reader trusts, since a
// guess known to fall short would only be outgrown.
func TestDataHint(t *testing.T) {
	for _, c := range []struct {
		name                 string
		kind                 targetKind
		rows, bound, n, want int
	}{
		{"share", binaryTarget, 1000, 32000, 100, 3200},
		{"share at the limit", binaryTarget, 1000, 64000, 100, 6400},
		{"share past the limit", binaryTarget, 1000, 64010, 100, 0},
		{"no bound", binaryTarget, 1000, 0, 100, 0},
		{"fixed width", fixedTarget, 1000, 32000, 100, 0},
	} {
		l := LeafReader{t: target{kind: c.kind}, totalRows: int64(c.rows), uncompressed: int64(c.bound), Pages: page.Iterator{Data: make([]byte, 100)}}
		if got := l.dataHint(c.n); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}
