#!/bin/sh
# SPDX-License-Identifier: MIT
# Samples without times: test-data/per-thread, fakejit under real
# `perf record -k mono --per-thread`, without and with -T (its README says
# how they were made and what is true). Without sample times no sample where
# alpha and beta (one address, one after the other) both were may be handed
# to either: they are unattributed.ambiguous, and the warning names the cause
# (--per-thread without -T) and the loads. With -T every one is placed by
# time. The expected numbers are perf script's own (addresses and times of
# the samples) against fakejit's report of its loads (fakejit.out).
. "$(dirname "$0")/lib.sh"

pt=$top/test-data/per-thread
total() { awk -v c="$2" '$1 == "total" && $3 == c { s += $4 } END { print s + 0 }' "$1"; }
object_samples() {	# stream, name: samples of all objects with that name
	awk -v n="name=$2" '$1 == "object" { for (i = 4; i <= NF; i++) if ($i == n) id[$2] = 1 }
		$1 == "sample" && ($2 in id) { s += $5 } END { print s + 0 }' "$1"
}
# load FAKEJIT_OUT NAME FIELD: the field after FIELD on NAME's first line of
# fakejit's report (NAME "moved": the line of gamma's move)
load() { awk -v n="$2" -v f="$3" '$1 == n || $2 == n { for (i = 1; i < NF; i++) if ($i == f) { print $(i + 1); exit } }' "$1"; }
hex() { printf '%012x' "$1"; }
# in_range PERF_DATA LO HI [BEFORE|AFTER TIME]: perf script's samples with LO <= ip < HI (and time)
in_range() {
	if [ $# -gt 3 ]; then
		perf script -i "$1" --ns -F time,ip 2>/dev/null | awk -v lo="$(hex "$2")" -v hi="$(hex "$3")" \
			-v when="$4" -v t0="$5" '{ t = $1; sub(/:$/, "", t); sub(/\./, "", t)
			if (length($2) == 12 && $2 >= lo && $2 < hi && ((when == "before") == (t + 0 < t0 + 0))) n++ }
			END { print n + 0 }'
	else
		perf script -i "$1" -F ip 2>/dev/null | awk -v lo="$(hex "$2")" -v hi="$(hex "$3")" \
			'length($1) == 12 && $1 >= lo && $1 < hi { n++ } END { print n + 0 }'
	fi
}

# Without -T.
d=$pt/no-T
a=$(load "$d/fakejit.out" alpha addr) alen=$(load "$d/fakejit.out" alpha size)
blen=$(load "$d/fakejit.out" beta size)
g1=$(load "$d/fakejit.out" gamma addr) glen=$(load "$d/fakejit.out" gamma size)
g2=$(load "$d/fakejit.out" moved addr)
(cd "$tmp" && plugin_stream "$d/perf.data" no-T.hbs 2>no-T.err)
s=$tmp/no-T.hbs
both=$(in_range "$d/perf.data" $((a)) $((a + alen)))
beta_only=$(in_range "$d/perf.data" $((a + alen)) $((a + blen)))
gamma=$(( $(in_range "$d/perf.data" $((g1)) $((g1 + glen))) + $(in_range "$d/perf.data" $((g2)) $((g2 + glen))) ))
check "no-T: the stream says time-aware no" grep -qx "time-aware no" "$s"
check "no-T: the $both samples where alpha and beta both were are unattributed.ambiguous" \
	test "$(total "$s" unattributed.ambiguous)" -eq "$both" -a "$both" -gt 100
check "no-T: none is handed to alpha; beta has only its own bytes' ($beta_only)" \
	test "$(object_samples "$s" alpha)" -eq 0 -a "$(object_samples "$s" beta)" -eq "$beta_only"
check "no-T: gamma's $gamma samples (at G1 and G2, where no other load was) are gamma's" \
	test "$(object_samples "$s" gamma)" -eq "$gamma" -a "$gamma" -gt 100
check "no-T: every sample in one class" test "$(total "$s" all)" -eq \
	"$(awk '$1 == "total" && $3 != "all" { s += $4 } END { print s + 0 }' "$s")"
check "no-T: the warning says the real cause, --per-thread without -T" \
	grep -q "^hotblocks: warning: event cpu-clock has no sample times (\`perf record --per-thread\` without \`-T\`/\`--timestamp\`)" "$tmp/no-T.err"
check "... and not that -k mono is missing (it was given)" sh -c "! grep -q 'not recorded with .perf record -k mono' '$tmp/no-T.err'"
check "... and names the loads the ambiguous samples could be" \
	grep -q "^hotblocks: warning: $both JIT samples hit addresses that several code loads covered, with no time to tell which ran (counted as unattributed.ambiguous): alpha or beta (pid [0-9]*, $both)$" "$tmp/no-T.err"
"$POSTPROC" -p 100 "$s" >"$tmp/no-T.out" 2>"$tmp/no-T.notes" </dev/null
check "no-T: the report's notes count them apart once (the plugin's warning told the class) and name alpha and beta" sh -c "
	! grep -q 'samples unattributed (' '$tmp/no-T.notes' &&
	grep -q 'the plugin warned: $both JIT samples .*(counted as unattributed.ambiguous): alpha or beta' '$tmp/no-T.notes'"
"$POSTPROC" --json "$s" >"$tmp/no-T.json" 2>/dev/null </dev/null
check "no-T: JSON counts them as unattributed.ambiguous" grep -q "\"ambiguous\": $both," "$tmp/no-T.json"

# With -T: placed by time, as perf inject --jit places them (README).
d=$pt/with-T
a=$(load "$d/fakejit.out" alpha addr) alen=$(load "$d/fakejit.out" alpha size)
blen=$(load "$d/fakejit.out" beta size) tb=$(load "$d/fakejit.out" beta load)
g1=$(load "$d/fakejit.out" gamma addr) glen=$(load "$d/fakejit.out" gamma size)
g2=$(load "$d/fakejit.out" moved addr)
(cd "$tmp" && plugin_stream "$d/perf.data" with-T.hbs 2>with-T.err)
s=$tmp/with-T.hbs
alpha=$(in_range "$d/perf.data" $((a)) $((a + alen)) before "$tb")
beta=$(in_range "$d/perf.data" $((a)) $((a + blen)) after "$tb")
gamma=$(( $(in_range "$d/perf.data" $((g1)) $((g1 + glen))) + $(in_range "$d/perf.data" $((g2)) $((g2 + glen))) ))
check "with-T: the stream says time-aware yes" grep -qx "time-aware yes" "$s"
check "with-T: alpha has the $alpha samples before beta's load, beta the $beta after it, gamma its $gamma" \
	test "$(object_samples "$s" alpha)" -eq "$alpha" -a "$(object_samples "$s" beta)" -eq "$beta" -a \
	"$(object_samples "$s" gamma)" -eq "$gamma" -a "$alpha" -gt 100 -a "$beta" -gt 100
check "with-T: nothing ambiguous, no warning about time" sh -c "
	test $(total "$s" unattributed.ambiguous) -eq 0 && ! grep -q 'sample times\\|-k mono' '$tmp/with-T.err'"
