package dataset

import "errors"

// Sentinel errors of the package. Errors about one file name it; errors
// from reading a file (arrowio.ErrCorrupt, footer.ErrCorrupt, I/O errors)
// are wrapped with its path and stay matchable with errors.Is.
var (
	// ErrPartition reports partition directories that do not fit
	// together (different keys in different files, a key twice), a value
	// that does not parse as its key's type, or a partition column that
	// clashes with a data column.
	ErrPartition = errors.New("dataset: partitioning")
	// ErrSchema reports files whose schemas cannot be read as one: a
	// column whose types do not unify, or a file whose column cannot be
	// read as the dataset's type.
	ErrSchema = errors.New("dataset: schema")
	// ErrFilter reports a filter that does not fit the dataset: a column
	// that is neither a data column nor a partition key, or a literal that
	// does not suit a partition key's type.
	ErrFilter = errors.New("dataset: filter")
	// ErrChanged reports a file that differs from the one a Split was made
	// from (another size).
	ErrChanged = errors.New("dataset: file changed since the split was made")
)
