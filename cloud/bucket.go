package cloud

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"net/url"
	"strings"
	"time"

	"cloud.google.com/go/storage"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	// The drivers Open and OpenBucket serve.
	_ "gocloud.dev/blob/azureblob"
	_ "gocloud.dev/blob/fileblob"
	_ "gocloud.dev/blob/gcsblob"
	_ "gocloud.dev/blob/memblob"
	_ "gocloud.dev/blob/s3blob"

	"github.com/quiverio/quiver/source/httprange"
)

// ErrChanged is wrapped by errors from a read that found the object
// different from the one Open saw. It is the same error as
// httprange.ErrChanged, so one check covers both sources.
var ErrChanged = httprange.ErrChanged

// Bucket is a bucket (or container, or directory) of objects.
type Bucket struct {
	b     *blob.Bucket
	name  string // the bucket URL for messages, without its query
	owned bool   // Close closes b
}

// OpenBucket opens the bucket a gocloud URL names: s3://bucket?...,
// gs://bucket, azblob://container?..., file:///dir, mem://.
func OpenBucket(ctx context.Context, bucketURL string) (*Bucket, error) {
	b, err := blob.OpenBucket(ctx, bucketURL)
	if err != nil {
		return nil, fmt.Errorf("cloud: open bucket %s: %w", redactURL(bucketURL), err)
	}
	return &Bucket{b: b, name: redactURL(bucketURL), owned: true}, nil
}

// NewBucket wraps a bucket the caller opened (with its own client or
// credentials); Close leaves it open.
func NewBucket(b *blob.Bucket) *Bucket {
	return &Bucket{b: b, name: "bucket"}
}

// Blob returns the underlying gocloud bucket.
func (b *Bucket) Blob() *blob.Bucket { return b.b }

// Close closes the bucket if OpenBucket opened it. Objects opened from it
// cannot be read afterwards.
func (b *Bucket) Close() error {
	if !b.owned {
		return nil
	}
	return b.b.Close()
}

// ObjectInfo describes one object of a listing.
type ObjectInfo struct {
	Key     string
	Size    int64
	ModTime time.Time
}

// List yields every object whose key starts with prefix, in key order,
// descending into "directories"; keys ending in "/" (the empty markers
// consoles create for folders) are left out. An error ends the sequence.
func (b *Bucket) List(ctx context.Context, prefix string) iter.Seq2[ObjectInfo, error] {
	return func(yield func(ObjectInfo, error) bool) {
		it := b.b.List(&blob.ListOptions{Prefix: prefix})
		for {
			o, err := it.Next(ctx)
			if err == io.EOF {
				return
			}
			if err != nil {
				yield(ObjectInfo{}, fmt.Errorf("cloud: list %s prefix %q: %w", b.name, prefix, err))
				return
			}
			if o.IsDir || strings.HasSuffix(o.Key, "/") {
				continue
			}
			if !yield(ObjectInfo{Key: o.Key, Size: o.Size, ModTime: o.ModTime}, nil) {
				return
			}
		}
	}
}

// Open returns the object at key, after one request for its size and
// version. ctx bounds Open and every later read of the Object.
func (b *Bucket) Open(ctx context.Context, key string) (*Object, error) {
	attrs, err := b.b.Attributes(ctx, key)
	if err != nil {
		return nil, b.wrap("open", key, err)
	}
	o := &Object{
		b:    b,
		key:  key,
		size: attrs.Size,
		etag: attrs.ETag,
	}
	var ga storage.ObjectAttrs
	if attrs.As(&ga) {
		o.generation = ga.Generation
	}
	o.ctx, o.cancel = context.WithCancel(ctx)
	return o, nil
}

// wrap names op, the bucket and key in err, and makes a missing object
// match fs.ErrNotExist and a refused one fs.ErrPermission.
func (b *Bucket) wrap(op, key string, err error) error {
	switch gcerrors.Code(err) {
	case gcerrors.NotFound:
		return fmt.Errorf("cloud: %s %s key %q: %w (%w)", op, b.name, key, fs.ErrNotExist, err)
	case gcerrors.PermissionDenied:
		return fmt.Errorf("cloud: %s %s key %q: %w (%w)", op, b.name, key, fs.ErrPermission, err)
	}
	return fmt.Errorf("cloud: %s %s key %q: %w", op, b.name, key, err)
}

// SplitURL splits an object URL into its bucket URL (query kept) and key:
// "s3://bkt/dir/f.parquet?region=x" is "s3://bkt?region=x" and
// "dir/f.parquet". The key is the URL's path, unescaped, without its
// leading slash.
func SplitURL(rawURL string) (bucketURL, key string, err error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", "", fmt.Errorf("cloud: %w", err)
	}
	if u.Scheme == "" || u.Host == "" {
		return "", "", fmt.Errorf("cloud: %s: want scheme://bucket/key", redact(u))
	}
	key = strings.TrimPrefix(u.Path, "/")
	b := *u
	b.Path, b.RawPath = "", ""
	return b.String(), key, nil
}

// redactURL is redact for a URL string, or the scheme alone when it does
// not parse.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	return redact(u)
}

// redact drops user information and query, where credentials travel.
func redact(u *url.URL) string {
	s := u.Scheme + "://" + u.Host + u.EscapedPath()
	if u.RawQuery != "" {
		s += "?…"
	}
	return s
}
