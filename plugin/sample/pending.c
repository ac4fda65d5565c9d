// SPDX-License-Identifier: MIT
/* Samples held back in live mode (see pending.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pending.h"

int pending__hold(struct pending *p, const struct pending_sample *s)
{
	if (p->nr == p->alloc) {
		size_t alloc = p->alloc ? p->alloc * 2 : 4096;
		struct pending_sample *v = alloc <= MAX_PENDING ? reallocarray(p->v, alloc, sizeof(*v)) : NULL;

		if (!v)
			return -ENOSPC;
		p->v = v;
		p->alloc = alloc;
	}
	p->v[p->nr++] = *s;
	return 0;
}

void pending__clear(struct pending *p)
{
	p->nr = 0;
}

void pending__release(struct pending *p)
{
	free(p->v);
	memset(p, 0, sizeof(*p));
}
