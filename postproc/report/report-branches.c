// SPDX-License-Identifier: MIT
/* Measured edges and ranges of the listed functions (report-branches.h). */
#include <errno.h>
#include <stdlib.h>

#include "lib/util.h"
#include "report-branches.h"

/* The other end's function, as report_branch and report_range name it. */
static int32_t func_of(const uint32_t *obj_func, uint32_t obj)
{
	return obj_func[obj] == UINT32_MAX ? -1 : (int32_t)obj_func[obj];
}

/* b, one (flags) part of an edge, into the function's edges: the stream
 * sorts one edge's parts together (by ends, then flags). */
static void add_taken(struct report_func *f, const struct stream *s, const uint32_t *obj_func,
		      const struct stream_branch *b)
{
	struct report_branch *e = f->branches_nr ? &f->branches[f->branches_nr - 1] : NULL;
	const char *to_name = s->objects[b->to_obj].name;

	if (!e || e->from != b->from_off || e->to != b->to_off || e->to_name != to_name) {
		e = &f->branches[f->branches_nr++];
		*e = (struct report_branch){ .from = b->from_off, .to = b->to_off, .same = b->to_obj == b->from_obj,
					     .to_name = to_name, .to_func = func_of(obj_func, b->to_obj) };
	}
	e->count = sat_add(e->count, b->count);
	if (b->flags & STREAM_BRANCH_MISPRED)
		e->mispredicted = sat_add(e->mispredicted, b->count);
	if (b->flags & STREAM_BRANCH_PREDICTED)
		e->predicted = sat_add(e->predicted, b->count);
	if (b->flags & STREAM_BRANCH_IN_TX)
		e->in_tx = sat_add(e->in_tx, b->count);
	if (b->flags & STREAM_BRANCH_ABORT)
		e->abort = sat_add(e->abort, b->count);
	e->cycles_nr = sat_add(e->cycles_nr, b->cycles_nr);
	e->cycles_sum = sat_add(e->cycles_sum, b->cycles_sum);
}

int report_branches__build(struct report *rep, const struct rank *r, const uint32_t *obj_func)
{
	const struct stream *s = r->stream;

	/* The stream's counts are sorted by (kind, from object, ...): each
	 * function's are one run of each kind. */
	for (size_t i = 0, j; i < s->branches_nr; i = j) {
		const struct stream_branch *b = &s->branches[i];
		uint32_t fi = obj_func[b->from_obj];

		for (j = i; j < s->branches_nr && s->branches[j].kind == b->kind &&
			    s->branches[j].from_obj == b->from_obj; j++)
			;
		if (fi == UINT32_MAX)
			continue;
		struct report_func *f = &rep->funcs[fi];

		if (b->kind == STREAM_BRANCH_TAKEN) {
			if (!(f->branches = calloc(j - i, sizeof(*f->branches))))
				return -ENOMEM;
		} else if (!(f->ranges = calloc(j - i, sizeof(*f->ranges)))) {
			return -ENOMEM;
		}
		for (size_t k = i; k < j; k++) {
			const struct stream_branch *e = &s->branches[k];

			if ((long)e->ev != r->event)
				continue;
			if (e->kind == STREAM_BRANCH_TAKEN) {
				add_taken(f, s, obj_func, e);
				continue;
			}
			f->ranges[f->ranges_nr++] = (struct report_range){
				.start = e->from_off, .end = e->to_off, .same = e->to_obj == e->from_obj,
				.end_name = s->objects[e->to_obj].name, .end_func = func_of(obj_func, e->to_obj),
				.count = e->count,
			};
		}
	}
	return 0;
}
