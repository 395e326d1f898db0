package dataset

// This file holds what is planned from footers alone: row counts, and
// splits, the serializable work units of a distributed scan.

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/pageindex"
)

// Split is a unit of work of a distributed scan: some row groups of one
// file, with everything needed to read them as the dataset would, without
// the dataset. It marshals to JSON and back (encoding/json).
type Split struct {
	// Path, Size and ModTime identify the file as listed.
	Path    string    `json:"path"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mtime,omitzero"`
	// RowGroups lists the file's row groups to read, ascending.
	RowGroups []int `json:"row_groups"`
	// Rows is the number of rows in those row groups, before filtering.
	Rows int64 `json:"rows"`
	// Bytes is their compressed size.
	Bytes int64 `json:"bytes"`
	// Partitions holds the values of the dataset's selected partition
	// columns for the file.
	Partitions []PartitionValue `json:"partitions,omitempty"`
	// Filter is what remains of the dataset's filter for the file, as
	// pageindex.Parse reads it; empty for none.
	Filter string `json:"filter,omitempty"`
	// Schema is the dataset's schema as an Arrow IPC stream holding only
	// the schema message.
	Schema []byte `json:"schema"`
}

// Splits returns the work units of a scan: for each file the partitions
// do not rule out, runs of consecutive row groups of about
// Options.SplitBytes compressed bytes (a row group is never cut), leaving
// out row groups whose statistics rule out every row. Reading every split
// with [ReadSplit] returns the rows of one scan. Footers are read as for
// CountRows.
func (d *Dataset) Splits(ctx context.Context) ([]Split, error) {
	schema, err := encodeSchema(d.plan.schema)
	if err != nil {
		return nil, err
	}
	target := d.opts.SplitBytes
	if target <= 0 {
		target = DefaultSplitBytes
	}
	per := make([][]Split, len(d.selected))
	err = d.forEach(ctx, len(d.selected), func(i int) error {
		f := d.selected[i]
		t := d.task(f)
		m, err := loadMeta(ctx, d.src, d.cache, t.info, nil, &d.opts.Read)
		if err != nil {
			if isCorrupt(err) && d.opts.OnCorrupt != nil {
				return d.opts.OnCorrupt(t.info.Path, err)
			}
			return err
		}
		skip, pred, bound := fileFilter(t, m, &d.opts.Read)
		if skip {
			return nil
		}
		base := Split{Path: t.info.Path, Size: t.info.Size, ModTime: t.info.ModTime, Schema: schema}
		if pred != nil {
			base.Filter = pred.String()
		}
		for _, k := range d.plan.partKeys {
			base.Partitions = append(base.Partitions, d.files[f].Partitions[k])
		}
		cur := base
		flush := func() {
			if len(cur.RowGroups) > 0 {
				per[i] = append(per[i], cur)
			}
			cur = base
		}
		for rg := range m.ft.Meta.RowGroups {
			if rowGroupMatch(bound, m.ft, rg) == pageindex.MatchNone {
				continue
			}
			g := &m.ft.Meta.RowGroups[rg]
			size := g.TotalCompressedSize.Or(g.TotalByteSize)
			if len(cur.RowGroups) > 0 && (cur.Bytes+size > target || cur.RowGroups[len(cur.RowGroups)-1] != rg-1) {
				flush()
			}
			cur.RowGroups = append(cur.RowGroups, rg)
			cur.Rows += g.NumRows
			cur.Bytes += size
		}
		flush()
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []Split
	for _, s := range per {
		out = append(out, s...)
	}
	return out, nil
}

// encodeSchema returns s as an IPC stream of its schema message.
func encodeSchema(s *arrow.Schema) ([]byte, error) {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(s))
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("dataset: encoding the schema: %w", err)
	}
	return buf.Bytes(), nil
}

func decodeSchema(b []byte) (*arrow.Schema, error) {
	r, err := ipc.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("dataset: split schema: %w", err)
	}
	defer r.Release()
	return r.Schema(), nil
}

// ReadSplit reads split s from src (nil means [Local]): the rows of its
// row groups that its filter keeps, as batches of its schema. From opts it
// takes only what concerns reading (Read, FooterCache, OnCorrupt); the
// split carries the schema, the partition values and the filter. A file
// whose size differs from the split's is an error wrapping ErrChanged.
// The reader is the same as [Dataset.RecordReader]'s, over one file.
func ReadSplit(ctx context.Context, src Source, s Split, opts Options) (array.RecordReader, error) {
	if src == nil {
		src = Local
	}
	schema, err := decodeSchema(s.Schema)
	if err != nil {
		return nil, err
	}
	plan := &scanPlan{schema: schema}
	t := &task{info: FileInfo{Path: s.Path, Size: s.Size, ModTime: s.ModTime}, rowGroups: s.RowGroups}
	if t.rowGroups == nil {
		t.rowGroups = []int{}
	}
	for i, f := range schema.Fields() {
		of := outField{part: -1}
		for _, p := range s.Partitions {
			if p.Key != f.Name {
				continue
			}
			vt, _ := valueType(f.Type)
			v, err := buildValues(memory.DefaultAllocator, vt, []PartitionValue{p})
			if err != nil {
				return nil, err
			}
			of.part = len(t.parts)
			t.parts = append(t.parts, v)
			plan.partKeys = append(plan.partKeys, i)
		}
		plan.fields = append(plan.fields, of)
	}
	if s.Filter != "" {
		p, err := pageindex.Parse(s.Filter)
		if err != nil {
			return nil, fmt.Errorf("%w: split filter: %w", ErrFilter, err)
		}
		if t.filter, err = parseFilter(p); err != nil {
			return nil, err
		}
	}
	cache := opts.FooterCache
	if cache == nil {
		cache = NewFooterCache(DefaultFooterCacheBytes)
	}
	o := opts
	o.Unordered = false
	return newScanner(ctx, src, cache, plan, []*task{t}, &o, 1), nil
}
