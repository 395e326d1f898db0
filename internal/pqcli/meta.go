package pqcli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/quiverio/quiver/footer"
)

func runMeta(args []string, out io.Writer) error {
	fs := newFlags("meta")
	keys := addKeyFlags(fs)
	asJSON := fs.Bool("json", false, "print one JSON document instead of text")
	file, err := parseFile(fs, args)
	if err != nil {
		return err
	}
	if isDataset(file) && !*asJSON {
		return datasetMeta(file, out)
	}
	ft, err := readFooter(file, keys)
	if err != nil {
		return err
	}
	v := newMetaView(file, ft)
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	v.writeText(out)
	return nil
}

// metaView is what pq meta reports, in the shape of its JSON output; the
// text output is rendered from the same value.
type metaView struct {
	File          string          `json:"file"`
	Size          int64           `json:"size"`
	Version       int32           `json:"version"`
	CreatedBy     string          `json:"created_by,omitempty"`
	NumRows       int64           `json:"num_rows"`
	NumColumns    int             `json:"num_columns"`
	MetadataBytes int64           `json:"metadata_bytes"`
	KeyValue      []keyValueView  `json:"key_value_metadata,omitempty"`
	RowGroups     []rowGroupView  `json:"row_groups"`
	Encryption    *encryptionView `json:"encryption,omitempty"`
}

type keyValueView struct {
	Key   string  `json:"key"`
	Value *string `json:"value,omitempty"`
}

type encryptionView struct {
	Algorithm string `json:"algorithm"`
}

type rowGroupView struct {
	Index               int          `json:"index"`
	NumRows             int64        `json:"num_rows"`
	TotalByteSize       int64        `json:"total_byte_size"`
	TotalCompressedSize *int64       `json:"total_compressed_size,omitempty"`
	FileOffset          *int64       `json:"file_offset,omitempty"`
	Ordinal             *int16       `json:"ordinal,omitempty"`
	SortingColumns      []string     `json:"sorting_columns,omitempty"`
	Columns             []columnView `json:"columns"`
}

type columnView struct {
	Path                 string          `json:"path"`
	Type                 string          `json:"type"`
	Codec                string          `json:"codec"`
	Encodings            []string        `json:"encodings"`
	NumValues            int64           `json:"num_values"`
	CompressedSize       int64           `json:"compressed_size"`
	UncompressedSize     int64           `json:"uncompressed_size"`
	DataPageOffset       int64           `json:"data_page_offset"`
	DictionaryPageOffset *int64          `json:"dictionary_page_offset,omitempty"`
	IndexPageOffset      *int64          `json:"index_page_offset,omitempty"`
	ColumnIndexOffset    *int64          `json:"column_index_offset,omitempty"`
	ColumnIndexLength    *int32          `json:"column_index_length,omitempty"`
	OffsetIndexOffset    *int64          `json:"offset_index_offset,omitempty"`
	OffsetIndexLength    *int32          `json:"offset_index_length,omitempty"`
	BloomFilterOffset    *int64          `json:"bloom_filter_offset,omitempty"`
	BloomFilterLength    *int32          `json:"bloom_filter_length,omitempty"`
	Statistics           *statisticsView `json:"statistics,omitempty"`
	Geospatial           *geospatialView `json:"geospatial_statistics,omitempty"`
	EncodingStats        []string        `json:"encoding_stats,omitempty"`
	Encrypted            string          `json:"encrypted,omitempty"`
	FilePath             string          `json:"file_path,omitempty"`
	UnencodedBytes       *int64          `json:"unencoded_byte_array_data_bytes,omitempty"`
	Missing              bool            `json:"metadata_missing,omitempty"`
}

type statisticsView struct {
	Min           *string `json:"min,omitempty"`
	Max           *string `json:"max,omitempty"`
	MinExact      *bool   `json:"min_exact,omitempty"`
	MaxExact      *bool   `json:"max_exact,omitempty"`
	Legacy        bool    `json:"legacy_min_max,omitempty"`
	NullCount     *int64  `json:"null_count,omitempty"`
	DistinctCount *int64  `json:"distinct_count,omitempty"`
	NanCount      *int64  `json:"nan_count,omitempty"`
}

