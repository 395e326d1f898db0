#!/usr/bin/env bash
# The full comparison bench/RESULTS.md is made from; `make bench` runs it.
# Run it with nothing else on the machine. It takes
#   - reads, one core (-cpu 1), -benchtime 3x: every reader on lineitem and
#     floats (with the decompression floor), quiver, its mapped and
#     streamed reads, pqarrow, its streamed read and parquet-go's two reads
#     (draining pages, and holding the table: parquetgo-table) on the other
#     datasets;
#   - Parallelism 2 on lineitem dict-snappy (-cpu 2);
#   - writes, quiver, pqarrow and the compression floor, every dataset and
#     configuration, one core, -benchtime 2x;
# in ROUNDS rounds (default 5). A round runs every benchmark twice in one
# process and keeps the second sample: the first starts from whatever heap
# the benchmark before it (often another library's) left, and whole-table
# reads measured up to 3 times slower in it; the second follows one of its
# own, as in a process that keeps reading. Rounds instead of -count 5 time
# the readers of a row seconds apart in every round, since this host's
# speed drifts over minutes (2d855d4 and e4f5530 give the measurements).
# Then one cold read of each file by quiver and pqarrow (BenchmarkReadCold:
# the bytes a read allocates when no released buffers are there to reuse),
# the kernels (-count 5; a kernel's implementations run back to back),
# the reads from object stores (BenchmarkRemote: 5, 20 and 80 ms per
# request, GOMAXPROCS 2, one read per sample, -count 3; a few minutes) and
# the datasets against DuckDB (BenchmarkDatasetVsDuckDB: 1,000 small and
# 20 large files, 1 and 2 threads, -count 3; a few minutes, and the first
# run writes the datasets under the temporary directory; DuckDB's side
# is skipped where the DuckDB helper is missing).
#
# Output: bench/results/DATE-HHMM-{read,read-all,parallel,write}.txt (the
# kept samples; every sample in *-raw.txt), DATE-HHMM-cold.txt,
# DATE-HHMM-kernels.txt, DATE-HHMM-remote.txt and DATE-HHMM-datasets.txt,
# each starting with
# configuration lines (date, quiver commit, Go, arrow-go and parquet-go
# versions, cores) that benchstat and cmd/ratios read. benchstat and
# ratio tables follow on the terminal; then bench/RESULTS.md is written
# from this run's files and the files of earlier runs are removed from
# bench/results (git keeps them).
#
# usage: scripts/bench-final.sh       (ROUNDS=n to change the rounds)
set -euo pipefail
cd "$(dirname "$0")/../bench"
GO=${GO:-go}
rounds=${ROUNDS:-5}
out=results/$(date -u +%F-%H%M)
bin=$(mktemp -d)/bench.test
"$GO" test -c -o "$bin" .

commit=$(git rev-parse --short HEAD)
[ -z "$(git status --porcelain -- .. 2>/dev/null)" ] || commit="$commit-dirty"
header() {
	echo "date: $(date -u +%F)"
	echo "quiver: $commit"
	echo "go: $("$GO" env GOVERSION)"
	echo "arrow-go: $("$GO" list -m -f '{{.Version}}' github.com/apache/arrow-go/v18)"
	echo "parquet-go: $("$GO" list -m -f '{{.Version}}' github.com/parquet-go/parquet-go)"
	echo "cores: $(nproc)"
}
kinds=(read read-all parallel write)
for f in "${kinds[@]}"; do
	header >"$out-$f.txt"
	header >"$out-$f-raw.txt"
done

run() { "$bin" -test.run '^$' -test.benchmem -test.benchtime 3x -test.count 2 -test.timeout 60m "$@"; }
# keep prints every line but the first sample of each benchmark.
keep() { awk '/ns\/op/ && !seen[$1]++ { next } { print }'; }
for round in $(seq "$rounds"); do
	echo "round $round of $rounds" >&2
	run -test.cpu 1 -test.bench 'BenchmarkRead$/dataset=(lineitem|floats)$/config=/impl=(quiver|quiver-mmap|quiver-stream|pqarrow|pqarrow-mmap|pqarrow-stream|parquetgo|parquetgo-table|floor)$' | tee -a "$out-read-raw.txt" | keep >>"$out-read.txt"
	run -test.cpu 1 -test.bench 'BenchmarkRead$/dataset=(taxi|strings|nested|wide)$/config=/impl=(quiver|quiver-mmap|quiver-stream|pqarrow|pqarrow-stream|parquetgo|parquetgo-table)$' | tee -a "$out-read-all-raw.txt" | keep >>"$out-read-all.txt"
	run -test.cpu 2 -test.bench 'BenchmarkRead$/dataset=lineitem$/config=dict-snappy$/impl=(quiver|quiver-parallel)$' | tee -a "$out-parallel-raw.txt" | keep >>"$out-parallel.txt"
	run -test.cpu 1 -test.benchtime 2x -test.bench 'BenchmarkWrite$/dataset=/config=/impl=(quiver|pqarrow|floor)$' | tee -a "$out-write-raw.txt" | keep >>"$out-write.txt"
done
{
	header
	"$bin" -test.run '^$' -test.benchmem -test.benchtime 1x -test.cpu 1 -test.timeout 60m -test.bench 'BenchmarkReadCold$'
} | tee "$out-cold.txt"
{
	header
	"$bin" -test.run '^$' -test.benchmem -test.count 5 -test.cpu 1 -test.timeout 60m \
		-test.bench '^Benchmark(Unpack32|Unpack64|RLEDictIndices|DeltaInt32|BSSDouble|DeltaByteArray|PlainByteArray)$'
} | tee "$out-kernels.txt"
{
	header
	"$bin" -test.run '^$' -test.benchmem -test.benchtime 1x -test.count 3 -test.cpu 2 -test.timeout 60m -test.bench 'BenchmarkRemote$'
} | tee "$out-remote.txt"
{
	header
	"$bin" -test.run '^$' -test.benchmem -test.count 3 -test.cpu 2 -test.timeout 60m -test.bench 'BenchmarkDatasetVsDuckDB$'
} | tee "$out-datasets.txt"

for f in read read-all parallel write cold kernels; do
	"$GO" tool benchstat -col /impl "$out-$f.txt"
	"$GO" run ./cmd/ratios "$out-$f.txt"
done
"$GO" tool benchstat -col /impl -row /latency,/query "$out-remote.txt"
"$GO" tool benchstat -col /impl -row /files,/threads,/query "$out-datasets.txt"

files=()
for f in read read-all parallel cold write kernels remote datasets; do files+=("$out-$f.txt"); done
"$GO" run ./cmd/ratios -page "${files[@]}" >RESULTS.md
for f in results/*; do
	case "$f" in "$out"-*) ;; *) rm -f "$f" && echo "removed $f (an earlier run; git keeps it)" >&2 ;; esac
done
echo "wrote RESULTS.md from ${files[*]}" >&2
