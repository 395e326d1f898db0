package arrowio_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
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
	// mapping is how quiver reads the file for check; zero for the
	// defaults.
	mapping arrowio.SchemaOptions
	check   func(t *testing.T, root string, got arrow.Table)
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
		why: "two of its INT96 values lie outside the int64-nanosecond span; pqarrow and quiver's default both refuse them " +
			"(TestInt96FromSparkCorpus checks quiver's error); read in milliseconds (SchemaOptions.Int96), where every " +
			"value fits, and checked against the README's values and row 5 against its stored fields (see sparkInt96Want)",
		mapping: arrowio.SchemaOptions{Int96: sparkInt96Fits},
		check:   checkInt96FromSparkMillis,
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

// corruptChecksums are the corpus files whose page CRCs do not match their
// pages on purpose (the corpus README says so); no file from a real writer
// has a wrong CRC.
var corruptChecksums = map[string]bool{
	"data/datapage_v1-corrupt-checksum.parquet":           true,
	"data/rle-dict-uncompressed-corrupt-checksum.parquet": true,
}

// TestCorpusMatchesPqarrow reads every valid corpus file with quiver,
// whole and in batches of 3 rows (so that batches end inside pages and
// rows), and compares every column, nested ones included, with pqarrow's
// ReadTable of the same file (see compareColumns). A file whose nested
// columns quiver does not read (ErrUnsupported) has its flat columns
// compared alone. A file with flat columns that pqarrow cannot read must
// be listed in pqarrowUnreadable, with the error it gives, and its flat
// columns are checked there instead; a listed file that pqarrow reads
// fails the test, as does a listed type difference that is not exactly
// what the file shows.
func TestCorpusMatchesPqarrow(t *testing.T) {
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
			if corruptChecksums[rel] {
				t.Skip("its page CRCs are wrong on purpose: an error by default, read with SkipCRC by TestVerifyCRC")
			}
			if why, ok := pqarrowVariantDifferences[filepath.Base(rel)]; ok && strings.HasPrefix(rel, "shredded_variant/") && strings.HasPrefix(why, "Quiver's") {
				t.Skipf("%s (TestVariantCorpusErrorKinds checks the error and the other column)", why)
			}
			flat := flatColumns(t, path)
			gap, listed := pqarrowUnreadable[rel]
			if len(flat) > 0 {
				gapSeen[rel] = listed
			}
			want, werr := readWithPqarrow(path, memory.DefaultAllocator)
			if werr != nil {
				if len(flat) == 0 {
					t.Skipf("pqarrow cannot read it (%v), and it has no flat top-level columns", werr)
				}
				if !listed {
					t.Fatalf("pqarrow cannot read it (%v), and pqarrowUnreadable does not say why", werr)
				}
				if !strings.Contains(werr.Error(), gap.err) {
					t.Errorf("pqarrow fails with %q, not the listed %q", werr, gap.err)
				}
				t.Logf("pqarrow cannot read it: %s", gap.why)
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				got := readCorpusTable(t, rel, arrowio.ReadOptions{Columns: flat, Allocator: mem, Mapping: gap.mapping})
				defer got.Release()
				gap.check(t, root, got)
				checked++
				return
			}
			defer want.Release()
			if listed && len(flat) > 0 {
				t.Errorf("pqarrowUnreadable says pqarrow cannot read it (%s), but it does: remove the entry", gap.err)
			}
			for _, batch := range []int{0, 3} {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				opts := arrowio.ReadOptions{Allocator: mem, BatchSize: batch, Parallelism: 1}
				got, err := readPath(path, opts, true)
				if errors.Is(err, arrowio.ErrUnsupported) && len(flat) > 0 {
					t.Logf("flat columns alone: %v", err)
					opts.Columns = flat
					got, err = readPath(path, opts, true)
				}
				if errors.Is(err, arrowio.ErrUnsupported) {
					t.Skipf("not supported: %v", err)
				}
				if err != nil {
					t.Fatalf("read (batch %d): %v", batch, err)
				}
				n := compareColumns(t, fmt.Sprintf("batch %d: ", batch), rel, got, want, diffSeen)
				got.Release()
				mem.AssertSize(t, 0)
				if batch == 0 {
					columns += n
				}
			}
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

// compareColumns compares each column of got (quiver's read of corpus
// file rel) with the column of the same name in want (pqarrow's) and
// returns how many columns it compared by value. A flat column must have
// pqarrow's type, or exactly the types knownDifferences lists for it (it
// is then marked in seen, when seen is not nil, and not compared by
// value), and the same float bits; a nested one is compared by value
// where its type differs from pqarrow's only as asTypeOf allows, and not
// at all where nestedDifferences says why. desc starts every message.
func compareColumns(t *testing.T, desc, rel string, got, want arrow.Table, seen map[string]bool) int {
	t.Helper()
	if got.NumRows() != want.NumRows() {
		t.Fatalf("%s%d rows, pqarrow %d", desc, got.NumRows(), want.NumRows())
	}
	n := 0
	for i := 0; i < int(got.NumCols()); i++ {
		name := got.Schema().Field(i).Name
		if why, ok := nestedDifferences[rel+":"+name]; ok {
			t.Logf("column %s not compared: %s", name, why)
			continue
		}
		idx := want.Schema().FieldIndices(name)
		if len(idx) != 1 {
			t.Errorf("%scolumn %s: pqarrow has %d columns of that name", desc, name, len(idx))
			continue
		}
		g, w := got.Column(i).Data(), want.Column(idx[0]).Data()
		if d, ok := knownDifferences[rel+":"+name]; ok {
			if seen != nil {
				seen[rel+":"+name] = true
			}
			if gt, wt := g.DataType().String(), w.DataType().String(); gt != d.quiver || wt != d.pqarrow {
				t.Errorf("%scolumn %s: type %s, pqarrow %s; knownDifferences lists %s and %s (%s)", desc, name, gt, wt, d.quiver, d.pqarrow, d.why)
			} else {
				t.Logf("column %s: type %s, pqarrow %s: %s", name, gt, wt, d.why)
			}
			continue
		}
		if !arrow.TypeEqual(g.DataType(), w.DataType()) {
			re, ok := asTypeOf(w, g.DataType())
			if !ok || isFlat(g.DataType()) {
				t.Errorf("%scolumn %s: type %s, pqarrow %s", desc, name, g.DataType(), w.DataType())
				if ok {
					re.Release()
				}
				continue
			}
			t.Logf("column %s: type %s, pqarrow %s (compared by value: ArrowSchema documents the difference)", name, g.DataType(), w.DataType())
			defer re.Release()
			w = re
		}
		if !array.ChunkedApproxEqual(g, w, array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
			t.Errorf("%scolumn %s: values differ from pqarrow\nquiver: %v\npqarrow: %v", desc, name, g, w)
		} else if at, ok := floatBitsDiffer(g, w); ok {
			t.Errorf("%scolumn %s: row %d has other float bits than pqarrow's (signed zero or NaN payload)", desc, name, at)
		}
		n++
	}
	return n
}

// isFlat reports whether dt is not nested: no struct, list or map.
func isFlat(dt arrow.DataType) bool {
	_, nested := dt.(arrow.NestedType)
	return !nested
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
		if n := compareColumns(t, "", twin, got, want, nil); n == 0 {
			t.Errorf("no column compared with %s", twin)
		}
	}
}

