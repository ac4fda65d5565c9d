#!/bin/sh
# SPDX-License-Identifier: MIT
# Callchains (perf record -g) as stacks, checked against perf itself on a
# real recording of Debian's node (test-data/callchains-node: native code
# with frame pointers, its callchains walked by the kernel):
#  - the plugin writes `stack` records, every sample of the event in one;
#  - perf script still tells the committed recording's stacks as
#    oracle-stacks.txt says (when the recording is the committed one);
#  - go tool pprof -traces on hotblocks --pprof: every stack, leaf first, by
#    name and count, equals perf script's (test-data/callchains-node/oracle.sh
#    stacks: perf script -F ip,sym --no-inline, demangled by c++filt), with
#    perf's [unknown] where hotblocks names a class ([unattributed.*]); a
#    frame dropped or added anywhere fails it, and the same profile made
#    without the stacks does fail it;
#  - go tool pprof -top: every function's cum% equals perf report
#    --children's within rounding (0.01), and perf names no function pprof
#    lacks;
#  - a reader that does not know `stack` (the kind renamed) skips the lines
#    and reports the same; a bad `stack` line is an error naming the file
#    and line; a recording without callchains has no `stack`.
# Without go the whole test is skipped, saying so.
. "$(dirname "$0")/lib.sh"

need_go_pprof "callchain stacks were NOT checked by their client"
D=$top/test-data/callchains-node

restore_recording callchains-node
pd=$(recording_data callchains-node)
plugin_stream "$pd" "$tmp/cc.hbs" 2>/dev/null
all=$(awk '$1 == "total" && $2 == 0 && $3 == "all" { print $4 }' "$tmp/cc.hbs")
in_stacks=$(awk '$1 == "stack" && $2 == 0 { s += $3 } END { print s + 0 }' "$tmp/cc.hbs")
check "the plugin writes stack records holding every sample ($in_stacks of $all)" \
	test "${all:-0}" -gt 0 -a "$in_stacks" = "$all"

if [ "$(tail -n 1 "$tmp/restore-callchains-node.out")" = committed ]; then
	"$D/oracle.sh" stacks "$pd" >"$tmp/perf.now"
	check "perf script still tells the committed recording's stacks as oracle-stacks.txt" \
		cmp -s "$tmp/perf.now" "$D/oracle-stacks.txt"
else
	ok "# SKIP the recording was made afresh (another node or libc build): its oracle is perf's of now"
fi

# pprof -traces, "COUNT<TAB>leaf;caller;..." per trace, identical stacks summed.
traces() {
	pprof -traces -sample_index=samples "$1" | awk '
		function flush() { if (s != "") n[s] += c; s = "" }
		/^-----------\+/ { flush(); next }
		/^ *[0-9]+   / { flush(); c = $1; sub(/^ *[0-9]+   /, ""); s = $0; next }
		/^             [^ ]/ && s != "" { sub(/^             /, ""); s = s ";" $0; next }
		END { flush(); for (k in n) printf "%d\t%s\n", n[k], k }' |
		sed 's/\[unattributed\.[a-z-]*\]/[unknown]/g' | awk -F'\t' '{ n[$2] += $1 } END { for (k in n) printf "%d\t%s\n", n[k], k }' |
		LC_ALL=C sort
}
"$D/oracle.sh" stacks "$pd" >"$tmp/perf.stacks"
"$POSTPROC" --pprof "$tmp/cc.pb.gz" "$tmp/cc.hbs" >/dev/null 2>"$tmp/cc.err"
traces "$tmp/cc.pb.gz" >"$tmp/cc.stacks"
n=$(wc -l <"$tmp/perf.stacks")
deep=$(awk -F'\t' '{ k = split($2, f, ";"); if (k > m) m = k } END { print m + 0 }' "$tmp/perf.stacks")
if cmp -s "$tmp/perf.stacks" "$tmp/cc.stacks"; then
	ok "go tool pprof -traces: the $n stacks (up to $deep frames), their names and counts, are perf script's"
else
	diff "$tmp/perf.stacks" "$tmp/cc.stacks" >"$tmp/stacks.diff"
	not_ok "go tool pprof -traces: the $n stacks are perf script's" "$tmp/stacks.diff"
