package arrowio

import (
	"runtime"

	"github.com/quiverio/quiver/arrowio/internal/scan"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/arrowmem"
	"github.com/quiverio/quiver/pageindex"
)

// DefaultBatchSize is the number of rows per record batch when
// ReadOptions.BatchSize is zero.
const DefaultBatchSize = 65536

// ReadOptions configures a [File]. The zero value reads every column of
// every row group in batches of [DefaultBatchSize] rows, using all CPUs.
type ReadOptions struct {
	// Columns selects columns by dotted field path ("a", "a.b"); selecting
	// a group selects all of its leaves. Nil reads every column.
	Columns []string
	// RowGroups selects row groups by index for RecordReader and
	// ReadTable, which read them in the order listed (an index listed
	// twice is read twice); nil reads them all, an empty list none.
	RowGroups []int
	// BatchSize is the most rows a RecordReader batch holds; 0 means
	// DefaultBatchSize.
	BatchSize int
	// Parallelism bounds the goroutines that decode columns and prefetch
	// row groups: 0 means GOMAXPROCS, 1 reads sequentially on the calling
	// goroutine.
	Parallelism int
	// Allocator provides the memory of the arrays the reader builds (the
	// chunk bytes, pages and other scratch it decodes from are its own).
	// The reader writes every byte of the buffers it returns, so it needs
	// no zeroed memory.
	//
	// Nil is the safe default: memory that is never handed out again while
	// Go code can still reach it. It comes from the garbage-collected Go
	// heap without the clearing that arrow-go's GoAllocator does before
	// handing memory out (on Linux, new buffers of 1 MiB or more are mapped
	// in one call, with huge pages where allowed), and a released array
	// leaves it to the garbage collector, as GoAllocator does: a Go slice
	// of an array's values (Int64Values, ValueBytes, ...) kept past the
	// array's last Release keeps its values.
	//
	// [NewRecyclingAllocator] hands released buffers to later reads
	// instead, which saves them new memory when tables or batches are
	// released before the next read: in bench/ (quiver against
	// quiver-recycling, 50,000-row files read and released one after
	// another, 26 November 2026) the default took about twice as long,
	// spent on garbage collection and on faulting in pages the Go runtime
	// had returned to the system. With it, as with any allocator that
	// reuses memory (memory.NewCgoArrowAllocator, a pool), no array, nor
	// any slice of its values, may be used after its last Release.
	Allocator memory.Allocator
	// SkipCRC skips the checksums a file carries: the CRC-32 of every page
	// whose header has one, and the content checksums of zstd frames.
	// Without it (the default) they are checked, and a mismatch is a
	// *CorruptError naming the page, so a flipped bit in a stored page is an
	// error rather than a different value (AES_GCM_CTR_V1 and plaintext
	// columns of encrypted files have no other check). Skipping saves about
	// 2% of a dictionary+snappy read; the sizes a page declares are still
	// checked, and corrupt bytes still give an error or wrong values, never
	// a panic.
	SkipCRC bool
	// Mapping tunes the Arrow types columns read as (string layout, INT96
	// unit, whether to honour a stored ARROW:schema).
	Mapping SchemaOptions
	// Dictionary lists top-level string and binary columns to read as Arrow
	// dictionary arrays (int32 indices): dictionary-encoded pages then
	// decode to indices into the column chunk's dictionary without copying
	// values. Columns an ARROW:schema entry declares as dictionaries read
	// that way without being listed.
	Dictionary []string
	// Decryption gives the keys (and AAD prefix) of an encrypted file. A
	// file with a plaintext footer reads without it as long as only its
	// plaintext columns are selected; reading a column whose key is
	// missing is an error wrapping encrypt.ErrMissingKey. Pages that do
	// not authenticate are errors wrapping encrypt.ErrAuthentication.
	Decryption *encrypt.DecryptionConfig
	// MemoryMap makes OpenFile map the file read-only into memory and read
	// column chunks by slicing the mapping instead of copying them with
	// ReadAt, which saves a copy of every chunk (most of the cost above
	// decoding for uncompressed files; without the mapping, uncompressed
	// PLAIN fixed-width values are read from the file page by page into
	// their arrays, through a cache-sized buffer) when the file is in the
	// page cache. A file read from disk for the first time is read as its
	// pages fault, which can be slower than ReadAt, and so were reads of
	// cached files through the mapping on the virtual machine of the latest
	// benchmarks (bench/RESULTS.md, runs of 24 and 25 November 2026):
	// measure before choosing it.
	// Arrays never point into the mapping, so they stay valid after Close,
	// which unmaps the file once the reads in progress end. A file
	// truncated by another process while it is mapped gives an error
	// wrapping ErrCorrupt, not a crash. Open (the caller's io.ReaderAt),
	// encrypted files (decrypted in place), empty files and systems without
	// mmap read with ReadAt as without it.
	MemoryMap bool
	// Filter, when set, returns only the rows that satisfy it: row groups
	// its columns' statistics or bloom filters rule out are skipped, those
	// whose statistics say every row satisfies it are read as without a
	// filter, the ColumnIndex narrows the rest to the pages that may
	// match, only those pages are read (by the OffsetIndex) for every
	// projected column, and the predicate is evaluated on every remaining
	// row. Logic is SQL's three-valued one (see pageindex.Predicate).
	// Filter columns are leaves with no repeated field on their path
	// (top-level fields or fields of structs, as "a.b"), of any type
	// pageindex.Bind takes (DECIMAL, FLOAT16, INTERVAL and INT96 included;
	// INT96 only with Mapping.Int96 unset or in nanoseconds); they need
	// not be projected.
	Filter pageindex.Predicate
	// Metadata, when set, is the file's footer as parsed before, by an
	// earlier Reader of the same file ([Reader.Metadata]) or a cache of
	// footers: Open and OpenFile then read no footer, and the first
	// request to the source is the first read of data. The last
	// IO.FooterReadSize bytes of the file (all of a smaller file), which
	// the footer's read would have fetched, are still read in one request
	// when something in them is first wanted (page indexes often are), and
	// not at all otherwise. It is checked
	// against the file as a footer read from it is (row counts, the
	// schema, a column chunk per leaf in every row group, and, as each
	// chunk is read, a byte range within the file), and is never
	// modified, so one FileMetaData may serve any number of Readers at
	// once. It must be the metadata of this very file: other metadata
	// that passes these checks reads the file's bytes as it describes
	// them, which gives errors or, for a file laid out alike, other
	// values.
	//
	// For encrypted files with a plaintext footer, keys are looked up
	// and column metadata decrypted (Decryption) as when the footer is
	// read, but the footer's signature is not verified again. The
	// FileMetaData of a file whose footer is encrypted lacks the
	// algorithm and file AAD its columns need: giving it is an error
	// wrapping footer.ErrEncryptedFooter, and such files are opened
	// without Metadata.
	Metadata *footer.FileMetaData
	// IO tunes how the reader asks its source for bytes: how much of the
	// end of the file it reads first, which byte ranges it merges or
	// splits, how many requests it keeps in flight and how far it fetches
	// ahead of decoding. The zero value uses the defaults, made for object
	// stores (see [IOOptions]).
	IO IOOptions
}

