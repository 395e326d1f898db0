package arrowio_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
)

// readWithPqarrow reads path with arrow-go's pqarrow, recovering from its
// panics (it has some on corrupt files).
func readWithPqarrow(path string, mem memory.Allocator) (tbl arrow.Table, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("pqarrow panicked: %v", r)
		}
	}()
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, err
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: 1 << 16}, mem)
	if err != nil {
		return nil, err
	}
	return fr.ReadTable(context.Background())
}

// flatColumns lists the top-level primitive columns of path's schema: the
// ones the flat reader handles. It skips t for a file whose footer is
// encrypted.
func flatColumns(t *testing.T, path string) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	ft, err := footer.ReadFooter(f, st.Size())
	if err != nil {
		if errors.Is(err, footer.ErrEncryptedFooter) {
			t.Skip("encrypted footer: the encryption tests read it")
		}
		t.Fatalf("footer: %v", err)
	}
	var cols []string
	for _, c := range ft.Schema.Root.Children {
		if c.IsLeaf() && c.Repetition != footer.RepetitionRepeated {
			cols = append(cols, c.Name)
		}
	}
	return cols
}

// typeDifference is how quiver and pqarrow type one flat corpus column
// differently: the two Arrow types, as DataType.String spells them, and
// why. TestCorpusFlatMatchesPqarrow checks that the column's types are
// exactly these; the test named in why checks quiver's values.
type typeDifference struct {
	quiver, pqarrow string
	why             string
}

// String returns why, for the tests that only log a listed difference.
func (d typeDifference) String() string { return d.why }

// knownDifferences lists the flat corpus columns ("file:column") that
// quiver types differently from pqarrow on purpose. None does today:
// every flat column of every file pqarrow reads has the same Arrow type in
// both (the differences in nested columns are in nestedDifferences, and
// those in field metadata alone in corpusSchemaDiffs).
var knownDifferences = map[string]typeDifference{}

// pqarrowGap is a corpus file with flat columns whose ReadTable fails in
// pqarrow: a piece of the error pqarrow gives, why it fails, and check,
// which compares quiver's read of the file's flat columns with something
// independent of quiver instead.
type pqarrowGap struct {
	err, why string
	check    func(t *testing.T, root string, got arrow.Table)
}

// pqarrowUnreadable lists every corpus file with flat columns that pqarrow
// cannot read (arrow-go as pinned in go.mod), by path below the corpus
// root.
var pqarrowUnreadable = map[string]pqarrowGap{
	"data/datapage_v2_empty_datapage.snappy.parquet": {
		err: "s2: corrupt input",
		why: "its data page v2 has a 0-byte SNAPPY values section, and arrow-go runs the decompressor on the empty " +
			"buffer, which is not a valid snappy stream (corpus README §1.3, arrow-rs#7388); checked against the README: " +
			"one row, a null FLOAT",
		check: checkEmptyDataPageV2,
	},
	"data/hadoop_lz4_compressed.parquet": {
		err:   "compression for LZ4 unimplemented",
		why:   "arrow-go does not implement the deprecated LZ4 codec id (here Hadoop-framed); checked against pqarrow's read of the LZ4_RAW twin",
		check: sameAsPqarrowTwin("data/lz4_raw_compressed.parquet"),
	},
	"data/hadoop_lz4_compressed_larger.parquet": {
		err:   "compression for LZ4 unimplemented",
		why:   "arrow-go does not implement the deprecated LZ4 codec id (Hadoop framing, several frames a page); checked against pqarrow's read of the LZ4_RAW twin",
		check: sameAsPqarrowTwin("data/lz4_raw_compressed_larger.parquet"),
	},
	"data/non_hadoop_lz4_compressed.parquet": {
		err:   "compression for LZ4 unimplemented",
		why:   "arrow-go does not implement the deprecated LZ4 codec id (here raw LZ4 blocks); checked against pqarrow's read of the LZ4_RAW twin",
		check: sameAsPqarrowTwin("data/lz4_raw_compressed.parquet"),
	},
	"data/int96_from_spark.parquet": {
		err: "INT96 timestamp is outside the Arrow nanosecond range",
		why: "two of its INT96 values lie outside the int64-nanosecond span; pqarrow refuses them, quiver wraps them in int64 " +
			"(SchemaOptions.Int96); checked against the README's values, and row 5 against its stored fields (see sparkInt96Want)",
		check: checkInt96FromSparkNanos,
	},
	"data/unknown-logical-type.parquet": {
		err: "invalid logical type",
		why: "pqarrow panics at open on the LogicalType union id 2555, which readers must read as the physical type " +
			"(arrow GH-41764); checked against the strings the file holds",
		check: checkUnknownLogicalType,
	},
	"shredded_variant/case-084-INVALID.parquet": {
		err: "typed_value field must be a valid nested type",
		why: "pqarrow's variant extension rejects the spec-invalid shredding of column var at open, so no column reads; " +
			"the flat column id is checked against arrow-go's column chunk reader",
		check: checkVariantCase84ID,
	},
}

