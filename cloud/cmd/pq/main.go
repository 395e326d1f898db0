// Command pq is the pq of cmd/pq in the core module, built with package
// cloud, so that its FILE arguments may also be object-store URLs:
//
//	go run ./cmd/pq head 's3://bucket/sales/part-0.parquet?region=eu-west-1'
//	go run ./cmd/pq meta gs://bucket/file.parquet
//	go run ./cmd/pq cat --where 'x > 5' azblob://container/file.parquet
//
// Credentials come from each SDK's usual chain (environment, profiles,
// instance metadata); the URL's query takes gocloud's bucket options (see
// package cloud). The commands and flags are those of cmd/pq.
package main

import (
	"github.com/quiverio/quiver/cloud/internal/pqopen"
	"github.com/quiverio/quiver/internal/pqcli"
)

func main() { pqcli.Main(pqopen.Openers()...) }
