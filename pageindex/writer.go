package pageindex

import (
	"strconv"
	"strings"
)

// Writer is the application that wrote a file and its version, as
// FileMetaData.created_by states them ("parquet-mr version 1.8.1 (build
// abc)", "parquet-cpp-arrow version 4.0.1", "parquet-cpp version 1.2.0").
// Some writers are known to have written statistics that do not describe
// their data; [ChunkStats] leaves out what a Writer's statistics cannot be
// trusted for, so that pruning never drops a row a full scan would return.
type Writer struct {
	// App is the application name, lower-cased ("parquet-mr",
	// "parquet-cpp-arrow"), empty when created_by is absent.
	App string
	// Version is the major, minor and patch version; zero when created_by
	// states none.
	Version [3]int
	// HasVersion reports that created_by stated a version.
	HasVersion bool
}

// ParseWriter parses a created_by string. Anything it cannot parse gives a
// Writer with no version, which matches none of the flawed writers.
func ParseWriter(createdBy string) Writer {
	var w Writer
	fields := strings.Fields(strings.ToLower(createdBy))
	if len(fields) == 0 {
		return w
	}
	w.App = fields[0]
	if len(fields) < 3 || fields[1] != "version" {
		return w
	}
	// "1.8.1", "4.0.1-SNAPSHOT", "1.10.0rc1": leading digits of each part.
	parts := strings.SplitN(fields[2], ".", 3)
	for i, p := range parts {
		end := 0
		for end < len(p) && p[end] >= '0' && p[end] <= '9' {
			end++
		}
		n, err := strconv.Atoi(p[:end])
		if err != nil {
			if i == 0 {
				return w
			}
			break
		}
		w.Version[i] = n
		if end < len(p) {
			break
		}
	}
	w.HasVersion = true
	return w
}

// before reports that w is app at a version below v.
func (w Writer) before(app string, v [3]int) bool {
	if w.App != app || !w.HasVersion {
		return false
	}
	for i := range v {
		if w.Version[i] != v[i] {
			return w.Version[i] < v[i]
		}
	}
	return false
}

// The writers whose statistics are known to be wrong, after Arrow C++'s
// ApplicationVersion (metadata.cc) and the issues that found them. Each
// entry has a test with a file built to carry the flaw (writer_test.go).
var (
	// parquet-cpp-arrow before 5.0.0 wrote null_count 0 for
	// dictionary-encoded chunks with nulls (ARROW-12513).
	dictNullCountFixed = [3]int{5, 0, 0}
	// parquet-mr before 1.8.0 computed BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY
	// min and max with a signed byte comparison (PARQUET-251).
	binaryStatsFixed = [3]int{1, 8, 0}
	// Before parquet-mr 1.10.0 and parquet-cpp 1.3.0 statistics followed
	// the signed order whatever the column's logical type (PARQUET-686):
	// only columns that do sort signed, or chunks whose min equals their
	// max, have usable bounds.
	sortOrderFixedMR  = [3]int{1, 10, 0}
	sortOrderFixedCPP = [3]int{1, 3, 0}
)

// trustsNullCount reports whether w's null count of a chunk can be used;
// dictionary says the chunk has dictionary-encoded pages.
func (w Writer) trustsNullCount(dictionary bool) bool {
	return !(dictionary && w.before("parquet-cpp-arrow", dictNullCountFixed))
}

// trustsBounds reports whether w's min and max of a chunk can be used, for
// a column of physical byte arrays (binary) or not, whose bounds compare
// in the signed order (signed) or not; equal says min equals max.
func (w Writer) trustsBounds(binary, signed, equal bool) bool {
	if binary && w.before("parquet-mr", binaryStatsFixed) {
		return false
	}
	if w.before("parquet-mr", sortOrderFixedMR) || w.before("parquet-cpp", sortOrderFixedCPP) {
		return signed || equal
	}
	return true
}
