/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of postproc/annotate/jits.c: which runtime wrote a perf map,
 * from its names or its process's files, as in the real recordings
 * (test-data/jit-{hotspot-perfmap,mono,node-perfmap,cpython312,beam-perfmap},
 * wasmtime-real: the map records and names below are theirs, shortened).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "annotate/jits.h"
#include "tests/stream/stream-text.h"

static const char maps[] =
	"hotblocks-stream 1\nevent 0 cpu-clock\ntotal 0 all 10 10\n"
	/* HotSpot: names of its own spelling, the JVM's library mapped */
	"object 0 native pid=1 e_machine=62 addr=0x1000 size=16 dso=/tmp/perf-1.map sym-start=0x1000"
	" source=perf-map name=void%20Hot.main(java.lang.String[])\n"
	/* node: JS: names (its maps are not needed) */
	"object 1 native pid=2 e_machine=62 addr=0x2000 size=16 dso=/tmp/perf-2.map sym-start=0x2000"
	" source=perf-map name=JS:*pp.nextToken%20file:///a.mjs:1:1\n"
	/* CPython 3.12: py:: trampolines */
	"object 2 native pid=3 e_machine=62 addr=0x3000 size=11 dso=/tmp/perf-3.map sym-start=0x3000"
	" source=perf-map name=py::f:/a.py\n"
	/* Mono: a name that says nothing, mono-sgen mapped */
	"object 3 native pid=4 e_machine=62 addr=0x4000 size=16 dso=/tmp/perf-4.map sym-start=0x4000"
	" source=perf-map name=(null)\n"
	/* nothing known of pid 5 */
	"object 4 native pid=5 e_machine=62 addr=0x5000 size=16 dso=/tmp/perf-5.map sym-start=0x5000"
	" source=perf-map name=stub\n"
	/* BEAM (+JPperf map): `$` names, beam.smp mapped */
	"object 5 native pid=7 e_machine=62 addr=0x6000 size=16 dso=/tmp/perf-7.map sym-start=0x6000"
	" source=perf-map name=$hot:loop/3\n"
	"sample 0 0 0x0 2 2\nsample 1 0 0x0 2 2\nsample 2 0 0x0 2 2\nsample 3 0 0x0 2 2\nsample 4 0 0x0 2 2\n"
	/* wasmtime --profile=perfmap (wasmtime-real/50.0.1/switch): the module's
	 * names, wasmtime mapped */
	"object 6 native pid=8 e_machine=62 addr=0x7000 size=16 dso=/tmp/perf-8.map sym-start=0x7000"
	" source=perf-map name=far_loop\n"
	"sample 5 0 0x0 2 2\nsample 6 0 0x0 2 2\n"
	"map pid=1 addr=0x7f00 size=4096 pgoff=0x0 time=0 dso=/usr/lib/x86_64-linux-gnu/libc.so.6\n"
	"map pid=1 addr=0x8f00 size=4096 pgoff=0x0 time=0 dso=/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so\n"
	"map pid=4 addr=0x9f00 size=4096 pgoff=0x0 time=0 dso=/usr/bin/mono-sgen\n"
	"map pid=7 addr=0x9f00 size=4096 pgoff=0x0 time=0 dso=/usr/lib/erlang/erts-13.1.5/bin/beam.smp\n"
	"map pid=8 addr=0x9f00 size=4096 pgoff=0x0 time=0 dso=/tmp/hotblocks-rec/wasmtime-50.0.1-switch/bin/wasmtime\n"
	/* another process's library says nothing of pid 5 */
	"map pid=6 addr=0x9f00 size=4096 pgoff=0x0 time=0 dso=/usr/bin/node\n"
	"end\n";

static size_t obj_named(const struct stream *s, const char *name)
{
	for (size_t i = 0; i < s->objects_nr; i++)
		if (!strcmp(s->objects[i].name, name))
			return i;
	fail_msg("no object %s", name);
	return 0;
}

static void runtimes_by_names_then_files(void **state)
{
	struct stream s;
	const struct jit_runtime *j;

	(void)state;
	stream_text__load(&s, maps);
	j = jits__perf_map(&s, obj_named(&s, "void Hot.main(java.lang.String[])"));
	assert_string_equal(j->name, "HotSpot");
	assert_non_null(strstr(j->jitdump, "-agentpath:/path/to/libperf-jvmti.so"));
	j = jits__perf_map(&s, obj_named(&s, "JS:*pp.nextToken file:///a.mjs:1:1"));
	assert_string_equal(j->name, "node (V8)");
	assert_non_null(strstr(j->jitdump, "node --perf-prof"));
	j = jits__perf_map(&s, obj_named(&s, "py::f:/a.py"));
	assert_string_equal(j->name, "CPython");
	assert_non_null(strstr(j->jitdump, "-X perf_jit"));
	j = jits__perf_map(&s, obj_named(&s, "(null)"));
	assert_string_equal(j->name, "Mono");
	assert_non_null(strstr(j->jitdump, "no jitdump option known"));
	j = jits__perf_map(&s, obj_named(&s, "$hot:loop/3"));
	assert_string_equal(j->name, "BEAM (Erlang/OTP)");
	assert_non_null(strstr(j->jitdump, "+JPperf true"));
	j = jits__perf_map(&s, obj_named(&s, "far_loop"));
	assert_string_equal(j->name, "wasmtime");
	assert_non_null(strstr(j->jitdump, "--profile=jitdump"));
	j = jits__perf_map(&s, obj_named(&s, "stub"));
	assert_null(j->name);
	assert_non_null(strstr(j->jitdump, "jitdump"));
	stream__release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(runtimes_by_names_then_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
