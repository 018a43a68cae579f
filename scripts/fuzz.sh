#!/bin/sh
# fuzz.sh [TIME] runs every fuzz target of the module, one after another,
# for TIME each (a go test -fuzztime value; default 5m) on one worker, and
# prints each target's executions. It stops at the first failure, which go
# test records under the package's testdata/fuzz for `go test` to rerun.
#
# A new interesting input is minimized for at most 10 s (go test's default
# of 60 s would spend most of a short run minimizing).
set -eu
fuzztime=${1:-5m}
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
summary=""
for pkg in $(go list ./...); do
	for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
		echo "== $pkg $target ($fuzztime)"
		if ! go test "$pkg" -run '^$' -fuzz "^$target\$" -fuzztime "$fuzztime" \
			-fuzzminimizetime 10s -parallel 1 >"$log" 2>&1; then
			cat "$log"
			echo "fuzz.sh: $pkg $target failed" >&2
			exit 1
		fi
		last=$(grep 'execs:' "$log" | tail -n 1)
		echo "$last"
		summary="$summary$pkg $target: $last
"
	done
done
echo "== all fuzz targets passed"
printf '%s' "$summary"
