#!/usr/bin/env bash
# The read comparisons the reader's speed goals are judged on, as a
# session's final runs take them: every reader on lineitem and floats,
# quiver, its mapped and streamed reads, pqarrow, its streamed read and
# parquet-go (draining pages, and holding the table: parquetgo-table)
# on the other datasets
# (one core, reads -benchtime 3x), and Parallelism 2 on lineitem
# dict-snappy (-cpu 2), in ROUNDS rounds (default 5). A round runs every
# benchmark twice in one process and keeps the second sample: the first
# starts from whatever heap the benchmark before it (often another
# library's) left, and whole-table reads measured 1.3-3 times slower in
# it (session 11's first final run, bench/RESULTS.md); the second follows
# one of its own, as in a process that keeps reading. Rounds instead of
# -count 5 time the readers of a row seconds apart in every round: with
# -count 5 one reader's samples ran back to back and the next reader's a
# minute or more later, and this host's speed drifts over minutes (the
# same build's streamed read of strings zstd-v2 had medians from 265 to
# 369 ms across the final runs of sessions 10 and 11, parquet-go's from
# 321 to 423 ms). Kept samples go to
# bench/results/DATE-TAG-{read,read-all,parallel}.txt, every sample to
# DATE-TAG-*-raw.txt, the cold reads to DATE-TAG-cold.txt; benchstat and
# the ratio tables follow. Run it with nothing else on the machine.
#
# usage: scripts/bench-final.sh TAG
set -euo pipefail
tag=${1:?usage: scripts/bench-final.sh TAG}
cd "$(dirname "$0")/../bench"
out=results/$(date -u +%F)-$tag
bin=$(mktemp -d)/bench.test
go test -c -o "$bin" .
rounds=${ROUNDS:-5}
run() { "$bin" -test.run '^$' -test.benchmem -test.benchtime 3x -test.count 2 -test.timeout 60m "$@"; }
# keep prints every line but the first sample of each benchmark.
keep() { awk '/ns\/op/ && !seen[$1]++ { next } { print }'; }
for f in read read-all parallel; do rm -f "$out-$f.txt" "$out-$f-raw.txt"; done
for round in $(seq "$rounds"); do
	echo "round $round of $rounds" >&2
	run -test.cpu 1 -test.bench 'BenchmarkRead$/dataset=(lineitem|floats)$/config=/impl=(quiver|quiver-mmap|quiver-stream|pqarrow|pqarrow-mmap|pqarrow-stream|parquetgo|parquetgo-table|floor)$' | tee -a "$out-read-raw.txt" | keep >>"$out-read.txt"
	run -test.cpu 1 -test.bench 'BenchmarkRead$/dataset=(taxi|strings|nested|wide)$/config=/impl=(quiver|quiver-mmap|quiver-stream|pqarrow|pqarrow-stream|parquetgo|parquetgo-table)$' | tee -a "$out-read-all-raw.txt" | keep >>"$out-read-all.txt"
	run -test.cpu 2 -test.bench 'BenchmarkRead$/dataset=lineitem$/config=dict-snappy$/impl=(quiver|quiver-parallel)$' | tee -a "$out-parallel-raw.txt" | keep >>"$out-parallel.txt"
done
# One cold read of each file by quiver and pqarrow (BenchmarkReadCold):
# the bytes a read allocates when no released buffers are there to reuse.
"$bin" -test.run '^$' -test.benchmem -test.benchtime 1x -test.cpu 1 -test.timeout 60m -test.bench 'BenchmarkReadCold$' | tee "$out-cold.txt"
for f in read read-all parallel; do
	go tool benchstat -col /impl "$out-$f.txt"
	go run ./cmd/ratios "$out-$f.txt"
done
# Parallelism 2 is judged against the one-core read of the same rounds,
# not the serial read at -cpu 2 the parallel file's ratio table divides by.
echo "Parallelism 2 against the one-core read (quiver column: one-core time / parallel time):"
{
	grep -h 'lineitem/config=dict-snappy/impl=quiver[[:space:]]' "$out-read.txt"
	grep -h 'lineitem/config=dict-snappy/impl=quiver-parallel-2[[:space:]]' "$out-parallel.txt"
} | go run ./cmd/ratios -base quiver-parallel
