// SPDX-License-Identifier: MIT
/* Names as people look for them (names.h). */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libiberty/demangle.h>

#include "jits.h"
#include "names.h"
#include "v8/v8-name.h"

static bool contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	if (!n)
		return false;
	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return true;
	return false;
}

size_t name_distance(const char *pattern, const char *name)
{
	size_t row[NAME_DISTANCE_MAX + 1], m, n;
	struct v8_name pn, nn;
	const char *p, *f;

	if (contains_nocase(name, pattern) || contains_nocase(pattern, name))
		return 0;
	/* The function parts: "LazyCompile:*work" is near "JS:*work /app.js:5:14". */
	v8_name__parse(pattern, &pn);
	v8_name__parse(name, &nn);
	p = pn.func;
	m = pn.func_len;
	f = nn.func;
	n = nn.func_len;
	if (m > NAME_DISTANCE_MAX)
		m = NAME_DISTANCE_MAX;
	if (n > NAME_DISTANCE_MAX)
		n = NAME_DISTANCE_MAX;
	/* Levenshtein distance, one row. */
	for (size_t j = 0; j <= n; j++)
		row[j] = j;
	for (size_t i = 1; i <= m; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= n; j++) {
			size_t up = row[j], best = diag + (tolower((unsigned char)p[i - 1]) !=
							  tolower((unsigned char)f[j - 1]));

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	/* Close: up to a third of the pattern's function part wrong, 2 at least. */
	return row[n] <= (m / 3 > 2 ? m / 3 : 2) ? row[n] + 1 : NAME_FAR;
}

/* libiberty's demangling of C++ and Rust (legacy _ZN...17h<hash>E and v0
 * _R...) for native code: as perf and `c++filt -i` show it (no Rust hash or
 * crate disambiguator, std::string for C++'s standard substitutions). */
#define DEMANGLE_NATIVE (DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO)

/* A PLT entry (name@plt) or a versioned symbol (name@@VERSION), as the
 * plugin names native code: the name before the '@' demangled, the rest
 * kept after it. */
static char *native_demangle(const char *name)
{
	char *dm = cplus_demangle(name, DEMANGLE_NATIVE);
	const char *at = strchr(name, '@');
	char *head, *out;

	if (dm || !at || at == name || !(head = strndup(name, (size_t)(at - name))))
		return dm;
	dm = cplus_demangle(head, DEMANGLE_NATIVE);
	free(head);
	if (!dm || !(out = malloc(strlen(dm) + strlen(at) + 1))) {
		free(dm);
		return NULL;
	}
	strcpy(out, dm);
	strcat(out, at);
	free(dm);
	return out;
}

char *names__demangle(const char *name)
{
	char *dm = native_demangle(name);

	return dm ? dm : jits__demangle(name);
}
