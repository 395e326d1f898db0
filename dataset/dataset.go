package dataset

// This file holds Open: discovery, partitions, the schema, the projection
// and the partition part of the filter, which together decide the files a
// scan reads.

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/pageindex"
)

// Partitioning says how directory names become columns.
type Partitioning uint8

// Partitionings.
const (
	// HivePartitioning reads key=value directories between the dataset's
	// root and a file as partition columns.
	HivePartitioning Partitioning = iota
	// NoPartitioning reads no columns from directory names.
	NoPartitioning
)

// Defaults of zero-valued [Options] fields.
const (
	DefaultMaxBufferedBytes = 256 << 20
	DefaultSplitBytes       = 128 << 20
)

// Options configures a [Dataset]. The zero value reads hive partitions,
// takes the schema of the first file, reads every column and row, keeps
// the files' order, and reads up to max(4, GOMAXPROCS) files at once.
type Options struct {
	// Partitioning is HivePartitioning (the default) or NoPartitioning.
	Partitioning Partitioning
	// PartitionBase is the directory partition directories are read below
	// for files named one by one; files found under a directory or glob
	// given to Open have partitions below that directory (or the glob's
	// directory part). Empty means the file's own directory.
	PartitionBase string
	// PartitionTypes gives the type of partition keys by name: integers,
	// floats, bool, string, large_string, binary, date32 and timestamp.
	// Other keys are inferred from their values: int64 when every value is
	// a base-10 integer, else date32 when every one is a YYYY-MM-DD date,
	// else timestamp[us] when every one is "YYYY-MM-DD hh:mm:ss[.f]" (or
	// with a T), else string. A value that does not parse as a given type
	// is an error wrapping ErrPartition.
	PartitionTypes map[string]arrow.DataType
	// PartitionEncoding is the layout of partition columns: dictionary
	// arrays (the default), run-end encoded or plain.
	PartitionEncoding PartitionEncoding

	// Schema, when set, is the schema of the data columns (the partition
	// keys come after them); no footer is read to find it. Fields named
	// like a partition key give that key's type instead. Files are read as
	// with SchemaFirstFile.
	//
	// A partition key always wins over a file column of the same name,
	// which is not read (some writers keep partition columns in the files
	// too).
	Schema *arrow.Schema
	// SchemaMode says where the schema comes from when Schema is nil.
	SchemaMode SchemaMode

	// Columns selects the columns of the batches by top-level name, data
	// columns and partition keys alike, in the order given; nil reads every
	// data column then every partition key.
	Columns []string
	// Filter selects rows, in the syntax of pageindex.Parse (pq --where).
	// Its conditions on partition keys decide which files are read at all,
	// without opening the others; date and timestamp keys compare with
	// SQL's typed literals and strings ("day >= DATE '2024-03-01'", "day
	// >= '2024-03-01'") as well as with integers in their unit. What
	// remains for each file is arrowio's Filter there: row groups and
	// pages statistics, bloom filters and page indexes rule out are not
	// read, and the remaining rows are filtered exactly. A column a
	// file lacks reads as null for its conditions.
	Filter pageindex.Predicate

	// Read is the template of each file's arrowio.ReadOptions: batch
	// size, allocator, decryption, CRC checks, type mapping, dictionary
	// columns. Its Columns, RowGroups, Filter and Metadata are set by the
	// dataset (Metadata to the footer it parsed, so that each file's
	// footer is read and parsed once), and MemoryMap has no effect (files are read through the Source's
	// io.ReaderAt). Parallelism 0 shares GOMAXPROCS between the files read
	// at once.
	Read arrowio.ReadOptions
	// MaxOpenFiles bounds the files a scan has open and reads at once
	// (0: max(4, GOMAXPROCS)).
	MaxOpenFiles int
	// MaxBufferedBytes bounds the bytes of the batches a scan holds
	// decoded ahead of the caller (0: DefaultMaxBufferedBytes). Each file
	// being read may also hold the batch it is decoding, and with order
	// kept the file the caller waits for may always queue one batch.
	MaxBufferedBytes int64
	// Unordered hands out batches as files produce them instead of file
	// by file in the order of [Dataset.Files], so a slow file does not
	// hold the others up.
	Unordered bool
	// FooterCache keeps footers across the scans, counts and splits of a
	// Dataset (and of others sharing it); nil gives each Dataset its own of
	// DefaultFooterCacheBytes.
	FooterCache *FooterCache
	// OnCorrupt, when set, is called with the path and the error of a
	// file that does not read as Parquet (errors wrapping
	// arrowio.ErrCorrupt, footer.ErrCorrupt or pageindex.ErrCorrupt, files
	// too short for a footer included), by Open (footers read for the
	// schema), scans, CountRows and Splits; returning nil skips the file,
	// returning an error stops with it. Calls from a scan are not
	// concurrent; those from Open, CountRows and Splits may be. Rows a file
	// gave before its corruption showed stay read. Without it such a file
	// is an error.
	OnCorrupt func(path string, err error) error
	// SplitBytes is the compressed size [Dataset.Splits] aims at per split
	// (0: DefaultSplitBytes); a split holds whole row groups of one file.
	SplitBytes int64
}