// IOOptions tune the read planner: how a Reader turns the bytes a read
// needs into requests to its io.ReaderAt. Each request to an object store
// costs a round trip (5-100 ms) before its first byte, and one request
// streams at about 100 MB/s, so the planner reads the footer in one
// request, merges the byte ranges of neighbouring column chunks (and,
// under a filter, pages), splits long ranges into requests that run side
// by side, and fetches the chunks of the row groups a read visits ahead
// of their decoding, within a memory bound.
//
// The fetching ahead applies to unfiltered reads through [Open] (a
// RecordReader, ReadTable or ReadRowGroup): decoding row group k overlaps
// fetching k+1 and on, and each column of a row group starts decoding as
// soon as the requests that read its own chunks have returned, while the
// others are still in flight. So that the first columns' bytes land
// soon, a read's first request asks for about the bytes one request
// streams in a round trip (the shortest the Reader timed, its footer's at
// first, taken at 100 MB/s; at least 256 KiB) and each next one for a
// tenth more, up to RangeLimit; where a round trip's bytes are half
// RangeLimit or more, every request asks for up to RangeLimit.
//
// Filtered reads decide what to read as they prune and decode: they
// fetch the page indexes, bloom filters and small dictionaries of all the
// row groups a read visits in one round of requests, then each row
// group's pages with the same merging and concurrency, without fetching
// ahead; pages of fewer bytes than Concurrency requests of RangeLimit are
// split to spread over all Concurrency requests, in requests of no fewer
// bytes than a round trip's. Local files opened with [OpenFile] read each
// chunk as its column decodes (or slice it out of a mapping), with
// HoleLimit merging their page reads and no requests side by side. Reads
// are never retried here: a source that wants retries (package
// source/httprange, module cloud) retries below.
//
// Zero fields take the defaults. A sweep on 2026-11-26 timed whole-file
// and two-column reads of a 114 MB file behind 80 ms per request and
// 100 MB/s under HoleLimit 64 KiB and 1 MiB, RangeLimit 2, 8 and 32 MiB
// and Concurrency 4, 16 and 64: Concurrency 4 was clearly slower, 8 MiB
// ranges at 16 came within 10% of the fastest setting (2 MiB at 64, with
// 57 requests per read against 17), and the hole limit made no difference
// to these reads. `go test -bench BenchmarkRemoteSweep` in bench/ reruns it.
type IOOptions struct {
	// FooterReadSize is the size of the first read, from the end of the
	// file, holding the footer when it is at most FooterReadSize-8 bytes
	// (a second read fetches the rest of a larger one); 0 means
	// DefaultFooterReadSize, and values below 8 read 8. The Reader keeps
	// these bytes: page indexes, bloom filters and chunks within them
	// (all of a file no larger) need no request of their own, except in
	// encrypted files.
	FooterReadSize int64
	// HoleLimit is the largest gap between two wanted byte ranges that one
	// request reads across rather than issuing two; 0 means
	// DefaultHoleLimit, and a negative value merges only ranges that touch.
	HoleLimit int64
	// RangeLimit is the most bytes one request asks for: longer merged
	// ranges are split into requests that run side by side, of about
	// equal size once a read has ramped up (see above); 0 means
	// DefaultRangeLimit.
	RangeLimit int64
	// Concurrency is the most requests a Reader keeps in flight; 0 means
	// DefaultConcurrency.
	Concurrency int
	// PrefetchBytes bounds the bytes fetched ahead of decoding: the chunks
	// (for a filtered row group, the predicate columns' pages) being
	// fetched and those fetched and not yet decoded and released
	// together never exceed it, except that a row group whose projected
	// chunks alone are larger is fetched when nothing else is held; 0
	// means DefaultPrefetchBytes.
	PrefetchBytes int64
}

