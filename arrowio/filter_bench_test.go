package arrowio_test

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/pageindex"
)

// BenchmarkWriterIndexes writes the order-lines table without page
// indexes, with them (the default), and with bloom filters on the keys
// and comments too.
func BenchmarkWriterIndexes(b *testing.B) {
	rec := benchRecord(200_000)
	defer rec.Release()
	bloom := &arrowio.BloomFilterOptions{FPP: 0.01}
	for _, c := range []struct {
		name string
		opts arrowio.WriteOptions
	}{
		{"index=off", arrowio.WriteOptions{DisablePageIndex: true}},
		{"index=on", arrowio.WriteOptions{}},
		{"index=on,bloom=2", arrowio.WriteOptions{Columns: map[string]arrowio.ColumnOptions{"key": {BloomFilter: bloom}, "comment": {BloomFilter: bloom}}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(batchBytes(rec))
			b.ReportAllocs()
			for b.Loop() {
				w, err := arrowio.NewWriter(io.Discard, rec.Schema(), c.opts)
				if err != nil {
					b.Fatal(err)
				}
				if err := w.Write(rec); err != nil {
					b.Fatal(err)
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFilteredRead reads a 1 M-row order-lines file in four row
// groups whole, with a point lookup on the sorted key, with an equality
// on the low-cardinality mode column (one row in seven), and with the
// same range (one row in twenty) on the float64 price and on the
// decimal128 net price (FIXED_LEN_BYTE_ARRAY).
func BenchmarkFilteredRead(b *testing.B) {
	rec := benchRecord(1_000_000)
	file := arrowiotest.WriteFile(b, rec.Schema(), arrowio.WriteOptions{MaxRowGroupRows: 250_000}, rec)
	size := batchBytes(rec)
	rec.Release()
	net, err := pageindex.ParseDecimal("60000.00")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		filter pageindex.Predicate
	}{
		{"filter=none", nil},
		{"filter=key", pageindex.Eq("key", pageindex.Int(200_000))},
		{"filter=mode", pageindex.Eq("mode", pageindex.String("RAIL"))},
		{"filter=price", pageindex.GreaterEq("price", pageindex.Float(60000))},
		{"filter=net", pageindex.GreaterEq("net", net)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				r, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Filter: c.filter})
				if err != nil {
					b.Fatal(err)
				}
				tbl, err := r.ReadTable(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				tbl.Release()
				r.Close()
			}
		})
	}
}
