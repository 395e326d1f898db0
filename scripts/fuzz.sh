#!/usr/bin/env bash
# Runs every fuzz target of the module for FUZZTIME (default 10s) each and
# fails on the first target that finds a failure. New interesting inputs are
# not minimized (FUZZMINIMIZETIME, default 0): minimizing kilobyte-sized
# Parquet inputs can take the whole burst, and a failing input is saved
# under testdata/fuzz/ either way.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-10s}
FUZZMINIMIZETIME=${FUZZMINIMIZETIME:-0}
count=0
for pkg in $($GO list ./...); do
	for target in $($GO test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
		echo "fuzz $pkg $target ($FUZZTIME)"
		$GO test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" -fuzzminimizetime "$FUZZMINIMIZETIME" "$pkg"
		count=$((count + 1))
	done
done
echo "fuzz: $count targets ran without failure"
