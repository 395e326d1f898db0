package httprange

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// errSuffixIgnored is a probe answer that says nothing useful about
// ranges: the whole of a large object for a suffix range. Open then asks
// for bytes=0-0.
var errSuffixIgnored = errors.New("server ignored the suffix range")

// probe learns the object's size and ETag with a GET for its last n bytes
// and keeps those bytes as the tail. A server that answers the whole
// object is read only when the object fits in n bytes; otherwise Open
// asks for the first byte, which a server that serves ranges but not
// suffix ranges answers with 206 and the size.
func (f *File) probe(ctx context.Context, n int) (etag string, err error) {
	e := &Error{Op: "open", URL: f.name, Range: "bytes=-" + strconv.Itoa(n)}
	err = f.retry(ctx, e, func(ctx context.Context) (int, time.Duration, error, bool) {
		status, after, et, err, retry := f.probeSuffix(ctx, e.Range, n)
		etag = et
		return status, after, err, retry
	})
	if err == nil || !errors.Is(err, errSuffixIgnored) {
		return etag, err
	}
	e = &Error{Op: "open", URL: f.name, Range: "bytes=0-0"}
	err = f.retry(ctx, e, func(ctx context.Context) (int, time.Duration, error, bool) {
		status, after, et, err, retry := f.probeFirst(ctx, e.Range)
		etag = et
		return status, after, err, retry
	})
	return etag, err
}

// probeSuffix makes one suffix request for the last n bytes.
func (f *File) probeSuffix(ctx context.Context, rng string, n int) (status int, after time.Duration, etag string, err error, retry bool) {
	resp, stalled, done, err := f.send(ctx, rng)
	if err != nil {
		err, retry = stallErr(ctx, stalled, f.stall, err)
		return 0, 0, "", err, retry
	}
	defer done()
	etag = resp.Header.Get("ETag")
	if ce := resp.Header.Get("Content-Encoding"); ce != "" && ce != "identity" &&
		(resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusPartialContent) {
		return resp.StatusCode, 0, "", fmt.Errorf("%w: Content-Encoding %q (ranges would count encoded bytes)", ErrNoRange, ce), false
	}
	switch resp.StatusCode {
	case http.StatusPartialContent:
		cr := resp.Header.Get("Content-Range")
		if strings.HasSuffix(cr, "/0") && resp.ContentLength <= 0 {
			// An empty object: net/http's ServeContent answers a suffix
			// range of it with 206 and "bytes 0--1/0".
			f.size = 0
			return resp.StatusCode, 0, etag, nil, false
		}
		first, last, size, ok := parseContentRange(cr)
		if !ok || size < 0 || last != size-1 || last-first+1 > int64(n) {
			return resp.StatusCode, 0, "", fmt.Errorf("%w: asked for the last %d bytes, got Content-Range %q", ErrNoRange, n, cr), false
		}
		want := last - first + 1
		if resp.ContentLength >= 0 && resp.ContentLength != want {
			return resp.StatusCode, 0, "", fmt.Errorf("%w: Content-Range %q with Content-Length %d", ErrNoRange, cr, resp.ContentLength), false
		}
		buf := make([]byte, want) // at most n bytes: checked above
		got, err := io.ReadFull(resp.Body, buf)
		f.bytesRead.Add(int64(got))
		if err != nil {
			err, retry = stallErr(ctx, stalled, f.stall, fmt.Errorf("server sent %d of %d bytes: %w", got, want, shortErr(err)))
			return resp.StatusCode, 0, "", err, retry
		}
		f.size, f.tail, f.tailOff = size, buf, first
		return resp.StatusCode, 0, etag, nil, false
	case http.StatusOK:
		// Range ignored: keep the body only when it is no larger than the
		// tail would have been; never read more than n+1 bytes of it.
		if resp.ContentLength > int64(n) {
			return resp.StatusCode, 0, "", errSuffixIgnored, false
		}
		buf := make([]byte, n+1)
		got, err := io.ReadFull(resp.Body, buf)
		f.bytesRead.Add(int64(got))
		switch {
		case err == nil:
			return resp.StatusCode, 0, "", errSuffixIgnored, false // more than n bytes
		case !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF):
			err, retry = stallErr(ctx, stalled, f.stall, fmt.Errorf("after %d bytes: %w", got, err))
			return resp.StatusCode, 0, "", err, retry
		case resp.ContentLength >= 0 && int64(got) != resp.ContentLength:
			err, retry = stallErr(ctx, stalled, f.stall, fmt.Errorf("server sent %d of %d bytes: %w", got, resp.ContentLength, io.ErrUnexpectedEOF))
			return resp.StatusCode, 0, "", err, retry
		}
		f.size, f.tail, f.tailOff = int64(got), buf[:got:got], 0
		return resp.StatusCode, 0, etag, nil, false
	case http.StatusRequestedRangeNotSatisfiable:
		// An empty object has no last bytes; any other size means the
		// server refuses suffix ranges but said how large the object is.
		if size, ok := parseUnsatisfied(resp.Header.Get("Content-Range")); ok {
			f.size = size
			return resp.StatusCode, 0, etag, nil, false
		}
	}
	err, retry = statusErr(resp)
	return resp.StatusCode, retryAfter(resp), "", err, retry
}

// probeFirst makes one request for the object's first byte, for its size.
func (f *File) probeFirst(ctx context.Context, rng string) (status int, after time.Duration, etag string, err error, retry bool) {
	resp, stalled, done, err := f.send(ctx, rng)
	if err != nil {
		err, retry = stallErr(ctx, stalled, f.stall, err)
		return 0, 0, "", err, retry
	}
	defer done()
	switch resp.StatusCode {
	case http.StatusPartialContent:
		cr := resp.Header.Get("Content-Range")
		first, last, size, ok := parseContentRange(cr)
		if !ok || size < 0 || first != 0 || last != 0 {
			return resp.StatusCode, 0, "", fmt.Errorf("%w: asked for bytes 0-0, got Content-Range %q", ErrNoRange, cr), false
		}
		f.size = size
		return resp.StatusCode, 0, resp.Header.Get("ETag"), nil, false
	case http.StatusOK:
		return resp.StatusCode, 0, "", fmt.Errorf("%w: got 200 with the whole object (Content-Length %d) instead of 206", ErrNoRange, resp.ContentLength), false
	}
	err, retry = statusErr(resp)
	return resp.StatusCode, retryAfter(resp), "", err, retry
}

// shortErr names a body that ended early as io.ErrUnexpectedEOF.
func shortErr(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}
