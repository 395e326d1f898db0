package arrowio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/quiverio/quiver/arrowio/internal/colwrite"

	"github.com/quiverio/quiver/arrowio/internal/schema"

	"github.com/quiverio/quiver/arrowio/internal/codec"
	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/arrowio/internal/variantcheck"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/levels"
)

// magic starts and ends every Parquet file.
const magic = "PAR1"

// Errors of the Writer besides ErrUnsupported.
var (
	// ErrWriterClosed reports a Write to a Writer that was closed.
	ErrWriterClosed = errors.New("arrowio: writer is closed")
	// ErrSchemaMismatch reports a record batch whose schema differs from
	// the Writer's.
	ErrSchemaMismatch = errors.New("arrowio: record batch schema differs from the writer's")
)

// Writer writes Arrow record batches as the row groups of a Parquet file:
// each batch becomes one row group, or several when it has more rows than
// the row-group limits allow.
//
// The column chunks of a row group are encoded in memory (concurrently,
// see [WriteOptions.Parallelism]) and then written to the io.Writer in
// column order, so peak memory is about one row group's encoded size and
// the bytes written do not depend on the parallelism. The Writer keeps no
// reference to a batch after Write returns.
//
// A Writer is not safe for concurrent use.
type Writer struct {
	w         io.Writer
	schema    *arrow.Schema
	opts      WriteOptions
	ws        *schema.Parquet
	tree      *footer.Schema
	cols      []*colwrite.Writer
	nested    []*colwrite.NestedFieldWriter // the nested fields (nested_write.go)
	leafField []int                         // the schema field of each column writer
	comps     []codec.Compressor            // one per encoding goroutine
	offset    int64
	numRows   int64
	rowGroups []footer.RowGroup
	enc       *encrypt.FileEncryptor    // nil when the file is not encrypted
	modules   [][]colwrite.ChunkModules // per row group and column: page indexes and bloom filters for Close
	err       error                     // the first error of the io.Writer: later calls return it
	closed    bool
}

// NewWriter writes the start of a Parquet file with Arrow schema s to
// w and returns a Writer for its record batches. Close writes the footer;
// it does not close w.
//
// Nested fields (struct, list, large_list, fixed_size_list, list_view and
// map, in any nesting) are shredded into definition and repetition levels
// by the levels package. arrow-go's extensions.VariantType becomes a
// VARIANT group of its storage (metadata, value and, when shredded,
// typed_value), as pqarrow writes it; a typed_value of a type
// VariantShredding.md does not allow is an error. The geoarrow.wkb type
// (package geoarrow) becomes a GEOMETRY, or with edges a GEOGRAPHY, with
// its CRS, and its column chunks get GeospatialStatistics; a value that is
// not WKB fails Write naming the column and row. A field whose type
// Parquet cannot hold, invalid
// options (a codec Quiver cannot write, a level outside the codec's range,
// an encoding that does not suit a column, a Columns key naming no leaf, a
// KeyValueMetadata entry for ARROW:schema) are errors wrapping
// [ErrUnsupported]; an unusable Encryption configuration is an error
// wrapping encrypt.ErrConfig; an error from w is returned as it is.
func NewWriter(w io.Writer, s *arrow.Schema, opts WriteOptions) (*Writer, error) {
	ws, err := schema.FromArrow(s)
	if err != nil {
		return nil, err
	}
	tree, err := footer.NewSchema(ws.Elements, nil)
	if err != nil {
		return nil, fmt.Errorf("arrowio: schema mapping: %w", err)
	}
	for _, kv := range opts.KeyValueMetadata {
		if kv.Key == ArrowSchemaKey {
			return nil, fmt.Errorf("%w: key-value metadata may not set %s", errs.ErrUnsupported, ArrowSchemaKey)
		}
	}
	for path := range opts.Columns {
		if tree.LeafByPath(path) == nil {
			return nil, fmt.Errorf("%w: WriteOptions.Columns names %q, which is not a leaf column", errs.ErrUnsupported, path)
		}
	}
	wr := &Writer{w: w, schema: s, opts: opts, ws: ws, tree: tree}
	if opts.Encryption != nil {
		if wr.enc, err = encrypt.NewFileEncryptor(opts.Encryption, tree); err != nil {
			return nil, fmt.Errorf("arrowio: encryption: %w", err)
		}
	}
	if len(tree.Root.Children) != s.NumFields() {
		return nil, fmt.Errorf("%w: %d fields map to %d Parquet fields", errs.ErrUnsupported, s.NumFields(), len(tree.Root.Children))
	}
	for i, n := range tree.Root.Children {
		f := s.Field(i)
		leaves := []colwrite.NestedLeafType{{Node: n, Type: f.Type}}
		if !n.IsLeaf() {
			leaves = leaves[:0]
			plan, err := colwrite.WritePlan(f, n, 0, &leaves)
			if err != nil {
				return nil, err
			}
			sh, err := levels.NewShredder(plan)
			if err != nil {
				return nil, fmt.Errorf("%w: field %q: %w", errs.ErrUnsupported, f.Name, err)
			}
			wr.nested = append(wr.nested, &colwrite.NestedFieldWriter{Field: i, FirstColumn: len(wr.cols), Shredder: sh})
		}
		for _, l := range leaves {
			set, err := opts.resolve(l.Node)
			if err != nil {
				return nil, fmt.Errorf("column %q: %w", l.Node.DottedPath(), err)
			}
			c, err := colwrite.NewWriter(l.Node, l.Type, set)
			if err != nil {
				return nil, err
			}
			if err := c.Check(l.Type); err != nil {
				return nil, err
			}
			c.Nested = !n.IsLeaf()
			wr.cols = append(wr.cols, c)
			wr.leafField = append(wr.leafField, i)
		}
	}
	wr.comps = make([]codec.Compressor, opts.parallelism(len(wr.cols)))
	if err := wr.write([]byte(wr.magic())); err != nil {
		return nil, err
	}
	return wr, nil
}

