package dataset

// This file holds the footer cache: the parsed footer of each file a
// dataset opened, with the file's last bytes, so that planning, counting
// and reading a file again need not read its tail again.

import (
	"container/list"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
)

// DefaultFooterCacheBytes bounds a Dataset's own footer cache.
const DefaultFooterCacheBytes = 64 << 20

// FooterCache keeps the footers of the files datasets read, least
// recently used first out, within a byte bound. A footer is kept with the
// file's last bytes as read to parse it (64 KiB, or the whole of a smaller
// file, or more when the footer is larger), so arrowio's own footer read
// is served from memory, and a small file's data with it.
//
// Entries are keyed by the path, size and modification time a listing
// gave, and by the decryption configuration; share a FooterCache only
// between datasets whose sources name different files by different paths.
// It is safe for concurrent use.
type FooterCache struct {
	mu    sync.Mutex
	limit int64
	used  int64
	items map[cacheKey]*list.Element
	lru   list.List // of *cacheEntry, most recent at the front

	hits, misses atomic.Int64
}

type cacheKey struct {
	path  string
	size  int64
	mtime int64
	dec   *encrypt.DecryptionConfig
}

type cacheEntry struct {
	key  cacheKey
	meta *fileMeta
}

// NewFooterCache returns a cache that holds at most maxBytes of footers
// and tails (counted as the tail's length plus twice the footer's, for its
// parsed form). A footer larger than maxBytes is not kept.
func NewFooterCache(maxBytes int64) *FooterCache {
	return &FooterCache{limit: maxBytes, items: make(map[cacheKey]*list.Element)}
}

// Stats returns the lookups that found a footer and those that did not.
func (c *FooterCache) Stats() (hits, misses int64) { return c.hits.Load(), c.misses.Load() }

func (c *FooterCache) get(k cacheKey) *fileMeta {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[k]
	if !ok {
		c.misses.Add(1)
		return nil
	}
	c.hits.Add(1)
	c.lru.MoveToFront(e)
	return e.Value.(*cacheEntry).meta
}

func (c *FooterCache) put(k cacheKey, m *fileMeta) {
	if c == nil || m.cost > c.limit {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.lru.MoveToFront(e)
		return
	}
	c.items[k] = c.lru.PushFront(&cacheEntry{k, m})
	c.used += m.cost
	for c.used > c.limit {
		e := c.lru.Back()
		ce := e.Value.(*cacheEntry)
		c.lru.Remove(e)
		delete(c.items, ce.key)
		c.used -= ce.meta.cost
	}
}

// fileMeta is a file's parsed footer and its last bytes.
type fileMeta struct {
	ft      *footer.Footer
	tail    []byte // the file's bytes from tailOff to its end
	tailOff int64
	cost    int64
	// sealed is set for a file whose footer is encrypted, whose
	// FileMetaData arrowio cannot open the file with (see
	// arrowio.ReadOptions.Metadata).
	sealed bool

	mu      sync.Mutex
	mapping arrowio.SchemaOptions // of schema
	schema  *arrow.Schema         // the Arrow schema, once asked for
}

// arrowSchema returns the file's Arrow schema under mapping, kept for the
// next call with the same mapping.
func (m *fileMeta) arrowSchema(mapping arrowio.SchemaOptions) *arrow.Schema {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.schema == nil || m.mapping != mapping {
		m.schema = arrowio.ArrowSchema(m.ft.Schema, m.ft.Meta.KeyValueMetadata, mapping)
		m.mapping = mapping
	}
	return m.schema
}

// readMeta reads and parses the footer of the size-byte file r with one
// read of its last 64 KiB (two when the footer is larger).
func readMeta(r io.ReaderAt, size int64, dec *encrypt.DecryptionConfig) (*fileMeta, error) {
	n := min(size, int64(footer.TailReadSize))
	if n < 0 {
		n = 0
	}
	buf := make([]byte, n)
	if got, err := r.ReadAt(buf, size-n); err != nil && !(errors.Is(err, io.EOF) && int64(got) == n) {
		return nil, fmt.Errorf("reading the last %d bytes: %w", n, err)
	}
	tr := &tailReader{r: r, tail: buf, off: size - n}
	t, err := footer.ReadTail(tr, size)
	if err != nil {
		return nil, err
	}
	if t.MetaOffset < tr.off {
		// A footer longer than the first read: keep all of it.
		tr.tail = append(t.Meta[:tr.off-t.MetaOffset:tr.off-t.MetaOffset], buf...)
		tr.off = t.MetaOffset
	}
	meta := t.Meta
	if dec != nil {
		// Decryption happens in place; keep the tail as the file has it.
		meta = append([]byte(nil), meta...)
	}
	ft, _, err := encrypt.OpenFooter(&footer.Tail{Magic: t.Magic, Meta: meta, Size: size, MetaOffset: t.MetaOffset}, dec)
	if err != nil {
		return nil, err
	}
	return &fileMeta{ft: ft, tail: tr.tail, tailOff: tr.off, cost: int64(len(tr.tail)) + 2*int64(len(t.Meta)) + 512, sealed: t.Magic == footer.MagicEncrypted}, nil
}

// open opens the size-byte file r, whose footer m is, with ro: with m's
// metadata, so that arrowio neither reads nor parses the footer again,
// and with reads of the file's tail served from memory.
func (m *fileMeta) open(r io.ReaderAt, size int64, ro arrowio.ReadOptions) (*arrowio.Reader, error) {
	ro.Metadata = nil
	if !m.sealed {
		ro.Metadata = m.ft.Meta
	}
	return arrowio.Open(&tailReader{r: r, tail: m.tail, off: m.tailOff}, size, ro)
}

// tailReader serves reads within [off, off+len(tail)) from tail and
// passes the others to r.
type tailReader struct {
	r    io.ReaderAt
	tail []byte
	off  int64
}

func (t *tailReader) ReadAt(p []byte, off int64) (int, error) {
	if off >= t.off && off+int64(len(p)) <= t.off+int64(len(t.tail)) {
		return copy(p, t.tail[off-t.off:]), nil
	}
	return t.r.ReadAt(p, off)
}
