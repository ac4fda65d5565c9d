/* SPDX-License-Identifier: MIT */
/* Unit tests of the option table (postproc/cli/options.def, options.c). */
#define _GNU_SOURCE	/* open_memstream */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <getopt.h>

#include "cli/options.h"
#include "render/formats.h"

/* Run print into a string (caller frees). */
static char *print(void (*fn)(FILE *, enum options_cmd), enum options_cmd cmd)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, cmd);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void list(FILE *f, enum options_cmd cmd)
{
	(void)cmd;
	options__list(f);
}

/*
 * Within one command no two options share a name or a letter (the table's
 * rows of one name are in disjoint commands), and every field of the list
 * perf hotblocks reads is there.
 */
static void no_command_has_an_option_twice(void **state)
{
	char *all = print(list, 0), *line, *save;
	struct { unsigned cmds; char letter; char name[32]; } seen[256];
	size_t n = 0;

	(void)state;
	for (line = strtok_r(all, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char cmds[128], letter[4], name[32], arg[16], meta[32], route[32];
		unsigned set = 0;

		assert_int_equal(sscanf(line, "%127[^\t]\t%3[^\t]\t%31[^\t]\t%15[^\t]\t%31[^\t]\t%31s", cmds,
					letter, name, arg, meta, route), 6);
		for (char *c = strtok(cmds, ","); c; c = strtok(NULL, ","))
			set |= options__cmd(c);
		assert_true(set);
		assert_true(!strcmp(arg, "none") || !strcmp(arg, "required") || !strcmp(arg, "optional"));
		for (size_t k = 0; k < n; k++) {
			if (!(seen[k].cmds & set))
				continue;
			if (!strcmp(seen[k].name, name))
				fail_msg("--%s twice in one command", name);
			if (letter[0] != '-' && seen[k].letter == letter[0])
				fail_msg("-%c twice in one command", letter[0]);
		}
		assert_true(n < 256);
		seen[n].cmds = set;
		seen[n].letter = letter[0];
		snprintf(seen[n].name, sizeof(seen[n].name), "%s", name);
		n++;
	}
	assert_true(n > 40);
	free(all);
}

/* The usage text's layout: the term, the help at the command's column (22
 * for hotblocks, 23 for the others), a long term alone on its line. */
static void usage_lines_line_up(void **state)
{
	char *r = print(options__usage, C_REPORT), *d = print(options__usage, C_DIFF);

	(void)state;
	assert_non_null(strstr(r, "\n      --top N         print at most N blocks\n"));
	assert_true(!strncmp(r, "  -p, --percent P     print the hottest blocks", 46));
	assert_non_null(strstr(r, "      --dot[=FILE]    each function's control-flow graph"));
	assert_null(strstr(d, "--dot"));
	assert_non_null(strstr(d, "      --base-label TEXT, --new-label TEXT\n"
				  "                       how the header names a side"));
	free(r);
	free(d);
}

/* What a command's parser returns: ids, arguments, the output chosen. */
static void the_parser_returns_ids(void **state)
{
	char *argv[] = { "hotblocks", "-p", "90", "--html=x.html", "--colour", "--top=3", "a.hbs", NULL };
	struct options_parser p;
	const struct output_format *f;
	const char *arg;

	(void)state;
	optind = 1;
	options__init(&p, C_REPORT, 7, argv);
	assert_int_equal(options__next(&p, &arg, &f), OPT_PERCENT);
	assert_string_equal(arg, "90");
	assert_int_equal(options__next(&p, &arg, &f), OPT_FORMAT);
	assert_ptr_equal(f, &formats[FORMAT_html]);
	assert_string_equal(arg, "x.html");
	assert_int_equal(options__next(&p, &arg, &f), OPT_COLOR);
	assert_null(arg);
	assert_int_equal(options__next(&p, &arg, &f), OPT_TOP);
	assert_string_equal(arg, "3");
	assert_int_equal(options__next(&p, &arg, &f), OPT_NONE);
	assert_int_equal(optind, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_command_has_an_option_twice),
		cmocka_unit_test(usage_lines_line_up),
		cmocka_unit_test(the_parser_returns_ids),
	};

	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