func newMetaView(file string, ft *footer.Footer) *metaView {
	fm := ft.Meta
	v := &metaView{
		File:          file,
		Size:          ft.Size,
		Version:       fm.Version,
		CreatedBy:     fm.CreatedBy.Or(""),
		NumRows:       fm.NumRows,
		NumColumns:    len(ft.Schema.Leaves),
		MetadataBytes: ft.MetaLength,
		RowGroups:     make([]rowGroupView, len(fm.RowGroups)),
	}
	for _, kv := range fm.KeyValueMetadata {
		v.KeyValue = append(v.KeyValue, keyValueView{Key: kv.Key, Value: ptr(kv.Value)})
	}
	if ea := fm.EncryptionAlgorithm; ea != nil {
		v.Encryption = &encryptionView{Algorithm: encryptionName(ea)}
	}
	for i := range fm.RowGroups {
		rg := &fm.RowGroups[i]
		rv := &v.RowGroups[i]
		*rv = rowGroupView{
			Index:               i,
			NumRows:             rg.NumRows,
			TotalByteSize:       rg.TotalByteSize,
			TotalCompressedSize: ptr(rg.TotalCompressedSize),
			FileOffset:          ptr(rg.FileOffset),
			Ordinal:             ptr(rg.Ordinal),
			Columns:             make([]columnView, len(rg.Columns)),
		}
		for _, sc := range rg.SortingColumns {
			name := fmt.Sprintf("column %d", sc.ColumnIdx)
			if sc.ColumnIdx >= 0 && int(sc.ColumnIdx) < len(ft.Schema.Leaves) {
				name = ft.Schema.Leaves[sc.ColumnIdx].DottedPath()
			}
			if sc.Descending {
				name += " desc"
			}
			if sc.NullsFirst {
				name += " nulls first"
			}
			rv.SortingColumns = append(rv.SortingColumns, name)
		}
		for j := range rg.Columns {
			rv.Columns[j] = newColumnView(&rg.Columns[j], ft.Schema.Leaves[j])
		}
	}
	return v
}

func newColumnView(cc *footer.ColumnChunk, leaf *footer.Node) columnView {
	cv := columnView{
		Path:              leaf.DottedPath(),
		Type:              leaf.Physical.String(),
		ColumnIndexOffset: ptr(cc.ColumnIndexOffset),
		ColumnIndexLength: ptr(cc.ColumnIndexLength),
		OffsetIndexOffset: ptr(cc.OffsetIndexOffset),
		OffsetIndexLength: ptr(cc.OffsetIndexLength),
		FilePath:          cc.FilePath.Or(""),
	}
	if cm := cc.CryptoMetadata; cm != nil {
		cv.Encrypted = "footer key"
		if cm.EncryptionWithColumnKey != nil {
			cv.Encrypted = "column key"
		}
	}
	md := cc.MetaData
	if md == nil {
		cv.Missing = true
		return cv
	}
	cv.Codec = md.Codec.String()
	for _, e := range md.Encodings {
		cv.Encodings = append(cv.Encodings, e.String())
	}
	cv.NumValues = md.NumValues
	cv.CompressedSize = md.TotalCompressedSize
	cv.UncompressedSize = md.TotalUncompressedSize
	cv.DataPageOffset = md.DataPageOffset
	cv.DictionaryPageOffset = ptr(md.DictionaryPageOffset)
	cv.IndexPageOffset = ptr(md.IndexPageOffset)
	cv.BloomFilterOffset = ptr(md.BloomFilterOffset)
	cv.BloomFilterLength = ptr(md.BloomFilterLength)
	for _, es := range md.EncodingStats {
		cv.EncodingStats = append(cv.EncodingStats, fmt.Sprintf("%s/%s×%d", es.PageType, es.Encoding, es.Count))
	}
	if ss := md.SizeStatistics; ss != nil {
		cv.UnencodedBytes = ptr(ss.UnencodedByteArrayDataBytes)
	}
	if st := md.Statistics; st != nil {
		cv.Statistics = newStatisticsView(st, leaf)
	}
	if g := md.GeospatialStatistics; g != nil {
		cv.Geospatial = newGeospatialView(g)
	}
	return cv
}

// newStatisticsView prefers min_value/max_value and falls back to the
// deprecated min/max, which writers ordered as signed values.
func newStatisticsView(st *footer.Statistics, leaf *footer.Node) *statisticsView {
	sv := &statisticsView{
		NullCount:     ptr(st.NullCount),
		DistinctCount: ptr(st.DistinctCount),
		NanCount:      ptr(st.NanCount),
		MinExact:      ptr(st.IsMinValueExact),
		MaxExact:      ptr(st.IsMaxValueExact),
	}
	lo, hi := st.MinValue, st.MaxValue
	if lo == nil && hi == nil && (st.Min != nil || st.Max != nil) {
		lo, hi = st.Min, st.Max
		sv.Legacy = true
	}
	if lo != nil {
		s := leaf.FormatValue(lo)
		sv.Min = &s
	}
	if hi != nil {
		s := leaf.FormatValue(hi)
		sv.Max = &s
	}
	return sv
}

func encryptionName(ea *footer.EncryptionAlgorithm) string {
	switch {
	case ea.AesGcmV1 != nil:
		return "AES_GCM_V1"
	case ea.AesGcmCtrV1 != nil:
		return "AES_GCM_CTR_V1"
	}
	return fmt.Sprintf("unrecognized (field %d)", ea.UnknownField)
}

