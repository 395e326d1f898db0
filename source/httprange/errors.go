package httprange

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

var (
	// ErrNoRange is wrapped by errors from a server that answers a ranged
	// GET with something other than the bytes asked for: 200 with the
	// whole object, or a 206 whose Content-Range, Content-Length or
	// Content-Encoding does not match the request.
	ErrNoRange = errors.New("httprange: server did not serve the byte range asked for")
	// ErrChanged is wrapped by errors from a read that found the object
	// different from the one Open saw: 412 to If-Match, another ETag, or
	// another size in Content-Range.
	ErrChanged = errors.New("httprange: object changed while being read")
)

// Error is the error of a request that failed, after its retries: what was
// being done, to which URL (its query left out, since presigned URLs carry
// credentials there), which bytes were asked for, the last HTTP status seen
// and the number of attempts made.
type Error struct {
	Op       string // "open" or "read"
	URL      string // scheme, host and path; "?…" stands for a query
	Range    string // the Range header of the last request, e.g. "bytes=0-99"
	Status   int    // the last response's status code; 0 when none came
	Attempts int    // requests made, retries included
	Err      error
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "httprange: %s %s", e.Op, e.URL)
	if e.Range != "" {
		fmt.Fprintf(&b, " (%s)", e.Range)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " after %d attempts", e.Attempts)
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// statusError is an HTTP answer that is not the one a request wanted.
type statusError struct {
	code int
	err  error // a sentinel it also matches (fs.ErrNotExist, ErrChanged, ...), or nil
}

func (e *statusError) Error() string {
	s := fmt.Sprintf("%d %s", e.code, http.StatusText(e.code))
	if e.err != nil {
		s += ": " + e.err.Error()
	}
	return s
}

func (e *statusError) Unwrap() error { return e.err }

// redact returns u without user information or query, for error messages
// and String: presigned and SAS URLs carry their signatures in the query.
func redact(u *url.URL) string {
	s := u.Scheme + "://" + u.Host + u.EscapedPath()
	if u.RawQuery != "" || u.ForceQuery {
		s += "?…"
	}
	return s
}