// write writes b to the io.Writer, remembering its first error.
func (w *Writer) write(b []byte) error {
	if w.err != nil {
		return w.err
	}
	n, err := w.w.Write(b)
	w.offset += int64(n)
	if err == nil && n != len(b) {
		err = io.ErrShortWrite
	}
	w.err = err
	return err
}

// Schema returns the Arrow schema of the batches the Writer takes.
func (w *Writer) Schema() *arrow.Schema { return w.schema }

// Write writes rec as one or more row groups. A batch whose schema differs
// from the Writer's, or whose values a column cannot hold (a null in a
// non-nullable field, or shredded VARIANT values that break
// VariantShredding.md, say), is an error and writes nothing: the Writer
// stays usable. An error from the io.Writer is returned by this and every
// later call.
func (w *Writer) Write(rec arrow.RecordBatch) error {
	if w.closed {
		return ErrWriterClosed
	}
	if w.err != nil {
		return w.err
	}
	if !rec.Schema().Equal(w.schema) {
		return fmt.Errorf("%w: got %s, want %s", ErrSchemaMismatch, rec.Schema(), w.schema)
	}
	rows := int(rec.NumRows())
	if rows == 0 {
		return nil
	}
	// Shredded VARIANT values must follow VariantShredding.md, so that the
	// file reconstructs (in Quiver and elsewhere) to the values written.
	for i, c := range rec.Columns() {
		if err := variantcheck.Check(c); err != nil {
			return fmt.Errorf("%w: column %q: %w", errs.ErrUnsupported, w.schema.Field(i).Name, err)
		}
	}
	per := int(positiveOr64(w.opts.MaxRowGroupRows, DefaultMaxRowGroupRows))
	if limit := w.opts.MaxRowGroupBytes; limit > 0 {
		if size := recordSize(rec); size > limit {
			per = min(per, max(1, int(float64(rows)*float64(limit)/float64(size))))
		}
	}
	for lo := 0; lo < rows; lo += per {
		if err := w.writeRowGroup(rec, lo, min(rows, lo+per)); err != nil {
			return err
		}
	}
	return nil
}

// positiveOr64 returns v when it is positive and def otherwise.
func positiveOr64(v, def int64) int64 {
	if v > 0 {
		return v
	}
	return def
}

// recordSize estimates the bytes of rec's Arrow buffers.
func recordSize(rec arrow.RecordBatch) int64 {
	var n int64
	for _, c := range rec.Columns() {
		n += dataSize(c.Data())
	}
	return n
}

// dataSize adds up the buffers of d and its children.
func dataSize(d arrow.ArrayData) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, c := range d.Children() {
		n += dataSize(c)
	}
	return n
}