// ptr returns a pointer to o's value, or nil when o is not set, so that
// absent optional fields disappear from the JSON output.
func ptr[T any](o footer.Optional[T]) *T {
	if v, ok := o.Get(); ok {
		return &v
	}
	return nil
}

func (v *metaView) writeText(w io.Writer) {
	fmt.Fprintf(w, "file:        %s (%d bytes, metadata %d bytes)\n", v.File, v.Size, v.MetadataBytes)
	fmt.Fprintf(w, "created by:  %s\n", v.CreatedBy)
	fmt.Fprintf(w, "version:     %d\n", v.Version)
	fmt.Fprintf(w, "rows:        %d in %d row groups, %d columns\n", v.NumRows, len(v.RowGroups), v.NumColumns)
	if v.Encryption != nil {
		fmt.Fprintf(w, "encryption:  %s (plaintext footer)\n", v.Encryption.Algorithm)
	}
	for _, kv := range v.KeyValue {
		val := "(no value)"
		if kv.Value != nil {
			val = abbreviate(*kv.Value, 80)
		}
		fmt.Fprintf(w, "key-value:   %s = %s\n", kv.Key, val)
	}
	for _, rg := range v.RowGroups {
		fmt.Fprintf(w, "\nrow group %d: %d rows, %d bytes uncompressed", rg.Index, rg.NumRows, rg.TotalByteSize)
		if rg.TotalCompressedSize != nil {
			fmt.Fprintf(w, ", %d compressed", *rg.TotalCompressedSize)
		}
		if rg.FileOffset != nil {
			fmt.Fprintf(w, ", at offset %d", *rg.FileOffset)
		}
		fmt.Fprintln(w)
		if len(rg.SortingColumns) > 0 {
			fmt.Fprintf(w, "  sorted by %s\n", strings.Join(rg.SortingColumns, ", "))
		}
		for _, c := range rg.Columns {
			c.writeText(w)
		}
	}
}

func (c *columnView) writeText(w io.Writer) {
	fmt.Fprintf(w, "  %s: %s", c.Path, c.Type)
	if c.Encrypted != "" {
		fmt.Fprintf(w, ", encrypted with the %s", c.Encrypted)
	}
	if c.Missing {
		fmt.Fprintln(w, ", metadata not in the footer")
		return
	}
	fmt.Fprintf(w, " %s [%s], %d values, %d → %d bytes, data at %d", c.Codec, strings.Join(c.Encodings, ","),
		c.NumValues, c.UncompressedSize, c.CompressedSize, c.DataPageOffset)
	if c.DictionaryPageOffset != nil {
		fmt.Fprintf(w, ", dictionary at %d", *c.DictionaryPageOffset)
	}
	fmt.Fprintln(w)
	if s := c.Statistics; s != nil {
		var parts []string
		if s.Min != nil {
			parts = append(parts, "min "+abbreviate(*s.Min, 60)+exactness(s.MinExact))
		}
		if s.Max != nil {
			parts = append(parts, "max "+abbreviate(*s.Max, 60)+exactness(s.MaxExact))
		}
		if s.NullCount != nil {
			parts = append(parts, fmt.Sprintf("nulls %d", *s.NullCount))
		}
		if s.DistinctCount != nil {
			parts = append(parts, fmt.Sprintf("distinct %d", *s.DistinctCount))
		}
		if s.NanCount != nil {
			parts = append(parts, fmt.Sprintf("NaNs %d", *s.NanCount))
		}
		if s.Legacy {
			parts = append(parts, "(legacy signed min/max)")
		}
		fmt.Fprintf(w, "    stats: %s\n", strings.Join(parts, ", "))
	}
	if g := c.Geospatial; g != nil {
		fmt.Fprintf(w, "    geospatial: %s\n", g.text())
	}
	if c.ColumnIndexOffset != nil || c.OffsetIndexOffset != nil {
		fmt.Fprintf(w, "    page index: column index at %s, offset index at %s\n", offsetText(c.ColumnIndexOffset), offsetText(c.OffsetIndexOffset))
	}
	if c.BloomFilterOffset != nil {
		fmt.Fprintf(w, "    bloom filter at %d", *c.BloomFilterOffset)
		if c.BloomFilterLength != nil {
			fmt.Fprintf(w, " (%d bytes)", *c.BloomFilterLength)
		}
		fmt.Fprintln(w)
	}
}

func exactness(exact *bool) string {
	if exact != nil && !*exact {
		return " (truncated)"
	}
	return ""
}

func offsetText(off *int64) string {
	if off == nil {
		return "none"
	}
	return fmt.Sprint(*off)
}

// abbreviate shortens s to at most n runes, marking the cut.
func abbreviate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
