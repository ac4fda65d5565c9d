/* SPDX-License-Identifier: MIT */
/*
 * render_pprof on a stream written here: the profile, gunzipped by zlib and
 * read back by protobuf-c's decoder of the same profile.proto, holds what
 * the stream says, field by field (scripts/tests/pprof.sh reads real
 * recordings' profiles with go tool pprof itself). The code bytes are the
 * fixture's (render-fixture.h, checked with objdump).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "profile.pb-c.h"
#include "render-fixture.h"

/* loop (native, in a mapped file with a build-id) and work (V8 TurboFan
 * code, a jitdump load); 6 samples of loop at offset 6, inside `inc ecx`;
 * kernel and no-map samples in no object. */
static const char stream_text[] =
	"hotblocks-stream 1\n"
	"event 0 cpu-clock\n"
	"total 0 all 72 72000\n"
	"total 0 native 50 50000\n"
	"total 0 jit 12 12000\n"
	"total 0 kernel 4 4000\n"
	"total 0 unattributed.no-map 6 6000\n"
	"object 0 native pid=7 e_machine=62 addr=0x401000 size=16 dso=/bin/loop sym-start=0x1000 "
	"source=symtab name=loop\n"
	"code 0 0x0 " LOOP_CODE "\n"
	"sample 0 0 0x5 30 30000\n"
	"sample 0 0 0x6 2 2000\n"
	"sample 0 0 0x7 10 10000\n"
	"sample 0 0 0xd 8 8000\n"
	"object 1 jit pid=7 e_machine=62 addr=0x7f0000001000 size=16 code-index=0 load-time=5 "
	"dump=/tmp/jit-7.dump name=JS:*work\n"
	"code 1 0x0 " LOOP_CODE "\n"
	"sample 1 0 0x5 12 12000\n"
	"map pid=7 addr=0x400000 size=8192 pgoff=0x0 time=0 dso=/bin/loop "
	"build-id=0123456789abcdef0123456789abcdef01234567\n"
	"end\n";

struct built {
	struct stream s;
	struct rank r;
	struct rank_opts ro;
	struct report rep;
	Perftools__Profiles__Profile *prof;
};

/* The report as hotblocks --pprof builds it (cmd-report.c), rendered and read back. */
static void build(struct built *b, const char *function)
{
	struct report_opts o = { .list_selected = true, .whole_functions = true, .points = true };
	struct render_opts ro = { 0 };
	char err[512], *buf = NULL;
	size_t len = 0, out_len = 0, cap = 1 << 20;
	uint8_t *out = malloc(cap);
	FILE *f = fmemopen((void *)stream_text, strlen(stream_text), "r");
	z_stream z = { 0 };

	memset(b, 0, sizeof(*b));
	assert_non_null(f);
	assert_non_null(out);
	stream__init(&b->s);
	if (stream__read(&b->s, f, "t.hbs", err, sizeof(err)))
		fail_msg("%s", err);
	fclose(f);
	assert_int_equal(stream__finish(&b->s), 0);
	b->ro = (struct rank_opts){ .percent = 50, .top = NO_TOP, .disassemble_all = true,
				    .function = function };
	assert_int_equal(rank__build(&b->r, &b->s, 0, &b->ro), 0);
	assert_int_equal(report__build(&b->rep, &b->r, &b->ro, NULL, &o), 0);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(render_pprof(f, &b->rep, &ro), 0);
	assert_int_equal(fclose(f), 0);
	/* gzip's magic, then inflate it (windowBits 15 + 16: gzip only) */
	assert_true(len > 2 && (uint8_t)buf[0] == 0x1f && (uint8_t)buf[1] == 0x8b);
	assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = (Bytef *)buf;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	out_len = cap - z.avail_out;
	inflateEnd(&z);
	b->prof = perftools__profiles__profile__unpack(NULL, out_len, out);
	assert_non_null(b->prof);
	free(out);
	free(buf);
}

static void release(struct built *b)
{
	perftools__profiles__profile__free_unpacked(b->prof, NULL);
	report__release(&b->rep);
	rank__release(&b->r);
	stream__release(&b->s);
}

static const char *str(const Perftools__Profiles__Profile *p, int64_t i)
{
	assert_true(i >= 0 && (size_t)i < p->n_string_table);
	return p->string_table[i];
}

static const Perftools__Profiles__Location *loc_of(const Perftools__Profiles__Profile *p, uint64_t id)
{
	for (size_t i = 0; i < p->n_location; i++)
		if (p->location[i]->id == id)
			return p->location[i];
	fail_msg("no location %" PRIu64, id);
	return NULL;
}

static const Perftools__Profiles__Function *func_of(const Perftools__Profiles__Profile *p,
						    const Perftools__Profiles__Location *l)
{
	assert_int_equal(l->n_line, 1);
	for (size_t i = 0; i < p->n_function; i++)
		if (p->function[i]->id == l->line[0]->function_id)
			return p->function[i];
	fail_msg("no function %" PRIu64, l->line[0]->function_id);
	return NULL;
}

static const Perftools__Profiles__Mapping *map_of(const Perftools__Profiles__Profile *p,
						  const Perftools__Profiles__Location *l)
{
	for (size_t i = 0; i < p->n_mapping; i++)
		if (p->mapping[i]->id == l->mapping_id)
			return p->mapping[i];
	return NULL;
}

