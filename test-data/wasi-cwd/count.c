/* SPDX-License-Identifier: MIT */
/* A WASI command that reads the files it is given, as a program run on a
 * user's files does: `count [-r ROUNDS] FILE...` prints the lines and words
 * of each FILE (counted ROUNDS times, default 2000, so that a profile has
 * samples in it) on standard output, and exits 1 naming a FILE it cannot
 * open (relative paths are the preopened directories', wasmtime run --dir). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static unsigned long count_words(const char *s, size_t n, unsigned long *lines)
{
	unsigned long w = 0;
	int in = 0;
	for (size_t i = 0; i < n; i++) {
		int sp = s[i] == ' ' || s[i] == '\n' || s[i] == '\t';
		w += !sp && !in;
		in = !sp;
		*lines += s[i] == '\n';
	}
	return w;
}

int main(int argc, char **argv)
{
	unsigned long rounds = 2000;
	int i = 1, status = 0;
	static char buf[1 << 16];

	if (argc > 2 && !strcmp(argv[1], "-r")) {
		rounds = strtoul(argv[2], NULL, 10);
		i = 3;
	}
	for (; i < argc; i++) {
		FILE *f = fopen(argv[i], "r");
		size_t n;
		unsigned long words = 0, lines = 0;

		if (!f) {
			fprintf(stderr, "count: cannot open %s\n", argv[i]);
			status = 1;
			continue;
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		for (unsigned long r = 0; r < rounds; r++) {
			lines = 0;
			words = count_words(buf, n, &lines);
		}
		printf("%lu lines, %lu words in %s\n", lines, words, argv[i]);
	}
	return status;
}
