package arrowio

import (
	"context"
	"io"
	"time"

	"github.com/quiverio/quiver/arrowio/internal/scan"

	"github.com/quiverio/quiver/pageindex"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/footer"
)

// OpenFile opens the Parquet file at path. Close releases it. Its footer
// is read, unless opts.Metadata gives it (see [ReadOptions]).
func OpenFile(path string, opts ReadOptions) (*Reader, error) {
	f, err := scan.OpenFile(path, opts.resolve())
	if err != nil {
		return nil, err
	}
	return &Reader{f: f}, nil
}

// Open reads the footer of the size-byte Parquet file r and prepares to
// read the columns and row groups opts selects. r must stay readable until
// Close. With opts.Metadata, the footer parsed before (a cache's, or
// [Reader.Metadata] of an earlier Reader), Open reads nothing: the
// footer's request, a round trip to an object store, is saved.
//
// A malformed footer is an error wrapping footer.ErrCorrupt; an unknown
// column path or row group index is an error naming it. An encrypted file
// is decrypted with opts.Decryption (see [ReadOptions]); an encrypted
// footer without it is an error wrapping footer.ErrEncryptedFooter, and a
// footer that does not authenticate wraps encrypt.ErrAuthentication.
func Open(r io.ReaderAt, size int64, opts ReadOptions) (*Reader, error) {
	f, err := scan.Open(r, size, opts.resolve())
	if err != nil {
		return nil, err
	}
	return &Reader{f: f}, nil
}

// Reader reads a Parquet file into Arrow record batches.
//
// A Reader is safe for concurrent use by several goroutines: each call
// reads the bytes it needs with ReadAt (or slices them out of the file's
// mapping, see ReadOptions.MemoryMap) and decodes into new arrays.
type Reader struct{ f *scan.File }

// ErrClosed reports a call on a Reader after Close.
var ErrClosed = scan.ErrClosed

// PageIndex reads the ColumnIndex and OffsetIndex of leaf column (a
// dotted path) in row group rg; each is nil when the file has none. The
// indexes are read only when asked for: Open does not read them. A range
// outside the file's pages or bytes that do not parse are errors wrapping
// ErrCorrupt.
func (r *Reader) PageIndex(rg int, column string) (*footer.ColumnIndex, *footer.OffsetIndex, error) {
	return r.f.PageIndex(rg, column)
}

// BloomFilter reads the bloom filter of leaf column (a dotted path) in row
// group rg, with or without the bloom_filter_length the writer may have
// left out; nil when the chunk has none. A filter in a layout pageindex
// does not read is an error wrapping pageindex.ErrUnsupported; a corrupt
// one wraps ErrCorrupt.
func (r *Reader) BloomFilter(rg int, column string) (*pageindex.Bloom, error) {
	return r.f.BloomFilter(rg, column)
}

// Schema returns the Arrow schema of the batches the Reader returns: the
// projected columns, with types restored from the ARROW:schema metadata
// entry when the writer stored one.
func (r *Reader) Schema() *arrow.Schema { return r.f.Schema() }

// Metadata returns the file's parsed footer. It must not be modified. It
// may be kept, in a cache for instance, and given as
// ReadOptions.Metadata to open the file again without reading its footer.
func (r *Reader) Metadata() *footer.FileMetaData { return r.f.Metadata() }

// NumRows returns the number of rows in the file.
func (r *Reader) NumRows() int64 { return r.f.NumRows() }

// NumRowGroups returns the number of row groups in the file.
func (r *Reader) NumRowGroups() int { return r.f.NumRowGroups() }

// Close waits for the reads in progress, RecordReaders included (it
// returns once each has been released, so release them first), and
// closes the file OpenFile opened. Closing twice is harmless.
func (r *Reader) Close() error { return r.f.Close() }

// ReadRowGroup reads the projected columns of row group i into one record
// batch, which the caller releases. A row group whose strings or binary
// values total more than int32 offsets address (2 GiB in one column)
// cannot be one batch of string or binary arrays: read it with
// RecordReader or ReadTable, which cut it into batches that fit, or as
// large strings (SchemaOptions.Strings).
func (r *Reader) ReadRowGroup(ctx context.Context, i int) (arrow.RecordBatch, error) {
	return r.f.ReadRowGroup(ctx, i)
}

// RecordReader returns a reader of the selected row groups in batches of
// at most BatchSize rows; a batch never spans two row groups, and holds
// fewer rows when a row group's string or binary values would otherwise
// pass the int32 offsets of one array (each batch then takes its share of
// the column chunk's bytes). With
// Parallelism above 1 the next row group's bytes are fetched while the
// current one decodes, and columns decode concurrently.
//
// The returned reader owns each batch until the next call to Next (callers
// that keep one Retain it) and must be Released. Cancelling ctx stops it:
// Next returns false and Err the context's error.
func (r *Reader) RecordReader(ctx context.Context) (array.RecordReader, error) {
	return r.f.RecordReader(ctx)
}

// ReadTable reads the selected row groups into a table whose columns are
// chunked by row group (a row group whose string or binary values pass
// int32 offsets in several chunks, as RecordReader cuts it). The caller
// releases it.
//
// With Parallelism above 1, row groups decode concurrently (each on one
// goroutine, filtered or not) when there are several, and the columns of a
// single row group decode concurrently otherwise; a filtered row group
// decodes its columns on the goroutines not busy with other groups, so no
// more than Parallelism goroutines decode at once. The result is the same
// either way.
func (r *Reader) ReadTable(ctx context.Context) (arrow.Table, error) { return r.f.ReadTable(ctx) }

// IOStats is what a Reader's reads have asked of its source since Open.
type IOStats struct {
	// Requests is the number of ReadAt calls made (reads sliced out of a
	// memory mapping make none).
	Requests int64
	// BytesFetched is the bytes those calls returned.
	BytesFetched int64
	// BytesUsed is the bytes of the ranges the reader wanted (footer,
	// page indexes, bloom filters, dictionaries, column chunks or pages),
	// which BytesFetched exceeds by the holes merged requests read across
	// and the part of the first footer read that was not metadata.
	BytesUsed int64
	// Wait is the time reads spent blocked on the source: in ReadAt calls
	// made where the bytes were needed, and waiting for bytes fetched
	// ahead. Waits of goroutines that decode side by side add up.
	Wait time.Duration
	// PeakBuffered is the most bytes fetched ahead of decoding (in flight
	// or fetched and not yet decoded and released) at any one time; at
	// most IOOptions.PrefetchBytes unless a single row group's projected
	// chunks were larger.
	PeakBuffered int64
}

// IOStats returns the requests the Reader's reads have made of its
// source and their bytes, with the time spent waiting for them.
func (r *Reader) IOStats() IOStats {
	s := r.f.IOStats()
	return IOStats{Requests: s.Requests, BytesFetched: s.BytesFetched, BytesUsed: s.BytesUsed, Wait: s.Wait, PeakBuffered: s.PeakBuffered}
}
