// SPDX-License-Identifier: MIT
/*
 * Test helper: prints each name of standard input (one per line) as perf
 * 6.1's `perf script` shows a symbol of that ELF name. perf demangles with
 * libiberty's cplus_demangle and no options (so: no parameter lists; Rust
 * names without their hash), else an OCaml name ("caml" then a capital:
 * "__" becomes ".", "$xx" a byte), else shows the name as it is; a PLT entry
 * is the demangled name of its target followed by "@plt". The plugin's
 * stream keeps the names the files have (demangled when printed); the tests
 * compare them with perf's through this.
 */
#include <ctype.h>
#include <libiberty/demangle.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void show(const char *name)
{
	char *d = cplus_demangle(name, 0);

	if (d) {
		fputs(d, stdout);
		free(d);
		return;
	}
	if (!strncmp(name, "caml", 4) && isupper((unsigned char)name[4])) {
		for (const char *p = name + 4; *p;) {
			if (p[0] == '_' && p[1] == '_') {
				putchar('.');
				p += 2;
			} else if (p[0] == '$' && isxdigit((unsigned char)p[1]) && isxdigit((unsigned char)p[2])) {
				char hex[3] = { p[1], p[2], 0 };

				putchar((int)strtol(hex, NULL, 16));
				p += 3;
			} else {
				putchar(*p++);
			}
		}
		return;
	}
	fputs(name, stdout);
}

int main(void)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, stdin)) > 0) {
		size_t len = (size_t)n;

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (len > 4 && !strcmp(line + len - 4, "@plt")) {
			line[len - 4] = '\0';
			show(line);
			fputs("@plt", stdout);
		} else {
			show(line);
		}
		putchar('\n');
	}
	free(line);
	return 0;
}