// This file checks corpus files whose values pqarrow cannot give (see
// pqarrowUnreadable) against values documented elsewhere: the corpus
// README, the strings a file holds, or arrow-go's column chunk reader,
// which decodes physical values below pqarrow's Arrow layer.

// readCorpusTable reads the corpus file rel (relative to the corpus root)
// whole with quiver under opts, with a checked allocator.
func readCorpusTable(t *testing.T, rel string, opts arrowio.ReadOptions) arrow.Table {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	opts.Allocator = mem
	rd, err := arrowio.OpenFile(filepath.Join(corpus.Dir(t), rel), opts)
	if err != nil {
		t.Fatalf("%s: open: %v", rel, err)
	}
	defer rd.Close()
	tbl, err := rd.ReadTable(context.Background())
	if err != nil {
		t.Fatalf("%s: read: %v", rel, err)
	}
	t.Cleanup(tbl.Release)
	return tbl
}

// namedColumn returns got's column called name, failing t when there is none
// or its type is not want.
func namedColumn(t *testing.T, got arrow.Table, name string, want arrow.DataType) *arrow.Chunked {
	t.Helper()
	idx := got.Schema().FieldIndices(name)
	if len(idx) != 1 {
		t.Fatalf("%d columns named %q in %s", len(idx), name, got.Schema())
	}
	c := got.Column(idx[0]).Data()
	if !arrow.TypeEqual(c.DataType(), want) {
		t.Fatalf("column %s: type %s, want %s", name, c.DataType(), want)
	}
	return c
}

