package pageindex

import (
	"github.com/quiverio/quiver/footer"
)

// PageEntry is what a writer knows of one data page it wrote, for the
// column chunk's ColumnIndex and OffsetIndex.
type PageEntry struct {
	// Offset is where the page header starts, relative to whatever base
	// the writer later passes to Finish; Size counts header and page.
	Offset int64
	Size   int32
	// FirstRow is the index within the row group of the page's first row.
	FirstRow int64
	// NullCount counts the page's null values; NonNull its other values.
	NullCount, NonNull int64
	// Min and Max are the page's PLAIN-encoded (possibly truncated)
	// bounds, nil when unknown.
	Min, Max []byte
	// DefHistogram and RepHistogram count the page's definition and
	// repetition levels by value (nil when the column has no such levels).
	DefHistogram, RepHistogram []int64
	// UnencodedBytes is the page's BYTE_ARRAY bytes, lengths left out
	// (BYTE_ARRAY columns only).
	UnencodedBytes int64
}

// IndexBuilder collects the pages of one column chunk and builds its
// ColumnIndex and OffsetIndex. The zero value is not usable; see
// [NewIndexBuilder].
type IndexBuilder struct {
	ct        colType
	ordered   bool // the column's values have an order Bind knows
	byteArray bool
	pages     []PageEntry
	noStats   bool // some non-null page had no bounds
}

// NewIndexBuilder returns a builder for the chunks of leaf.
func NewIndexBuilder(leaf *footer.Node) *IndexBuilder {
	b := &IndexBuilder{byteArray: leaf.Physical == footer.TypeByteArray}
	probe := &Bound{}
	schema := &footer.Schema{Leaves: []*footer.Node{leaf}}
	if _, err := probe.column(leaf.DottedPath(), schema); err == nil {
		b.ct, b.ordered = probe.cols[0], true
	}
	return b
}

// Reset forgets the pages of the previous chunk.
func (b *IndexBuilder) Reset() {
	b.pages = b.pages[:0]
	b.noStats = false
}

// AddPage records a data page. The builder keeps p's slices.
func (b *IndexBuilder) AddPage(p PageEntry) {
	if p.NonNull > 0 && (p.Min == nil || p.Max == nil) {
		b.noStats = true
	}
	b.pages = append(b.pages, p)
}

// Finish returns the chunk's indexes with page offsets moved by base. The
// ColumnIndex is nil when some page with values had no bounds (statistics
// off, or a type without an order); the OffsetIndex is nil for a chunk
// without pages.
func (b *IndexBuilder) Finish(base int64) (*footer.ColumnIndex, *footer.OffsetIndex) {
	if len(b.pages) == 0 {
		return nil, nil
	}
	oi := &footer.OffsetIndex{PageLocations: make([]footer.PageLocation, len(b.pages))}
	for i, p := range b.pages {
		oi.PageLocations[i] = footer.PageLocation{Offset: base + p.Offset, CompressedPageSize: p.Size, FirstRowIndex: p.FirstRow}
		if b.byteArray {
			oi.UnencodedByteArrayDataBytes = append(oi.UnencodedByteArrayDataBytes, p.UnencodedBytes)
		}
	}
	if b.noStats {
		return nil, oi
	}
	ci := &footer.ColumnIndex{
		NullPages:  make([]bool, len(b.pages)),
		MinValues:  make([][]byte, len(b.pages)),
		MaxValues:  make([][]byte, len(b.pages)),
		NullCounts: make([]int64, len(b.pages)),
	}
	for i, p := range b.pages {
		ci.NullCounts[i] = p.NullCount
		if p.NonNull == 0 {
			ci.NullPages[i] = true
			ci.MinValues[i], ci.MaxValues[i] = []byte{}, []byte{}
		} else {
			ci.MinValues[i], ci.MaxValues[i] = p.Min, p.Max
		}
		ci.DefinitionLevelHistograms = append(ci.DefinitionLevelHistograms, p.DefHistogram...)
		ci.RepetitionLevelHistograms = append(ci.RepetitionLevelHistograms, p.RepHistogram...)
	}
	ci.BoundaryOrder = b.boundaryOrder(ci)
	return ci, oi
}

// boundaryOrder finds whether the non-null pages' bounds ascend or
// descend; UNORDERED when neither, or when the order is unknown.
func (b *IndexBuilder) boundaryOrder(ci *footer.ColumnIndex) footer.BoundaryOrder {
	if !b.ordered {
		return footer.BoundaryUnordered
	}
	asc, desc := true, true
	var prevLo, prevHi value
	seen := false
	for i, null := range ci.NullPages {
		if null {
			continue
		}
		lo, ok1 := b.ct.decode(ci.MinValues[i])
		hi, ok2 := b.ct.decode(ci.MaxValues[i])
		if !ok1 || !ok2 {
			return footer.BoundaryUnordered
		}
		if seen {
			asc = asc && b.ct.compare(prevLo, lo) <= 0 && b.ct.compare(prevHi, hi) <= 0
			desc = desc && b.ct.compare(prevLo, lo) >= 0 && b.ct.compare(prevHi, hi) >= 0
		}
		prevLo, prevHi, seen = lo, hi, true
	}
	switch {
	case asc:
		return footer.BoundaryAscending
	case desc:
		return footer.BoundaryDescending
	}
	return footer.BoundaryUnordered
}
