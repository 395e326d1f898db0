package page

import (
	"strconv"
	"strings"
)

// chunkPadding is how far past total_compressed_size a column chunk is read
// for files from writers known to understate it: parquet-mr before 1.2.9
// left the dictionary page header out of the size (PARQUET-816). A page
// header is well under this many bytes.
const chunkPadding = 100

// UnderstatesChunkSize reports whether a file's created_by names a writer
// with the PARQUET-816 bug: parquet-mr with no version or one before 1.2.9.
func UnderstatesChunkSize(createdBy string) bool {
	app, version, ok := strings.Cut(createdBy, " version ")
	if strings.TrimSpace(app) != "parquet-mr" {
		return false
	}
	if !ok {
		return true
	}
	version, _, _ = strings.Cut(version, " ")
	var v [3]int
	for i, part := range strings.SplitN(version, ".", 3) {
		digits := part
		if j := strings.IndexFunc(part, func(r rune) bool { return r < '0' || r > '9' }); j >= 0 {
			digits = part[:j]
		}
		n, err := strconv.Atoi(digits)
		if err != nil {
			return false
		}
		v[i] = n
	}
	return v[0] < 1 || (v[0] == 1 && (v[1] < 2 || (v[1] == 2 && v[2] < 9)))
}
