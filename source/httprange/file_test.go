package httprange

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestOpenLearnsSizeAndTailInOneRequest(t *testing.T) {
	data := testData(200 << 10)
	s := newTestServer(t, data, `"v1"`)
	f, err := Open(context.Background(), s.URL+"/obj", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Size() != int64(len(data)) || f.ETag() != `"v1"` {
		t.Fatalf("size %d etag %s, want %d \"v1\"", f.Size(), f.ETag(), len(data))
	}
	reqs := s.requests()
	if len(reqs) != 1 || reqs[0].Method != http.MethodGet || reqs[0].Header.Get("Range") != "bytes=-65536" {
		t.Fatalf("Open sent %d requests, first %s %q; want one GET bytes=-65536", len(reqs), reqs[0].Method, reqs[0].Header.Get("Range"))
	}
	// The footer read a Parquet reader makes next is answered from memory.
	buf := make([]byte, 64<<10)
	if _, err := f.ReadAt(buf, int64(len(data)-len(buf))); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf, data[len(data)-len(buf):]) {
		t.Fatal("tail read differs")
	}
	if st := f.Stats(); st.Requests != 1 || st.TailHits != 1 {
		t.Fatalf("stats %+v, want 1 request and 1 tail hit", st)
	}
}

func TestReadAtRanges(t *testing.T) {
	data := testData(300 << 10)
	s := newTestServer(t, data, `"v1"`)
	f, err := Open(context.Background(), s.URL+"/obj", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	size := int64(len(data))
	for _, c := range []struct {
		off, n  int64
		want    int64
		eof     bool
		request string // the Range header sent, "" for none
	}{
		{0, 100, 100, false, "bytes=0-99"},
		{1000, 1, 1, false, "bytes=1000-1000"},
		{size - 80000, 10000, 10000, false, fmt.Sprintf("bytes=%d-%d", size-80000, size-70001)},
		// Straddles the tail's start: only the part before it is fetched.
		{size - 70000, 20000, 20000, false, fmt.Sprintf("bytes=%d-%d", size-70000, size-65537)},
		{size - 10, 100, 10, true, ""},
		{size, 10, 0, true, ""},
		{size + 5, 10, 0, true, ""},
		{0, size, size, false, fmt.Sprintf("bytes=0-%d", size-65537)},
	} {
		s.resetRequests()
		p := make([]byte, c.n)
		n, err := f.ReadAt(p, c.off)
		if int64(n) != c.want || (err == io.EOF) != c.eof || (err != nil && err != io.EOF) {
			t.Errorf("ReadAt(%d bytes at %d) = %d, %v; want %d, eof %v", c.n, c.off, n, err, c.want, c.eof)
			continue
		}
		if n > 0 && !bytes.Equal(p[:n], data[c.off:c.off+int64(n)]) {
			t.Errorf("ReadAt(%d bytes at %d): wrong bytes", c.n, c.off)
		}
		reqs := s.requests()
		switch {
		case c.request == "" && len(reqs) != 0:
			t.Errorf("ReadAt(%d bytes at %d) sent %d requests, want none", c.n, c.off, len(reqs))
		case c.request != "" && (len(reqs) != 1 || reqs[0].Header.Get("Range") != c.request):
			t.Errorf("ReadAt(%d bytes at %d) sent %d requests (%v), want one for %s", c.n, c.off, len(reqs), ranges(reqs), c.request)
		case c.request != "":
			if h := reqs[0].Header; h.Get("If-Match") != `"v1"` || h.Get("Accept-Encoding") != "identity" {
				t.Errorf("request headers %v: want If-Match \"v1\" and Accept-Encoding identity", h)
			}
		}
	}
	if n, err := f.ReadAt(nil, size); n != 0 || err != nil {
		t.Errorf("empty read at the end = %d, %v; want 0, nil", n, err)
	}
	if _, err := f.ReadAt(make([]byte, 1), -1); err == nil {
		t.Error("negative offset: no error")
	}
}

func ranges(reqs []*http.Request) []string {
	var out []string
	for _, r := range reqs {
		out = append(out, r.Header.Get("Range"))
	}
	return out
}

func TestConcurrentReadAt(t *testing.T) {
	data := testData(1 << 20)
	s := newTestServer(t, data, `"v1"`)
	f, err := Open(context.Background(), s.URL+"/obj", Options{TailSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 1))
			for range 25 {
				off := rng.Int64N(int64(len(data)))
				n := rng.Int64N(min(int64(len(data))-off, 100<<10)) + 1
				p := make([]byte, n)
				if _, err := f.ReadAt(p, off); err != nil && err != io.EOF {
					errs <- err
					return
				}
				if !bytes.Equal(p, data[off:off+n]) {
					errs <- fmt.Errorf("bytes at %d+%d differ", off, n)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestRetries(t *testing.T) {
	data := testData(100 << 10)
	for _, c := range []struct {
		name   string
		faults func(s *testServer) []http.HandlerFunc
	}{
		{"503 then success", func(*testServer) []http.HandlerFunc {
			return []http.HandlerFunc{status(503), status(500)}
		}},
		{"429 then success", func(*testServer) []http.HandlerFunc {
			return []http.HandlerFunc{fixed(429, nil, "Retry-After", "1")}
		}},
		{"connection reset", func(*testServer) []http.HandlerFunc {
			return []http.HandlerFunc{reset, reset}
		}},
		{"body cut short", func(s *testServer) []http.HandlerFunc {
			return []http.HandlerFunc{truncated(data, `"v1"`)}
		}},
		{"stalled body", func(*testServer) []http.HandlerFunc {
			return []http.HandlerFunc{stalled(data, `"v1"`)}
		}},
		{"no answer", func(*testServer) []http.HandlerFunc {
			return []http.HandlerFunc{hanging}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newTestServer(t, data, `"v1"`)
			opts := fastOpts()
			opts.StallTimeout = 500 * time.Millisecond
			// The faults hit Open's probe first, then a read.
			s.queue(c.faults(s)...)
			f, err := Open(context.Background(), s.URL+"/obj", opts)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			s.queue(c.faults(s)...)
			p := make([]byte, 30000)
			if _, err := f.ReadAt(p, 1000); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(p, data[1000:31000]) {
				t.Fatal("bytes differ after retries")
			}
			if st := f.Stats(); st.Retries == 0 {
				t.Errorf("stats %+v: no retries counted", st)
			}
		})
	}
}

func TestRetriesRunOut(t *testing.T) {
	data := testData(100 << 10)
	s := newTestServer(t, data, `"v1"`)
	opts := fastOpts()
	opts.Retries = 2
	f, err := Open(context.Background(), s.URL+"/obj?X-Amz-Signature=secret", opts)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s.resetRequests()
	s.queue(status(503), status(503), status(503), status(503))
	_, err = f.ReadAt(make([]byte, 10), 5)
	var e *Error
	if !errors.As(err, &e) || e.Attempts != 3 || e.Status != 503 || e.Range != "bytes=5-14" {
		t.Fatalf("err %v (%#v), want an *Error after 3 attempts with status 503 for bytes=5-14", err, e)
	}
	msg := err.Error()
	if !strings.Contains(msg, "bytes=5-14") || !strings.Contains(msg, s.URL+"/obj?…") || strings.Contains(msg, "secret") {
		t.Errorf("message %q should name the range and the URL without its query", msg)
	}
	if n := len(s.requests()); n != 3 {
		t.Errorf("server saw %d requests, want 3", n)
	}

	// Retries < 0: one attempt only.
	opts.Retries = -1
	s.queue(status(503))
	if _, err := Open(context.Background(), s.URL+"/obj", opts); !errors.As(err, &e) || e.Attempts != 1 {
		t.Fatalf("Retries -1: err %v, want one attempt", err)
	}
}

// TestStallRunsOut: a server that stops sending fails the read once the
// retries are spent, with an error that says it stalled and is not taken
// for the caller's cancellation.
func TestStallRunsOut(t *testing.T) {
	data := testData(100 << 10)
	s := newTestServer(t, data, `"v1"`)
	opts := fastOpts()
	opts.Retries = 1
	opts.StallTimeout = 100 * time.Millisecond
	f, err := Open(context.Background(), s.URL+"/obj", opts)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s.queue(hanging, stalled(data, `"v1"`))
	_, err = f.ReadAt(make([]byte, 5000), 0)
	if err == nil || !strings.Contains(err.Error(), "stalled") || errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want a stall that is not context.Canceled", err)
	}
}

func TestShortBodyErrorNamesRange(t *testing.T) {
	data := testData(100 << 10)
	s := newTestServer(t, data, `"v1"`)
	opts := fastOpts()
	opts.Retries = 1
	f, err := Open(context.Background(), s.URL+"/obj", opts)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s.queue(truncated(data, `"v1"`), truncated(data, `"v1"`))
	_, err = f.ReadAt(make([]byte, 4000), 0)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err %v, want io.ErrUnexpectedEOF", err)
	}
	// The retry asks only for the bytes the first answer did not bring.
	reqs := s.requests()
	if last := reqs[len(reqs)-1].Header.Get("Range"); last != "bytes=2000-3999" {
		t.Errorf("the retry asked for %s, want bytes=2000-3999", last)
	}
	if !strings.Contains(err.Error(), "bytes=2000-3999") || !strings.Contains(err.Error(), s.URL) {
		t.Errorf("message %q should name the range and URL", err)
	}
}

func TestWrongAnswers(t *testing.T) {
	data := testData(100 << 10)
	huge := fmt.Sprint(int64(1) << 62)
	for _, c := range []struct {
		name  string
		fault http.HandlerFunc
		want  error
	}{
		{"wrong Content-Range", fixed(206, data[:10], "Content-Range", "bytes 10-19/102400"), ErrNoRange},
		{"Content-Range of another size", fixed(206, data[:10], "Content-Range", "bytes 0-9/5000"), ErrChanged},
		{"garbage Content-Range", fixed(206, data[:10], "Content-Range", "bytes 0-9/abc"), ErrNoRange},
		{"no Content-Range", fixed(206, data[:10]), ErrNoRange},
		{"Content-Length beyond the range", fixed(206, data[:10], "Content-Range", "bytes 0-9/102400", "Content-Length", "11"), ErrNoRange},
		{"200 with the whole object", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", fmt.Sprint(len(data)))
			w.Write(data)
		}, ErrNoRange},
		{"200 with a huge Content-Length", fixed(200, data, "Content-Length", huge), ErrNoRange},
		{"gzip", fixed(206, data[:10], "Content-Range", "bytes 0-9/102400", "Content-Encoding", "gzip"), ErrNoRange},
		{"412", status(412), ErrChanged},
		{"416", status(416), ErrChanged},
		{"404", status(404), fs.ErrNotExist},
		{"403", status(403), fs.ErrPermission},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newTestServer(t, data, `"v1"`)
			f, err := Open(context.Background(), s.URL+"/obj", fastOpts())
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			s.resetRequests()
			s.queue(c.fault)
			_, err = f.ReadAt(make([]byte, 10), 0)
			if !errors.Is(err, c.want) {
				t.Fatalf("err %v, want %v", err, c.want)
			}
			if n := len(s.requests()); n != 1 {
				t.Errorf("%d requests, want 1: this answer is not retried", n)
			}
			if st := f.Stats(); st.BytesRead > int64(len(data)) {
				t.Errorf("read %d bytes of a bad answer", st.BytesRead)
			}
		})
	}
}

