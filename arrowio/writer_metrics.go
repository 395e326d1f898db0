package arrowio

import (
	"github.com/quiverio/quiver/arrowio/internal/colwrite"
	"github.com/quiverio/quiver/footer"
)

// MetricsTruncateLength is how many characters (text) or bytes (other
// binary values) the bounds of [ColumnMetrics] keep: Iceberg's default
// truncate(16) metrics mode.
const MetricsTruncateLength = 16

// FileMetrics describes a written file as table formats (Iceberg, Delta
// Lake) record their data files, so that their writers need not walk the
// footer: see [Writer.Metrics].
type FileMetrics struct {
	RowCount int64 // rows in the file
	FileSize int64 // bytes written, footer and magic included
	// SplitOffsets are the file offsets where the row groups start, in
	// order (Iceberg's split_offsets).
	SplitOffsets []int64
	// Columns has one entry per leaf column, in file order.
	Columns []ColumnMetrics
}

// ColumnMetrics are the metrics of one leaf column over the whole file.
type ColumnMetrics struct {
	Path    string                 // the leaf's dotted Parquet path
	FieldID footer.Optional[int32] // the leaf's field_id, from the Arrow field's PARQUET:field_id
	// Values counts the leaf's entries, nulls included (Iceberg's
	// value_counts; for a repeated leaf, one per list element or empty
	// or null list).
	Values int64
	Nulls  int64 // entries that are null (Iceberg's null_value_counts)
	// NaNs counts the NaN values of a FLOAT, DOUBLE or FLOAT16 leaf
	// (Iceberg's nan_value_counts); unset for other leaves.
	NaNs footer.Optional[int64]
	// CompressedBytes is the size of the leaf's column chunks in the file
	// (Iceberg's column_sizes); UncompressedBytes is their size before
	// compression.
	CompressedBytes, UncompressedBytes int64
	// Lower and Upper bound the leaf's values other than nulls and NaNs,
	// PLAIN-encoded as Parquet statistics hold them (little-endian
	// numbers, the bytes of BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY values);
	// [ColumnMetrics.IcebergBounds] gives them in Iceberg's form.
	// Text keeps its first MetricsTruncateLength characters and other
	// binary values their first MetricsTruncateLength bytes, as Iceberg
	// truncates bounds; a truncated Upper has its last character or byte
	// that can be incremented incremented. Either is nil when no such
	// bound is known: no values, statistics turned off for the leaf, a
	// type without an order, or an Upper no truncation can give.
	Lower, Upper []byte

	leaf *footer.Node // the leaf's schema node, for IcebergBounds
}

// Column returns the metrics of the leaf with dotted path path, or nil.
func (m *FileMetrics) Column(path string) *ColumnMetrics {
	for i := range m.Columns {
		if m.Columns[i].Path == path {
			return &m.Columns[i]
		}
	}
	return nil
}

// FieldID returns the metrics of the leaf with field_id id, or nil.
func (m *FileMetrics) FieldID(id int32) *ColumnMetrics {
	for i := range m.Columns {
		if v, ok := m.Columns[i].FieldID.Get(); ok && v == id {
			return &m.Columns[i]
		}
	}
	return nil
}

// Metrics returns the metrics of the file Close wrote, or nil before
// Close has written it (or when it failed).
func (w *Writer) Metrics() *FileMetrics {
	if w.meta == nil {
		return nil
	}
	fm := &FileMetrics{RowCount: w.numRows, FileSize: w.offset, Columns: make([]ColumnMetrics, len(w.cols))}
	for _, rg := range w.meta.RowGroups {
		fm.SplitOffsets = append(fm.SplitOffsets, rg.FileOffset.Or(0))
	}
	for i, c := range w.cols {
		lm := &w.metrics[i]
		cm := lm.ColumnMetrics
		if lm.floats {
			cm.NaNs = footer.Some(lm.nans)
		}
		var hasUpper bool
		cm.Lower, cm.Upper, hasUpper = c.Truncate(lm.bounds, MetricsTruncateLength)
		if !lm.bounds.Known || !hasUpper {
			cm.Upper = nil
		}
		if !lm.bounds.Known {
			cm.Lower = nil
		}
		fm.Columns[i] = cm
	}
	return fm
}

// leafMetrics gathers a column's metrics while the file is written.
type leafMetrics struct {
	ColumnMetrics
	floats bool // the leaf holds floating-point values, whose NaNs are counted
	nans   int64
	bounds colwrite.FileBounds
}

// newLeafMetrics returns the empty metrics of the leaves of tree.
func newLeafMetrics(cols []*colwrite.Writer, tree *footer.Schema) []leafMetrics {
	out := make([]leafMetrics, len(cols))
	for i, n := range tree.Leaves {
		out[i] = leafMetrics{
			ColumnMetrics: ColumnMetrics{Path: n.DottedPath(), FieldID: n.Element.FieldID, leaf: n},
			floats:        n.Physical == footer.TypeFloat || n.Physical == footer.TypeDouble || n.Logical().Kind == footer.LogicalFloat16,
			bounds:        colwrite.NewFileBounds(),
		}
	}
	return out
}

// ratio returns the column's compressed over uncompressed bytes so far,
// or 1 before its first chunk.
func (m *leafMetrics) ratio() float64 {
	if m.UncompressedBytes == 0 {
		return 1
	}
	return float64(m.CompressedBytes) / float64(m.UncompressedBytes)
}

// addChunk adds the finished chunk of c with metadata md.
func (m *leafMetrics) addChunk(c *colwrite.Writer, md *footer.ColumnMetaData) {
	nulls, nans := c.Nulls(), c.NaNs()
	m.Values += md.NumValues
	m.Nulls += nulls
	m.nans += nans
	m.CompressedBytes += md.TotalCompressedSize
	m.UncompressedBytes += md.TotalUncompressedSize
	c.Widen(&m.bounds, md.Statistics, md.NumValues-nulls-nans)
}
