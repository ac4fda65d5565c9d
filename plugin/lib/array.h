/* SPDX-License-Identifier: MIT */
/* Arrays that grow by doubling (the plugin's symbol and map tables). */
#ifndef PLUGIN_ARRAY_H
#define PLUGIN_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

/* Room for need elements of size bytes in *p, which has *alloc: the size
 * doubled (from 64) until they fit. false when out of memory (*p kept). */
static inline bool array__grow(void **p, size_t *alloc, size_t need, size_t size)
{
	size_t n = *alloc ? *alloc : 64;
	void *np;

	if (need <= *alloc)
		return true;
	while (n < need)
		n *= 2;
	if (!(np = reallocarray(*p, n, size)))
		return false;
	*p = np;
	*alloc = n;
	return true;
}

#endif