// Dataset is many Parquet files read as one table. It is safe for
// concurrent use.
type Dataset struct {
	src      Source
	opts     Options
	files    []DataFile
	keys     []partKey
	data     *arrow.Schema // the data columns
	from     string        // the file the data schema came from, if one
	plan     *scanPlan
	filter   *fnode // nil without a filter
	selected []int  // files that may hold selected rows, by partitions
	cache    *FooterCache
}

// DataFile is one file of a dataset.
type DataFile struct {
	FileInfo
	// Partitions holds the file's partition values, one per key in the
	// dataset's order.
	Partitions []PartitionValue
}

// partKey is one partition key: its name, type, and value in each file.
type partKey struct {
	name   string
	typ    arrow.DataType
	values arrow.Array // one element per file of Dataset.files
}

// Open finds the files paths name in src (nil means [Local]) and returns
// them as one dataset. Each path is a directory (read to any depth), a
// file, or a glob whose "**" elements match any number of directories and
// whose other elements match as path.Match says. Files under a directory
// or glob are skipped when [Hidden] (_SUCCESS, .crc files, _temporary/
// and other names starting with "_" or ".") or empty; a path that matches
// nothing is an error wrapping fs.ErrNotExist, except a glob, which may
// match nothing.
//
// Open lists files, parses partition directories, and reads footers only
// as the schema needs: none with Options.Schema, the first file's with
// SchemaFirstFile, every file's with SchemaUnify. Files whose partitions
// the filter rules out are never opened.
func Open(ctx context.Context, src Source, paths []string, opts Options) (*Dataset, error) {
	if src == nil {
		src = Local
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("dataset: no paths")
	}
	found, err := discover(ctx, src, paths, opts.PartitionBase)
	if err != nil {
		return nil, err
	}
	d := &Dataset{src: src, opts: opts, cache: opts.FooterCache}
	if d.cache == nil {
		d.cache = NewFooterCache(DefaultFooterCacheBytes)
	}
	if err := d.partitions(found); err != nil {
		return nil, err
	}
	if err := d.schema(ctx); err != nil {
		return nil, err
	}
	if err := d.project(); err != nil {
		return nil, err
	}
	if err := d.bindFilter(); err != nil {
		return nil, err
	}
	return d, nil
}

