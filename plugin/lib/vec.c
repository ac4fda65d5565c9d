// SPDX-License-Identifier: MIT
/* Arrays that grow geometrically (see vec.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "vec.h"

int vec_grow(void **p, size_t *alloc, size_t need, size_t elsize)
{
	size_t n = *alloc;
	void *q;

	if (need <= n)
		return 0;
	n = n < 8 ? 8 : n;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -ENOMEM;
		n *= 2;
	}
	if (elsize && n > SIZE_MAX / elsize)
		return -ENOMEM;
	q = realloc(*p, n * elsize);
	if (!q)
		return -ENOMEM;
	*p = q;
	*alloc = n;
	return 0;
}
