package arrowio_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
)

// decodeStat decodes a PLAIN statistics value of column c.
func decodeStat(c propColumn, b []byte) propValue {
	dt := c.field.Type
	switch t := dt.(type) {
	case *arrow.ListType:
		dt = t.Elem()
	case *arrow.DictionaryType:
		dt = t.ValueType
	}
	switch dt.ID() {
	case arrow.FLOAT64:
		return propValue{float: true, f: math.Float64frombits(binary.LittleEndian.Uint64(b))}
	case arrow.FLOAT32:
		return propValue{float: true, f: float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))}
	case arrow.FLOAT16:
		return propValue{float: true, f: float64(float16.FromBits(binary.LittleEndian.Uint16(b)).Float32())}
	}
	return propValue{s: string(b)}
}

// expectBounds returns the bounds of vals other than nulls and NaNs, and
// how many there are, and the nulls.
func expectBounds(vals []propValue) (lo, hi propValue, n, nulls int) {
	for _, v := range vals {
		switch {
		case v.null:
			nulls++
		case v.nan:
		case n == 0:
			lo, hi, n = v, v, 1
		default:
			n++
			if v.less(lo) {
				lo = v
			}
			if hi.less(v) {
				hi = v
			}
		}
	}
	return lo, hi, n, nulls
}

// checkBound checks a min (max when upper) of column c, the bytes b,
// against want, the exact bound: equal when exact, otherwise a bound no
// longer than the truncation length (and a prefix of want for a min).
// Floats' zero bounds are -0 for a min and +0 for a max.
func checkBound(t *testing.T, where string, c propColumn, b []byte, want propValue, upper, exact bool, trunc int) {
	t.Helper()
	got := decodeStat(c, b)
	if want.float {
		neg := math.Signbit(got.f)
		if got.f != want.f || got.f == 0 && neg == upper {
			t.Errorf("%s: bound %v (upper %v), want %v", where, got.f, upper, want.f)
		}
		return
	}
	if exact {
		if got.s != want.s {
			t.Errorf("%s: exact bound %q (upper %v), want %q", where, got.s, upper, want.s)
		}
		return
	}
	if trunc <= 0 || len(got.s) > trunc || len(want.s) <= trunc && c.field.Type.ID() != arrow.FIXED_SIZE_BINARY {
		t.Errorf("%s: inexact bound %q (upper %v) for %q, truncation %d", where, got.s, upper, want.s, trunc)
	}
	if !upper && !strings.HasPrefix(want.s, got.s) || upper && got.s <= want.s {
		t.Errorf("%s: truncated bound %q (upper %v) does not bound %q", where, got.s, upper, want.s)
	}
	if c.field.Type.ID() == arrow.STRING && !utf8.ValidString(got.s) && utf8.ValidString(want.s) {
		t.Errorf("%s: bound %q cut inside a character", where, got.s)
	}
}

// checkPropStatistics checks every column's chunk statistics in meta and
// ColumnIndex entries (read by fr) against the rows they cover.
func checkPropStatistics(t *testing.T, desc string, meta *footer.FileMetaData, fr *file.Reader, opts arrowio.WriteOptions, cols []propColumn) {
	t.Helper()
	trunc := propTruncate(opts)
	pir := fr.GetPageIndexReader()
	first := 0
	for g, rg := range meta.RowGroups {
		rows := int(rg.NumRows)
		rgr, err := pir.RowGroup(g)
		if err != nil {
			t.Fatal(err)
		}
		for ci, c := range cols {
			vals := c.rowVals(first, first+rows)
			where := fmt.Sprintf("%s: row group %d column %s", desc, g, c.field.Name)
			md := rg.Columns[ci].MetaData
			st := md.Statistics
			lo, hi, n, nulls := expectBounds(vals)
			if !propStats(opts, c.field.Name) {
				if st != nil && (st.MinValue != nil || st.MaxValue != nil) {
					t.Errorf("%s: bounds with statistics off", where)
				}
				continue
			}
			if st == nil {
				t.Errorf("%s: no statistics", where)
				continue
			}
			if got, _ := st.NullCount.Get(); got != int64(nulls) {
				t.Errorf("%s: null count %d, want %d", where, got, nulls)
			}
			if n == 0 {
				if st.MinValue != nil || st.MaxValue != nil {
					t.Errorf("%s: bounds %x %x without values", where, st.MinValue, st.MaxValue)
				}
			} else {
				checkBound(t, where+" min", c, st.MinValue, lo, false, st.IsMinValueExact.Value, trunc)
				checkBound(t, where+" max", c, st.MaxValue, hi, true, st.IsMaxValueExact.Value, trunc)
			}
			ix, err := rgr.GetColumnIndex(ci)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			oi, err := rgr.GetOffsetIndex(ci)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			checkPropPages(t, where, c, first, rows, ix, oi, trunc)
		}
		first += rows
	}
}

