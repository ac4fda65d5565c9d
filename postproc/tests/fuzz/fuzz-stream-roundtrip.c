// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the plugin's stream writer to postproc's reader, with
 * names, paths, event names, warnings and debug file names made from the
 * input: any bytes, as long as 512 KB (a short chunk repeated). Whatever they
 * are (plugin/STREAM.md "Lines"): every line the writer writes is within
 * HB_STREAM_LINE_MAX, the reader takes the whole stream and loses nothing,
 * and every string comes back whole, or cut at a character boundary and
 * marked, with its full length. A failure aborts.
 * The input: byte 0 the number of objects (1..4, low bits) and events (1..2),
 * then for each string a chunk (u8 length, bytes) and a repeat count (u8:
 * n + 1, or with the top bit (n & 0x7f) * 4096 + 1); what is missing is empty.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/stream.h"
#include "../../../plugin/emit/stream-writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { FUZZ_STRING = 512 * 1024, FUZZ_OBJS = 4, FUZZ_EVENTS = 2 };

struct input {
	const uint8_t *p, *end;
};

static uint8_t next_byte(struct input *in)
{
	return in->p < in->end ? *in->p++ : 0;
}

/* A string from the input (caller frees): a chunk repeated, NULs dropped. */
static char *take_string(struct input *in)
{
	size_t n = next_byte(in), len = 0, repeat, k;
	const uint8_t *chunk = in->p;
	char *s;

	if (n > (size_t)(in->end - in->p))
		n = (size_t)(in->end - in->p);
	in->p += n;
	k = next_byte(in);
	repeat = k & 0x80 ? (k & 0x7f) * 4096 + 1 : k + 1;
	s = malloc(FUZZ_STRING + 1);
	if (!s)
		abort();
	for (size_t r = 0; r < repeat && n; r++)
		for (size_t i = 0; i < n && len < FUZZ_STRING; i++)
			if (chunk[i])
				s[len++] = (char)chunk[i];
	s[len] = '\0';
	return s;
}