// writeRowGroup encodes rows [lo, hi) of rec as a row group and writes it.
func (w *Writer) writeRowGroup(rec arrow.RecordBatch, lo, hi int) error {
	mds := make([]*footer.ColumnMetaData, len(w.cols))
	errs := make([]error, len(w.cols))
	leafCol := make([]*levels.Column, len(w.cols)) // the shredded leaves of nested fields
	for _, nw := range w.nested {
		defer nw.Release()
		if err := nw.Shred(rec.Column(nw.Field), lo, hi); err != nil {
			return fmt.Errorf("field %q: %w", w.schema.Field(nw.Field).Name, err)
		}
		for k := range nw.Columns {
			leafCol[nw.FirstColumn+k] = &nw.Columns[k]
		}
	}
	encode := func(i int, comp *codec.Compressor) {
		c := w.cols[i]
		c.Compressor = comp
		if errs[i] = w.startEncryption(c, i); errs[i] != nil {
			return
		}
		c.StartChunk()
		if leafCol[i] != nil {
			errs[i] = c.WriteNested(*leafCol[i])
		} else {
			errs[i] = c.WriteFlat(rec.Column(w.leafField[i]), lo, hi)
		}
		if errs[i] == nil {
			mds[i], errs[i] = c.FinishChunk()
		}
		c.Compressor = nil
	}
	if len(w.comps) == 1 {
		for i := range w.cols {
			encode(i, &w.comps[0])
		}
	} else {
		var next atomic.Int64
		var wg sync.WaitGroup
		for g := range w.comps {
			wg.Go(func() {
				for i := int(next.Add(1) - 1); i < len(w.cols); i = int(next.Add(1) - 1) {
					encode(i, &w.comps[g])
				}
			})
		}
		wg.Wait()
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	rg := footer.RowGroup{NumRows: int64(hi - lo), FileOffset: footer.Some(w.offset)}
	var compressed int64
	for i, c := range w.cols {
		base := w.offset
		if err := w.write(c.DictPage); err != nil {
			return err
		}
		if err := w.write(c.DataPages); err != nil {
			return err
		}
		md := mds[i]
		colwrite.Place(md, base)
		w.keepModules(len(w.rowGroups), c, base)
		rg.Columns = append(rg.Columns, footer.ColumnChunk{FileOffset: base, MetaData: md})
		rg.TotalByteSize += md.TotalUncompressedSize
		compressed += md.TotalCompressedSize
	}
	rg.TotalCompressedSize = footer.Some(compressed)
	if len(w.rowGroups) <= math.MaxInt16 {
		rg.Ordinal = footer.Some(int16(len(w.rowGroups)))
	}
	w.rowGroups = append(w.rowGroups, rg)
	w.numRows += int64(hi - lo)
	return nil
}

// Close writes the file footer (schema, row groups, key-value metadata
// with the ARROW:schema entry, column orders) and the closing magic. It
// does not close the io.Writer. Calling Close again does nothing and
// returns nil; a Writer whose io.Writer failed returns that error.
func (w *Writer) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	if w.err != nil {
		return w.err
	}
	if err := w.writeModules(); err != nil {
		return err
	}
	if err := w.finishEncryption(); err != nil {
		return err
	}
	meta := footer.FileMetaData{
		Version:          2,
		Schema:           w.ws.Elements,
		NumRows:          w.numRows,
		RowGroups:        w.rowGroups,
		KeyValueMetadata: append([]footer.KeyValue{{Key: ArrowSchemaKey, Value: footer.Some(w.ws.ArrowSchema)}}, w.opts.KeyValueMetadata...),
		CreatedBy:        footer.Some(createdBy()),
		ColumnOrders:     make([]footer.ColumnOrder, len(w.cols)),
	}
	for i := range meta.ColumnOrders {
		meta.ColumnOrders[i] = footer.ColumnOrder{Kind: footer.ColumnOrderTypeDefined}
	}
	buf := w.appendFooter(nil, &meta)
	n := len(buf)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(n))
	buf = append(buf, w.magic()...)
	w.rowGroups = nil
	return w.write(buf)
}

// modulePath is Quiver's module, whose version createdBy reports.
const modulePath = "github.com/quiverio/quiver"

// createdBy returns the footer's created_by: "quiver version X.Y.Z (build
// REV)", the "<application> version <semver> (build <hash>)" form readers
// parse to decide which writer bugs to work around.
var createdBy = sync.OnceValue(func() string {
	version, build := "0.0.0", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		mods := append([]*debug.Module{&bi.Main}, bi.Deps...)
		for _, m := range mods {
			if m.Path == modulePath && strings.HasPrefix(m.Version, "v") {
				version = strings.TrimPrefix(m.Version, "v")
			}
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				build = s.Value[:12]
			}
		}
	}
	if build == "" {
		return "quiver version " + version
	}
	return "quiver version " + version + " (build " + build + ")"
})
