#!/usr/bin/env bash
# The read comparisons the reader's speed goals are judged on, as a
# session's final runs take them: every reader on lineitem and floats,
# quiver, its mapped and streamed reads, pqarrow, its streamed read and
# parquet-go on the other datasets
# (one core, reads -benchtime 3x), and Parallelism 2 on lineitem
# dict-snappy (-cpu 2). Each of the five samples of a benchmark comes from
# its own round: a round runs every benchmark once, so the readers of a
# row are timed seconds apart in every round, where -count 5 took
# one reader's five samples back to back and the next reader's a minute
# or more later. This host's speed drifts over minutes (the same build's
# streamed read of strings zstd-v2 had medians from 265 to 369 ms across
# the final runs of sessions 10 and 11, parquet-go's from 321 to 423 ms;
# bench/RESULTS.md), which -count 5 charged to whichever reader ran in
# the slow minutes. Raw output goes to
# bench/results/DATE-TAG-{read,read-all,parallel}.txt; benchstat and the
# ratio tables follow. Run it with nothing else on the machine.
#
# usage: scripts/bench-final.sh TAG
set -euo pipefail
tag=${1:?usage: scripts/bench-final.sh TAG}
cd "$(dirname "$0")/../bench"
out=results/$(date -u +%F)-$tag
bin=$(mktemp -d)/bench.test
go test -c -o "$bin" .
run() { "$bin" -test.run '^$' -test.benchmem -test.benchtime 3x -test.count 1 -test.timeout 60m "$@"; }
rm -f "$out-read.txt" "$out-read-all.txt" "$out-parallel.txt"
for round in 1 2 3 4 5; do
	echo "round $round of 5" >&2
	run -test.cpu 1 -test.bench 'BenchmarkRead$/dataset=(lineitem|floats)$/config=/impl=(quiver|quiver-mmap|quiver-stream|pqarrow|pqarrow-mmap|pqarrow-stream|parquetgo|floor)$' | tee -a "$out-read.txt"
	run -test.cpu 1 -test.bench 'BenchmarkRead$/dataset=(taxi|strings|nested|wide)$/config=/impl=(quiver|quiver-mmap|quiver-stream|pqarrow|pqarrow-stream|parquetgo)$' | tee -a "$out-read-all.txt"
	run -test.cpu 2 -test.bench 'BenchmarkRead$/dataset=lineitem$/config=dict-snappy$/impl=(quiver|quiver-parallel)$' | tee -a "$out-parallel.txt"
done
for f in read read-all parallel; do
	go tool benchstat -col /impl "$out-$f.txt"
	go run ./cmd/ratios "$out-$f.txt"
done