// checkPropPages checks a chunk's ColumnIndex against its values.
func checkPropPages(t *testing.T, where string, c propColumn, first, rows int, ix metadata.ColumnIndex, oi metadata.OffsetIndex, trunc int) {
	t.Helper()
	locs := oi.GetPageLocations()
	pageEnd := func(p int) int {
		if p+1 < len(locs) {
			return int(locs[p+1].FirstRowIndex)
		}
		return rows
	}
	// page returns the leaf entries of rows [lo, hi) of the chunk.
	page := func(lo, hi int) []propValue { return c.rowVals(first+lo, first+hi) }
	if ix == nil {
		// A ColumnIndex is left out only when a page of values has no
		// bounds: every value of it NaN.
		for p, loc := range locs {
			vals := page(int(loc.FirstRowIndex), pageEnd(p))
			if _, _, n, nulls := expectBounds(vals); n == 0 && nulls < len(vals) {
				return
			}
		}
		t.Errorf("%s: no column index, though every page of values has bounds", where)
		return
	}
	if len(ix.GetNullPages()) != len(locs) {
		t.Fatalf("%s: %d pages, %d column index entries", where, len(locs), len(ix.GetNullPages()))
	}
	for p, loc := range locs {
		end := pageEnd(p)
		pw := fmt.Sprintf("%s page %d rows [%d, %d)", where, p, loc.FirstRowIndex, end)
		vals := page(int(loc.FirstRowIndex), end)
		lo, hi, n, nulls := expectBounds(vals)
		if got := ix.GetNullCounts()[p]; got != int64(nulls) {
			t.Errorf("%s: null count %d, want %d", pw, got, nulls)
		}
		allNull := nulls == len(vals)
		if ix.GetNullPages()[p] != allNull {
			t.Errorf("%s: null page %v with %d nulls", pw, ix.GetNullPages()[p], nulls)
		}
		if n == 0 {
			continue
		}
		min, max := ix.GetMinValues()[p], ix.GetMaxValues()[p]
		// A ColumnIndex says nothing of exactness: a bound that is not
		// the value must be a truncation of it.
		checkBound(t, pw+" min", c, min, lo, false, bytes.Equal(min, []byte(lo.s)), trunc)
		checkBound(t, pw+" max", c, max, hi, true, bytes.Equal(max, []byte(hi.s)), trunc)
	}
}

// propTruncate returns the statistics truncation length opts give.
func propTruncate(opts arrowio.WriteOptions) int {
	if opts.StatisticsTruncate == 0 {
		return arrowio.DefaultStatisticsTruncate
	}
	return opts.StatisticsTruncate
}

// propStats reports whether opts write statistics for the column name.
func propStats(opts arrowio.WriteOptions, name string) bool {
	if s, ok := opts.Columns[name].Statistics.Get(); ok {
		return s
	}
	return !opts.DisableStatistics
}

// checkPropPageHeaders checks the statistics of every data page header
// (read by fr) against the page's values.
func checkPropPageHeaders(t *testing.T, desc string, fr *file.Reader, opts arrowio.WriteOptions, cols []propColumn) {
	t.Helper()
	trunc := propTruncate(opts)
	first := 0
	for g := range fr.NumRowGroups() {
		rg := fr.RowGroup(g)
		rows := int(rg.NumRows())
		for ci, c := range cols {
			if !propStats(opts, c.field.Name) {
				continue
			}
			pr, err := rg.GetColumnPageReader(ci)
			if err != nil {
				t.Fatal(err)
			}
			entries, at := c.entries(), c.rowStart(first)
			for pr.Next() {
				dp, ok := pr.Page().(file.DataPage)
				if !ok {
					continue
				}
				k := int(dp.NumValues())
				where := fmt.Sprintf("%s: row group %d column %s page header entries [%d, %d)", desc, g, c.field.Name, at, at+k)
				st := dp.Statistics()
				lo, hi, n, nulls := expectBounds(entries[at : at+k])
				at += k
				if !st.HasNullCount || st.NullCount != int64(nulls) {
					t.Errorf("%s: null count %d (set %v), want %d", where, st.NullCount, st.HasNullCount, nulls)
				}
				if n == 0 {
					if st.HasMin || st.HasMax {
						t.Errorf("%s: bounds %x %x without values", where, st.Min, st.Max)
					}
					continue
				}
				if !st.HasMin || !st.HasMax {
					t.Errorf("%s: no bounds for %d values", where, n)
					continue
				}
				checkBound(t, where+" min", c, st.Min, lo, false, bytes.Equal(st.Min, []byte(lo.s)), trunc)
				checkBound(t, where+" max", c, st.Max, hi, true, bytes.Equal(st.Max, []byte(hi.s)), trunc)
			}
			if err := pr.Err(); err != nil {
				t.Fatalf("%s: column %s: %v", desc, c.field.Name, err)
			}
			if want := c.rowStart(first + rows); at != want {
				t.Errorf("%s: row group %d column %s: pages end at entry %d, want %d", desc, g, c.field.Name, at, want)
			}
		}
		first += rows
	}
}