// bytesValues returns the values of a string or binary column as Go
// strings, "<null>" for nulls.
func bytesValues(t *testing.T, c *arrow.Chunked) []string {
	t.Helper()
	var out []string
	for _, ch := range c.Chunks() {
		for i := 0; i < ch.Len(); i++ {
			switch a := ch.(type) {
			case *array.String:
				out = append(out, a.Value(i))
			case *array.Binary:
				out = append(out, string(a.Value(i)))
			default:
				t.Fatalf("%s is not a string or binary array", ch.DataType())
			}
			if ch.IsNull(i) {
				out[len(out)-1] = "<null>"
			}
		}
	}
	return out
}

// timestampValues returns the values of a timestamp column and which of
// them are valid.
func timestampValues(t *testing.T, c *arrow.Chunked) (vals []int64, valid []bool) {
	t.Helper()
	for _, ch := range c.Chunks() {
		a, ok := ch.(*array.Timestamp)
		if !ok {
			t.Fatalf("%s is not a timestamp array", ch.DataType())
		}
		for i := 0; i < a.Len(); i++ {
			vals = append(vals, int64(a.Value(i)))
			valid = append(valid, a.IsValid(i))
		}
	}
	return vals, valid
}

// physicalValues reads leaf column leaf of path with arrow-go's column
// chunk reader (parquet/file, below pqarrow's Arrow layer): the non-null
// physical values of all row groups, and every row's definition level.
func physicalValues[T any](t *testing.T, path string, leaf int) (vals []T, defs []int16) {
	t.Helper()
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatalf("arrow-go: %v", err)
	}
	defer rdr.Close()
	type batchReader interface {
		HasNext() bool
		ReadBatch(n int64, values []T, defs, reps []int16) (int64, int, error)
	}
	for g := 0; g < rdr.NumRowGroups(); g++ {
		rg := rdr.RowGroup(g)
		cr, err := rg.Column(leaf)
		if err != nil {
			t.Fatalf("arrow-go: row group %d column %d: %v", g, leaf, err)
		}
		br, ok := cr.(batchReader)
		if !ok {
			t.Fatalf("arrow-go reads column %d with %T, not a reader of %T", leaf, cr, vals)
		}
		n := rg.NumRows()
		v, d := make([]T, n), make([]int16, n)
		var levels, values int
		for br.HasNext() && int64(levels) < n {
			l, k, err := br.ReadBatch(n-int64(levels), v[values:], d[levels:], nil)
			if err != nil {
				t.Fatalf("arrow-go: row group %d column %d: %v", g, leaf, err)
			}
			levels += int(l)
			values += k
		}
		vals, defs = append(vals, v[:values]...), append(defs, d[:levels]...)
	}
	return vals, defs
}

