package cloud_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"gocloud.dev/blob/memblob"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/cloud"
	"github.com/quiverio/quiver/internal/corpus"
	"github.com/quiverio/quiver/internal/corpus/corpusread"
)

func TestSplitURL(t *testing.T) {
	for _, c := range []struct{ in, bucket, key string }{
		{"s3://bkt/dir/f.parquet?region=x&endpoint=http://h:1", "s3://bkt?region=x&endpoint=http://h:1", "dir/f.parquet"},
		{"gs://bkt/a%20b.parquet", "gs://bkt", "a b.parquet"},
		{"azblob://ctr/k", "azblob://ctr", "k"},
		{"s3://bkt", "s3://bkt", ""},
		{"s3://bkt/", "s3://bkt", ""},
	} {
		b, k, err := cloud.SplitURL(c.in)
		if err != nil || b != c.bucket || k != c.key {
			t.Errorf("SplitURL(%q) = %q, %q, %v; want %q, %q", c.in, b, k, err, c.bucket, c.key)
		}
	}
	for _, bad := range []string{"s3:///key", "/local/path", "::"} {
		if _, _, err := cloud.SplitURL(bad); err == nil {
			t.Errorf("SplitURL(%q): no error", bad)
		}
	}
}

// TestOpenLocal opens a corpus file by path and by file:// URL.
func TestOpenLocal(t *testing.T) {
	root := corpus.Dir(t)
	path := filepath.Join(root, "data", "alltypes_plain.parquet")
	want, err := corpusread.Table(func() (*arrowio.Reader, error) { return arrowio.OpenFile(path, arrowio.ReadOptions{}) })
	if err != nil {
		t.Skipf("%s: %v", path, err)
	}
	defer want.Release()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{path, "file://" + filepath.ToSlash(abs)} {
		f, err := cloud.Open(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := corpusread.Table(func() (*arrowio.Reader, error) { return arrowio.Open(f, f.Size(), arrowio.ReadOptions{}) })
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !array.TableEqual(want, got) {
			t.Errorf("%s: table differs", name)
		}
		got.Release()
	}
	if _, err := cloud.Open(context.Background(), filepath.Join(root, "no-such.parquet")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing local file: %v, want fs.ErrNotExist", err)
	}
}

// TestMemBucket runs the adapter over gocloud's in-memory driver: reads,
// a missing key, listing, and a size change after Open.
func TestMemBucket(t *testing.T) {
	ctx := context.Background()
	mb := memblob.OpenBucket(nil)
	defer mb.Close()
	b := cloud.NewBucket(mb)
	data := make([]byte, 100000)
	for i := range data {
		data[i] = byte(i * 7)
	}
	for _, k := range []string{"a/1", "a/2", "b/3"} {
		if err := mb.WriteAll(ctx, k, data, nil); err != nil {
			t.Fatal(err)
		}
	}
	o, err := b.Open(ctx, "a/1")
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	p := make([]byte, 1000)
	if n, err := o.ReadAt(p, 500); n != 1000 || err != nil || !bytes.Equal(p, data[500:1500]) {
		t.Fatalf("ReadAt = %d, %v", n, err)
	}
	if n, err := o.ReadAt(p, int64(len(data))-10); n != 10 || err != io.EOF {
		t.Fatalf("ReadAt at the end = %d, %v; want 10, EOF", n, err)
	}
	if _, err := b.Open(ctx, "a/missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing key: %v, want fs.ErrNotExist", err)
	}
	var keys []string
	for info, err := range b.List(ctx, "a/") {
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, info.Key)
	}
	if !slices.Equal(keys, []string{"a/1", "a/2"}) {
		t.Fatalf("List(a/) = %q", keys)
	}
	if err := mb.WriteAll(ctx, "a/1", data[:5000], nil); err != nil {
		t.Fatal(err)
	}
	if _, err := o.ReadAt(p, 0); !errors.Is(err, cloud.ErrChanged) {
		t.Fatalf("read after the object shrank: %v, want ErrChanged", err)
	}
	o.Close()
	if _, err := o.ReadAt(p, 0); !errors.Is(err, fs.ErrClosed) {
		t.Fatalf("read after Close: %v, want fs.ErrClosed", err)
	}
}
