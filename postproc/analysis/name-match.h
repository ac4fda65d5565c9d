/* SPDX-License-Identifier: MIT */
/*
 * --function NAME: which code objects a name selects (the nearest names when
 * it selects none: annotate/names.h). JIT names are long and carry their source
 * ("JS:*work /srv/app.js:12:21", "LazyCompile:*work /srv/app.js:12" on V8 10),
 * so an exact name is not the only way in: NAME is tried as an exact name,
 * then as a shell glob, then as a substring, and the first of these ways that
 * matches any object is the one used for all.
 */
#ifndef POSTPROC_NAME_MATCH_H
#define POSTPROC_NAME_MATCH_H

#include <stddef.h>

enum name_match {
	NAME_MATCH_NONE,
	NAME_MATCH_SUBSTRING,	/* pattern occurs in name (a '*' in it is a plain '*') */
	NAME_MATCH_GLOB,	/* fnmatch(3) without flags; only if pattern has * ? or [ */
	NAME_MATCH_EXACT,
};

/* The strongest way pattern matches name (NULL name: none). */
enum name_match name_match(const char *pattern, const char *name);

#endif
