/* SPDX-License-Identifier: MIT */
/*
 * --function NAME: which code objects a name selects, and the nearest names
 * when it selects none. JIT names are long and carry their source
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

/*
 * How far name is from pattern for suggestions: 0 when one contains the other
 * ignoring case, else one more than the edit distance (ignoring case) between
 * their function parts: without a "Tag:" prefix, V8's tier mark and a
 * " location" suffix, so "LazyCompile:*work" is near "JS:*work /app.js:5:14".
 * NAME_FAR when more than a third of the pattern's function part (and more than
 * 2 characters) would have to change. Function parts are looked at up to
 * NAME_DISTANCE_MAX bytes.
 */
#define NAME_DISTANCE_MAX 128
#define NAME_FAR ((size_t)-1)
size_t name_distance(const char *pattern, const char *name);

#endif
