#!/usr/bin/env bash
# Installs what `make test` needs beyond Go and make, when this machine
# lacks it; `make deps` runs it before every `make test`. Each step checks
# first and installs only what is missing, so on a machine that has
# everything it prints one line per step and takes about a second.
#
# Steps, in order:
#   qemu     qemu-user-static (apt), which runs the arm64 test binaries
#            ($QEMU, default qemu-aarch64-static)
#   duckdb   DuckDB, which reads the files the writer tests write: node and
#            npm (apt), then the npm package through the helper script
#            ../shared/tools/duckdb/duckdb (or $QUIVER_DUCKDB); skipped when
#            the helper is not there, as the tests that use it skip then
#   modules  the Go modules of the library and of bench/
#
# Adding a step (say an S3 server built with `go install` from the module
# proxy): write a function step_NAME that returns at once when the thing
# is there and installs it otherwise (calling fail with what to do by hand
# when it cannot), and add NAME to the steps list at the bottom.
#
# usage: scripts/deps.sh [step ...]    (no argument: every step)
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
QEMU=${QEMU:-qemu-aarch64-static}

say() { echo "deps: $*"; }
fail() {
	echo "deps: $*" >&2
	exit 1
}

# apt_install installs Debian packages, running apt-get update once first.
# It fails with a message naming the packages when it cannot: no apt-get,
# not root and no password-free sudo, or apt-get itself failing.
apt_updated=
apt_install() {
	local sudo=
	command -v apt-get >/dev/null || fail "no apt-get on this machine: install $* by hand"
	if [ "$(id -u)" != 0 ]; then
		sudo -n true 2>/dev/null || fail "installing $* needs root (or sudo without a password): install $* by hand"
		sudo="sudo -n"
	fi
	if [ -z "$apt_updated" ]; then
		say "apt-get update"
		$sudo apt-get update -qq || fail "apt-get update failed: install $* by hand"
		apt_updated=1
	fi
	say "apt-get install $*"
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null ||
		fail "apt-get install $* failed: install $* by hand"
}

step_qemu() {
	if command -v "$QEMU" >/dev/null; then
		say "qemu: $(command -v "$QEMU")"
		return
	fi
	[ "$QEMU" = qemu-aarch64-static ] ||
		fail "qemu: QEMU=$QEMU is not on PATH (unset QEMU to have qemu-user-static installed)"
	apt_install qemu-user-static
	command -v "$QEMU" >/dev/null || fail "qemu: qemu-user-static is installed but $QEMU is not on PATH"
	say "qemu: installed $(command -v "$QEMU")"
}

step_duckdb() {
	local helper=${QUIVER_DUCKDB:-../shared/tools/duckdb/duckdb}
	if [ ! -x "$helper" ]; then
		say "duckdb: no helper at $helper, skipped (the tests that use DuckDB skip too)"
		return
	fi
	if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
		apt_install nodejs npm
		command -v node >/dev/null && command -v npm >/dev/null ||
			fail "duckdb: nodejs and npm are installed but node or npm is not on PATH"
	fi
	"$helper" --install || fail "duckdb: $helper --install failed (it installs @duckdb/node-api from the npm registry)"
	say "duckdb: $helper, node $(node --version)"
}

step_modules() {
	command -v "$GO" >/dev/null || fail "modules: $GO is not on PATH (install Go from go.dev/dl)"
	"$GO" mod download || fail "modules: go mod download failed"
	local m
	for m in bench cloud; do
		(cd "$m" && "$GO" mod download) || fail "modules: go mod download in $m/ failed"
	done
	say "modules: $("$GO" version)"
}

# SeaweedFS is the S3-compatible server the cloud/ tests start on
# loopback. It is built from its Go module once per machine into
# $HOME/.cache/quiver/weed (5 to 16 minutes the first time, nothing after).
step_seaweedfs() {
	GO=$GO ./scripts/seaweedfs.sh build || fail "seaweedfs: scripts/seaweedfs.sh build failed"
}

# interop/duckdb links DuckDB's static library through cgo with g++.
step_cxx() {
	command -v g++ >/dev/null || apt_install g++
	command -v g++ >/dev/null || fail "cxx: g++ is installed but not on PATH"
	say "cxx: $(command -v g++)"
}

steps=(qemu duckdb modules seaweedfs cxx)
for s in "${@:-${steps[@]}}"; do
	declare -F "step_$s" >/dev/null || fail "no step $s (steps: ${steps[*]})"
	"step_$s"
done
