/* SPDX-License-Identifier: MIT */
/* A listed function's mapping, tier and sampled offsets (report-points.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/v8/v8-name.h"
#include "report-points.h"

static void set_map(struct report_code *c, const struct stream_map *m, uint64_t start)
{
	c->mapped = true;
	c->map_start = start;
	c->map_size = m->size;
	c->map_pgoff = m->pgoff;
	c->build_id = m->build_id_size ? m->build_id : NULL;
	c->build_id_size = m->build_id_size;
}

/*
 * The newest `map` of the object's process covering its first byte: the
 * file as it was mapped when the code ran (STREAM.md `map`). A process
 * the stream has no maps of (a child forked with its parent's) takes the
 * newest mapping of the same file's part holding the function (sym_start
 * is a file offset), placed where the function ran.
 */
static void mapping(struct report_code *c, const struct stream *s, const struct stream_object *obj)
{
	const struct stream_map *same_file = NULL;

	for (size_t i = s->maps_nr; i-- > 0;) {
		const struct stream_map *m = &s->maps[i];

		if (m->pid == obj->pid && obj->addr >= m->addr && obj->addr - m->addr < m->size) {
			set_map(c, m, m->addr);
			return;
		}
		if (!same_file && obj->path && !strcmp(m->path, obj->path) && obj->sym_start >= m->pgoff &&
		    obj->sym_start - m->pgoff < m->size && obj->addr >= obj->sym_start - m->pgoff)
			same_file = m;
	}
	if (same_file)
		set_map(c, same_file, obj->addr - (obj->sym_start - same_file->pgoff));
}

static bool ends_with(const char *s, size_t len, const char *tail)
{
	size_t n = strlen(tail);

	return len >= n && !memcmp(s + len - n, tail, n);
}

/* The tier V8's name gives the code (v8-name.h): its mark, or a wasm
 * function's suffix; NULL for a name without either. */
static const char *tier(const char *name)
{
	struct v8_name n;

	v8_name__parse(name, &n);
	if (n.func && ends_with(n.func, n.func_len, "-liftoff"))
		return "liftoff";
	if (n.func && ends_with(n.func, n.func_len, "-turbofan"))
		return "turbofan";
	switch (n.tier) {
	case '*':
		return "turbofan";
	case '+':
		return "maglev";
	case '^':
		return "sparkplug";
	case '~':
		return "ignition";
	default:
		return NULL;
	}
}

int report_points__sampled(const struct rank *r, size_t fi, struct report_point **points, size_t *nr)
{
	size_t n;
	const struct stream_sample *smp = rank__samples(r, fi, &n);
	const struct stream_object *obj = &r->stream->objects[r->funcs[fi].obj];

	*nr = 0;
	if (!(*points = malloc((n ? n : 1) * sizeof(**points))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		bool front = obj->joined_name && smp[i].off < obj->joined_bytes;

		if (smp[i].samples)
			(*points)[(*nr)++] = (struct report_point){
				smp[i].off, smp[i].samples, smp[i].period,
				front ? obj->joined_name : obj->name,
				front ? smp[i].off : smp[i].off - obj->joined_bytes };
	}
	return 0;
}

int report_points__func(struct report_func *f, const struct rank *r, size_t fi, bool points)
{
	const struct rank_func *rf = &r->funcs[fi];
	const struct stream_object *obj = &r->stream->objects[rf->obj];

	if (obj->kind != HB_KIND_JIT && strcmp(obj->source, "perf-map"))
		mapping(&f->code, r->stream, obj);
	/* a JIT's names, and a perf map's (its JIT named the code) */
	if (obj->kind == HB_KIND_JIT || !strcmp(obj->source, "perf-map"))
		f->tier = tier(obj->name);
	return points ? report_points__sampled(r, fi, &f->points, &f->points_nr) : 0;
}
