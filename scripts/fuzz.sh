#!/usr/bin/env bash
# Runs every fuzz target of the module for FUZZTIME (default 10s) each and
# fails on the first target that finds a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-10s}
count=0
for pkg in $($GO list ./...); do
	for target in $($GO test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
		echo "fuzz $pkg $target ($FUZZTIME)"
		$GO test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" "$pkg"
		count=$((count + 1))
	done
done
echo "fuzz: $count targets ran without failure"
