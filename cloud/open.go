package cloud

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"

	"github.com/quiverio/quiver/source/httprange"
)

// File is what arrowio.Open reads: an io.ReaderAt that knows its size.
// Close releases what Open opened for it.
type File interface {
	io.ReaderAt
	io.Closer
	Size() int64
}

// Open opens the file a URL or path names, for arrowio.Open(f, f.Size(), ...):
//
//   - s3://, gs://, azblob:// (and other gocloud schemes): an [Object] of
//     the bucket the URL's host names, its key the URL's path, the query
//     the bucket's options (see [SplitURL]);
//   - http:// and https://: an httprange.File with default options;
//   - file:///path and plain paths (no scheme, or a one-letter Windows
//     drive): the local file.
//
// ctx bounds Open and, for remote files, every later read.
func Open(ctx context.Context, rawURL string) (File, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme == "" || len(u.Scheme) == 1 {
		return openLocal(rawURL)
	}
	switch u.Scheme {
	case "file":
		if u.Host != "" && u.Host != "localhost" {
			return nil, fmt.Errorf("cloud: %s: a file URL names no host", rawURL)
		}
		return openLocal(u.Path)
	case "http", "https":
		f, err := httprange.Open(ctx, rawURL, httprange.Options{})
		if err != nil {
			return nil, err
		}
		return f, nil
	}
	bucketURL, key, err := SplitURL(rawURL)
	if err != nil {
		return nil, err
	}
	if key == "" {
		return nil, fmt.Errorf("cloud: %s names a bucket, not an object", redact(u))
	}
	b, err := OpenBucket(ctx, bucketURL)
	if err != nil {
		return nil, err
	}
	o, err := b.Open(ctx, key)
	if err != nil {
		b.Close()
		return nil, err
	}
	return &bucketObject{Object: o, bucket: b}, nil
}

// bucketObject is an Object whose Close also closes the bucket Open
// opened for it.
type bucketObject struct {
	*Object
	bucket *Bucket
}

func (o *bucketObject) Close() error {
	o.Object.Close()
	return o.bucket.Close()
}

// localFile is an os.File with its size.
type localFile struct {
	*os.File
	size int64
}

func (f *localFile) Size() int64 { return f.size }

func openLocal(path string) (File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("cloud: %s is a directory", path)
	}
	return &localFile{File: f, size: st.Size()}, nil
}