fi
# The same profile without the stacks (a stream without `stack` lines) must not pass.
grep -v '^stack ' "$tmp/cc.hbs" >"$tmp/flat.hbs"
"$POSTPROC" --pprof "$tmp/flat.pb.gz" "$tmp/flat.hbs" >/dev/null 2>&1
traces "$tmp/flat.pb.gz" >"$tmp/flat.stacks"
check "the comparison can fail: the profile without stacks is one frame a sample, not perf's stacks" \
	sh -c "! cmp -s $tmp/perf.stacks $tmp/flat.stacks && test \$(grep -c ';' $tmp/flat.stacks) = 0"

# pprof -top's cum% against perf report --children, per function perf names.
"$D/oracle.sh" children "$pd" >"$tmp/perf.children"
pprof -top -nodecount=1000000 -nodefraction=0 -sample_index=samples "$tmp/cc.pb.gz" |
	awk '/^ *flat/ { on = 1; next } on { c = $5; sub(/%$/, "", c); $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); printf "%s\t%s\n", c, $0 }' |
	LC_ALL=C sort -t "$(printf '\t')" -k2 >"$tmp/cc.cum"
awk -F'\t' 'NR == FNR { ours[$2] = $1; next }
	!($2 in ours) { print "perf names " $2 " (" $1 "%), pprof has no such function"; bad++; next }
	{ d = ours[$2] - $1; if (d < 0) d = -d; if (d > 0.0101) { print $2 ": pprof cum " ours[$2] "%, perf children " $1 "%"; bad++ } }
	END { exit bad > 0 }' "$tmp/cc.cum" "$tmp/perf.children" >"$tmp/cum.diff"
rc=$?
nf=$(wc -l <"$tmp/perf.children")
if [ $rc = 0 ] && [ "$nf" -gt 0 ]; then
	ok "go tool pprof -top: the cum% of the $nf functions perf report --children names equal perf's (within 0.01)"
else
	not_ok "go tool pprof -top: cum% equal perf report --children's" "$tmp/cum.diff"
fi

# A reader that does not know the kind skips it: the report is the same.
sed 's/^stack /stack-from-the-future /' "$tmp/cc.hbs" >"$tmp/future.hbs"
"$POSTPROC" "$tmp/cc.hbs" >"$tmp/cc.txt" 2>&1
"$POSTPROC" "$tmp/future.hbs" >"$tmp/future.txt" 2>&1
check "a reader that does not know the stack kind reports the same, the lines skipped and counted" \
	sh -c "grep -q 'skipped' $tmp/future.txt && diff $tmp/cc.txt $tmp/future.txt | grep '^[<>]' | grep -vq skipped; test \$? = 1"

# A bad stack line: an error naming the file and line, no profile.
line=$(grep -n '^stack ' "$tmp/cc.hbs" | head -n 1 | cut -d: -f1)
bad_stack() {	# description sed-expression message
	sed "${line}s/$2/" "$tmp/cc.hbs" >"$tmp/bad.hbs"
	(cd "$tmp" && "$POSTPROC" --pprof bad.pb.gz bad.hbs >/dev/null 2>bad.err)
	rc=$?
	if [ $rc = 1 ] && grep -qF "bad.hbs:$line: $3" "$tmp/bad.err" && [ ! -e "$tmp/bad.pb.gz" ]; then
		ok "$1: exit 1, bad.hbs:$line: $3"
	else
		not_ok "$1: exit 1, bad.hbs:$line: $3 (exit $rc)" "$tmp/bad.err"
	fi
}
bad_stack "a frame of an object the section lacks" '^\(stack [0-9]* [0-9]* [0-9]* \)[0-9]*:/\1999999:' \
	"object 999999 was not defined in this section"
bad_stack "an empty frame" '^\(stack [0-9]* [0-9]* [0-9]* \)/\1,,' "empty stack frame"
bad_stack "a frame offset that is not hex" '^\(stack [0-9]* [0-9]* [0-9]* [0-9]*\):0x/\1:zz' "stack frame offset"
bad_stack "a stack without frames" '^\(stack [0-9]* [0-9]* [0-9]*\) .*/\1' "'stack' record: 3 fields, expected 4"

# A recording without callchains: no stack lines.
restore_recording stripped-xz
plugin_stream "$(recording_data stripped-xz)" "$tmp/xz.hbs" 2>/dev/null
check "a recording without callchains (stripped-xz) has no stack lines" \
	sh -c "test -s $tmp/xz.hbs && ! grep -q '^stack ' $tmp/xz.hbs"
check "go tool pprof wrote nothing but into the test's scratch directory (its errors: none)" \
	sh -c "! grep -v '^Main binary filename not available' $tmp/pprof.err | grep -q ."
echo "1..$tap_n"
