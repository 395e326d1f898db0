package httprange

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// testServer serves one object with http.ServeContent (which answers
// ranges, suffix ranges and If-Match) on 127.0.0.1, after running any
// queued faults, one per request.
type testServer struct {
	*httptest.Server
	mu     sync.Mutex
	data   []byte
	etag   string
	faults []http.HandlerFunc
	reqs   []*http.Request
}

func newTestServer(t *testing.T, data []byte, etag string) *testServer {
	t.Helper()
	s := &testServer{data: data, etag: etag}
	s.Server = httptest.NewServer(s) // binds 127.0.0.1:0
	t.Cleanup(s.Close)
	return s
}

func (s *testServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.reqs = append(s.reqs, r.Clone(context.Background()))
	var fault http.HandlerFunc
	if len(s.faults) > 0 {
		fault, s.faults = s.faults[0], s.faults[1:]
	}
	data, etag := s.data, s.etag
	s.mu.Unlock()
	if fault != nil {
		fault(w, r)
		return
	}
	serveObject(w, r, data, etag)
}

// serveObject answers r the way a well-behaved server does.
func serveObject(w http.ResponseWriter, r *http.Request, data []byte, etag string) {
	if etag != "" {
		w.Header().Set("ETag", etag)
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
}

// queue adds faults for the next requests.
func (s *testServer) queue(f ...http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, f...)
}

// replace swaps the object, as an upload of a new version does.
func (s *testServer) replace(data []byte, etag string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data, s.etag = data, etag
}

// requests returns the requests received so far.
func (s *testServer) requests() []*http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*http.Request(nil), s.reqs...)
}

func (s *testServer) resetRequests() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = nil
}

// status answers with code and no body.
func status(code int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(code) }
}

// reset closes the connection with a TCP reset before answering.
func reset(w http.ResponseWriter, r *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	conn.Close()
}

// truncated answers correctly but drops the connection after half the
// body.
func truncated(data []byte, etag string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		serveObject(&cutWriter{ResponseWriter: w, left: -1}, r, data, etag)
	}
}

// cutWriter passes on half of the body it is given, then aborts the
// connection, after wait is closed when it is not nil.
type cutWriter struct {
	http.ResponseWriter
	left int
	wait <-chan struct{}
}

func (c *cutWriter) Write(p []byte) (int, error) {
	if c.left < 0 {
		c.left = len(p) / 2
	}
	n := min(len(p), c.left)
	c.ResponseWriter.Write(p[:n])
	c.left -= n
	if c.left == 0 {
		c.ResponseWriter.(http.Flusher).Flush()
		if c.wait != nil {
			<-c.wait
		}
		panic(http.ErrAbortHandler)
	}
	return n, nil
}

// stalled answers correctly but stops sending after half the body until
// the request ends.
func stalled(data []byte, etag string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		serveObject(&cutWriter{ResponseWriter: w, left: -1, wait: r.Context().Done()}, r, data, etag)
	}
}

// hanging sends nothing until the request ends.
func hanging(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

// fixed answers with the given status, headers and body, whatever was
// asked.
func fixed(code int, body []byte, kv ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(kv); i += 2 {
			w.Header().Set(kv[i], kv[i+1])
		}
		w.WriteHeader(code)
		w.Write(body)
	}
}

// fastOpts retries quickly so fault tests take milliseconds.
func fastOpts() Options {
	return Options{MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond}
}

// testData returns n bytes that differ at every offset modulo 251.
func testData(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}
