package httprange

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults for the zero values of Options.
const (
	DefaultTailSize     = 64 << 10 // footer.TailReadSize: the first read a Parquet reader makes
	DefaultRetries      = 3
	DefaultMinBackoff   = 100 * time.Millisecond
	DefaultMaxBackoff   = 5 * time.Second
	DefaultStallTimeout = 30 * time.Second
)

// Options configures Open. The zero value is ready to use.
type Options struct {
	// Client sends the requests; nil means a shared client whose
	// transport keeps up to 64 idle connections per host (net/http's
	// default keeps 2, so a planner's parallel ranges would reconnect).
	Client *http.Client
	// Header is added to every request: Authorization, a User-Agent, ...
	Header http.Header
	// Size, when positive, is the object's size as the caller knows it
	// (from a listing): Open then sends no request, keeps no tail, and
	// pins ETag when given.
	Size int64
	// ETag pins the object's version when Size is set.
	ETag string
	// TailSize is how many bytes at the object's end Open fetches and
	// keeps to answer reads from memory; 0 means DefaultTailSize, a
	// negative value keeps none (Open then asks for one byte).
	TailSize int
	// Retries is how many times a failed request is repeated; 0 means
	// DefaultRetries, a negative value none.
	Retries int
	// MinBackoff and MaxBackoff bound the wait before a retry, which
	// doubles from MinBackoff up to MaxBackoff with jitter; a Retry-After
	// answer raises it up to MaxBackoff. 0 means the defaults.
	MinBackoff, MaxBackoff time.Duration
	// StallTimeout abandons (and retries) a request that waits this long
	// for its response or for the next bytes of its body; 0 means
	// DefaultStallTimeout, a negative value never.
	StallTimeout time.Duration
	// NoETagPin sends no If-Match even when the server gave a strong ETag,
	// for servers that mishandle it. Size changes are still detected.
	NoETagPin bool
}

// Stats counts what a File has sent and received.
type Stats struct {
	Requests  int64 // GET requests sent, retries included
	Retries   int64 // requests that repeated a failed one
	BytesRead int64 // response body bytes received
	TailHits  int64 // reads answered wholly from the tail Open kept
}

// File is an object served over HTTP, read by ranged GETs. It is safe for
// concurrent use.
type File struct {
	url    string // the URL requests go to, query included
	name   string // the URL for messages: no user information, no query
	client *http.Client
	header http.Header
	size   int64
	etag   string // the strong ETag sent as If-Match; "" for none

	tail    []byte // the object's last bytes, fetched by Open
	tailOff int64

	retries    int
	minBackoff time.Duration
	maxBackoff time.Duration
	stall      time.Duration

	ctx    context.Context // Open's context; cancelled by Close
	cancel context.CancelFunc
	closed atomic.Bool

	requests, retried, bytesRead, tailHits atomic.Int64
}

var (
	_ io.ReaderAt = (*File)(nil)
	_ io.Closer   = (*File)(nil)
)

// Open returns the object at rawURL (http or https) as a File, learning
// its size and ETag with one suffix GET whose bytes it keeps (see the
// package documentation). ctx bounds Open and every later read of the
// File: once it is done, reads fail.
func Open(ctx context.Context, rawURL string, opts Options) (*File, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("httprange: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("httprange: %s: scheme %q is not http or https", redact(u), u.Scheme)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("httprange: %s: no host", redact(u))
	}
	f := &File{
		url:        rawURL,
		name:       redact(u),
		client:     opts.Client,
		header:     opts.Header.Clone(),
		retries:    opts.Retries,
		minBackoff: opts.MinBackoff,
		maxBackoff: opts.MaxBackoff,
		stall:      opts.StallTimeout,
	}
	if f.client == nil {
		f.client = defaultClient()
	}
	switch {
	case f.retries == 0:
		f.retries = DefaultRetries
	case f.retries < 0:
		f.retries = 0
	}
	if f.minBackoff <= 0 {
		f.minBackoff = DefaultMinBackoff
	}
	if f.maxBackoff <= 0 {
		f.maxBackoff = DefaultMaxBackoff
	}
	f.maxBackoff = max(f.maxBackoff, f.minBackoff)
	switch {
	case f.stall == 0:
		f.stall = DefaultStallTimeout
	case f.stall < 0:
		f.stall = 0
	}
	f.ctx, f.cancel = context.WithCancel(ctx)
	if opts.Size > 0 {
		f.size = opts.Size
		if !opts.NoETagPin && strongETag(opts.ETag) {
			f.etag = opts.ETag
		}
		return f, nil
	}
	tail := opts.TailSize
	switch {
	case tail == 0:
		tail = DefaultTailSize
	case tail < 0:
		tail = 1
	}
	etag, err := f.probe(ctx, tail)
	if err != nil {
		f.cancel()
		return nil, err
	}
	if opts.TailSize < 0 {
		f.tail = nil
	}
	if !opts.NoETagPin && strongETag(etag) {
		f.etag = etag
	}
	return f, nil
}

