package scan

import (
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio/internal/schema"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

// Options are arrowio's ReadOptions with their defaults applied, as Open
// and OpenFile take them (ReadOptions documents each).
type Options struct {
	Columns     []string
	RowGroups   []int
	BatchSize   int              // at least 1
	Parallelism int              // at least 1
	Mem         memory.Allocator // never nil
	VerifyCRC   bool
	Mapping     schema.Options
	Dictionary  []string
	Decryption  *encrypt.DecryptionConfig
	MemoryMap   bool
	Filter      pageindex.Predicate
	IO          IOOptions
	// Metadata is the file's footer parsed earlier; Open reads the
	// footer when it is nil.
	Metadata *footer.FileMetaData
}

// IOOptions are arrowio's IOOptions with their defaults applied: every
// field is at least 1 (FooterReadSize at least 8, HoleLimit at least 0).
type IOOptions struct {
	FooterReadSize int64
	HoleLimit      int64
	RangeLimit     int64
	Concurrency    int
	PrefetchBytes  int64
}
