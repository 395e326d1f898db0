# Quiver build and test entry points. `make test` is what CI runs; on a
# fresh machine it needs only Go and make (deps installs the rest).

GO          ?= go
FUZZTIME    ?= 10s
QEMU        ?= qemu-aarch64-static
PKGS        := ./...

.PHONY: test deps vet fixtures unit purego arm64 fuzz bench bench-short generate pq cloud duckdb heavy

## test: everything CI checks; fails if any part fails.
test: deps vet fixtures generate unit purego arm64 fuzz bench-short cloud duckdb

## deps: install what the tests need and the machine lacks (qemu-user-static,
## node/npm and DuckDB, the Go modules, the SeaweedFS S3 server); quick when
## all is there. See scripts/deps.sh.
deps:
	GO=$(GO) QEMU=$(QEMU) ./scripts/deps.sh

## vet: go vet on the host and for arm64 (asmdecl checks the assembly frames).
vet:
	$(GO) vet $(PKGS)
	GOARCH=arm64 $(GO) vet $(PKGS)
	$(GO) vet ./testdata/gen

## fixtures: the files in testdata/ are exactly what their generator writes.
fixtures:
	@tmp=$$(mktemp -d) && $(GO) run ./testdata/gen $$tmp && \
	for f in $$tmp/*; do cmp $$f testdata/$$(basename $$f) || { echo "testdata/$$(basename $$f) is stale: run go run ./testdata/gen"; exit 1; }; done; \
	rm -rf $$tmp

## generate: the generated kernels (avo amd64 assembly, arm64 tables, Go
## unpack blocks) are exactly what their generators write.
generate:
	cd kernels/asm/_gen && $(GO) generate .
	cd kernels && $(GO) generate .
	git diff --exit-code -- kernels/asm kernels/unpack_blocks.go kernels/pack_blocks.go || { echo "generated kernels are stale: run make generate and commit"; exit 1; }

## unit: the tests on this machine's CPU, with every assembly path it
## supports, then the kernels again with AVX2 and BMI2 switched off so the
## dispatch falls back.
unit: deps
	$(GO) test -count=1 $(PKGS)
	GODEBUG=cpu.avx2=off,cpu.bmi2=off $(GO) test -count=1 ./kernels/...

## purego: the portable Go kernels only.
purego: deps
	$(GO) test -count=1 -tags purego $(PKGS)

## arm64: the NEON kernels and everything else, under qemu-user.
arm64: deps
	GOARCH=arm64 $(GO) test -count=1 -short -exec $(QEMU) $(PKGS)

## fuzz: a short burst of every fuzz target in the module.
fuzz:
	FUZZTIME=$(FUZZTIME) GO=$(GO) ./scripts/fuzz.sh

## bench: the full side-by-side comparison (reads, cold reads, writes,
## kernels) into bench/results/, then bench/RESULTS.md rewritten from it
## (slow; run it with nothing else on the machine; see bench/README.md).
bench:
	GO=$(GO) ./scripts/bench-final.sh

## bench-short: the bench module's vet and tests, then every benchmark once
## on the small datasets, so they keep compiling and running.
bench-short:
	cd bench && $(GO) vet ./...
	cd bench && QUIVER_BENCH_SIZE=small $(GO) test -count=1 -short ./...
	cd bench && QUIVER_BENCH_SIZE=small $(GO) test -run '^$$' -bench . -benchtime 1x ./...

## pq: build the command-line tool into ./pq.
pq:
	$(GO) build -o pq ./cmd/pq

## cloud: the object-store module (own go.mod): vet, then its tests, whose
## S3 tests start SeaweedFS (built by deps) on loopback and fail, rather
## than skip, when it is missing.
cloud:
	cd cloud && $(GO) vet ./...
	cd cloud && QUIVER_REQUIRE_WEED=1 $(GO) test -count=1 ./...

## duckdb: the in-process DuckDB module (own go.mod, cgo; DuckDB's static
## library comes from the Go module proxy): vet with and without its build
## tag, every test and example, then one pass of its benchmark on the small
## dataset. The 2 GiB corpus file (6.6 GB of memory) is left out here so
## the suite fits the machine beside the others: `make heavy` reads it.
duckdb:
	cd interop/duckdb && $(GO) vet ./... && $(GO) vet -tags duckdb_arrow ./...
	cd interop/duckdb && $(GO) test -count=1 -tags duckdb_arrow ./...
	cd interop/duckdb && QUIVER_BENCH_SIZE=small $(GO) test -tags duckdb_arrow -run '^$$' -bench . -benchtime 1x ./...

## heavy: the tests of the corpus files that decode to gigabytes
## (large_string_map.brotli.parquet: two 1 GiB strings, about 6 GB of
## memory and a minute each), which test leaves out.
heavy: deps
	QUIVER_HEAVY=1 $(GO) test -count=1 -run 'Heavy' ./arrowio/
	QUIVER_HEAVY=1 $(GO) test -count=1 -run 'TestMemoryMapCorpus/data/large_string_map' ./arrowio/internal/scan/
	cd interop/duckdb && QUIVER_HEAVY=1 $(GO) test -count=1 -tags duckdb_arrow -run 'TestCorpusMatchesReadParquet/data/large_string_map' ./...
