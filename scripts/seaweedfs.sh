#!/usr/bin/env bash
# SeaweedFS, the S3-compatible server the cloud/ tests read from on loopback.
#
#   scripts/seaweedfs.sh build   build `weed` once into the cache (reused when present)
#   scripts/seaweedfs.sh path    print the binary's path (exit 1 when not built)
#   scripts/seaweedfs.sh start   start `weed mini` on 127.0.0.1, every port free and
#                                chosen at random, with a temporary data directory;
#                                wait until S3 answers; print
#                                `S3_ENDPOINT=http://127.0.0.1:PORT PID=N DIR=D`
#   scripts/seaweedfs.sh stop PID DIR   stop what start started and remove its directory
#
# The binary lives in $QUIVER_WEED_CACHE (default $HOME/.cache/quiver/weed),
# outside the repository: neither its source nor the binary is committed.
# `go install pkg@version` refuses SeaweedFS (its go.mod has replace
# directives), so `build` makes a throwaway module that requires it and runs
# `go build` there. The first build downloads the modules and compiles for
# 5 to 16 minutes on 2 cores (16 when other builds share them); later runs
# find the binary and return at once.
#
# The cloud/ tests do not need `start`: they find the binary at
# $HOME/.cache/quiver/weed/weed (or $QUIVER_WEED), start and stop their own
# server (cloud/internal/weedtest), and skip when it is not built.
#
# Environment: QUIVER_WEED_CACHE, SEAWEEDFS_VERSION (a module version of
# github.com/seaweedfs/seaweedfs), GO (default go).
set -euo pipefail

GO=${GO:-go}
SEAWEEDFS_VERSION=${SEAWEEDFS_VERSION:-v0.0.0-20261109003541-7506e5f91cd6}
CACHE=${QUIVER_WEED_CACHE:-$HOME/.cache/quiver/weed}
BIN=$CACHE/weed-$SEAWEEDFS_VERSION

build() {
	if [ -x "$BIN" ]; then
		echo "seaweedfs: $BIN already built"
		return 0
	fi
	mkdir -p "$CACHE"
	local mod
	mod=$(mktemp -d "$CACHE/build.XXXXXX")
	trap 'rm -rf "$mod"' RETURN
	(
		cd "$mod"
		"$GO" mod init quiver-weed-build >/dev/null 2>&1
		echo "seaweedfs: go get github.com/seaweedfs/seaweedfs/weed@$SEAWEEDFS_VERSION"
		GOFLAGS=-mod=mod "$GO" get "github.com/seaweedfs/seaweedfs/weed@$SEAWEEDFS_VERSION"
		echo "seaweedfs: go build (several minutes the first time)"
		local start=$SECONDS
		GOFLAGS=-mod=mod "$GO" build -trimpath -o "$BIN.tmp" github.com/seaweedfs/seaweedfs/weed
		mv "$BIN.tmp" "$BIN"
		echo "seaweedfs: built $BIN in $((SECONDS - start))s"
	)
	ln -sf "$(basename "$BIN")" "$CACHE/weed"
}

path() {
	if [ -x "$BIN" ]; then
		echo "$BIN"
	else
		echo "seaweedfs: not built; run scripts/seaweedfs.sh build" >&2
		return 1
	fi
}

# free_port sets PORT to a port nothing listens on at 127.0.0.1, between
# 20000 and 55000 (weed derives some ports as port+10000), and not taken by
# an earlier call.
taken=" "
free_port() {
	while :; do
		PORT=$((20000 + RANDOM % 35000))
		case "$taken" in *" $PORT "*) continue ;; esac
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
			taken="$taken$PORT "
			return
		fi
	done
}

start() {
	path >/dev/null
	local dir args=() name
	dir=$(mktemp -d "${TMPDIR:-/tmp}/quiver-weed.XXXXXX")
	for name in master.port master.port.grpc volume.port volume.port.grpc filer.port \
		filer.port.grpc s3.port s3.port.grpc admin.port admin.port.grpc; do
		free_port
		args+=("-$name=$PORT")
		[ "$name" = s3.port ] && s3=$PORT
	done
	echo "$taken" >"$dir/ports"
	# Loopback only, no telemetry (it would report to the internet), no
	# WebDAV/Iceberg/Lance listeners, sockets in the data directory where
	# weed lets us choose. With AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY
	# in the environment the S3 API requires those credentials; without
	# them it serves anonymous requests.
	"$BIN" mini -dir="$dir" -ip=127.0.0.1 -ip.bind=127.0.0.1 \
		-master.telemetry=false -webdav=false -s3.port.iceberg=0 -s3.port.lance=0 -admin.port.legacy=0 \
		-filer.localSocket="$dir/filer.sock" -s3.localSocket="$dir/s3.sock" \
		"${args[@]}" >"$dir/weed.log" 2>&1 &
	local pid=$!
	local i
	for i in $(seq 1 300); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$s3") 2>/dev/null; then
			echo "S3_ENDPOINT=http://127.0.0.1:$s3 PID=$pid DIR=$dir"
			return 0
		fi
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "seaweedfs: weed exited; log:" >&2
			cat "$dir/weed.log" >&2
			return 1
		fi
		sleep 0.2
	done
	echo "seaweedfs: S3 did not answer on 127.0.0.1:$s3 within 60s; log: $dir/weed.log" >&2
	kill "$pid" 2>/dev/null || true
	return 1
}

stop() {
	local pid=${1:?pid} dir=${2:?dir} p
	kill "$pid" 2>/dev/null || true
	for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -9 "$pid" 2>/dev/null || true
	case "$dir" in
	*/quiver-weed.*)
		# weed names its gRPC sockets after their ports, in /tmp.
		for p in $(cat "$dir/ports" 2>/dev/null); do
			rm -f /tmp/seaweedfs-*-"$p".sock
		done
		rm -rf "$dir"
		;;
	esac
}

case "${1:-}" in
build) build ;;
path) path ;;
start) start ;;
stop) shift; stop "$@" ;;
*)
	sed -n '2,9p' "$0" >&2
	exit 2
	;;
esac
