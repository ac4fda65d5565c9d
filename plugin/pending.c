// SPDX-License-Identifier: MIT
/* Samples held back in live mode (see pending.h). */
#include <stdlib.h>
#include <string.h>

#include "pending.h"
#include "run.h"

void pending__hold(struct run *run, uint32_t pid, uint64_t ip, uint64_t time, uint32_t ev,
		   uint64_t period, enum hb_sample_class if_full)
{
	struct pending *p = &run->pending;

	if (p->nr == p->alloc) {
		size_t alloc = p->alloc ? p->alloc * 2 : 4096;
		struct pending_sample *v = alloc <= MAX_PENDING ? reallocarray(p->v, alloc, sizeof(*v)) : NULL;

		if (!v) {
			if (!p->full_warned)
				run__warn(run, "too many samples waiting for jitdump records; the rest are counted as unattributed");
			p->full_warned = true;
			run__account(run, ev, if_full, period);
			return;
		}
		p->v = v;
		p->alloc = alloc;
	}
	p->v[p->nr++] = (struct pending_sample){ ip, time, period, pid, ev };
}

void pending__resolve(struct run *run)
{
	struct pending *p = &run->pending;

	for (size_t i = 0; i < p->nr; i++) {
		const struct pending_sample *s = &p->v[i];
		size_t id;

		switch (codemap__lookup(run->dumps.map, s->pid, s->ip, s->time,
					run->events[s->ev].time_aware, &id)) {
		case CODEMAP_HIT:
			run__count(run, (uint32_t)id, s->ev, s->ip - codemap__entry(run->dumps.map, id)->start,
				   s->period, HB_CLASS_JIT);
			break;
		case CODEMAP_BEFORE_LOAD:
			run__account(run, s->ev, HB_CLASS_BEFORE_LOAD, s->period);
			break;
		case CODEMAP_MISS:
			run__account(run, s->ev, HB_CLASS_JIT_NO_LOAD, s->period);
			break;
		}
	}
	p->nr = 0;
}

void pending__release(struct pending *p)
{
	free(p->v);
	memset(p, 0, sizeof(*p));
}
