/* SPDX-License-Identifier: MIT */
/*
 * Binary search over sorted data, the one helper of both programs: the first
 * index at which a condition stops holding (a lower bound), for a condition
 * that holds on a prefix of the range and nowhere after it.
 */
#ifndef PLUGIN_LIB_BSEARCH_H
#define PLUGIN_LIB_BSEARCH_H

#include <stddef.h>

/*
 * LOWER_BOUND(n, i, before): the first i in [0, n) for which the expression
 * before (in terms of i, a size_t) is false, or n when it is true for all.
 * before must be true for a prefix of [0, n) and false after it, e.g.
 * `v[i].start <= addr` over v sorted by start gives the index after the last
 * entry starting at or before addr. A macro (a GNU statement expression) so
 * that the comparison is inlined: the plugin looks up every sample with it.
 */
#define LOWER_BOUND(n, i, before)                                       \
	({                                                              \
		size_t lb_lo_ = 0, lb_hi_ = (n);                        \
		while (lb_lo_ < lb_hi_) {                               \
			size_t i = lb_lo_ + (lb_hi_ - lb_lo_) / 2;      \
			if (before)                                     \
				lb_lo_ = i + 1;                         \
			else                                            \
				lb_hi_ = i;                             \
		}                                                       \
		lb_lo_;                                                 \
	})

#endif