// checkEmptyDataPageV2 checks quiver's read of
// datapage_v2_empty_datapage.snappy.parquet against the corpus README: one
// row, whose FLOAT column "value" is null.
func checkEmptyDataPageV2(t *testing.T, _ string, got arrow.Table) {
	t.Helper()
	if got.NumRows() != 1 || got.NumCols() != 1 {
		t.Fatalf("%d rows of %d columns, want 1 row of 1", got.NumRows(), got.NumCols())
	}
	c := namedColumn(t, got, "value", arrow.PrimitiveTypes.Float32)
	if c.Len() != 1 || c.NullN() != 1 {
		t.Errorf("value: %d rows, %d null; want the one row null", c.Len(), c.NullN())
	}
}

// TestEmptyDataPageV2Corpus reads datapage_v2_empty_datapage.snappy.parquet,
// whose only data page is a v2 page with a SNAPPY values section of 0
// bytes (which must not be handed to the decompressor), with and without
// CRC checks and in one-row batches, and checks it reads as the README
// says. It checks first that the file has that shape.
func TestEmptyDataPageV2Corpus(t *testing.T) {
	const rel = "data/datapage_v2_empty_datapage.snappy.parquet"
	path := filepath.Join(corpus.Dir(t), rel)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	md := rd.Metadata()
	rd.Close()
	if len(md.RowGroups) != 1 || len(md.RowGroups[0].Columns) != 1 {
		t.Fatalf("%d row groups, want 1 of 1 column", len(md.RowGroups))
	}
	cm := md.RowGroups[0].Columns[0].MetaData
	if cm.Codec != footer.CodecSnappy {
		t.Fatalf("codec %v, want SNAPPY", cm.Codec)
	}
	var h footer.PageHeader
	if _, err := footer.UnmarshalPageHeader(raw[cm.DataPageOffset:], &h); err != nil {
		t.Fatal(err)
	}
	v2 := h.DataPageHeaderV2
	if h.Type != footer.PageTypeDataV2 || v2 == nil {
		t.Fatalf("page type %v, want DATA_PAGE_V2", h.Type)
	}
	if body := h.CompressedPageSize - v2.DefinitionLevelsByteLength - v2.RepetitionLevelsByteLength; body != 0 || !v2.IsCompressedOrDefault() {
		t.Fatalf("values section of %d bytes (compressed %v), want an empty compressed one", body, v2.IsCompressedOrDefault())
	}

	for name, opts := range map[string]arrowio.ReadOptions{"default": {}, "SkipCRC": {SkipCRC: true}, "BatchSize1": {BatchSize: 1}} {
		t.Run(name, func(t *testing.T) {
			checkEmptyDataPageV2(t, "", readCorpusTable(t, rel, opts))
		})
	}
}

// unknownTypeValues are the columns of unknown-logical-type.parquet as
// its writer (parquet-cpp, the arrow GH-41764 test file) wrote them; the
// strings appear in its statistics and, snappy-compressed, in its pages.
var unknownTypeValues = map[string][]string{
	"column with known type":   {"known string 1", "known string 2", "known string 3"},
	"column with unknown type": {"unknown string 1", "unknown string 2", "unknown string 3"},
}

// checkUnknownLogicalType checks quiver's read of unknown-logical-type.parquet:
// the STRING column reads as utf8 and the column with the unknown
// logical type as its physical type (binary), holding unknownTypeValues.
func checkUnknownLogicalType(t *testing.T, _ string, got arrow.Table) {
	t.Helper()
	types := map[string]arrow.DataType{
		"column with known type":   arrow.BinaryTypes.String,
		"column with unknown type": arrow.BinaryTypes.Binary,
	}
	if int(got.NumCols()) != len(types) {
		t.Errorf("%d columns, want %d", got.NumCols(), len(types))
	}
	for _, name := range sortedKeys(types) {
		c := namedColumn(t, got, name, types[name])
		if vals := bytesValues(t, c); !slices.Equal(vals, unknownTypeValues[name]) {
			t.Errorf("%s: %q, want %q", name, vals, unknownTypeValues[name])
		}
	}
}

