package scan

import (
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio/internal/schema"
	"github.com/quiverio/quiver/encrypt"
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
}