/* The sample at address addr (0: the one named name), or NULL. */
static const Perftools__Profiles__Sample *sample_at(const Perftools__Profiles__Profile *p, uint64_t addr,
						    const char *name)
{
	for (size_t i = 0; i < p->n_sample; i++) {
		const Perftools__Profiles__Location *l;

		assert_int_equal(p->sample[i]->n_location_id, 1);	/* no stacks */
		l = loc_of(p, p->sample[i]->location_id[0]);
		if (addr ? l->address == addr : !strcmp(str(p, func_of(p, l)->name), name))
			return p->sample[i];
	}
	return NULL;
}

/* The string label key of s, or NULL. */
static const char *label(const Perftools__Profiles__Profile *p, const Perftools__Profiles__Sample *s,
			 const char *key)
{
	for (size_t i = 0; i < s->n_label; i++)
		if (!strcmp(str(p, s->label[i]->key), key))
			return s->label[i]->str ? str(p, s->label[i]->str) : "(num)";
	return NULL;
}

static void test_profile(void **state)
{
	struct built b;
	const Perftools__Profiles__Profile *p;
	const Perftools__Profiles__Sample *s;
	const Perftools__Profiles__Location *l;
	const Perftools__Profiles__Mapping *m;
	int64_t n = 0, period = 0;

	(void)state;
	build(&b, NULL);
	p = b.prof;
	assert_string_equal(p->string_table[0], "");
	assert_int_equal(p->n_sample_type, 2);
	assert_string_equal(str(p, p->sample_type[0]->type), "samples");
	assert_string_equal(str(p, p->sample_type[0]->unit), "count");
	assert_string_equal(str(p, p->sample_type[1]->type), "cpu");
	assert_string_equal(str(p, p->sample_type[1]->unit), "nanoseconds");
	for (size_t i = 0; i < p->n_sample; i++) {
		assert_int_equal(p->sample[i]->n_value, 2);
		n += p->sample[i]->value[0];
		period += p->sample[i]->value[1];
	}
	/* every sample of the event: 50 + 12 in objects, 4 kernel, 6 no-map */
	assert_int_equal(n, 72);
	assert_int_equal(period, 72000);
	assert_int_equal(p->n_sample, 7);

	/* loop+5: 30 samples, in block [5, 0xf), its file mapped with its build-id */
	s = sample_at(p, 0x401005, NULL);
	assert_non_null(s);
	assert_int_equal(s->value[0], 30);
	assert_int_equal(s->value[1], 30000);
	l = loc_of(p, s->location_id[0]);
	assert_string_equal(str(p, func_of(p, l)->name), "loop");
	m = map_of(p, l);
	assert_non_null(m);
	assert_int_equal(m->memory_start, 0x400000);
	assert_int_equal(m->memory_limit, 0x402000);
	assert_int_equal(m->file_offset, 0);
	assert_string_equal(str(p, m->filename), "/bin/loop");
	assert_string_equal(str(p, m->build_id), "0123456789abcdef0123456789abcdef01234567");
	assert_string_equal(label(p, s, "block"), "0x401005");
	assert_string_equal(label(p, s, "kind"), "native");
	assert_string_equal(label(p, s, "pid"), "(num)");
	assert_null(label(p, s, "tier"));
	assert_string_equal(label(p, sample_at(p, 0x401007, NULL), "block"), "0x401005");
	assert_string_equal(label(p, sample_at(p, 0x40100d, NULL), "block"), "0x401005");
	/* inside an instruction: still its own location, in no block */
	s = sample_at(p, 0x401006, NULL);
	assert_non_null(s);
	assert_int_equal(s->value[0], 2);
	assert_null(label(p, s, "block"));

	/* V8's TurboFan code: a mapping of its own, its offset its address */
	s = sample_at(p, 0x7f0000001005, NULL);
	assert_non_null(s);
	assert_int_equal(s->value[0], 12);
	assert_string_equal(label(p, s, "tier"), "turbofan");
	assert_string_equal(label(p, s, "kind"), "jit");
	m = map_of(p, loc_of(p, s->location_id[0]));
	assert_non_null(m);
	assert_int_equal(m->memory_start, 0x7f0000001000);
	assert_int_equal(m->file_offset, 0x7f0000001000);
	assert_string_equal(str(p, m->filename), "/tmp/jit-7.dump");

	/* samples in no object, named by their class */
	s = sample_at(p, 0, "[kernel]");
	assert_non_null(s);
	assert_int_equal(s->value[0], 4);
	assert_string_equal(label(p, s, "kind"), "kernel");
	s = sample_at(p, 0, "[unattributed.no-map]");
	assert_non_null(s);
	assert_int_equal(s->value[0], 6);
	assert_int_equal(loc_of(p, s->location_id[0])->mapping_id, 0);
	release(&b);
}

/* --function loop: its samples alone, no classes. */
static void test_function(void **state)
{
	struct built b;
	int64_t n = 0;

	(void)state;
	build(&b, "loop");
	for (size_t i = 0; i < b.prof->n_sample; i++)
		n += b.prof->sample[i]->value[0];
	assert_int_equal(n, 50);
	assert_null(sample_at(b.prof, 0, "[kernel]"));
	assert_null(sample_at(b.prof, 0x7f0000001005, NULL));
	release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile),
		cmocka_unit_test(test_function),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
