package arrowio

import "github.com/quiverio/quiver/arrowio/internal/scan"

// FileOf returns the file reader behind r, for the external tests
// (package arrowio_test) that read a file in a way the public API leaves
// to the Reader (each column chunk apart, page by page through a small
// window) or look at how it reads (the nested plans of its columns).
func FileOf(r *Reader) *scan.File { return r.f }
