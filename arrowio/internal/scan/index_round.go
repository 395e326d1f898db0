package scan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"

	"github.com/quiverio/quiver/arrowio/internal/colread"
	"github.com/quiverio/quiver/arrowio/internal/page"
	"github.com/quiverio/quiver/pageindex"
)

// A filtered read prunes each row group by what its column chunks tell
// beyond the footer: bloom filters, small dictionaries, page indexes.
// Read one row group after another, each of those is a round trip to an
// object store. fetchIndexes fetches them for all the row groups a read
// visits in one round of planned requests, before the first group opens,
// and keeps their bytes in the File's indexCache, where the reads of
// filter.go, filter_dict.go, filter_pages.go and pageindex_crypt.go find
// them (through indexSource) instead of asking the source.

// indexCache holds byte ranges of the file fetched by fetchIndexes, for
// as long as a read that fetched them runs: the last to end empties it.
type indexCache struct {
	mu     sync.Mutex
	ranges []cachedRange // by start
	reads  int           // reads using the cache
}

// hold registers a read that uses the cache and returns the function that
// ends its use.
func (c *indexCache) hold() func() {
	c.mu.Lock()
	c.reads++
	c.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.reads--; c.reads == 0 {
				c.ranges = nil
			}
		})
	}
}

// cachedRange is the bytes of the file from start on.
type cachedRange struct {
	start int64
	data  []byte
}

// suffixBytes is the end of the file as the footer's first read got it
// (FooterReadSize bytes, or the whole file when smaller), kept for the
// File's life: the page indexes and bloom filters before the footer, and
// all of a small file, are often in it, and need no request of their own.
// Readers of its bytes must not change them; encrypted files, whose
// modules decrypt in place, keep none.
//
// A file opened with its metadata has no footer read: lazy stands in for
// it, and reads the same bytes (the whole file when it is no larger) the
// first time a lookup falls within them, so that the page indexes,
// bloom filters and chunks there cost the one request the footer's read
// would have, and nothing is read for a file of which nothing is wanted.
type suffixBytes struct {
	start int64
	data  []byte
	lazy  *lazySuffix
}

// find returns the bytes [off, off+n) when the suffix holds them.
func (s *suffixBytes) find(off, n int64) ([]byte, bool) {
	start, data := s.start, s.data
	if l := s.lazy; l != nil && off >= l.start && off+n <= l.end {
		start, data = l.start, l.load()
	}
	if data == nil || off < start || off+n > start+int64(len(data)) {
		return nil, false
	}
	return data[off-start : off-start+n : off-start+n], true
}

// lazySuffix is the file's bytes [start, end), its last FooterReadSize
// bytes or all of it, read on first use (see suffixBytes).
type lazySuffix struct {
	src        io.ReaderAt // the File's counted source
	start, end int64
	once       sync.Once
	data       []byte // nil until read, and when the read failed
}

// load returns the bytes, reading them on the first call. A read that
// fails leaves them nil: the reads that wanted them then make their own
// requests, which report the failure where it happened.
func (l *lazySuffix) load() []byte {
	l.once.Do(func() {
		b := make([]byte, l.end-l.start)
		if n, err := l.src.ReadAt(b, l.start); n == len(b) && (err == nil || errors.Is(err, io.EOF)) {
			l.data = b
		}
	})
	return l.data
}

// keepFirstRead is the source footer.ReadTailSize reads through: it keeps
// the buffer of the first read, the file's last bytes, in the File's
// suffix when it is filled to the end of the file.
type keepFirstRead struct {
	r    *File
	size int64
	seen bool
}

func (k *keepFirstRead) ReadAt(p []byte, off int64) (int, error) {
	n, err := k.r.r.ReadAt(p, off)
	if !k.seen && n == len(p) && off+int64(n) == k.size {
		k.r.suffix = suffixBytes{start: off, data: p}
	}
	k.seen = true
	return n, err
}

// find returns the cached bytes [off, off+n), if one range holds them.
func (c *indexCache) find(off, n int64) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := sort.Search(len(c.ranges), func(i int) bool { return c.ranges[i].start > off })
	for j := i - 1; j >= 0 && j >= i-4; j-- { // ranges may overlap: look at a few before
		cr := c.ranges[j]
		if off >= cr.start && off+n <= cr.start+int64(len(cr.data)) {
			return cr.data[off-cr.start : off-cr.start+n], true
		}
	}
	return nil, false
}

// add caches the bytes data of the file from start on.
func (c *indexCache) add(start int64, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := sort.Search(len(c.ranges), func(i int) bool { return c.ranges[i].start > start })
	c.ranges = append(c.ranges, cachedRange{})
	copy(c.ranges[i+1:], c.ranges[i:])
	c.ranges[i] = cachedRange{start, data}
}