// TestUnknownLogicalTypeCorpus reads unknown-logical-type.parquet, whose
// second column carries a LogicalType union member no reader knows (field
// 2555): it must read as its physical type, not fail, with the stored
// ARROW:schema honoured and ignored. When pqarrow reads the file, quiver
// must also match it (today pqarrow panics; see pqarrowUnreadable).
func TestUnknownLogicalTypeCorpus(t *testing.T) {
	const rel = "data/unknown-logical-type.parquet"
	rd, err := arrowio.OpenFile(filepath.Join(corpus.Dir(t), rel), arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	schema := rd.Metadata().Schema
	rd.Close()
	if len(schema) != 3 || schema[2].LogicalType.Kind != footer.LogicalUnrecognized || schema[2].LogicalType.UnknownField != 2555 {
		t.Fatalf("schema %+v: want a second column with logical type field 2555", schema)
	}
	for name, opts := range map[string]arrowio.ReadOptions{"default": {}, "IgnoreArrowSchema": {Mapping: arrowio.SchemaOptions{IgnoreArrowSchema: true}}, "BatchSize2": {BatchSize: 2}} {
		t.Run(name, func(t *testing.T) {
			checkUnknownLogicalType(t, "", readCorpusTable(t, rel, opts))
		})
	}
	compareIfPqarrowReads(t, rel)
}

// compareIfPqarrowReads compares quiver's read of the corpus file rel
// with pqarrow's when pqarrow reads it, and logs that it cannot otherwise.
func compareIfPqarrowReads(t *testing.T, rel string) {
	t.Helper()
	want, err := readWithPqarrow(filepath.Join(corpus.Dir(t), rel), memory.DefaultAllocator)
	if err != nil {
		t.Logf("pqarrow cannot read %s: %v", rel, err)
		return
	}
	defer want.Release()
	compareColumns(t, "", rel, readCorpusTable(t, rel, arrowio.ReadOptions{}), want, nil)
}

// sparkInt96Micros are the timestamps of int96_from_spark.parquet's column
// a as the corpus README gives them, in microseconds since the epoch; row
// sparkInt96Null is null (its 0 stands for nothing). Row 2 (9999-12-31)
// lies outside the span of int64 nanoseconds; row 5 outside that of int64
// microseconds too, and the README's value does not describe it as quiver
// reads it (see sparkInt96Row5Day).
var sparkInt96Micros = []int64{1704141296123456, 1704070800000000, 253402225200000000, 1735599600000000, 0, 9089380393200000000}

const sparkInt96Null = 4

// sparkInt96Fits is a unit of int96_from_spark.parquet in which every
// stored value fits: milliseconds, and seconds.
var sparkInt96Fits = &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}

// Row 5 of int96_from_spark.parquet as stored: Spark computed its Julian
// day from 9089380393200000000 µs (a date in the year 290,000) in int64
// arithmetic that overflowed, and wrote Julian day 4189105064 (-105862232
// as int32) with a negative nanosecond of the day. The README's value is
// what Spark and arrow-rs get back by reading the day as a signed int32 and
// wrapping around in int64 microseconds (TestInt96FromSparkCorpus checks
// that). quiver, like arrow-go and Arrow C++, reads the day as unsigned,
// a day in the year 11 million, which int64 holds in milliseconds and
// seconds only.
const (
	// julianUnixEpoch is the Julian day number of 1970-01-01, day 0 of
	// Unix time, from which INT96 timestamps count their days.
	julianUnixEpoch = 2_440_588

	sparkInt96Row5Day   uint32 = 4189105064
	sparkInt96Row5Nanos int64  = -32509551616000
)

// sparkInt96Want is the value quiver must read for row of
// int96_from_spark.parquet in unit, milliseconds or seconds: the README's,
// converted, for every row but 5, and for row 5 the stored day and time.
func sparkInt96Want(row int, unit arrow.TimeUnit) int64 {
	perSecond := int64(time.Second / unit.Multiplier())
	if row == 5 {
		return (int64(sparkInt96Row5Day)-julianUnixEpoch)*86_400*perSecond + sparkInt96Row5Nanos/(1_000_000_000/perSecond)
	}
	return sparkInt96Micros[row] / (1_000_000 / perSecond)
}

