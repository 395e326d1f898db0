package cloud_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"gocloud.dev/blob"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/cloud"
	"github.com/quiverio/quiver/internal/corpus"
	"github.com/quiverio/quiver/internal/corpus/corpusread"
	"github.com/quiverio/quiver/source/httprange"
)

// objectURL puts key into bucketURL: s3://b?q and "k" give s3://b/k?q.
func objectURL(t *testing.T, bucketURL, key string) string {
	t.Helper()
	u, err := url.Parse(bucketURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + key
	return u.String()
}

func openBucket(t *testing.T, bucketURL string) *cloud.Bucket {
	t.Helper()
	b, err := cloud.OpenBucket(context.Background(), bucketURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func put(t *testing.T, b *cloud.Bucket, key string, data []byte) {
	t.Helper()
	if err := b.Blob().WriteAll(context.Background(), key, data, nil); err != nil {
		t.Fatalf("uploading %s: %v", key, err)
	}
}

// TestS3Corpus uploads the parquet-testing corpus to SeaweedFS and reads
// every file arrowio reads locally through cloud.Open's S3 adapter, at
// Parallelism 1 and 2: the tables must equal the local reads.
func TestS3Corpus(t *testing.T) {
	root := corpus.Dir(t)
	files := corpus.Files(t)
	bu := s3Bucket(t, "quiver-corpus")
	b := openBucket(t, bu)
	ctx := context.Background()
	start := time.Now()
	for _, rel := range files {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		put(t, b, filepath.ToSlash(rel), data)
	}
	t.Logf("uploaded %d files in %v", len(files), time.Since(start).Round(time.Millisecond))

	read, skipped := 0, 0
	for _, rel := range files {
		local, err := corpusread.Local(filepath.Join(root, rel))
		if err != nil {
			skipped++ // encrypted without keys, huge, or refused locally too
			continue
		}
		t.Run(rel, func(t *testing.T) {
			defer local.Release()
			for _, par := range []int{1, 2} {
				f, err := cloud.Open(ctx, objectURL(t, bu, filepath.ToSlash(rel)))
				if err != nil {
					t.Fatal(err)
				}
				remote, err := corpusread.Table(func() (*arrowio.Reader, error) {
					return arrowio.Open(f, f.Size(), arrowio.ReadOptions{Parallelism: par})
				})
				if err := f.Close(); err != nil {
					t.Error(err)
				}
				if err != nil {
					t.Fatalf("Parallelism %d: %v", par, err)
				}
				if !array.TableApproxEqual(local, remote, array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
					t.Errorf("Parallelism %d: the table read from S3 differs from the local read", par)
				}
				remote.Release()
			}
		})
		read++
	}
	if read == 0 {
		t.Fatalf("no corpus file read locally (%d skipped)", skipped)
	}
	t.Logf("%d files compared, %d skipped (encrypted, over 64 MiB decoded, or not read locally)", read, skipped)
}

func testData(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}

// TestS3Ranges reads ranges of an object, alone and concurrently.
func TestS3Ranges(t *testing.T) {
	bu := s3Bucket(t, "quiver-ranges")
	b := openBucket(t, bu)
	data := testData(3<<20 + 17)
	put(t, b, "dir/obj.bin", data)
	ctx := context.Background()
	o, err := b.Open(ctx, "dir/obj.bin")
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	size := int64(len(data))
	if o.Size() != size || o.ETag() == "" {
		t.Fatalf("size %d etag %q, want %d and an ETag", o.Size(), o.ETag(), size)
	}
	for _, c := range []struct {
		off, n, want int64
		eof          bool
	}{
		{0, 1, 1, false},
		{0, 100, 100, false},
		{12345, 1 << 20, 1 << 20, false},
		{size - 8, 8, 8, false},
		{size - 8, 100, 8, true},
		{size, 1, 0, true},
		{size + 100, 1, 0, true},
		{0, size, size, false},
	} {
		p := make([]byte, c.n)
		n, err := o.ReadAt(p, c.off)
		if int64(n) != c.want || (err == io.EOF) != c.eof || (err != nil && err != io.EOF) {
			t.Errorf("ReadAt(%d bytes at %d) = %d, %v; want %d, eof %v", c.n, c.off, n, err, c.want, c.eof)
			continue
		}
		if n > 0 && !bytes.Equal(p[:n], data[c.off:c.off+int64(n)]) {
			t.Errorf("ReadAt(%d bytes at %d): wrong bytes", c.n, c.off)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := range 4 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 2))
			for range 20 {
				off := rng.Int64N(size)
				n := rng.Int64N(min(size-off, 256<<10)) + 1
				p := make([]byte, n)
				if _, err := o.ReadAt(p, off); err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(p, data[off:off+n]) {
					errs <- fmt.Errorf("bytes %d+%d differ", off, n)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestS3Missing(t *testing.T) {
	bu := s3Bucket(t, "quiver-missing")
	ctx := context.Background()
	_, err := cloud.Open(ctx, objectURL(t, bu, "no/such/key.parquet"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err %v, want fs.ErrNotExist", err)
	}
	if !strings.Contains(err.Error(), "no/such/key.parquet") {
		t.Errorf("message %q should name the key", err)
	}
	if _, err := cloud.Open(ctx, bu); err == nil {
		t.Error("opening a bucket URL with no key: no error")
	}
}

func TestS3List(t *testing.T) {
	bu := s3Bucket(t, "quiver-list")
	b := openBucket(t, bu)
	keys := map[string]int{
		"ds/year=2024/a.parquet":         10,
		"ds/year=2024/b.parquet":         20,
		"ds/year=2025/month=1/c.parquet": 30,
		"ds/_SUCCESS":                    0,
		"dsx/other.parquet":              40,
		"top.parquet":                    50,
	}
	for k, n := range keys {
		put(t, b, k, testData(n))
	}
	ctx := context.Background()
	var got []string
	for info, err := range b.List(ctx, "ds/") {
		if err != nil {
			t.Fatal(err)
		}
		if want := keys[info.Key]; info.Size != int64(want) {
			t.Errorf("%s: size %d, want %d", info.Key, info.Size, want)
		}
		if info.ModTime.IsZero() {
			t.Errorf("%s: no ModTime", info.Key)
		}
		got = append(got, info.Key)
	}
	want := []string{"ds/_SUCCESS", "ds/year=2024/a.parquet", "ds/year=2024/b.parquet", "ds/year=2025/month=1/c.parquet"}
	if !slices.Equal(got, want) {
		t.Errorf("List(ds/) = %q, want %q", got, want)
	}
	// Stopping early is allowed.
	n := 0
	for _, err := range b.List(ctx, "") {
		if err != nil {
			t.Fatal(err)
		}
		n++
		break
	}
	if n != 1 {
		t.Errorf("early stop yielded %d", n)
	}
}

// TestS3Changed replaces an object between reads: the If-Match the
// reads send makes the store refuse.
func TestS3Changed(t *testing.T) {
	bu := s3Bucket(t, "quiver-changed")
	b := openBucket(t, bu)
	v1 := testData(1 << 20)
	put(t, b, "obj", v1)
	ctx := context.Background()
	o, err := b.Open(ctx, "obj")
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	p := make([]byte, 100)
	if _, err := o.ReadAt(p, 0); err != nil {
		t.Fatal(err)
	}
	v2 := bytes.Clone(v1)
	v2[10] ^= 0xff // same size, other bytes
	put(t, b, "obj", v2)
	if _, err := o.ReadAt(p, 0); !errors.Is(err, cloud.ErrChanged) {
		t.Fatalf("read after replace: %v, want ErrChanged", err)
	}
}

// TestS3PresignedHTTP reads an object through httprange with a presigned
// URL, as a user handed only such a URL does, and checks that the
// unsigned URL is refused.
func TestS3PresignedHTTP(t *testing.T) {
	bu := s3Bucket(t, "quiver-presigned")
	b := openBucket(t, bu)
	data := testData(200 << 10)
	put(t, b, "p/obj.bin", data)
	ctx := context.Background()
	signed, err := b.Blob().SignedURL(ctx, "p/obj.bin", &blob.SignedURLOptions{Expiry: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	f, err := httprange.Open(ctx, signed, httprange.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Size() != int64(len(data)) || f.ETag() == "" {
		t.Fatalf("size %d etag %q", f.Size(), f.ETag())
	}
	p := make([]byte, 50000)
	if _, err := f.ReadAt(p, 1234); err != nil || !bytes.Equal(p, data[1234:51234]) {
		t.Fatalf("read through the presigned URL: %v", err)
	}
	if strings.Contains(f.String(), "Signature") {
		t.Errorf("String() %q shows the signature", f.String())
	}
	u, _ := url.Parse(signed)
	u.RawQuery = ""
	if _, err := httprange.Open(ctx, u.String(), httprange.Options{}); !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("unsigned URL: %v, want fs.ErrPermission", err)
	}
}