// TestHostileSizesAllocateNothingLarge opens objects whose servers state
// sizes near 1<<62 in every header a size can hide in.
func TestHostileSizesAllocateNothingLarge(t *testing.T) {
	huge := int64(1) << 62
	for _, c := range []struct {
		name  string
		fault http.HandlerFunc
	}{
		{"200 with Content-Length 1<<62", fixed(200, []byte("PAR1"), "Content-Length", fmt.Sprint(huge))},
		{"206 claiming a range larger than asked", fixed(206, []byte("PAR1"),
			"Content-Range", fmt.Sprintf("bytes 0-%d/%d", huge-1, huge), "Content-Length", fmt.Sprint(huge))},
		{"206 with Content-Length 1<<62", fixed(206, []byte("PAR1"),
			"Content-Range", fmt.Sprintf("bytes %d-%d/%d", huge-4, huge-1, huge), "Content-Length", fmt.Sprint(huge))},
		{"416 of a negative size", fixed(416, nil, "Content-Range", "bytes */-5")},
		{"416 of an overflowing size", fixed(416, nil, "Content-Range", "bytes */99999999999999999999")},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newTestServer(t, nil, "")
			s.queue(c.fault, c.fault, c.fault)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			f, err := Open(context.Background(), s.URL+"/obj", fastOpts())
			runtime.ReadMemStats(&after)
			if err == nil {
				f.Close()
				t.Fatalf("Open succeeded with size %d", f.Size())
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
				t.Errorf("Open allocated %d bytes", grew)
			}
		})
	}
	// A 206 with an honest huge size is a valid answer: the File reports
	// it, and reads of it allocate only what the caller passes.
	s := newTestServer(t, nil, "")
	s.queue(fixed(206, []byte("PAR1"), "Content-Range", fmt.Sprintf("bytes %d-%d/%d", huge-4, huge-1, huge)))
	f, err := Open(context.Background(), s.URL+"/obj", fastOpts())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Size() != huge {
		t.Fatalf("size %d, want %d", f.Size(), huge)
	}
}

