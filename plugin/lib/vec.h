/* SPDX-License-Identifier: MIT */
/* Arrays that grow geometrically: the one growable array of both programs. */
#ifndef PLUGIN_LIB_VEC_H
#define PLUGIN_LIB_VEC_H

#include <stddef.h>

/*
 * Make room for at least need elements of elsize bytes in *p, which holds
 * *alloc elements now; grows geometrically. Returns 0 or -ENOMEM (also on a
 * size overflow); on failure *p and *alloc are unchanged.
 */
int vec_grow(void **p, size_t *alloc, size_t need, size_t elsize);
#define VEC_GROW(p, need, alloc) vec_grow((void **)&(p), &(alloc), (need), sizeof(*(p)))

#endif
