package cloud

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"cloud.google.com/go/storage"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	azblobblob "github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// bodyRetries bounds the retries of a read whose body failed part way:
// the SDKs retry failed requests themselves, not bodies that end early.
const bodyRetries = 3

// Object is one object of a bucket, read by ranged requests. It is safe
// for concurrent use.
type Object struct {
	b          *Bucket
	key        string
	size       int64
	etag       string
	generation int64 // GCS only

	ctx    context.Context
	cancel context.CancelFunc
	closed atomic.Bool

	requests atomic.Int64
}

var (
	_ io.ReaderAt = (*Object)(nil)
	_ File        = (*Object)(nil)
)

// Size returns the object's size in bytes.
func (o *Object) Size() int64 { return o.size }

// Key returns the object's key.
func (o *Object) Key() string { return o.key }

// ETag returns the ETag Open saw, "" when the store gave none.
func (o *Object) ETag() string { return o.etag }

// Requests returns the number of ranged requests made so far.
func (o *Object) Requests() int64 { return o.requests.Load() }

// Close stops reads in flight and makes later ones fail with
// fs.ErrClosed. It leaves the bucket open.
func (o *Object) Close() error {
	o.closed.Store(true)
	o.cancel()
	return nil
}

// ReadAt reads len(p) bytes at off under the context given to Open, with
// io.ReaderAt's contract: fewer bytes only with an error, io.EOF at the
// end of the object.
func (o *Object) ReadAt(p []byte, off int64) (int, error) {
	return o.ReadAtContext(o.ctx, p, off)
}

// ReadAtContext is ReadAt under ctx as well as the context given to Open.
func (o *Object) ReadAtContext(ctx context.Context, p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("cloud: read %s key %q: negative offset %d", o.b.name, o.key, off)
	}
	if o.closed.Load() {
		return 0, fmt.Errorf("cloud: read %s key %q: %w", o.b.name, o.key, fs.ErrClosed)
	}
	if off >= o.size {
		if len(p) == 0 && off == o.size {
			return 0, nil
		}
		return 0, io.EOF
	}
	n := len(p)
	if rest := o.size - off; int64(n) > rest {
		n = int(rest)
	}
	if n == 0 {
		return 0, nil
	}
	if ctx != o.ctx {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(o.ctx, cancel)()
	}
	if err := o.read(ctx, p[:n], off); err != nil {
		if o.closed.Load() && errors.Is(err, context.Canceled) {
			err = fmt.Errorf("cloud: read %s key %q: %w", o.b.name, o.key, fs.ErrClosed)
		}
		return 0, err
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// read fills p with the bytes at off; a body that fails part way is
// asked again for the bytes still missing, up to bodyRetries times.
func (o *Object) read(ctx context.Context, p []byte, off int64) error {
	got := 0
	for attempt := 0; ; attempt++ {
		at := off + int64(got)
		want := len(p) - got
		k, err := o.readOnce(ctx, p[got:], at)
		got += k
		if err == nil {
			return nil
		}
		rng := fmt.Sprintf("bytes %d-%d", at, at+int64(want)-1)
		var fatal *fatalError
		if errors.As(err, &fatal) || ctx.Err() != nil || attempt >= bodyRetries {
			if errors.As(err, &fatal) {
				err = fatal.err
			}
			if attempt > 0 {
				rng += fmt.Sprintf(", %d attempts", attempt+1)
			}
			return fmt.Errorf("cloud: read %s key %q (%s): %w", o.b.name, o.key, rng, err)
		}
		wait := time.Duration(50<<attempt) * time.Millisecond
		wait = wait/2 + rand.N(wait/2+1)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("cloud: read %s key %q (%s): %w (while waiting to retry after: %v)", o.b.name, o.key, rng, ctx.Err(), err)
		case <-t.C:
		}
	}
}

// fatalError is a read error that another attempt would not cure.
type fatalError struct{ err error }

func (e *fatalError) Error() string { return e.err.Error() }

// readOnce makes one ranged request for len(p) bytes at off.
func (o *Object) readOnce(ctx context.Context, p []byte, off int64) (int, error) {
	o.requests.Add(1)
	r, err := o.b.b.NewRangeReader(ctx, o.key, off, int64(len(p)), &blob.ReaderOptions{BeforeRead: o.pin})
	if err != nil {
		switch gcerrors.Code(err) {
		case gcerrors.NotFound, gcerrors.FailedPrecondition:
			// Gone or replaced since Open.
			return 0, &fatalError{fmt.Errorf("%w: %w", ErrChanged, err)}
		case gcerrors.PermissionDenied:
			return 0, &fatalError{fmt.Errorf("%w: %w", fs.ErrPermission, err)}
		}
		// The SDK has retried the request already.
		return 0, &fatalError{err}
	}
	defer r.Close()
	if s := r.Size(); s != o.size {
		return 0, &fatalError{fmt.Errorf("%w: the object is now %d bytes, Open saw %d", ErrChanged, s, o.size)}
	}
	n, err := io.ReadFull(r, p)
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return n, fmt.Errorf("store sent %d of %d bytes: %w", n, len(p), err)
	}
	return n, nil
}

// pin makes a read fail unless the object is still the version Open saw,
// in each driver's terms. Drivers other than these read unpinned; the
// size check in readOnce still applies.
func (o *Object) pin(as func(any) bool) error {
	var s3in *s3.GetObjectInput
	if as(&s3in) {
		if o.etag != "" {
			s3in.IfMatch = &o.etag
		}
		return nil
	}
	var gcsObj **storage.ObjectHandle
	if as(&gcsObj) {
		if o.generation != 0 {
			*gcsObj = (*gcsObj).If(storage.Conditions{GenerationMatch: o.generation})
		}
		return nil
	}
	var az *azblobblob.DownloadStreamOptions
	if as(&az) {
		if o.etag != "" {
			et := azcore.ETag(o.etag)
			az.AccessConditions = &azblobblob.AccessConditions{
				ModifiedAccessConditions: &azblobblob.ModifiedAccessConditions{IfMatch: &et},
			}
		}
		return nil
	}
	return nil
}
