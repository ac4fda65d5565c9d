// SPDX-License-Identifier: MIT
/* The callchain stacks of the ranked event, named (report-stacks.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report-stacks.h"

/* The names of the classes a frame may be, "[kernel]", "[unattributed.NAME]", as pprof's samples in no function are. */
static const char *class_name(uint64_t cls)
{
	static char names[HB_CLASS__NR][64];

	if (cls >= HB_CLASS__NR)
		return "[in no readable object]";
	if (!names[cls][0])
		snprintf(names[cls], sizeof(names[cls]), "[%s]", hb_class_name((enum hb_sample_class)cls));
	return names[cls];
}

int report_stacks__build(struct report *rep, const struct rank *r, struct annotator *annot,
			 const uint32_t *obj_func)
{
	const struct stream *s = r->stream;
	struct report_stacks *st;
	size_t nr = 0, nf = 0;

	if (r->event < 0)
		return 0;
	for (size_t i = 0; i < s->stacks_nr; i++)
		if (s->stacks[i].ev == (uint32_t)r->event) {
			nr++;
			nf += s->stacks[i].frames_nr;
		}
	if (!nr)
		return 0;
	if (!(st = rep->stacks = calloc(1, sizeof(*st))) || !(st->v = malloc(nr * sizeof(*st->v))) ||
	    !(st->frames = malloc((nf ? nf : 1) * sizeof(*st->frames))))
		return -ENOMEM;
	for (size_t i = 0; i < s->stacks_nr; i++) {
		const struct stream_stack *ss = &s->stacks[i];

		if (ss->ev != (uint32_t)r->event)
			continue;
		st->v[st->nr++] = (struct report_stack){ st->frames_nr, ss->frames_nr, ss->samples, ss->period };
		for (uint32_t k = 0; k < ss->frames_nr; k++) {
			const struct stream_frame *fr = &s->frames[ss->first + k];
			struct report_frame *out = &st->frames[st->frames_nr++];

			if (fr->obj == STREAM_FRAME_CLASS) {
				*out = (struct report_frame){ .func = -1 };
				out->display_name = out->name = class_name(fr->off);
				continue;
			}
			const struct stream_object *obj = &s->objects[fr->obj];

			*out = (struct report_frame){
				.display_name = annot ? annotator__name(annot, s, fr->obj) : obj->name,
				.name = obj->name, .address = obj->addr + fr->off,
				.func = obj_func[fr->obj] == UINT32_MAX ? -1 : (int32_t)obj_func[fr->obj], .placed = true,
			};
		}
	}
	return annot && annotator__out_of_memory(annot) ? -ENOMEM : 0;
}

void report_stacks__release(struct report *rep)
{
	if (!rep->stacks)
		return;
	free(rep->stacks->v);
	free(rep->stacks->frames);
	free(rep->stacks);
	rep->stacks = NULL;
}