// partitions parses the partition directories of found into d.files and
// d.keys.
func (d *Dataset) partitions(found []found) error {
	d.files = make([]DataFile, len(found))
	var first string
	var names []string
	for i, f := range found {
		d.files[i].FileInfo = f.FileInfo
		if d.opts.Partitioning == NoPartitioning {
			continue
		}
		parts, err := parseHive(f.Path[len(f.root):])
		if err != nil {
			return fmt.Errorf("%w (file %s)", err, f.Path)
		}
		d.files[i].Partitions = parts
		keys := make([]string, len(parts))
		for j, p := range parts {
			keys[j] = p.Key
		}
		if i == 0 {
			first, names = f.Path, keys
		} else if !slices.Equal(keys, names) {
			return fmt.Errorf("%w: %s has partition keys %q, %s has %q", ErrPartition, first, names, f.Path, keys)
		}
	}
	mem := memory.DefaultAllocator
	for j, name := range names {
		vals := make([]PartitionValue, len(d.files))
		for i := range d.files {
			vals[i] = d.files[i].Partitions[j]
		}
		t := d.opts.PartitionTypes[name]
		if t == nil && d.opts.Schema != nil {
			if k := d.opts.Schema.FieldIndices(name); len(k) > 0 {
				t, _ = valueType(d.opts.Schema.Field(k[0]).Type)
			}
		}
		if t == nil {
			t = inferType(vals)
		} else if !partitionTypeOK(t) {
			return fmt.Errorf("%w: key %q: %s is not a partition type", ErrPartition, name, t)
		}
		arr, err := buildValues(mem, t, vals)
		if err != nil {
			return err
		}
		d.keys = append(d.keys, partKey{name: name, typ: t, values: arr})
	}
	return nil
}

// schema sets d.data.
func (d *Dataset) schema(ctx context.Context) error {
	isKey := func(name string) bool { return d.keyIndex(name) >= 0 }
	switch {
	case d.opts.Schema != nil:
		var fields []arrow.Field
		for _, f := range d.opts.Schema.Fields() {
			if !isKey(f.Name) {
				fields = append(fields, f)
			}
		}
		md := d.opts.Schema.Metadata()
		d.data = arrow.NewSchema(fields, &md)
		return nil
	case len(d.files) == 0:
		d.data = arrow.NewSchema(nil, nil)
		return nil
	case d.opts.SchemaMode == SchemaFirstFile:
		// The first file that reads: OnCorrupt may skip corrupt ones.
		for _, f := range d.files {
			s, err := d.fileSchema(ctx, f.FileInfo)
			if err != nil && isCorrupt(err) && d.opts.OnCorrupt != nil {
				if err = d.opts.OnCorrupt(f.Path, err); err == nil {
					continue
				}
			}
			if err != nil {
				return err
			}
			d.data, d.from = s, f.Path
			break
		}
		if d.data == nil {
			d.data = arrow.NewSchema(nil, nil)
		}
	default:
		schemas := make([]schemaOf, len(d.files))
		err := d.forEach(ctx, len(d.files), func(i int) error {
			s, err := d.fileSchema(ctx, d.files[i].FileInfo)
			if err != nil && isCorrupt(err) && d.opts.OnCorrupt != nil {
				return d.opts.OnCorrupt(d.files[i].Path, err)
			}
			schemas[i] = schemaOf{d.files[i].Path, s}
			return err
		})
		if err != nil {
			return err
		}
		schemas = slices.DeleteFunc(schemas, func(s schemaOf) bool { return s.schema == nil })
		if d.data, err = unifySchemas(schemas); err != nil {
			return err
		}
	}
	// A partition key wins over a file column of the same name (files
	// some writers make hold their partition columns too).
	var fields []arrow.Field
	for _, f := range d.data.Fields() {
		if !isKey(f.Name) {
			fields = append(fields, f)
		}
	}
	if len(fields) < d.data.NumFields() {
		md := d.data.Metadata()
		d.data = arrow.NewSchema(fields, &md)
	}
	return nil
}

// fileSchema returns the Arrow schema a file reads as, with the options'
// type mapping and dictionary columns.
func (d *Dataset) fileSchema(ctx context.Context, fi FileInfo) (*arrow.Schema, error) {
	m, err := d.meta(ctx, fi, nil)
	if err != nil {
		return nil, err
	}
	return readSchema(m, &d.opts.Read), nil
}

// readSchema returns the schema arrowio reads a file with footer m as.
func readSchema(m *fileMeta, ro *arrowio.ReadOptions) *arrow.Schema {
	s := m.arrowSchema(ro.Mapping)
	if len(ro.Dictionary) == 0 {
		return s
	}
	fields := s.Fields()
	for i, f := range fields {
		if slices.Contains(ro.Dictionary, f.Name) && stringKind(f.Type) != 0 {
			fields[i].Type = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: f.Type}
		}
	}
	md := s.Metadata()
	return arrow.NewSchema(fields, &md)
}

