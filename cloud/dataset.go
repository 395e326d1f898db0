package cloud

// This file adapts a Bucket to the dataset package: a Source to read a
// dataset under a key prefix, and a Sink to write one.

import (
	"context"
	"fmt"
	"io/fs"
	"iter"
	"net/url"
	"strings"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/quiverio/quiver/dataset"
)

// DatasetFS is a [Bucket] as a dataset.Source and dataset.Sink: a
// dataset's paths are the bucket's keys. Get one with [Bucket.Dataset].
type DatasetFS struct{ b *Bucket }

// Dataset returns b as a dataset.Source (keys listed and opened as
// [Bucket.List] and [Bucket.Open] do, reads pinned to the version opened)
// and a dataset.Sink (each file one upload, which appears only when it
// completes; where the store supports conditional writes, as S3, GCS,
// Azure and file:// do, a key that exists already is an error wrapping
// fs.ErrExist).
func (b *Bucket) Dataset() *DatasetFS { return &DatasetFS{b} }

// Open opens the object at key path.
func (d *DatasetFS) Open(ctx context.Context, path string) (dataset.File, error) {
	return d.b.Open(ctx, path)
}

// List yields the objects whose keys start with prefix.
func (d *DatasetFS) List(ctx context.Context, prefix string) iter.Seq2[dataset.FileInfo, error] {
	return func(yield func(dataset.FileInfo, error) bool) {
		for o, err := range d.b.List(ctx, prefix) {
			if !yield(dataset.FileInfo{Path: o.Key, Size: o.Size, ModTime: o.ModTime}, err) || err != nil {
				return
			}
		}
	}
}

// Create starts an upload to key path.
func (d *DatasetFS) Create(ctx context.Context, path string) (dataset.Upload, error) {
	ctx, cancel := context.WithCancel(ctx)
	w, err := d.b.b.NewWriter(ctx, path, &blob.WriterOptions{IfNotExist: true})
	if err != nil {
		cancel()
		return nil, d.b.wrap("create", path, err)
	}
	return &upload{d: d, key: path, w: w, cancel: cancel}, nil
}

// upload is an object being written; cancelling its context before Close
// abandons it.
type upload struct {
	d      *DatasetFS
	key    string
	w      *blob.Writer
	cancel context.CancelFunc
}

func (u *upload) Write(p []byte) (int, error) {
	n, err := u.w.Write(p)
	if err != nil {
		return n, u.d.b.wrap("write", u.key, err)
	}
	return n, nil
}

// Commit completes the upload: the object appears whole.
func (u *upload) Commit() error {
	defer u.cancel()
	if err := u.w.Close(); err != nil {
		if gcerrors.Code(err) == gcerrors.FailedPrecondition {
			return fmt.Errorf("cloud: create %s key %q: %w (%w)", u.d.b.name, u.key, fs.ErrExist, err)
		}
		return u.d.b.wrap("upload", u.key, err)
	}
	return nil
}

// Abort abandons the upload; no object appears.
func (u *upload) Abort() error {
	u.cancel()
	u.w.Close() // reports the cancellation, which is the point
	return nil
}

// OpenDataset opens the dataset under an object URL's key prefix (a
// "directory" of hive partitions, a key, or a glob of keys), as
// dataset.Open does a local path:
//
//	s3://bucket/sales/?region=eu-west-1
//	gs://bucket/sales/year=2024/**/*.parquet
//	file:///data/sales/
//
// It returns the dataset and the bucket it reads, which the caller closes
// once done with the dataset.
func OpenDataset(ctx context.Context, rawURL string, opts dataset.Options) (*dataset.Dataset, *Bucket, error) {
	var bucketURL, key string
	if u, err := url.Parse(rawURL); err == nil && u.Scheme == "file" && u.Host == "" {
		// file:///dir/...: the bucket is the root directory and the
		// path its key.
		bucketURL, key = "file:///", strings.TrimPrefix(u.Path, "/")
	} else if bucketURL, key, err = SplitURL(rawURL); err != nil {
		return nil, nil, err
	}
	b, err := OpenBucket(ctx, bucketURL)
	if err != nil {
		return nil, nil, err
	}
	ds, err := dataset.Open(ctx, b.Dataset(), []string{key}, opts)
	if err != nil {
		b.Close()
		return nil, nil, err
	}
	return ds, b, nil
}