// Size returns the object's size in bytes.
func (f *File) Size() int64 { return f.size }

// ETag returns the ETag every read is pinned to, or "" when none is.
func (f *File) ETag() string { return f.etag }

// String returns the URL without user information or query.
func (f *File) String() string { return f.name }

// Stats returns the counts of requests and bytes so far.
func (f *File) Stats() Stats {
	return Stats{
		Requests:  f.requests.Load(),
		Retries:   f.retried.Load(),
		BytesRead: f.bytesRead.Load(),
		TailHits:  f.tailHits.Load(),
	}
}

// Close stops reads in flight and makes later ones fail with
// fs.ErrClosed. It returns nil; a second Close does nothing.
func (f *File) Close() error {
	f.closed.Store(true)
	f.cancel()
	return nil
}

// ReadAt reads len(p) bytes at off under the context given to Open, with
// io.ReaderAt's contract: fewer bytes only with an error, io.EOF at the
// end of the object.
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	return f.ReadAtContext(f.ctx, p, off)
}

// ReadAtContext is ReadAt under ctx as well as the context given to Open.
func (f *File) ReadAtContext(ctx context.Context, p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, &Error{Op: "read", URL: f.name, Err: fmt.Errorf("negative offset %d", off)}
	}
	if f.closed.Load() {
		return 0, &Error{Op: "read", URL: f.name, Err: fs.ErrClosed}
	}
	if off >= f.size {
		if len(p) == 0 && off == f.size {
			return 0, nil
		}
		return 0, io.EOF
	}
	want := p
	if rest := f.size - off; int64(len(p)) > rest {
		want = p[:rest]
	}
	if len(want) == 0 {
		return 0, nil
	}
	end := off + int64(len(want))
	fetch := want
	if tailEnd := f.tailOff + int64(len(f.tail)); len(f.tail) > 0 && end > f.tailOff && off < tailEnd {
		// The end of the range, at least, lies in the tail: copy that
		// part and fetch only what comes before it.
		from := max(off, f.tailOff)
		to := min(end, tailEnd)
		copy(want[from-off:to-off], f.tail[from-f.tailOff:to-f.tailOff])
		if to == end {
			fetch = want[:from-off]
		}
		if len(fetch) == 0 {
			f.tailHits.Add(1)
		}
	}
	if len(fetch) > 0 {
		if ctx != f.ctx {
			var cancel context.CancelFunc
			ctx, cancel = context.WithCancel(ctx)
			defer cancel()
			defer context.AfterFunc(f.ctx, cancel)()
		}
		if err := f.read(ctx, fetch, off); err != nil {
			return 0, err
		}
	}
	if len(want) < len(p) {
		return len(want), io.EOF
	}
	return len(want), nil
}

// read fills p with the bytes at off, retrying failed GETs; a retry asks
// only for the bytes still missing.
func (f *File) read(ctx context.Context, p []byte, off int64) error {
	got := 0
	e := &Error{Op: "read", URL: f.name}
	return f.retry(ctx, e, func(ctx context.Context) (int, time.Duration, error, bool) {
		rest := p[got:]
		at := off + int64(got)
		e.Range = "bytes=" + strconv.FormatInt(at, 10) + "-" + strconv.FormatInt(at+int64(len(rest))-1, 10)
		n, status, after, err, retry := f.get(ctx, e.Range, rest, at)
		got += n
		return status, after, err, retry
	})
}

