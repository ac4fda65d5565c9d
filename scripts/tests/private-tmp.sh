#!/bin/sh
# SPDX-License-Identifier: MIT
# Nothing shared under a fixed /tmp name: the shell tests and `make run` put
# the recordings back at the paths their perf.data names
# (/tmp/hotblocks-rec/...) in a /tmp of their own (scripts/with-private-tmp),
# never in the machine's, and take no machine-wide lock.
# The check: a /tmp as another user could leave it -- /tmp/hotblocks-rec a
# symlink to a directory of theirs holding their own files -- in a mount
# namespace of this test's (a fresh tmpfs over /tmp), then a test that
# restores the fakejit recording and reads it, and `make run`'s wasmtime
# case. Afterwards their directory must hold exactly what it held (nothing
# written through the link, nothing removed), there must be no lock file, and
# both must still have found the files at the recorded paths: the stream's
# jitdump line names /tmp/hotblocks-rec/fakejit/, and make run reports the
# wasmtime recording (its 803 samples, test-data/wasmtime-real/README.md).
. "$(dirname "$0")/lib.sh"
need_private_tmp

# The inner test, run by the one below: a recording put back and read.
if [ "${1:-}" = restore ]; then
	restore_recording fakejit
	plugin_stream "$top/test-data/fakejit/perf.data" "$tmp/s.hbs" 2>/dev/null
	grep '^jitdump ' "$tmp/s.hbs"
	exit 0
fi

# What the namespace writes goes to this test's directory by its name outside
# /tmp (the tmpfs hides /tmp/...).
res=$HOTBLOCKS_PRIVATE_TMP/${tmp#/tmp/}/ns
mkdir -p "${res%/ns}"
# Run with HOTBLOCKS_PRIVATE_TMP unset, as a test or make run started there
# would be; make's own variables unset too (make check runs this test).
# The mounts of this test's namespace reach no other (with-private-tmp made
# sure), so those of one inside it do not either, in a chroot too (where
# unshare cannot change the propagation of /).
unshare -m --propagation unchanged sh -c '
	mount -t tmpfs hotblocks-test /tmp || exit 1
	mkdir -p /tmp/theirs/fakejit /tmp/theirs/wasmtime-48.0.2-switch
	echo mine >/tmp/theirs/fakejit/mine
	echo mine >/tmp/theirs/wasmtime-48.0.2-switch/mine
	ln -s /tmp/theirs /tmp/hotblocks-rec
	env -u HOTBLOCKS_PRIVATE_TMP sh "$1" restore >"$2.restore" 2>&1
	env -u HOTBLOCKS_PRIVATE_TMP -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -C "$3" -o build/.deps-run run RUN_CASES= >"$2.run" 2>&1
	(cd /tmp/theirs && find . | sort) >"$2.theirs"
	ls -A /tmp >"$2.tmp"' - "$0" "$res" "$top" >"$tmp/ns.err" 2>&1
check "the experiment ran (a tmpfs over /tmp in a namespace of its own)" test -s "$res.theirs"
printf '%s\n' . ./fakejit ./fakejit/mine ./wasmtime-48.0.2-switch ./wasmtime-48.0.2-switch/mine \
	>"$tmp/theirs.want"
check "a test and make run leave a directory planted at /tmp/hotblocks-rec as it was" \
	diff -u "$tmp/theirs.want" "$res.theirs"
check "no lock file or anything else is left in /tmp" sh -c "test \"\$(cat '$res.tmp')\" = 'hotblocks-rec
theirs'"
check "the test found the dump at the path perf.data recorded (in its own /tmp)" \
	grep -q '^jitdump /tmp/hotblocks-rec/fakejit/jit-6377.dump pid=6377 loads=4 status=ok' "$res.restore"
check "make run reported the wasmtime recording from the paths perf.data recorded" \
	grep -q '^Collected 803 total samples; 793 (98.75%) JIT samples' "$res.run"

# perf's build-id cache: perf record adds each recorded file to it, and perf
# script and the plugin read files from it before their paths. A test run
# records into the checkout's cache, build/perf-buildid (perf's configuration
# names it), not into the user's ~/.debug (which runs of the tests grew by
# gigabytes and shared between checkouts): the cache has the build-id of the
# program recorded (a copy of dash at a path of this run's).
mkdir -p "$HOTBLOCKS_PRIVATE_TMP/home" && cp /bin/dash "$HOTBLOCKS_PRIVATE_TMP/mydash" || exit 1
HOME=$HOTBLOCKS_PRIVATE_TMP/home "$top/scripts/with-private-tmp" sh -c '
	perf record -q -e cpu-clock -F 999 -o "$1/b.data" "$1/mydash" -c \
		"i=0; while [ \$i -lt 300000 ]; do i=\$((i+1)); done" >/dev/null 2>&1 || exit 1
	perf config buildid.dir >"$1/bid.dir"
	id=$(perf buildid-list -i "$1/b.data" 2>/dev/null | awk -v f="$1/mydash" "\$2 == f { print \$1 }")
	id2=$(echo "$id" | cut -c1-2) rest=$(echo "$id" | cut -c3-)
	test -n "$id" && ls "$2/build/perf-buildid/.build-id/$id2/$rest" >"$1/bid.files"' \
	- "$HOTBLOCKS_PRIVATE_TMP" "$top" >"$tmp/bid.err" 2>&1
check "perf record in a test run caches the file it recorded in the checkout's cache" \
	sh -c "grep -qx 'buildid.dir=$top/build/perf-buildid' '$HOTBLOCKS_PRIVATE_TMP/bid.dir' &&
		test -s '$HOTBLOCKS_PRIVATE_TMP/bid.files'"
check "... and nothing in the user's ~/.debug" test ! -e "$HOTBLOCKS_PRIVATE_TMP/home/.debug"

# No pid alive outside is alive inside (a pid namespace with its own /proc):
# perf enters the mount namespace of a live process whose pid a recording
# names, where the recording's files are not. This test's own starter, alive
# outside, must not be seen. Where with-private-tmp could not make the mounts
# private (a chroot) there is no pid namespace; a sleeper started outside is
# then seen, and the check says so rather than passing.
if [ -n "${HOTBLOCKS_PRIVATE_PIDS:-}" ]; then
	check "no process outside the test is visible (pid $HOTBLOCKS_PRIVATE_PARENT started it; perf would enter its namespace)" \
		test ! -e "/proc/$HOTBLOCKS_PRIVATE_PARENT/ns/mnt"
else
	not_ok "the tests run in a pid namespace of their own (with-private-tmp could not make one here: perf may enter the namespace of a live process with a recorded pid)"
fi
echo "1..$tap_n"