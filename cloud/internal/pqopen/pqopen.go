// Package pqopen gives the pq command (package pqcli) the object-store URL
// schemes of package cloud: s3://, gs:// and azblob:// files open as
// cloud Objects, with each SDK's usual credentials.
package pqopen

import (
	"context"

	"github.com/quiverio/quiver/cloud"
	"github.com/quiverio/quiver/internal/pqcli"
)

// Schemes are the URL schemes Openers opens.
var Schemes = []string{"s3", "gs", "azblob"}

// Openers returns a pqcli.Opener for each of Schemes.
func Openers() []pqcli.Opener {
	out := make([]pqcli.Opener, len(Schemes))
	for i, s := range Schemes {
		out[i] = pqcli.Opener{Scheme: s, Open: open}
	}
	return out
}

// open opens the object at url.
func open(ctx context.Context, url string) (pqcli.Input, int64, error) {
	f, err := cloud.Open(ctx, url)
	if err != nil {
		return nil, 0, err
	}
	return f, f.Size(), nil
}