// get sends one GET for the range header rng, which asks for the len(p)
// bytes at off, and reads the answer into p. It returns the bytes read
// (which count even when the body ends early), the status, the server's
// Retry-After, and whether an error is worth retrying.
func (f *File) get(ctx context.Context, rng string, p []byte, off int64) (n, status int, after time.Duration, err error, retry bool) {
	resp, stalled, done, err := f.send(ctx, rng)
	if err != nil {
		err, retry = stallErr(ctx, stalled, f.stall, err)
		return 0, 0, 0, err, retry
	}
	defer done()
	switch resp.StatusCode {
	case http.StatusPartialContent:
	case http.StatusOK:
		// The server ignored Range. Only a read of the whole object can
		// use the body; anything else closes it unread.
		if off != 0 || int64(len(p)) != f.size || resp.ContentLength != f.size {
			return 0, resp.StatusCode, 0, fmt.Errorf("%w: got 200 with the whole object (Content-Length %d) instead of 206", ErrNoRange, resp.ContentLength), false
		}
	default:
		err, retry := statusErr(resp)
		return 0, resp.StatusCode, retryAfter(resp), err, retry
	}
	if err := f.checkHeaders(resp); err != nil {
		return 0, resp.StatusCode, 0, err, false
	}
	if resp.StatusCode == http.StatusPartialContent {
		first, last, size, ok := parseContentRange(resp.Header.Get("Content-Range"))
		want := off + int64(len(p)) - 1
		switch {
		case !ok:
			return 0, resp.StatusCode, 0, fmt.Errorf("%w: 206 with Content-Range %q", ErrNoRange, resp.Header.Get("Content-Range")), false
		case size >= 0 && size != f.size:
			return 0, resp.StatusCode, 0, fmt.Errorf("%w: Content-Range %q gives a size of %d, Open saw %d", ErrChanged, resp.Header.Get("Content-Range"), size, f.size), false
		case first != off || last != want:
			return 0, resp.StatusCode, 0, fmt.Errorf("%w: asked for bytes %d-%d, got Content-Range %q", ErrNoRange, off, want, resp.Header.Get("Content-Range")), false
		case resp.ContentLength >= 0 && resp.ContentLength != int64(len(p)):
			return 0, resp.StatusCode, 0, fmt.Errorf("%w: asked for %d bytes, got Content-Length %d", ErrNoRange, len(p), resp.ContentLength), false
		}
	}
	n, err = io.ReadFull(resp.Body, p)
	f.bytesRead.Add(int64(n))
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			err = fmt.Errorf("server sent %d of %d bytes: %w", n, len(p), io.ErrUnexpectedEOF)
		} else {
			err = fmt.Errorf("after %d of %d bytes: %w", n, len(p), err)
		}
		err, retry = stallErr(ctx, stalled, f.stall, err)
		return n, resp.StatusCode, 0, err, retry
	}
	return n, resp.StatusCode, 0, nil, false
}

// checkHeaders refuses an answer whose bytes are not the object's own
// (Content-Encoding) or not the version Open saw (ETag).
func (f *File) checkHeaders(resp *http.Response) error {
	if ce := resp.Header.Get("Content-Encoding"); ce != "" && ce != "identity" {
		return fmt.Errorf("%w: Content-Encoding %q (ranges would count encoded bytes)", ErrNoRange, ce)
	}
	if et := resp.Header.Get("ETag"); f.etag != "" && et != "" && et != f.etag {
		return fmt.Errorf("%w: ETag %s, Open saw %s", ErrChanged, et, f.etag)
	}
	return nil
}

// send sends one GET with the Range header rng under a stall timer. The
// caller calls done when finished with the response; stalled reports
// whether the timer, not ctx, ended the request.
func (f *File) send(ctx context.Context, rng string) (resp *http.Response, stalled func() bool, done func(), err error) {
	actx, cancel := context.WithCancel(ctx)
	var fired atomic.Bool
	stalled = fired.Load
	var timer *time.Timer
	if f.stall > 0 {
		timer = time.AfterFunc(f.stall, func() { fired.Store(true); cancel() })
	}
	stop := func() {
		if timer != nil {
			timer.Stop()
		}
		cancel()
	}
	req, err := http.NewRequestWithContext(actx, http.MethodGet, f.url, nil)
	if err != nil {
		stop()
		return nil, stalled, nil, err
	}
	for k, v := range f.header {
		req.Header[k] = v
	}
	req.Header.Set("Range", rng)
	// Asking for identity keeps net/http from adding gzip and
	// decompressing: byte ranges are ranges of the stored bytes.
	req.Header.Set("Accept-Encoding", "identity")
	if f.etag != "" {
		req.Header.Set("If-Match", f.etag)
	}
	f.requests.Add(1)
	resp, err = f.client.Do(req)
	if err != nil {
		stop()
		return nil, stalled, nil, err
	}
	if timer != nil {
		timer.Reset(f.stall)
		resp.Body = &stallBody{r: resp.Body, timer: timer, d: f.stall}
	}
	return resp, stalled, func() { resp.Body.Close(); stop() }, nil
}

// stallBody restarts the stall timer whenever bytes arrive.
type stallBody struct {
	r     io.ReadCloser
	timer *time.Timer
	d     time.Duration
}

func (b *stallBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if n > 0 {
		b.timer.Reset(b.d)
	}
	return n, err
}

func (b *stallBody) Close() error { return b.r.Close() }

// strongETag reports whether et is a strong entity tag, the only kind
// If-Match compares (RFC 9110 section 13.1.1).
func strongETag(et string) bool {
	return len(et) >= 2 && et[0] == '"' && et[len(et)-1] == '"'
}

var defaultClient = sync.OnceValue(func() *http.Client {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return &http.Client{}
	}
	t = t.Clone()
	t.MaxIdleConns = max(t.MaxIdleConns, 256)
	t.MaxIdleConnsPerHost = 64
	return &http.Client{Transport: t}
})