#define CHECK(cond)                                                                   \
	do {                                                                          \
		if (!(cond)) {                                                        \
			fprintf(stderr, "fuzz-stream-roundtrip: %s:%d: %s\n", __FILE__, \
				__LINE__, #cond);                                     \
			abort();                                                      \
		}                                                                     \
	} while (0)

/* A cut of s before byte c is not inside a UTF-8 character: s[c] begins
 * one, or no lead byte is within the 3 bytes before it. */
static bool cut_ok(const char *str, size_t c)
{
	const unsigned char *s = (const unsigned char *)str;

	if ((s[c] & 0xc0) != 0x80)
		return true;
	for (size_t j = c; j > 0 && c - j < 3;)
		if ((s[--j] & 0xc0) != 0x80)
			return s[j] < 0xc0;
	return true;
}

/* got is want, or want cut (g - m bytes kept) and marked. */
static bool cut_and_marked(const char *got, const char *want)
{
	size_t g = strlen(got), m = strlen(HB_STREAM_SHORTENED);

	return g >= m && g - m < strlen(want) && !memcmp(got, want, g - m) &&
	       !strcmp(got + g - m, HB_STREAM_SHORTENED) && cut_ok(want, g - m);
}

/* got is want, or want cut and marked with full = its length. */
static void same_or_shortened(const char *got, uint64_t full, const char *want)
{
	size_t g = strlen(got), m = strlen(HB_STREAM_SHORTENED);

	if (!full) {
		CHECK(!strcmp(got, want));
		return;
	}
	CHECK(full == strlen(want));
	CHECK(g >= m && g - m < full);
	CHECK(!memcmp(got, want, g - m));
	CHECK(!strcmp(got + g - m, HB_STREAM_SHORTENED));
	CHECK(cut_ok(want, g - m));
}

/* The value of " key=" on a line, or 0. */
static uint64_t line_key(const char *line, const char *key)
{
	const char *k = strstr(line, key);

	return k ? strtoull(k + strlen(key), NULL, 10) : 0;
}

/* What one input makes: the strings and the section written of them. */
struct section {
	size_t objs_nr, events_nr;
	char *producer, *input, *dump_path, *warning, *events[FUZZ_EVENTS];
	char *names[FUZZ_OBJS], *paths[FUZZ_OBJS], *files[FUZZ_OBJS];
	struct jitdump_debug_entry debug[FUZZ_OBJS];
	struct stream_writer_object objs[FUZZ_OBJS];
	struct tally_entry counts[FUZZ_OBJS];
	uint64_t totals[FUZZ_EVENTS][HB_CLASS__NR][2];
	/* Different code in each: the reader folds the same code under one name (stream/stream-fold.c). */
	uint8_t code[FUZZ_OBJS][16];
	bool jit[FUZZ_OBJS];	/* objs[] is reordered by the writer */
};

/* The section the input describes into *c (zeroed first). */
static void take_section(struct input *in, struct section *c)
{
	uint8_t shape = next_byte(in);

	memset(c, 0, sizeof(*c));
	c->objs_nr = 1 + (shape & 3);
	c->events_nr = 1 + (shape >> 2 & 1);
	c->producer = take_string(in);
	c->input = take_string(in);
	c->dump_path = take_string(in);
	c->warning = take_string(in);
	for (size_t e = 0; e < c->events_nr; e++) {
		char *name = take_string(in);

		/* Distinct names: the reader merges events by name. */
		c->events[e] = malloc(strlen(name) + 3);
		if (!c->events[e])
			abort();
		sprintf(c->events[e], "%zu:%s", e, name);
		free(name);
		c->totals[e][HB_CLASS_ALL][0] = c->totals[e][HB_CLASS_ALL][1] = e ? 0 : c->objs_nr;
		c->totals[e][HB_CLASS_JIT][0] = c->totals[e][HB_CLASS_JIT][1] = e ? 0 : c->objs_nr;
	}
	for (size_t i = 0; i < c->objs_nr; i++) {
		c->jit[i] = !(next_byte(in) & 1);
		c->names[i] = take_string(in);
		c->paths[i] = take_string(in);
		c->files[i] = take_string(in);
		c->debug[i] = (struct jitdump_debug_entry){ .addr = 0x1000, .line = 1, .file = c->files[i] };
		c->objs[i] = (struct stream_writer_object){
			.kind = c->jit[i] ? HB_KIND_JIT : HB_KIND_NATIVE, .id = (uint32_t)i, .pid = 7,
			.e_machine = 62, .addr = 0x1000 * (i + 1), .size = sizeof(c->code[i]), .name = c->names[i],
			.code = c->code[i], .code_len = sizeof(c->code[i]), .code_index = i, .load_time = 5,
			.dump = c->paths[i], .debug = c->jit[i] ? &c->debug[i] : NULL, .debug_nr = c->jit[i],
			.dso = c->paths[i], .sym_start = i,
		};
		c->code[i][0] = (uint8_t)i;
		c->counts[i] = (struct tally_entry){ .obj = (uint32_t)i, .ev = 0, .off = 2, .samples = 1, .period = 1 };
	}
}

/* The section written (text[0..*len), caller frees): every line within the
 * limit, a cut warning's full length said. */
static char *write_section(struct section *c, size_t *len)
{
	const struct stream_writer_header h = {
		.producer = c->producer, .input = c->input, .events = (const char *const *)c->events,
		.events_nr = c->events_nr, .totals = (const uint64_t(*)[HB_CLASS__NR][2])c->totals,
		.jitdumps = &(struct stream_writer_jitdump){ .path = c->dump_path, .pid = 7, .loads = 1,
							     .status = "ok" },
		.jitdumps_nr = 1, .warnings = (const char *const *)&c->warning, .warnings_nr = 1,
	};
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	CHECK(f);
	CHECK(!stream_writer__write(f, &h, c->objs, c->objs_nr, c->counts, c->objs_nr));
	CHECK(!fclose(f));
	for (char *line = text, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		CHECK(nl && (size_t)(nl - line) <= HB_STREAM_LINE_MAX);
		/* A field after the (escaped, spaceless) text: its full length. The
		 * text itself may read "text-length=...". */
		char *sp = strncmp(line, "warning ", 8) ? NULL : memchr(line + 8, ' ', (size_t)(nl - line) - 8);

		if (sp)
			CHECK(!strncmp(sp, " text-length=", 13) && line_key(sp, " text-length=") == strlen(c->warning));
	}
	return text;
}

/* The objects read back: each written one once, with its strings, samples, code and debug entry. */
static void check_objects(const struct section *c, const struct stream *s)
{
	for (size_t i = 0; i < c->objs_nr; i++) {
		const struct stream_object *o = NULL;

		/* Each written object once, found by what makes it distinct. */
		for (size_t k = 0; k < s->objects_nr; k++)
			if ((s->objects[k].kind == HB_KIND_JIT ? s->objects[k].code_index : s->objects[k].sym_start) == i &&
			    (s->objects[k].kind == HB_KIND_JIT) == c->jit[i])
				o = &s->objects[k];
		CHECK(o);
		same_or_shortened(o->name, o->name_length, c->names[i]);
		same_or_shortened(o->path, o->path_length, c->paths[i]);
		CHECK(o->samples_nr == 1 && o->samples[0].samples == 1 && o->samples[0].off == 2);
		CHECK(o->code_nr == sizeof(c->code[i]) && !memcmp(o->code, c->code[i], sizeof(c->code[i])));
		if (c->jit[i]) {
			CHECK(o->debug_nr == 1);
			CHECK(!strcmp(o->debug[0].file, c->files[i]) || cut_and_marked(o->debug[0].file, c->files[i]));
		}
	}
}

/* text[0..len) read: the whole section, and everything the writer was given. */
static void check_read(const struct section *c, char *text, size_t len)
{
	FILE *f = fmemopen(text, len, "r");
	struct stream s;
	char err[512];

	CHECK(f);
	stream__init(&s);
	if (stream__read(&s, f, "roundtrip.hbs", err, sizeof(err))) {
		fprintf(stderr, "fuzz-stream-roundtrip: the reader refused the writer's stream: %s\n", err);
		abort();
	}
	CHECK(!stream__finish(&s));
	CHECK(!s.lost_nr && !s.lost_dropped && !s.skipped_kinds && !s.skipped_objects);
	CHECK(s.sections == 1 && s.events_nr == c->events_nr && s.objects_nr == c->objs_nr);
	CHECK(s.events[0].samples[HB_CLASS_ALL] == c->objs_nr);
	for (size_t e = 0; e < c->events_nr; e++) {
		const char *got = s.events[e].name;

		/* The reader keeps no event's name-length=: a cut name ends in the marker. */
		CHECK(!strcmp(got, c->events[e]) || cut_and_marked(got, c->events[e]));
	}
	CHECK(s.warnings_nr == 1 &&
	      (!strcmp(s.warnings[0].text, c->warning) || cut_and_marked(s.warnings[0].text, c->warning)));
	check_objects(c, &s);
	stream__release(&s);
	fclose(f);
}

static void release_section(struct section *c)
{
	for (size_t e = 0; e < c->events_nr; e++)
		free(c->events[e]);
	for (size_t i = 0; i < c->objs_nr; i++) {
		free(c->names[i]);
		free(c->paths[i]);
		free(c->files[i]);
	}
	free(c->producer);
	free(c->input);
	free(c->dump_path);
	free(c->warning);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, data + size };
	struct section c;
	size_t len = 0;
	char *text;

	take_section(&in, &c);
	text = write_section(&c, &len);
	check_read(&c, text, len);
	free(text);
	release_section(&c);
	return 0;
}
