package pqcli

import (
	"flag"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/arrowio"
)

// int96Units are the values of the --int96 flag: the Arrow unit INT96
// timestamps are read in.
var int96Units = map[string]arrow.TimeUnit{"ns": arrow.Nanosecond, "us": arrow.Microsecond, "ms": arrow.Millisecond, "s": arrow.Second}

// addInt96Flag registers --int96 on fs and returns the mapping it asks
// for, to call after parsing.
func addInt96Flag(fs *flag.FlagSet) func() (arrowio.SchemaOptions, error) {
	unit := fs.String("int96", "ns", "unit INT96 timestamps are read in: ns, us, ms or s (dates outside 1677-2262 need us or coarser)")
	return func() (arrowio.SchemaOptions, error) {
		u, ok := int96Units[*unit]
		if !ok {
			return arrowio.SchemaOptions{}, fmt.Errorf("%w: --int96 %q: want ns, us, ms or s", errUsage, *unit)
		}
		if u == arrow.Nanosecond {
			return arrowio.SchemaOptions{}, nil
		}
		return arrowio.SchemaOptions{Int96: &arrow.TimestampType{Unit: u, TimeZone: "UTC"}}, nil
	}
}
