#!/bin/sh
# SPDX-License-Identifier: MIT
# postproc/hotblocks on inputs made to hurt it: FIFOs where files are
# expected, streams whose sections disagree, files that change while they are
# read. Each must end in a clear message or a correct report, never a hang,
# a crash or silently wrong numbers. The streams are written here by hand
# (plugin/STREAM.md); x86-64 code bytes checked with objdump -D -b binary -mi386:x86-64.
. "$(dirname "$0")/lib.sh"
need_private_tmp

# Run hotblocks with a time limit; a hang is exit 124.
hb() { timeout 30 "$POSTPROC" "$@"; }

# An x86-64 function: mov eax, 1; add eax, 2; ret (8 bytes), sampled at 0x5.
code="b80100000083c002c3"
mkfifo "$tmp/fifo.so" "$tmp/fifo.js"
cat >"$tmp/fifo.hbs" <<END
hotblocks-stream 1
event 0 cpu-clock
total 0 all 10 10
total 0 native 5 5
total 0 jit 5 5
object 0 native pid=1 e_machine=62 addr=0x1000 size=9 dso=$tmp/fifo.so sym-start=0x1000 name=f
code 0 0x0 $code
sample 0 0 0x5 5 5
object 1 jit pid=1 e_machine=62 addr=0x2000 size=9 code-index=1 load-time=5 dump=$tmp/jit-1.dump name=JS:*g
code 1 0x0 $code
debug 1 0x2000 3 0 $tmp/fifo.js
sample 1 0 0x5 5 5
end
END
hb -p 100 "$tmp/fifo.hbs" >/dev/null 2>&1
rc=$?
check "a FIFO as a stream's dso=: the report finishes (exit $rc)" test "$rc" -eq 0
hb -p 100 --source-lines "$tmp/fifo.hbs" >"$tmp/fifo.out" 2>"$tmp/fifo.err"
rc=$?
check "a FIFO as a source file of --source-lines: the report finishes (exit $rc)" test "$rc" -eq 0
check "... with both functions' blocks" sh -c "grep -q '^\`f\` :: block' '$tmp/fifo.out' && grep -q '^\`JS:\*g\` :: block' '$tmp/fifo.out'"

# Two streams of one recording that disagree about the machine of its code:
# an error naming both places, not x86 bytes disassembled as aarch64.
restore_recording fakejit
plugin_stream "$top/test-data/fakejit/perf.data" "$tmp/a.hbs" 2>/dev/null
sed 's/ e_machine=62 / e_machine=183 /' "$tmp/a.hbs" >"$tmp/b.hbs"
hb -p 100 "$tmp/a.hbs" "$tmp/b.hbs" >"$tmp/conflict.out" 2>"$tmp/conflict.err"
rc=$?
check "streams with conflicting e_machine for one object are refused (exit $rc)" \
	sh -c "test $rc -eq 1 && grep -q \"$tmp/b.hbs:[0-9]*: object [0-9]* (.*): e_machine 183 conflicts with e_machine 62 of the same object at $tmp/a.hbs:[0-9]*\" '$tmp/conflict.err'"

# The plugin's warnings travel in the stream: a saved stream's report tells them.
printf 'hotblocks-stream 1\nwarning 3%%20samples%%20hit%%20JIT%%20code%%20before%%20its%%20load%%20record%%27s%%20time\nend\n' >"$tmp/w.hbs"
cat "$tmp/a.hbs" "$tmp/w.hbs" >"$tmp/aw.hbs"
hb -p 100 "$tmp/aw.hbs" >/dev/null 2>"$tmp/aw.err" </dev/null
check "a saved stream's plugin warnings are in the report's notes" \
	grep -q "^hotblocks: note: $tmp/aw.hbs: the plugin warned: 3 samples hit JIT code before its load record's time$" "$tmp/aw.err"
cat "$tmp/aw.hbs" | hb -p 100 >/dev/null 2>"$tmp/piped.err"
check "... but not again for a stream piped in (the plugin printed them)" \
	sh -c "! grep -q 'the plugin warned' '$tmp/piped.err'"