func TestObjectChanged(t *testing.T) {
	v1, v2 := testData(100<<10), bytes.Repeat([]byte{7}, 100<<10)
	t.Run("If-Match", func(t *testing.T) {
		s := newTestServer(t, v1, `"v1"`)
		f, err := Open(context.Background(), s.URL+"/obj", fastOpts())
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		s.replace(v2, `"v2"`)
		if _, err := f.ReadAt(make([]byte, 10), 0); !errors.Is(err, ErrChanged) {
			t.Fatalf("err %v, want ErrChanged", err)
		}
	})
	t.Run("server ignores If-Match", func(t *testing.T) {
		s := newTestServer(t, v1, `"v1"`)
		f, err := Open(context.Background(), s.URL+"/obj", fastOpts())
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		s.queue(func(w http.ResponseWriter, r *http.Request) {
			r.Header.Del("If-Match")
			serveObject(w, r, v2, `"v2"`)
		})
		if _, err := f.ReadAt(make([]byte, 10), 0); !errors.Is(err, ErrChanged) {
			t.Fatalf("err %v, want ErrChanged", err)
		}
	})
	t.Run("no ETag, new size", func(t *testing.T) {
		s := newTestServer(t, v1, "")
		f, err := Open(context.Background(), s.URL+"/obj", fastOpts())
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if f.ETag() != "" {
			t.Fatalf("ETag %q pinned without one served", f.ETag())
		}
		s.replace(v2[:50<<10], "")
		if _, err := f.ReadAt(make([]byte, 10), 0); !errors.Is(err, ErrChanged) {
			t.Fatalf("err %v, want ErrChanged", err)
		}
	})
	t.Run("weak ETag not pinned", func(t *testing.T) {
		s := newTestServer(t, v1, `W/"v1"`)
		f, err := Open(context.Background(), s.URL+"/obj", fastOpts())
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if f.ETag() != "" {
			t.Fatalf("weak ETag pinned as %q", f.ETag())
		}
		if _, err := f.ReadAt(make([]byte, 10), 0); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("NoETagPin", func(t *testing.T) {
		s := newTestServer(t, v1, `"v1"`)
		opts := fastOpts()
		opts.NoETagPin = true
		f, err := Open(context.Background(), s.URL+"/obj", opts)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		s.resetRequests()
		if _, err := f.ReadAt(make([]byte, 10), 0); err != nil {
			t.Fatal(err)
		}
		if h := s.requests()[0].Header.Get("If-Match"); h != "" {
			t.Fatalf("If-Match %q sent with NoETagPin", h)
		}
	})
}

func TestCancellation(t *testing.T) {
	data := testData(100 << 10)
	s := newTestServer(t, data, `"v1"`)
	ctx, cancel := context.WithCancel(context.Background())
	f, err := Open(ctx, s.URL+"/obj", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()

	// A read waiting on a silent server ends when its context does.
	s.queue(hanging)
	rctx, rcancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, rcancel)
	start := time.Now()
	_, err = f.ReadAtContext(rctx, make([]byte, 10), 0)
	if !errors.Is(err, context.Canceled) || time.Since(start) > 5*time.Second {
		t.Fatalf("ReadAtContext = %v after %v, want context.Canceled at once", err, time.Since(start))
	}

	// A read waiting to retry ends when Open's context does.
	opts := Options{MinBackoff: time.Hour, MaxBackoff: time.Hour}
	g, err := Open(ctx, s.URL+"/obj", opts)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	s.queue(status(503))
	time.AfterFunc(100*time.Millisecond, cancel)
	start = time.Now()
	_, err = g.ReadAt(make([]byte, 10), 0)
	if !errors.Is(err, context.Canceled) || time.Since(start) > 5*time.Second {
		t.Fatalf("ReadAt = %v after %v, want context.Canceled at once", err, time.Since(start))
	}
	if _, err := f.ReadAt(make([]byte, 10), 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("read after Open's context ended = %v, want context.Canceled", err)
	}
}

func TestClose(t *testing.T) {
	data := testData(100 << 10)
	s := newTestServer(t, data, `"v1"`)
	f, err := Open(context.Background(), s.URL+"/obj", Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.queue(hanging)
	time.AfterFunc(100*time.Millisecond, func() { f.Close() })
	if _, err := f.ReadAt(make([]byte, 10), 0); !errors.Is(err, fs.ErrClosed) {
		t.Fatalf("read during Close = %v, want fs.ErrClosed", err)
	}
	if _, err := f.ReadAt(make([]byte, 10), 0); !errors.Is(err, fs.ErrClosed) {
		t.Fatalf("read after Close = %v, want fs.ErrClosed", err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestOpenFallbacks(t *testing.T) {
	data := testData(100 << 10)
	t.Run("server without ranges, small object", func(t *testing.T) {
		small := data[:1000]
		s := newTestServer(t, small, "")
		s.queue(fixed(200, small, "Content-Length", "1000"))
		f, err := Open(context.Background(), s.URL+"/obj", Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		p := make([]byte, 100)
		if _, err := f.ReadAt(p, 500); err != nil || !bytes.Equal(p, small[500:600]) {
			t.Fatalf("read from the kept object: %v", err)
		}
		if n := len(s.requests()); n != 1 {
			t.Fatalf("%d requests, want 1", n)
		}
	})
	t.Run("server without ranges, large object", func(t *testing.T) {
		s := newTestServer(t, data, "")
		whole := fixed(200, data, "Content-Length", fmt.Sprint(len(data)))
		s.queue(whole, whole)
		_, err := Open(context.Background(), s.URL+"/obj", Options{})
		if !errors.Is(err, ErrNoRange) {
			t.Fatalf("err %v, want ErrNoRange", err)
		}
		if got := ranges(s.requests()); len(got) != 2 || got[1] != "bytes=0-0" {
			t.Fatalf("requests %v, want the suffix range then bytes=0-0", got)
		}
	})
	t.Run("server without suffix ranges", func(t *testing.T) {
		s := newTestServer(t, data, `"v1"`)
		s.queue(fixed(200, data, "Content-Length", fmt.Sprint(len(data))))
		f, err := Open(context.Background(), s.URL+"/obj", Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if f.Size() != int64(len(data)) || f.ETag() != `"v1"` {
			t.Fatalf("size %d etag %q", f.Size(), f.ETag())
		}
		p := make([]byte, 100)
		if _, err := f.ReadAt(p, int64(len(data)-100)); err != nil || !bytes.Equal(p, data[len(data)-100:]) {
			t.Fatalf("read: %v", err)
		}
	})
	t.Run("416 naming the size", func(t *testing.T) {
		s := newTestServer(t, data, "")
		s.queue(fixed(416, nil, "Content-Range", fmt.Sprintf("bytes */%d", len(data))))
		f, err := Open(context.Background(), s.URL+"/obj", Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if f.Size() != int64(len(data)) {
			t.Fatalf("size %d", f.Size())
		}
	})
	for name, fault := range map[string]http.HandlerFunc{
		"empty object, ServeContent": nil,
		"empty object, 416":          fixed(416, nil, "Content-Range", "bytes */0"),
		"empty object, 200":          fixed(200, nil, "Content-Length", "0"),
	} {
		t.Run(name, func(t *testing.T) {
			s := newTestServer(t, []byte{}, `"e"`)
			if fault != nil {
				s.queue(fault)
			}
			f, err := Open(context.Background(), s.URL+"/obj", Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if f.Size() != 0 {
				t.Fatalf("size %d", f.Size())
			}
			if n, err := f.ReadAt(make([]byte, 1), 0); n != 0 || err != io.EOF {
				t.Fatalf("ReadAt = %d, %v; want 0, EOF", n, err)
			}
		})
	}
	t.Run("known size", func(t *testing.T) {
		s := newTestServer(t, data, `"v1"`)
		f, err := Open(context.Background(), s.URL+"/obj", Options{Size: int64(len(data)), ETag: `"v1"`})
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if n := len(s.requests()); n != 0 {
			t.Fatalf("Open with a known size sent %d requests", n)
		}
		p := make([]byte, 10)
		if _, err := f.ReadAt(p, 10); err != nil || !bytes.Equal(p, data[10:20]) {
			t.Fatalf("read: %v", err)
		}
		if h := s.requests()[0].Header.Get("If-Match"); h != `"v1"` {
			t.Fatalf("If-Match %q, want the given ETag", h)
		}
	})
	t.Run("missing", func(t *testing.T) {
		s := newTestServer(t, data, "")
		s.queue(status(404))
		if _, err := Open(context.Background(), s.URL+"/obj", Options{}); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("err %v, want fs.ErrNotExist", err)
		}
	})
	t.Run("bad URLs", func(t *testing.T) {
		for _, u := range []string{"ftp://host/x", "http:///x", "://", "/local/path"} {
			if _, err := Open(context.Background(), u, Options{}); err == nil {
				t.Errorf("Open(%q): no error", u)
			}
		}
	})
}

func TestHeadersSent(t *testing.T) {
	data := testData(1000)
	s := newTestServer(t, data, `"v1"`)
	f, err := Open(context.Background(), s.URL+"/obj", Options{Header: http.Header{"Authorization": {"Bearer t"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if h := s.requests()[0].Header.Get("Authorization"); h != "Bearer t" {
		t.Fatalf("Authorization %q", h)
	}
}

func TestParseContentRange(t *testing.T) {
	for _, c := range []struct {
		in                string
		first, last, size int64
		ok                bool
	}{
		{"bytes 0-9/10", 0, 9, 10, true},
		{"Bytes 5-5/*", 5, 5, -1, true},
		{"bytes 0-9/9", 0, 0, 0, false},
		{"bytes 9-0/10", 0, 0, 0, false},
		{"bytes -1-9/10", 0, 0, 0, false},
		{"bytes +1-9/10", 0, 0, 0, false},
		{"bytes 0-9/ 10", 0, 0, 0, false},
		{"bytes 0-99999999999999999999/*", 0, 0, 0, false},
		{"bytes 0-9", 0, 0, 0, false},
		{"bytes */10", 0, 0, 0, false},
		{"items 0-9/10", 0, 0, 0, false},
		{"", 0, 0, 0, false},
	} {
		first, last, size, ok := parseContentRange(c.in)
		if ok != c.ok || ok && (first != c.first || last != c.last || size != c.size) {
			t.Errorf("parseContentRange(%q) = %d %d %d %v", c.in, first, last, size, ok)
		}
	}
}

func TestBackoffBounded(t *testing.T) {
	f := &File{minBackoff: 100 * time.Millisecond, maxBackoff: time.Second}
	for n := 1; n < 100; n++ {
		d := f.backoff(n, 0)
		if d < 50*time.Millisecond || d > time.Second {
			t.Fatalf("backoff(%d) = %v", n, d)
		}
	}
	if d := f.backoff(1, time.Hour); d != time.Second {
		t.Fatalf("Retry-After of an hour waits %v, want the 1s cap", d)
	}
}