// checkSparkInt96 checks that column a of got has type want and holds
// sparkInt96Want's values, with row sparkInt96Null null.
func checkSparkInt96(t *testing.T, got arrow.Table, want *arrow.TimestampType) {
	t.Helper()
	vals, valid := timestampValues(t, namedColumn(t, got, "a", want))
	if len(vals) != len(sparkInt96Micros) {
		t.Fatalf("%d rows, want %d", len(vals), len(sparkInt96Micros))
	}
	for i := range vals {
		switch {
		case valid[i] != (i != sparkInt96Null):
			t.Errorf("%s row %d: valid %v", want, i, valid[i])
		case valid[i] && vals[i] != sparkInt96Want(i, want.Unit):
			t.Errorf("%s row %d: %d, want %d", want, i, vals[i], sparkInt96Want(i, want.Unit))
		}
	}
}

// checkInt96FromSparkMillis checks quiver's read of int96_from_spark.parquet
// in sparkInt96Fits.
func checkInt96FromSparkMillis(t *testing.T, _ string, got arrow.Table) {
	t.Helper()
	checkSparkInt96(t, got, sparkInt96Fits)
}

// TestInt96FromSparkCorpus reads int96_from_spark.parquet, Spark INT96
// timestamps two of which lie outside the int64-nanosecond span and one
// outside the microsecond span too. By default (nanoseconds) and in
// microseconds the read fails with ErrOutOfRange naming the column and the
// first value that does not fit, never returning a wrapped-around date; in
// milliseconds and seconds it gives the README's values (see
// sparkInt96Want). It checks the README and row 5's stored fields against
// arrow-go's own decoding of the raw INT96 values, and that arrow-go
// refuses exactly the two outliers in nanoseconds (the reason pqarrow
// cannot read the file).
func TestInt96FromSparkCorpus(t *testing.T) {
	const rel = "data/int96_from_spark.parquet"
	path := filepath.Join(corpus.Dir(t), rel)
	for _, c := range []struct {
		mapping arrowio.SchemaOptions
		first   string // the date of the first value that does not fit
	}{
		{arrowio.SchemaOptions{}, "9999-12-31T03:00:00Z"},
		{arrowio.SchemaOptions{Int96: &arrow.TimestampType{Unit: arrow.Microsecond}}, "11464668-"},
	} {
		rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{Mapping: c.mapping})
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := rd.ReadTable(context.Background())
		if err == nil {
			tbl.Release()
		}
		rd.Close()
		if !errors.Is(err, arrowio.ErrOutOfRange) || !strings.Contains(err.Error(), `column "a"`) ||
			!strings.Contains(err.Error(), c.first) || !strings.Contains(err.Error(), "SchemaOptions.Int96") {
			t.Errorf("Int96 %v: got %v, want ErrOutOfRange naming column a, %s and the option", c.mapping.Int96, err, c.first)
		}
	}
	for _, unit := range []arrow.TimeUnit{arrow.Second, arrow.Millisecond} {
		typ := &arrow.TimestampType{Unit: unit, TimeZone: "UTC"}
		checkSparkInt96(t, readCorpusTable(t, rel, arrowio.ReadOptions{Mapping: arrowio.SchemaOptions{Int96: typ}}), typ)
	}

	raw, defs := physicalValues[parquet.Int96](t, filepath.Join(corpus.Dir(t), rel), 0)
	if len(defs) != len(sparkInt96Micros) || len(raw) != len(sparkInt96Micros)-1 || defs[sparkInt96Null] != 0 {
		t.Fatalf("arrow-go reads %d values in %d rows (definition levels %v)", len(raw), len(defs), defs)
	}
	raw = slices.Insert(raw, sparkInt96Null, parquet.Int96{})
	for i, m := range sparkInt96Micros {
		if i == sparkInt96Null {
			continue
		}
		nanos := int64(binary.LittleEndian.Uint64(raw[i][:8]))
		day := binary.LittleEndian.Uint32(raw[i][8:])
		if i == 5 {
			if day != sparkInt96Row5Day || nanos != sparkInt96Row5Nanos {
				t.Errorf("row 5 stores day %d and %d ns, not %d and %d", day, nanos, sparkInt96Row5Day, sparkInt96Row5Nanos)
			}
			// Spark's reading: a signed day, int64 microseconds wrapping around.
			if us := (int64(int32(day))-julianUnixEpoch)*86_400_000_000 + nanos/1000; us != m {
				t.Errorf("row 5 reads as %d µs with a signed day, the README says %d", us, m)
			}
		} else if us := raw[i].ToTime().UnixMicro(); us != m {
			t.Errorf("row %d: arrow-go decodes %d µs, the README says %d", i, us, m)
		}
		ns, err := raw[i].ToTimestamp()
		outside := i == 2 || i == 5
		switch {
		case outside && err == nil:
			t.Errorf("row %d: arrow-go gives %d ns for a value outside the nanosecond span", i, ns)
		case !outside && err != nil:
			t.Errorf("row %d: arrow-go: %v", i, err)
		case !outside && int64(ns) != m*1000:
			t.Errorf("row %d: arrow-go gives %d ns, want %d", i, ns, m*1000)
		}
	}
	compareIfPqarrowReads(t, rel)
}

