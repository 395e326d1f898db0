package arrowio_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/footer"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/scan"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/internal/corpus"
	"github.com/quiverio/quiver/pageindex"
)

// readCorpus reads a corpus file into memory.
func readCorpus(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus.Dir(t), "data", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// filteredRows reads buf with opts and returns each row as a string.
func filteredRows(t *testing.T, buf []byte, opts arrowio.ReadOptions) []string {
	t.Helper()
	r, err := arrowio.Open(bytes.NewReader(buf), int64(len(buf)), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tbl, err := r.ReadTable(context.Background())
	if err != nil {
		t.Fatalf("filter %v: %v", opts.Filter, err)
	}
	defer tbl.Release()
	tr := array.NewTableReader(tbl, 1<<20)
	defer tr.Release()
	var out []string
	for tr.Next() {
		rec := tr.RecordBatch()
		for k := range int(rec.NumRows()) {
			out = append(out, recordRow(rec, k))
		}
	}
	return out
}

// recordRow formats row k of rec.
func recordRow(rec arrow.RecordBatch, k int) string {
	s := ""
	for _, c := range rec.Columns() {
		if c.IsNull(k) {
			s += "null|"
		} else {
			s += arrowiotest.Canonical(c, k) + "|"
		}
	}
	return s
}

// bruteForce reads buf whole and keeps the rows p selects.
func bruteForce(t *testing.T, buf []byte, p pageindex.Predicate) []string {
	t.Helper()
	return bruteForceWith(t, buf, p, arrowio.ReadOptions{})
}

// bruteForceWith is bruteForce reading with opts.
func bruteForceWith(t *testing.T, buf []byte, p pageindex.Predicate, opts arrowio.ReadOptions) []string {
	t.Helper()
	r, err := arrowio.Open(bytes.NewReader(buf), int64(len(buf)), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := pageindex.Bind(p, fileSchema(t, r))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for g := range r.NumRowGroups() {
		rec, err := r.ReadRowGroup(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		cols := make([]arrow.Array, len(b.Leaves()))
		for i, l := range b.Leaves() {
			if cols[i], err = scan.LeafArray(rec.Column(rec.Schema().FieldIndices(l.Path[0])[0]), l, memory.DefaultAllocator); err != nil {
				t.Fatal(err)
			}
		}
		sel, err := b.Select(cols, int(rec.NumRows()))
		scan.ReleaseArrays(cols)
		if err != nil {
			t.Fatal(err)
		}
		for k, s := range sel {
			if s {
				out = append(out, recordRow(rec, k))
			}
		}
		rec.Release()
	}
	return out
}

// TestFilterCorpusBloomFiles filters the parquet-mr file whose bloom
// filter has no bloom_filter_length and its parquet-rs rewrite that has
// one: every stored string is found, absent strings are not, and the
// filters read both ways hold every value.
func TestFilterCorpusBloomFiles(t *testing.T) {
	for _, name := range []string{"data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet"} {
		buf := readCorpus(t, name)
		all := filteredRows(t, buf, arrowio.ReadOptions{})
		r, err := arrowio.Open(bytes.NewReader(buf), int64(len(buf)), arrowio.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ft, err := footer.ReadFooter(bytes.NewReader(buf), int64(len(buf)))
		if err != nil {
			t.Fatal(err)
		}
		md := r.Metadata().RowGroups[0].Columns[0].MetaData
		off, ok := md.BloomFilterOffset.Get()
		if !ok {
			t.Fatalf("%s: no bloom filter", name)
		}
		for _, length := range []int32{0, md.BloomFilterLength.Or(0)} {
			bf, err := pageindex.ReadBloom(bytes.NewReader(buf), off, length, ft.MetaOffset)
			if err != nil {
				t.Fatalf("%s: bloom filter (length %d): %v", name, length, err)
			}
			for _, row := range all {
				if !bf.Check(pageindex.HashBytes([]byte(row[:len(row)-1]))) {
					t.Errorf("%s: %q missing from the bloom filter", name, row)
				}
			}
		}
		r.Close()
		for _, v := range []string{"Hello", "today", "dog", "absent", "Hello!", ""} {
			p := pageindex.Eq("String", pageindex.String(v))
			got, want := filteredRows(t, buf, arrowio.ReadOptions{Filter: p}), bruteForce(t, buf, p)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: %s: got %q, want %q", name, p, got, want)
			}
		}
	}
}

// TestFilterCorpusTinyPages filters alltypes_tiny_pages.parquet (parquet-mr,
// hundreds of pages per column, column and offset indexes) with random
// predicates and compares with a brute-force filter of the whole file.
func TestFilterCorpusTinyPages(t *testing.T) {
	buf := readCorpus(t, "alltypes_tiny_pages.parquet")
	rng := rand.New(rand.NewPCG(7, 7))
	n := 60
	if testing.Short() {
		n = 15
	}
	for range n {
		var p pageindex.Predicate
		switch rng.IntN(5) {
		case 0:
			p = pageindex.Compare("id", pageindex.Op(1+rng.IntN(6)), pageindex.Int(int64(rng.IntN(7400))))
		case 1:
			p = pageindex.And(pageindex.GreaterEq("id", pageindex.Int(int64(rng.IntN(7000)))), pageindex.Less("id", pageindex.Int(int64(rng.IntN(7400)))))
		case 2:
			p = pageindex.Or(pageindex.Eq("int_col", pageindex.Int(int64(rng.IntN(10)))), pageindex.In("bigint_col", pageindex.Int(int64(10*rng.IntN(10)))))
		case 3:
			p = pageindex.HasPrefix("date_string_col", fmt.Sprintf("%02d/", 1+rng.IntN(12)))
		default:
			p = pageindex.And(pageindex.Eq("string_col", pageindex.String(fmt.Sprint(rng.IntN(10)))), pageindex.Greater("double_col", pageindex.Float(float64(rng.IntN(90)))))
		}
		got, want := filteredRows(t, buf, arrowio.ReadOptions{Filter: p}), bruteForce(t, buf, p)
		if len(got) != len(want) || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: got %d rows, want %d", p, len(got), len(want))
		}
	}
}