# A .cwasm cut short while hotblocks is running (here: while it waits for a
# reader of its -o FIFO, after the module was opened). The file is mapped (a
# large one costs only the pages read: lib/map-file.h), so the pages it lost
# cannot be read any more: an error naming the file (exit 1), not a SIGBUS
# (exit 135) and not a report made of what was left.
wt=$top/test-data/wasmtime
mkdir -p /tmp/hotblocks-rec/wasmtime-cwasm
cp "$wt"/cwasm/* /tmp/hotblocks-rec/wasmtime-cwasm/
plugin_stream "$wt/cwasm/perf.data" "$tmp/wt.hbs" 2>/dev/null
cp "$wt/module.cwasm" "$tmp/cut.cwasm"
mkfifo "$tmp/out.fifo"
timeout 60 "$POSTPROC" -p 80 --cwasm "$tmp/cut.cwasm" -o "$tmp/out.fifo" "$tmp/wt.hbs" 2>"$tmp/cut.err" &
pid=$!
# Wait until it blocks opening the FIFO for writing (the cwasm is open by then):
# in the kernel's wait_for_partner (fifo_open on older kernels). hotblocks is
# timeout's child: the wchan of $pid is timeout's own wait, which this looked at
# for "fifo" alone, so it waited its 10 s bound every time, and a loaded machine
# could cut the file before hotblocks had read it. As long as it takes, which
# its timeout bounds.
hb_pid=
while kill -0 "$pid" 2>/dev/null; do
	[ -n "$hb_pid" ] || hb_pid=$(awk -v p="$pid" '$4 == p { print $1; exit }' /proc/[0-9]*/stat 2>/dev/null)
	[ -n "$hb_pid" ] && grep -qE 'fifo|wait_for_partner' "/proc/$hb_pid/wchan" 2>/dev/null && break
	sleep 0.1
done
truncate -s 4096 "$tmp/cut.cwasm"
# (bounded too: should hotblocks end without opening it, nothing would)
timeout 60 cat "$tmp/out.fifo" >"$tmp/cut.out"
wait "$pid"
rc=$?
check "a .cwasm truncated while hotblocks runs: an error, no crash (exit $rc)" test "$rc" -eq 1
check "... naming the file" \
	grep -q "^hotblocks: error: $tmp/cut.cwasm: cut short while being read" "$tmp/cut.err"
check "... and no report of what was left" test ! -s "$tmp/cut.out"

# Sizes are checked before reading: a 10 GB (sparse) --wasm or --cwasm file is
# refused at once, under a memory limit far below what reading it would take.
truncate -s 10G "$tmp/big.wasm"
(ulimit -v 400000; exec timeout 30 "$POSTPROC" --wasm "$tmp/big.wasm" "$tmp/fifo.hbs") >/dev/null 2>"$tmp/big.err"
check "a 10 GB --wasm is refused by its size, before reading" \
	grep -q "big.wasm: 10737418240 bytes, larger than 1 GiB" "$tmp/big.err"
(ulimit -v 400000; exec timeout 30 "$POSTPROC" --cwasm "$tmp/big.wasm" "$tmp/fifo.hbs") >/dev/null 2>"$tmp/bigc.err"
check "a 10 GB --cwasm is refused by its size, before reading" \
	grep -q "big.wasm: 10737418240 bytes, larger than" "$tmp/bigc.err"
rm -f "$tmp/big.wasm"

# A --wasm that has no size: /dev/zero (a device, never at its end) is
# refused at once; a pipe that sends more than 1 GiB is refused at the limit
# in a buffer of the limit's size (it took 2 GiB before: under this memory
# limit, "out of memory" instead of the reason).
(ulimit -v 1500000; exec timeout 30 "$POSTPROC" --wasm /dev/zero "$tmp/fifo.hbs") >/dev/null 2>"$tmp/zero.err"
check "--wasm /dev/zero is refused at once, naming it" \
	grep -q "^hotblocks: error: /dev/zero: a character device, not a regular file or a pipe$" "$tmp/zero.err"
(ulimit -v 1500000; head -c 1100000000 /dev/zero | timeout 60 "$POSTPROC" --wasm /dev/stdin "$tmp/fifo.hbs") \
	>/dev/null 2>"$tmp/pipe.err"
check "a --wasm pipe of 1.1 GB is refused at 1 GiB, within a memory limit of 1.5 GB" \
	grep -q "^hotblocks: error: /dev/stdin: larger than 1 GiB$" "$tmp/pipe.err"

# An empty stream: the message names the file and offset.
: >"$tmp/empty.hbs"
hb "$tmp/empty.hbs" >/dev/null 2>"$tmp/empty.err"
check "an empty stream is refused at offset 0" grep -q "empty.hbs+0x0: empty input" "$tmp/empty.err"

echo "1..$tap_n"
