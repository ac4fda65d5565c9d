/* SPDX-License-Identifier: MIT */
/* Source lines of JIT code from its jitdump DEBUG_INFO entries (see jit-debug.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/lib/bsearch.h"
#include "jit-debug.h"
#include "v8/v8-debug.h"
#include "v8/v8-name.h"

bool jit_debug__printable(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || *p >= 0x80)
			return false;
	return *s != '\0';
}

static bool same_file(const char *file)
{
	return file && (unsigned char)file[0] == 0xff && !file[1];
}

struct jit_entry {
	uint64_t at;		/* offset in the object */
	size_t i;		/* index in record order */
};

struct jit_debug_index {
	const struct stream_debug *e;
	struct jit_entry *v;	/* usable entries by (at, i) */
	size_t nr;
	long *file_of;		/* per entry: the entry naming its file ("\xff" resolved), or -1 */
	uint64_t size;
};

static int cmp_jit_entry(const void *a, const void *b)
{
	const struct jit_entry *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

struct jit_debug_index *jit_debug_index__new(const struct stream_debug *e, size_t n,
					     uint64_t load_addr, uint64_t size, uint64_t bias)
{
	struct jit_debug_index *ix = calloc(1, sizeof(*ix));

	if (!ix)
		return NULL;
	ix->e = e;
	ix->size = size;
	ix->v = malloc((n ? n : 1) * sizeof(*ix->v));
	ix->file_of = malloc((n ? n : 1) * sizeof(*ix->file_of));
	if (!ix->v || !ix->file_of) {
		jit_debug_index__free(ix);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		/* As jit_debug__find: entries outside the object are garbage. */
		ix->file_of[i] = same_file(e[i].file) ? (i ? ix->file_of[i - 1] : -1) : (long)i;
		if (e[i].addr < bias || e[i].addr - bias < load_addr)
			continue;
		uint64_t at = e[i].addr - bias - load_addr;

		if (at < size)
			ix->v[ix->nr++] = (struct jit_entry){ at, i };
	}
	qsort(ix->v, ix->nr, sizeof(*ix->v), cmp_jit_entry);
	return ix;
}

long jit_debug_index__find(const struct jit_debug_index *ix, uint64_t off, const char **file)
{
	size_t lo;
	long best;

	if (file)
		*file = NULL;
	if (off >= ix->size)
		return -1;
	/* The last entry with at <= off: the greatest at, the last in record order among equals. */
	lo = LOWER_BOUND(ix->nr, i, ix->v[i].at <= off);
	if (!lo)
		return -1;
	best = (long)ix->v[lo - 1].i;
	if (file && ix->file_of[best] >= 0)
		*file = ix->e[ix->file_of[best]].file;
	return best;
}

void jit_debug_index__free(struct jit_debug_index *ix)
{
	if (!ix)
		return;
	free(ix->v);
	free(ix->file_of);
	free(ix);
}

long jit_debug__find(const struct stream_debug *e, size_t n, uint64_t load_addr, uint64_t size,
		     uint64_t bias, uint64_t off, const char **file)
{
	uint64_t best_at = 0;
	long best = -1;

	if (file)
		*file = NULL;
	if (off >= size)
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint64_t at;

		if (e[i].addr < bias || e[i].addr - bias < load_addr)
			continue;
		at = e[i].addr - bias - load_addr;
		if (at >= size || at > off)
			continue;
		if (best < 0 || at >= best_at) {
			best = (long)i;
			best_at = at;
		}
	}
	if (best >= 0 && file) {
		long j = best;

		while (j >= 0 && same_file(e[j].file))
			j--;
		*file = j >= 0 ? e[j].file : NULL;
	}
	return best;
}

bool jit_debug__claim(const struct stream_object *obj, struct annot_func *af, struct annot_texts *t)
{
	char buf[4096];

	if (obj->kind != HB_KIND_JIT || !obj->debug_nr ||
	    !v8_debug__bias(obj->name, obj->e_machine, &af->debug_bias))
		return false;
	af->source = ANNOT_SOURCE_JIT_DEBUG;
	af->has[ANNOT_SOURCE] = true;
	af->name_file = v8_name__script(obj->name, buf, sizeof(buf)) ? annot_texts__intern(t, buf) : NULL;
	return true;
}

/*
 * The entry before the object's first byte that applies from offset 0 where
 * its runtime says so (obj->debug_from_start: BEAM's clause head, beam.h):
 * the greatest address below the code (the last in record order among
 * equals), with its file as jit_debug__find resolves it; -1 if none.
 */
static long before_start(const struct stream_object *obj, uint64_t bias, const char **file)
{
	const struct stream_debug *e = obj->debug;
	long best = -1;

	for (size_t i = 0; i < obj->debug_nr; i++)
		if (e[i].addr >= bias && e[i].addr - bias < obj->addr &&
		    (best < 0 || e[i].addr >= e[best].addr))
			best = (long)i;
	if (best >= 0) {
		long j = best;

		while (j >= 0 && same_file(e[j].file))
			j--;
		*file = j >= 0 ? e[j].file : NULL;
	}
	return best;
}

void jit_debug__cell(const struct stream_object *obj, struct annot_func *af, uint32_t off,
		     const struct strset *scripts, struct annot_cell *cell, struct annot_texts *t)
{
	const char *file = NULL, *base;
	char text[512];
	long e;
	int w;

	/* Indexed once per object: a report asks for every shown instruction. */
	if (!af->debug_index)
		af->debug_index = jit_debug_index__new(obj->debug, obj->debug_nr, obj->addr, obj->size,
						       af->debug_bias);
	e = af->debug_index ? jit_debug_index__find(af->debug_index, off, &file) :
			      jit_debug__find(obj->debug, obj->debug_nr, obj->addr, obj->size,
					      af->debug_bias, off, &file);
	if (e < 0 && obj->debug_from_start && off < obj->size)
		e = before_start(obj, af->debug_bias, &file);
	if (e < 0)
		return;
	/*
	 * Garbage can be printable too (node 20 once wrote "G6}E" for hot.js):
	 * of V8's code, a file no load of the stream names as its script is
	 * taken for garbage. An inlined function's script has loads of its own
	 * (it ran before it was inlined).
	 */
	if (!file || !jit_debug__printable(file) ||
	    (af->name_file && scripts && !strset_find(scripts, file)))
		file = af->name_file;
	base = file ? strrchr(file, '/') : NULL;
	/* V8 puts the column in the discriminator; 0 means none. */
	w = snprintf(text, sizeof(text), "%s:%" PRIu32, base ? base + 1 : file ? file : "?",
		     obj->debug[e].line);
	if (obj->debug[e].discrim && w > 0 && (size_t)w < sizeof(text))
		snprintf(text + w, sizeof(text) - (size_t)w, ":%" PRIu32, obj->debug[e].discrim);
	*cell = (struct annot_cell){ annot_texts__intern(t, text), (uint64_t)e, file, obj->debug[e].line };
}
