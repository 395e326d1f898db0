#!/usr/bin/env bash
# The read comparisons the reader's speed goals are judged on, as a
# session's final runs take them: every reader on lineitem and floats,
# quiver, its mapped and streamed reads, pqarrow, its streamed read and
# parquet-go on the other datasets
# (one core, -count 5, reads -benchtime 3x), and Parallelism 2 on
# lineitem dict-snappy (-cpu 2). Raw output goes to
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
run() { "$bin" -test.run '^$' -test.benchmem -test.benchtime 3x -test.count 5 -test.timeout 60m "$@"; }
run -test.cpu 1 -test.bench 'BenchmarkRead$/dataset=(lineitem|floats)$/config=/impl=(quiver|quiver-mmap|quiver-stream|pqarrow|pqarrow-mmap|pqarrow-stream|parquetgo|floor)$' | tee "$out-read.txt"
run -test.cpu 1 -test.bench 'BenchmarkRead$/dataset=(taxi|strings|nested|wide)$/config=/impl=(quiver|quiver-mmap|quiver-stream|pqarrow|pqarrow-stream|parquetgo)$' | tee "$out-read-all.txt"
run -test.cpu 2 -test.bench 'BenchmarkRead$/dataset=lineitem$/config=dict-snappy$/impl=(quiver|quiver-parallel)$' | tee "$out-parallel.txt"
for f in read read-all parallel; do
	go tool benchstat -col /impl "$out-$f.txt"
	go run ./cmd/ratios "$out-$f.txt"
done
