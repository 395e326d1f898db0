package httprange

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// attemptFunc makes one request. It returns the response status (0 when
// none came), the server's Retry-After (0 when none), the error, and
// whether the error is worth another attempt.
type attemptFunc func(ctx context.Context) (status int, after time.Duration, err error, retry bool)

// retry runs attempt until it succeeds, fails for good, runs out of
// retries, or ctx ends; a failure is returned as e with its fields filled.
func (f *File) retry(ctx context.Context, e *Error, attempt attemptFunc) error {
	for {
		if err := ctx.Err(); err != nil {
			return f.fail(e, err)
		}
		e.Attempts++
		if e.Attempts > 1 {
			f.retried.Add(1)
		}
		status, after, err, retry := attempt(ctx)
		e.Status = status
		if err == nil {
			return nil
		}
		if !retry || e.Attempts > f.retries {
			return f.fail(e, err)
		}
		wait := f.backoff(e.Attempts, after)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return f.fail(e, fmt.Errorf("%w (while waiting to retry after: %v)", ctx.Err(), err))
		case <-t.C:
		}
	}
}

// fail fills e with err, naming a closed File as fs.ErrClosed rather than
// as the cancellation Close caused.
func (f *File) fail(e *Error, err error) error {
	if f.closed.Load() && errors.Is(err, context.Canceled) {
		err = fs.ErrClosed
	}
	e.Err = err
	return e
}

// backoff returns the wait before retry number n (1 for the first): it
// doubles from minBackoff up to maxBackoff, with jitter in its upper half,
// and is at least the server's Retry-After, itself capped at maxBackoff.
func (f *File) backoff(n int, after time.Duration) time.Duration {
	d := f.minBackoff
	for i := 1; i < n && d < f.maxBackoff; i++ {
		d *= 2
	}
	d = min(d, f.maxBackoff)
	d = d/2 + rand.N(d/2+1)
	return max(d, min(after, f.maxBackoff))
}

// statusErr is the error for an unwanted status and whether to retry it:
// 408, 429 and 5xx are retried; 404 wraps fs.ErrNotExist, 401 and 403
// fs.ErrPermission, 412 and 416 ErrChanged (the object no longer matches
// the ETag, or is shorter than Open saw).
func statusErr(resp *http.Response) (error, bool) {
	code := resp.StatusCode
	e := &statusError{code: code}
	switch {
	case code == http.StatusNotFound || code == http.StatusGone:
		e.err = fs.ErrNotExist
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		e.err = fs.ErrPermission
	case code == http.StatusPreconditionFailed || code == http.StatusRequestedRangeNotSatisfiable:
		e.err = ErrChanged
	case code == http.StatusRequestTimeout || code == http.StatusTooManyRequests || code >= 500 && code != http.StatusNotImplemented:
		return e, true
	}
	return e, false
}

// retryAfter returns the delay a Retry-After header in seconds asks for,
// or 0.
func retryAfter(resp *http.Response) time.Duration {
	s := resp.Header.Get("Retry-After")
	if s == "" {
		return 0
	}
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		return 0
	}
	return time.Duration(n) * time.Second
}

// stallErr names err as a stall when the stall timer ended the attempt,
// and reports whether it is worth another attempt: a stall always is, while
// ctx lives; other transport errors as retriable says.
func stallErr(ctx context.Context, stalled func() bool, d time.Duration, err error) (error, bool) {
	if ctx.Err() != nil {
		return err, false
	}
	if stalled() {
		return fmt.Errorf("stalled: nothing received for %v (%v)", d, err), true
	}
	return err, retriable(err)
}

// retriable reports whether a transport error is worth another attempt:
// anything but errors that will not go away (certificates, unknown
// hosts).
func retriable(err error) bool {
	var (
		unknownAuth x509.UnknownAuthorityError
		hostErr     x509.HostnameError
		certErr     x509.CertificateInvalidError
		verifyErr   *tls.CertificateVerificationError
		dnsErr      *net.DNSError
	)
	switch {
	case errors.As(err, &unknownAuth), errors.As(err, &hostErr), errors.As(err, &certErr), errors.As(err, &verifyErr):
		return false
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return false
	}
	return true
}

// parseContentRange parses "bytes first-last/size" or "bytes first-last/*"
// (size -1) strictly: decimal digits only, first <= last < size.
func parseContentRange(s string) (first, last, size int64, ok bool) {
	rest, found := cutPrefixFold(s, "bytes ")
	if !found {
		return 0, 0, 0, false
	}
	rng, total, found := strings.Cut(rest, "/")
	if !found {
		return 0, 0, 0, false
	}
	a, b, found := strings.Cut(rng, "-")
	if !found {
		return 0, 0, 0, false
	}
	if first, ok = parseDigits(a); !ok {
		return 0, 0, 0, false
	}
	if last, ok = parseDigits(b); !ok || last < first {
		return 0, 0, 0, false
	}
	size = -1
	if total != "*" {
		if size, ok = parseDigits(total); !ok || last >= size {
			return 0, 0, 0, false
		}
	}
	return first, last, size, true
}

// parseUnsatisfied parses the "bytes */size" of a 416 answer.
func parseUnsatisfied(s string) (size int64, ok bool) {
	rest, found := cutPrefixFold(s, "bytes */")
	if !found {
		return 0, false
	}
	return parseDigits(rest)
}

// parseDigits parses a non-negative decimal int64: no sign, no spaces.
func parseDigits(s string) (int64, bool) {
	if s == "" || len(s) > 19 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) {
		return s, false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return s, false
		}
	}
	return s[len(prefix):], true
}