// checkVariantCase84ID checks the one flat column (id) of
// shredded_variant/case-084-INVALID.parquet against the INT32 values
// arrow-go's column chunk reader decodes.
func checkVariantCase84ID(t *testing.T, root string, got arrow.Table) {
	t.Helper()
	want, defs := physicalValues[int32](t, filepath.Join(root, "shredded_variant/case-084-INVALID.parquet"), 0)
	if len(want) != len(defs) || len(want) == 0 {
		t.Fatalf("arrow-go reads %d values in %d rows of the required column id", len(want), len(defs))
	}
	c := namedColumn(t, got, "id", arrow.PrimitiveTypes.Int32)
	var vals []int32
	for _, ch := range c.Chunks() {
		if ch.NullN() != 0 {
			t.Errorf("id: %d nulls in a required column", ch.NullN())
		}
		vals = append(vals, ch.(*array.Int32).Int32Values()...)
	}
	if !slices.Equal(vals, want) {
		t.Errorf("id: %v, arrow-go %v", vals, want)
	}
}

// TestLegacyLZ4MatchesLZ4Raw reads the corpus files that use the deprecated
// LZ4 codec id (Hadoop framing, and a raw block written by old
// parquet-cpp), which arrow-go cannot read, and compares them with the
// LZ4_RAW files the corpus says hold the same data.
func TestLegacyLZ4MatchesLZ4Raw(t *testing.T) {
	root := corpus.Dir(t)
	read := func(name string) []string {
		rd, err := arrowio.OpenFile(filepath.Join(root, "data", name), arrowio.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer rd.Close()
		tbl, err := rd.ReadTable(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		defer tbl.Release()
		var rows []string
		for c := range int(tbl.NumCols()) {
			rows = append(rows, fmt.Sprint(tbl.Schema().Field(c).Name, chunkedStrings(tbl.Column(c).Data())))
		}
		return rows
	}
	for legacy, raw := range map[string]string{
		"hadoop_lz4_compressed.parquet":        "lz4_raw_compressed.parquet",
		"non_hadoop_lz4_compressed.parquet":    "lz4_raw_compressed.parquet",
		"hadoop_lz4_compressed_larger.parquet": "lz4_raw_compressed_larger.parquet",
	} {
		got, want := read(legacy), read(raw)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s differs from %s:\n%.300v\n%.300v", legacy, raw, got, want)
		}
	}
}
