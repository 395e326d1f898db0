#!/usr/bin/env bash
# Runs every fuzz target of the module (or of the packages given as
# arguments) for FUZZTIME (default 10s) each and
# fails on the first target that finds a failure. New interesting inputs are
# not minimized (FUZZMINIMIZETIME, default 0): minimizing kilobyte-sized
# Parquet inputs can take the whole burst, and a failing input is saved
# under testdata/fuzz/ either way.
#
# Go 1.26's fuzz coordinator can end a run that found nothing with a bare
# "context deadline exceeded" when a busy worker misses the -fuzztime
# deadline (golang/go#75804, fixed in Go 1.27). A run that fails that way,
# writes no failing input and whose seed corpus then passes as a plain test
# is reported as that race, not as a failure; anything else fails.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-10s}
FUZZMINIMIZETIME=${FUZZMINIMIZETIME:-0}
count=0
raced=0
# inputs counts the saved inputs of a fuzz target's corpus directory.
inputs() { if [ -d "$1" ]; then find "$1" -type f | wc -l; else echo 0; fi; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for pkg in $($GO list "${@:-./...}"); do
	dir=$($GO list -f '{{.Dir}}' "$pkg")
	for target in $($GO test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
		echo "fuzz $pkg $target ($FUZZTIME)"
		corpus="$dir/testdata/fuzz/$target"
		before=$(inputs "$corpus")
		if $GO test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" -fuzzminimizetime "$FUZZMINIMIZETIME" "$pkg" >"$log" 2>&1; then
			cat "$log"
		else
			cat "$log"
			after=$(inputs "$corpus")
			failures=$(grep -A1 -e '^--- FAIL' "$log" | grep -v -e '^--- FAIL' -e '^--$' | sed 's/^[[:space:]]*//' | sort -u)
			if [ "$after" != "$before" ] || [ "$failures" != "context deadline exceeded" ] || grep -q 'Failing input written' "$log"; then
				echo "fuzz: $target failed"
				exit 1
			fi
			$GO test -count=1 -run "^${target}\$" "$pkg"
			echo "fuzz: $target ended on Go's fuzztime deadline race (golang/go#75804); no failing input, seed corpus passes"
			raced=$((raced + 1))
		fi
		count=$((count + 1))
	done
done
echo "fuzz: $count targets ran without failure ($raced ended on the deadline race)"
