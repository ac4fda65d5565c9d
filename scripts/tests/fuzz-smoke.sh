#!/bin/sh
# SPDX-License-Identifier: MIT
# A short run of every libFuzzer target (make fuzz: */tests/fuzz/fuzz-*.c,
# clang -fsanitize=fuzzer,address,undefined) on its seed corpus: a few
# thousand inputs each (FUZZ_SMOKE_RUNS, default 4000; seed 1), two at a time, so that a
# reader change that crashes, hangs (-timeout) or bloats (-rss_limit_mb) on
# the seeds or what those inputs find fails make check. The
# mutations are libFuzzer's of one fixed seed (-seed=1): the same inputs on
# every run of a machine, so that a failure is a finding (its input is kept
# as build-fuzz/smoke-crash-NAME-*), never chance. The long runs are make
# fuzz-run SECONDS=N. One TAP line per target.
. "$(dirname "$0")/lib.sh"
# a count of inputs, not a time: the same inputs on any machine, so a find is a
# regression and not the luck of a fast run (a time bound made it flaky)
runs_n=${FUZZ_SMOKE_RUNS:-4000}
secs=60
set -- "$top"/build-fuzz/fuzz-*
if [ ! -x "$1" ]; then
	not_ok "the fuzz targets are built (make check builds them; make fuzz alone)"
	exit 0
fi

run_target() {	# target: its result in $tmp/NAME.result, its log in $tmp/NAME.log
	name=${1##*/fuzz-}
	mkdir -p "$tmp/corpus-$name"
	# new inputs go to the scratch corpus (first); the seeds are only read
	"$1" -seed=1 -runs="$runs_n" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$top/build-fuzz/smoke-crash-$name-" "$tmp/corpus-$name" "$top/test-data/corpus/$name" \
		>"$tmp/$name.log" 2>&1
	echo $? >"$tmp/$name.result"
}

# two lanes, one per core: the targets taken in turn
lane() {	# first (0 or 1), targets...
	i=0 first=$1; shift
	for t in "$@"; do
		[ $((i % 2)) -eq "$first" ] && run_target "$t"
		i=$((i + 1))
	done
}
lane 0 "$@" &
lane 1 "$@" &
wait

for t in "$@"; do
	name=${t##*/fuzz-}
	rc=$(cat "$tmp/$name.result" 2>/dev/null || echo "?")
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$name.log" | tail -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$tmp/$name.log" | tail -n 1 | cut -d' ' -f2)
	if [ "$rc" = 0 ] && [ -n "$runs" ]; then
		ok "fuzz-$name: ${runs} inputs (of ${runs_n}, seed 1), coverage ${cov:-?}, no crash, hang or leak"
	else
		grep -E 'ERROR|SUMMARY|Test unit written|deadly signal|timeout|out-of-memory' "$tmp/$name.log" \
			>"$tmp/$name.why" 2>/dev/null
		tail -n 20 "$tmp/$name.log" >>"$tmp/$name.why"
		not_ok "fuzz-$name: exit $rc within ${runs_n} inputs, seed 1 (input: test-data/corpus/$name, see the log lines below)" \
			"$tmp/$name.why"
	fi
done