// meta returns the footer of file fi from the cache, or reads it through
// h (opening the file when h is nil).
func (d *Dataset) meta(ctx context.Context, fi FileInfo, h File) (*fileMeta, error) {
	return loadMeta(ctx, d.src, d.cache, fi, h, &d.opts.Read)
}

func (d *Dataset) keyIndex(name string) int {
	for i := range d.keys {
		if d.keys[i].name == name {
			return i
		}
	}
	return -1
}

// forEach calls fn for 0..n-1 on up to MaxOpenFiles goroutines and
// returns the first error.
func (d *Dataset) forEach(ctx context.Context, n int, fn func(i int) error) error {
	var (
		mu    sync.Mutex
		next  int
		first error
		wg    sync.WaitGroup
	)
	for range min(d.opts.maxOpen(), n) {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				stop := first != nil || ctx.Err() != nil
				mu.Unlock()
				if i >= n || stop {
					return
				}
				if err := fn(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return first
}

func (o *Options) maxOpen() int {
	if o.MaxOpenFiles > 0 {
		return o.MaxOpenFiles
	}
	return max(4, runtime.GOMAXPROCS(0))
}

// project sets d.plan: the output schema and where each field comes from.
func (d *Dataset) project() error {
	names := d.opts.Columns
	if names == nil {
		for _, f := range d.data.Fields() {
			names = append(names, f.Name)
		}
		for _, k := range d.keys {
			names = append(names, k.name)
		}
	}
	p := &scanPlan{from: d.from}
	var fields []arrow.Field
	for _, name := range names {
		if k := d.keyIndex(name); k >= 0 {
			t := partitionType(d.keys[k].typ, d.opts.PartitionEncoding)
			fields = append(fields, arrow.Field{Name: name, Type: t, Nullable: true})
			p.fields = append(p.fields, outField{part: len(p.partKeys)})
			p.partKeys = append(p.partKeys, k)
			continue
		}
		idx := d.data.FieldIndices(name)
		if len(idx) == 0 {
			return fmt.Errorf("dataset: column %q is neither a column of the files nor a partition key", name)
		}
		fields = append(fields, d.data.Field(idx[0]))
		p.fields = append(p.fields, outField{part: -1})
	}
	p.schema = arrow.NewSchema(fields, nil)
	d.plan = p
	return nil
}

// bindFilter parses the filter, evaluates its partition conditions for
// every file and sets d.selected.
func (d *Dataset) bindFilter() error {
	d.selected = d.selected[:0]
	if d.opts.Filter != nil {
		n, err := parseFilter(d.opts.Filter)
		if err != nil {
			return err
		}
		for _, l := range n.leaves(nil) {
			top, _, _ := strings.Cut(l.col, ".")
			if d.keyIndex(l.col) < 0 && len(d.data.FieldIndices(top)) == 0 {
				return fmt.Errorf("%w: %q is neither a column of the files nor a partition key", ErrFilter, l.col)
			}
		}
		if err := bindPartitions(n, d.keys); err != nil {
			return err
		}
		d.filter = n
	}
	for i := range d.files {
		if d.filter == nil || d.filter.residual(i, nil) != falseNode {
			d.selected = append(d.selected, i)
		}
	}
	return nil
}

// Schema returns the schema of the batches the dataset reads: the
// selected data columns and partition keys.
func (d *Dataset) Schema() *arrow.Schema { return d.plan.schema }

// Files returns the files a scan reads, in order: those discovered whose
// partitions the filter does not rule out.
func (d *Dataset) Files() []DataFile {
	out := make([]DataFile, len(d.selected))
	for i, f := range d.selected {
		out[i] = d.files[f]
	}
	return out
}

// tasks returns a task per selected file.
func (d *Dataset) tasks() []*task {
	ts := make([]*task, len(d.selected))
	for i, f := range d.selected {
		ts[i] = d.task(f)
	}
	return ts
}

func (d *Dataset) task(f int) *task {
	t := &task{info: d.files[f].FileInfo}
	for _, k := range d.plan.partKeys {
		t.parts = append(t.parts, sliceOne(d.keys[k].values, f))
	}
	if d.filter != nil {
		t.filter = d.filter.residual(f, nil)
	}
	return t
}