// Defaults of the zero fields of [IOOptions].
const (
	DefaultFooterReadSize = 64 << 10
	DefaultHoleLimit      = 1 << 20
	DefaultRangeLimit     = 8 << 20
	DefaultConcurrency    = 16
	DefaultPrefetchBytes  = 256 << 20
)

// resolve returns o with its defaults applied.
func (o IOOptions) resolve() scan.IOOptions {
	so := scan.IOOptions{
		FooterReadSize: o.FooterReadSize,
		HoleLimit:      o.HoleLimit,
		RangeLimit:     o.RangeLimit,
		Concurrency:    o.Concurrency,
		PrefetchBytes:  o.PrefetchBytes,
	}
	switch {
	case so.FooterReadSize == 0:
		so.FooterReadSize = DefaultFooterReadSize
	case so.FooterReadSize < 8:
		so.FooterReadSize = 8
	}
	switch {
	case so.HoleLimit == 0:
		so.HoleLimit = DefaultHoleLimit
	case so.HoleLimit < 0:
		so.HoleLimit = 0
	}
	if so.RangeLimit <= 0 {
		so.RangeLimit = DefaultRangeLimit
	}
	if so.Concurrency <= 0 {
		so.Concurrency = DefaultConcurrency
	}
	if so.PrefetchBytes <= 0 {
		so.PrefetchBytes = DefaultPrefetchBytes
	}
	return so
}

// NewRecyclingAllocator returns a memory.Allocator for
// [ReadOptions.Allocator] that keeps the buffers of released arrays and
// hands them to later allocations, for programs that read file after
// file and release each table or batch before the next read. Memory new
// to the Go heap, or taken back from the operating system, costs a page
// fault per 4 KiB when first written; a released buffer handed out again
// has its pages in place and is often still in cache.
//
// The hazard it accepts: an array must not be used after its last
// Release, and neither may any Go slice of its memory (Int64Values,
// ValueBytes, Buffers, ...). Such a slice does not keep the memory from
// being handed out again: it silently shows the values of whatever array
// a later read put there, and writes through it corrupt that array. Keep
// an array (Retain) for as long as anything uses its values, or read
// with the default allocator (nil), which never hands out memory Go code
// can still reach.
//
// Like the default, it hands out memory that is not cleared, which only
// code that writes every byte of what it allocates may use: quiver's
// reader does, so it is meant for ReadOptions.Allocator, not for
// arrow-go's builders or other code. Buffers of more than 512 bytes are
// rounded up to one of 16 size classes per doubling (at most 6.25% more)
// and kept per class in sync.Pools, so the garbage collector drops
// buffers that no allocation took within two collections.
//
// Each call returns a new allocator with pools of its own; share one
// between the readers whose arrays should pass their memory on to each
// other. It is safe for concurrent use.
func NewRecyclingAllocator() memory.Allocator { return new(arrowmem.Recycling) }

// resolve returns o with its defaults applied.
func (o *ReadOptions) resolve() scan.Options {
	so := scan.Options{
		Columns:     o.Columns,
		RowGroups:   o.RowGroups,
		BatchSize:   o.BatchSize,
		Parallelism: o.Parallelism,
		Mem:         o.Allocator,
		VerifyCRC:   !o.SkipCRC,
		Mapping:     o.Mapping,
		Dictionary:  o.Dictionary,
		Decryption:  o.Decryption,
		MemoryMap:   o.MemoryMap,
		Filter:      o.Filter,
		IO:          o.IO.resolve(),
		Metadata:    o.Metadata,
	}
	if so.BatchSize <= 0 {
		so.BatchSize = DefaultBatchSize
	}
	if so.Parallelism <= 0 {
		so.Parallelism = runtime.GOMAXPROCS(0)
	}
	if so.Mem == nil {
		so.Mem = arrowmem.Unzeroed{}
	}
	return so
}
