// SPDX-License-Identifier: MIT
/* --function matching (name-match.h). */
#include <fnmatch.h>
#include <string.h>

#include "name-match.h"

enum name_match name_match(const char *pattern, const char *name)
{
	if (!name)
		return NAME_MATCH_NONE;
	if (!strcmp(pattern, name))
		return NAME_MATCH_EXACT;
	if (strpbrk(pattern, "*?[") && !fnmatch(pattern, name, 0))
		return NAME_MATCH_GLOB;
	if (*pattern && strstr(name, pattern))
		return NAME_MATCH_SUBSTRING;
	return NAME_MATCH_NONE;
}