// TestCorpusFlatMatchesPqarrow reads the flat columns of every corpus file
// with quiver and compares them with pqarrow's ReadTable of the same file.
// A file pqarrow cannot read must be listed in pqarrowUnreadable, with the
// error it gives, and is checked there instead; a listed file that pqarrow
// reads fails the test, as does a listed type difference that is not
// exactly what the file shows.
func TestCorpusFlatMatchesPqarrow(t *testing.T) {
	root := corpus.Dir(t)
	var compared, columns, checked int
	gapSeen := make(map[string]bool)
	diffSeen := make(map[string]bool)
	for _, rel := range corpus.Files(t) {
		if strings.HasPrefix(rel, "bad_data") {
			continue
		}
		path := filepath.Join(root, rel)
		t.Run(rel, func(t *testing.T) {
			cols := flatColumns(t, path)
			if len(cols) == 0 {
				t.Skip("no flat top-level columns")
			}
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{Columns: cols, Allocator: mem})
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer rd.Close()
			got, err := rd.ReadTable(context.Background())
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			defer got.Release()

			gap, listed := pqarrowUnreadable[rel]
			gapSeen[rel] = listed
			want, werr := readWithPqarrow(path, memory.DefaultAllocator)
			if werr != nil {
				if !listed {
					t.Fatalf("pqarrow cannot read it (%v), and pqarrowUnreadable does not say why", werr)
				}
				if !strings.Contains(werr.Error(), gap.err) {
					t.Errorf("pqarrow fails with %q, not the listed %q", werr, gap.err)
				}
				t.Logf("pqarrow cannot read it: %s", gap.why)
				gap.check(t, root, got)
				checked++
				return
			}
			defer want.Release()
			if listed {
				t.Errorf("pqarrowUnreadable says pqarrow cannot read it (%s), but it does: remove the entry", gap.err)
			}
			columns += compareFlatColumns(t, rel, got, want, diffSeen)
			compared++
		})
	}
	for _, rel := range sortedKeys(pqarrowUnreadable) {
		if !gapSeen[rel] {
			t.Errorf("pqarrowUnreadable lists %s, which is not a corpus file with flat columns", rel)
		}
	}
	for _, key := range sortedKeys(knownDifferences) {
		if !diffSeen[key] {
			t.Errorf("knownDifferences lists %s, which is not a flat column of a file pqarrow reads", key)
		}
	}
	t.Logf("compared %d columns of %d files with pqarrow; checked %d files pqarrow cannot read otherwise", columns, compared, checked)
}