// indexSource is the File's source for page indexes, bloom filters and
// dictionaries: the bytes fetchIndexes cached, or else a request whose
// bytes are all used.
type indexSource struct{ r *File }

func (s indexSource) ReadAt(p []byte, off int64) (int, error) {
	if b, ok := s.r.indexes.find(off, int64(len(p))); ok {
		return copy(p, b), nil
	}
	if b, ok := s.r.suffix.find(off, int64(len(p))); ok {
		s.r.io.used.Add(int64(len(p)))
		return copy(p, b), nil
	}
	return s.r.used.ReadAt(p, off)
}

// fetchIndexes fetches, in one readRanges, what a filtered read of row
// groups groups will read before it decodes: for each group whose
// statistics do not rule the filter out, the ColumnIndex of every
// predicate column, the OffsetIndex of every column the read decodes, the
// bloom filters the predicate prunes by (when their length is recorded)
// and, for predicate chunks without such a filter that are
// dictionary-encoded throughout, their leading bytes (see
// readDictionaries). Ranges already cached are not fetched again, and
// the round stops adding ranges at PrefetchBytes (the rest are read when
// needed). The bytes stay cached until the read calls the function
// returned (always set) and no other read holds them. Files read by
// OpenFile, whose reads cost no round trip, fetch nothing here.
func (r *File) fetchIndexes(ctx context.Context, groups []int) (func(), error) {
	if r.filter == nil || r.ChunkReads || r.mapped != nil {
		return func() {}, nil
	}
	done := r.indexes.hold()
	var want []wanted
	var total int64
	add := func(start, end int64, column string) {
		if end <= start || total+end-start > r.Options.IO.PrefetchBytes {
			return
		}
		_, cached := r.indexes.find(start, end-start)
		if _, ok := r.suffix.find(start, end-start); !ok && !cached {
			total += end - start
			want = append(want, wanted{pageindex.ByteRange{Start: start, End: end}, column})
		}
	}
	f := r.filter
	leaves := f.bound.Leaves()
	seen := make(map[int]bool, len(groups))
	for _, gi := range groups {
		if seen[gi] {
			continue
		}
		seen[gi] = true
		rg := &r.Footer.Meta.RowGroups[gi]
		stats := func(c int) (pageindex.Pages, bool) { return chunkPages(rg, leaves[c], nil, f.writer) }
		if rg.NumRows <= 0 || f.bound.Match(stats, rg.NumRows) == pageindex.MatchNone {
			continue
		}
		for c, leaf := range leaves {
			cc := &rg.Columns[leaf.Column]
			name := leaf.DottedPath()
			// Corrupt offsets are left to the reads that parse them.
			if start, end, ok, err := pageindex.IndexSpan(cc.ColumnIndexOffset, cc.ColumnIndexLength, r.Footer.MetaOffset); err == nil && ok {
				add(start, end, name)
			}
			md := cc.MetaData
			if md == nil {
				continue
			}
			bloom := false
			if off, ok := md.BloomFilterOffset.Get(); ok && f.bound.UsesBloom(c) {
				bloom = true
				if n := int64(md.BloomFilterLength.Or(0)); n > 0 && off >= 0 && off+n <= r.Footer.MetaOffset {
					add(off, off+n, name)
				}
			}
			// A dictionary is read only when the bloom filter leaves the
			// group: with one, it is left to readDictionaries.
			if !bloom && colread.DictionaryOnly(md) && cc.CryptoMetadata == nil {
				if start, length, err := page.ChunkRange(md, r.Footer.MetaOffset, false); err == nil {
					add(start, start+min(length, dictPruneBytes), name)
				}
			}
		}
		for _, col := range f.cols {
			for _, leaf := range col.leafNodes() {
				cc := &rg.Columns[leaf.Column]
				if start, end, ok, err := pageindex.IndexSpan(cc.OffsetIndexOffset, cc.OffsetIndexLength, r.Footer.MetaOffset); err == nil && ok {
					add(start, end, leaf.DottedPath())
				}
			}
		}
	}
	if len(want) == 0 {
		return done, nil
	}
	var bufs [][]byte // kept by the cache, not pooled: its slices outlive it
	got, err := r.readRanges(ctx, want, &bufs)
	if err != nil {
		done()
		return nil, fmt.Errorf("page indexes, bloom filters and dictionaries: %w", err)
	}
	for k, w := range want {
		r.indexes.add(w.Start, got[k])
	}
	return done, nil
}
