package arrowio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"sync"

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

// Writer writes Arrow record batches as the row groups of a Parquet file.
// Rows fill the current row group, whatever the batches that bring them:
// each column's pages are encoded and compressed as they fill (the Writer
// keeps no reference to a batch after Write returns), and the row group
// is written out once it holds [WriteOptions.MaxRowGroupRows] rows or its
// encoded, compressed size reaches [WriteOptions.MaxRowGroupBytes], or
// on [Writer.Flush] or [Writer.Close]. The size is checked at row counts
// the row group's own contents decide, so the same rows make the same row
// groups (and the same bytes) whether they come in one batch or in many.
//
// The column chunks of a row group are encoded in memory (concurrently,
// see [WriteOptions.Parallelism]) and then written to the io.Writer in
// column order, so peak memory is about one row group's encoded size plus
// a page being filled per column, and the bytes written do not depend on
// the parallelism.
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
	scratch   []colwrite.PageScratch        // one per encoding goroutine
	sorting   []footer.SortingColumn        // each row group's sorting_columns
	offset    int64
	numRows   int64
	rowGroups []footer.RowGroup
	rg        rowGroupState             // the row group being filled (writer_rowgroup.go)
	metrics   []leafMetrics             // per column, over the row groups written (writer_metrics.go)
	meta      *footer.FileMetaData      // the footer, once Close wrote it
	enc       *encrypt.FileEncryptor    // nil when the file is not encrypted
	modules   [][]colwrite.ChunkModules // per row group and column: page indexes and bloom filters for Close
	err       error                     // the first error that leaves the file unfinishable: later calls return it
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
// an encoding that does not suit a column, a Columns or SortingColumns
// entry naming no leaf, a KeyValueMetadata entry for ARROW:schema) are
// errors wrapping [ErrUnsupported]; an unusable Encryption configuration
// is an error wrapping encrypt.ErrConfig; an error from w is returned as
// it is.
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
	sorting, err := sortingColumns(tree, opts.SortingColumns)
	if err != nil {
		return nil, err
	}
	wr := &Writer{w: w, schema: s, opts: opts, ws: ws, tree: tree, sorting: sorting}
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
	wr.scratch = make([]colwrite.PageScratch, len(wr.comps))
	wr.metrics = newLeafMetrics(wr.cols, tree)
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

// Write adds the rows of rec to the current row group, writing out each
// row group they fill. A batch whose schema differs from the Writer's, or
// whose values a column cannot hold (a null in a non-nullable field, or
// shredded VARIANT values that break VariantShredding.md, say), is an
// error and adds nothing: the Writer stays usable. An error from the
// io.Writer, or one met while encoding (a malformed Arrow array, a page
// over 2 GiB), leaves the file unfinishable and is returned by this and
// every later call.
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
	if err := w.checkRequired(rec); err != nil {
		return err
	}
	// Nested fields are shredded whole, before any row is added, so that
	// a value they cannot hold adds nothing.
	nested, err := w.shredNested(rec)
	defer releaseShredded(nested)
	if err != nil {
		return err
	}
	for lo := 0; lo < rows; {
		if !w.rg.open {
			if err := w.openRowGroup(); err != nil {
				w.err = err
				return err
			}
		}
		hi := lo + int(min(int64(rows-lo), w.rg.next-w.rg.rows))
		if err := w.addRows(rec, nested, lo, hi); err != nil {
			w.err = err
			return err
		}
		if err := w.checkpoint(); err != nil {
			return err
		}
		lo = hi
	}
	return nil
}

// checkRequired returns an error naming the first flat required column
// of rec that holds a null.
func (w *Writer) checkRequired(rec arrow.RecordBatch) error {
	for i, c := range w.cols {
		f := w.leafField[i]
		if c.Nested || w.tree.Leaves[i].MaxDef > 0 {
			continue
		}
		if n := rec.Column(f).NullN(); n > 0 {
			return fmt.Errorf("%w: column %q is required but has %d nulls", errs.ErrUnsupported, c.Path, n)
		}
	}
	return nil
}

// Flush writes out the current row group, if it holds any rows, so that
// the next row starts a new one. It returns an error from the io.Writer.
func (w *Writer) Flush() error {
	if w.closed {
		return ErrWriterClosed
	}
	if w.err != nil {
		return w.err
	}
	return w.closeRowGroup()
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
	if err := w.closeRowGroup(); err != nil {
		return err
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
	w.releaseBuffers()
	if err := w.write(buf); err != nil {
		return err
	}
	w.meta = &meta
	return nil
}

// Metadata returns the footer Close wrote, or nil before Close has
// written it (or when it failed). For an encrypted file it is the footer
// before encryption, with each encrypted column's metadata as the file
// holds it.
func (w *Writer) Metadata() *footer.FileMetaData { return w.meta }

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