// sortedKeys returns m's keys in order, for deterministic messages.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// compareFlatColumns compares each column of got (quiver's read of corpus
// file rel) with the column of the same name in want (pqarrow's), by type
// and value, and returns how many columns it compared by value. A column
// listed in knownDifferences must have exactly the listed types; it is
// marked in seen (when seen is not nil) and not compared by value.
func compareFlatColumns(t *testing.T, rel string, got, want arrow.Table, seen map[string]bool) int {
	t.Helper()
	if got.NumRows() != want.NumRows() {
		t.Fatalf("%d rows, pqarrow %d", got.NumRows(), want.NumRows())
	}
	n := 0
	for i := 0; i < int(got.NumCols()); i++ {
		name := got.Schema().Field(i).Name
		idx := want.Schema().FieldIndices(name)
		if len(idx) != 1 {
			t.Errorf("column %s: pqarrow has %d columns of that name", name, len(idx))
			continue
		}
		g, w := got.Column(i).Data(), want.Column(idx[0]).Data()
		if d, ok := knownDifferences[rel+":"+name]; ok {
			if seen != nil {
				seen[rel+":"+name] = true
			}
			if gt, wt := g.DataType().String(), w.DataType().String(); gt != d.quiver || wt != d.pqarrow {
				t.Errorf("column %s: type %s, pqarrow %s; knownDifferences lists %s and %s (%s)", name, gt, wt, d.quiver, d.pqarrow, d.why)
			} else {
				t.Logf("column %s: type %s, pqarrow %s: %s", name, gt, wt, d.why)
			}
			continue
		}
		if !arrow.TypeEqual(g.DataType(), w.DataType()) {
			t.Errorf("column %s: type %s, pqarrow %s", name, g.DataType(), w.DataType())
			continue
		}
		if !array.ChunkedApproxEqual(g, w, array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
			t.Errorf("column %s: values differ from pqarrow", name)
		} else if at, ok := floatBitsDiffer(g, w); ok {
			t.Errorf("column %s: row %d has other float bits than pqarrow's (signed zero or NaN payload)", name, at)
		}
		n++
	}
	return n
}

// floatBitsDiffer reports the first row where two equal-length
// floating-point columns hold valid values with different bit patterns,
// which ChunkedApproxEqual does not tell apart (-0 and +0, NaN payloads).
// It reports false for other types.
func floatBitsDiffer(a, b *arrow.Chunked) (int, bool) {
	ab, aok := floatBits(a)
	bb, bok := floatBits(b)
	if !aok || !bok {
		return 0, false
	}
	for i := range ab {
		if ab[i] != bb[i] {
			return i, true
		}
	}
	return 0, false
}

// floatBits returns the bit patterns of a float16, float32 or float64
// column's values, with 0 for nulls, and false for other types.
func floatBits(c *arrow.Chunked) ([]uint64, bool) {
	var out []uint64
	for _, ch := range c.Chunks() {
		for i := 0; i < ch.Len(); i++ {
			var b uint64
			switch a := ch.(type) {
			case *array.Float16:
				b = uint64(a.Value(i).Uint16())
			case *array.Float32:
				b = uint64(math.Float32bits(a.Value(i)))
			case *array.Float64:
				b = math.Float64bits(a.Value(i))
			default:
				return nil, false
			}
			if ch.IsNull(i) {
				b = 0
			}
			out = append(out, b)
		}
	}
	return out, true
}

// sameAsPqarrowTwin returns a check that compares quiver's read of a file
// with pqarrow's read of twin, a corpus file the README says holds the
// same data in a codec pqarrow reads.
func sameAsPqarrowTwin(twin string) func(t *testing.T, root string, got arrow.Table) {
	return func(t *testing.T, root string, got arrow.Table) {
		t.Helper()
		want, err := readWithPqarrow(filepath.Join(root, twin), memory.DefaultAllocator)
		if err != nil {
			t.Fatalf("pqarrow cannot read the twin %s: %v", twin, err)
		}
		defer want.Release()
		if got.NumCols() != want.NumCols() {
			t.Errorf("%d columns, %s %d", got.NumCols(), twin, want.NumCols())
		}
		if n := compareFlatColumns(t, twin, got, want, nil); n == 0 {
			t.Errorf("no column compared with %s", twin)
		}
	}
}
