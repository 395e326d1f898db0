package scan

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

// checkFilterInt96 refuses a filter on an INT96 column that reads in a
// unit other than nanoseconds: the predicate's literals and its pruning
// by dictionaries and bloom filters take INT96 values as nanoseconds,
// and a coarser read truncates them, so rows could no longer be compared
// exactly with what pruned them.
func checkFilterInt96(b *pageindex.Bound, opts *Options) error {
	if opts.Mapping.Int96 == nil || opts.Mapping.Int96.Unit == arrow.Nanosecond {
		return nil
	}
	for _, leaf := range b.Leaves() {
		if leaf.Physical == footer.TypeInt96 {
			return fmt.Errorf("%w: filter on INT96 column %q read as %s: predicates on INT96 columns need the default nanosecond unit", errs.ErrUnsupported, leaf.DottedPath(), opts.Mapping.Int96)
		}
	}
	return nil
}
