// Package httprange reads an object over HTTP(S) as an [io.ReaderAt] by
// ranged GET requests: public buckets, presigned or signed URLs, and any
// HTTP server that honours Range (RFC 9110 section 14). It depends on the
// standard library only, so the core module can open URLs without a cloud
// SDK.
//
// [Open] learns the object's size, and its ETag, from one suffix request
// (Range: bytes=-N) whose bytes it keeps: a Parquet reader's first read is
// the file's tail, so opening and reading the footer costs one round trip.
// A GET comes first rather than a HEAD because presigned URLs are signed
// for one method, so a HEAD is refused where the GET is allowed. A server
// that does not take suffix ranges is asked for bytes=0-0 instead.
//
// Each ReadAt is one GET for exactly the bytes it asks for; the response
// must be 206 Partial Content with a Content-Range naming that range and
// the size Open learned. A server that ignores Range and answers 200 with
// the whole object gets its connection closed after the headers, so
// nothing near the object's size is read, and the read fails with
// [ErrNoRange]. Nothing is ever allocated from a length the server states.
//
// Failed GETs are retried a bounded number of times with exponential
// backoff and jitter: 5xx and 429 answers, reset or refused connections,
// bodies that end early (the retry asks only for the bytes still missing),
// and connections that stall. Context cancellation, [File.Close], 4xx
// answers and responses that do not match the request are not retried.
//
// When the server gives a strong ETag, every read sends If-Match with it,
// so an object replaced between reads fails with [ErrChanged] (412, a
// different ETag, or a different size) instead of mixing bytes of two
// versions.
//
// A File is safe for concurrent ReadAt calls; the default client keeps
// enough idle connections per host for a read planner's parallel ranges.
package httprange
