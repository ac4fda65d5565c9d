// SPDX-License-Identifier: MIT
/* Unit tests of the plugin's --dlarg options (plugin/options.c) and of what
 * it reads from perf's own command line (plugin/perf-cmdline.c). The
 * expected values follow from the usage text and perf-cmdline.h. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "options.h"
#include "perf-cmdline.h"

#define ARGV(...) (char *[]){ __VA_ARGS__ }
#define ARGC(...) ((int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(o, bad, ...) options__parse(o, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), bad)

static void every_option_is_taken(void **state)
{
	struct options o;
	const char *bad;

	assert_int_equal(PARSE(&o, &bad, "out=/tmp/a b.hbs", "perf-data=rec/perf.data", "jitdump=/x/jit-1.dump",
			       "jitdir=/d1", "jitdump=jit-2.dump", "jit-only", "jitdir=/d2"), OPTIONS_OK);
	assert_null(bad);
	assert_string_equal(o.out_path, "/tmp/a b.hbs");
	assert_string_equal(o.perf_data, "rec/perf.data");
	assert_int_equal(o.jitdumps_nr, 2);
	assert_string_equal(o.jitdumps[0], "/x/jit-1.dump");
	assert_string_equal(o.jitdumps[1], "jit-2.dump");
	/* One jitdir: the last one given. */
	assert_string_equal(o.jitdir, "/d2");
	assert_true(o.jit_only);
	options__release(&o);
	assert_null(o.out_path);
}

static void nothing_given_means_the_defaults(void **state)
{
	struct options o;
	const char *bad;

	assert_int_equal(options__parse(&o, 0, NULL, &bad), OPTIONS_OK);
	assert_null(o.out_path);
	assert_null(o.perf_data);
	assert_int_equal(o.jitdumps_nr, 0);
	assert_null(o.jitdir);
	assert_false(o.jit_only);
	options__release(&o);
}

static void a_later_value_replaces_an_earlier_one(void **state)
{
	struct options o;
	const char *bad;

	assert_int_equal(PARSE(&o, &bad, "out=a", "out=b", "perf-data=c", "perf-data=", "out="), OPTIONS_OK);
	/* out= with nothing is an empty path (opening it fails later, with a message). */
	assert_string_equal(o.out_path, "");
	assert_string_equal(o.perf_data, "");
	options__release(&o);
}

static void help_and_unknown_stop_the_parse(void **state)
{
	struct options o;
	const char *bad;

	assert_int_equal(PARSE(&o, &bad, "jit-only", "help", "bogus"), OPTIONS_HELP);
	options__release(&o);
	assert_int_equal(PARSE(&o, &bad, "out=x", "jit_only", "help"), OPTIONS_UNKNOWN);
	assert_string_equal(bad, "jit_only");
	options__release(&o);
	/* Prefixes and near misses are not options. */
	assert_int_equal(PARSE(&o, &bad, "out"), OPTIONS_UNKNOWN);
	assert_string_equal(bad, "out");
	options__release(&o);
	assert_int_equal(PARSE(&o, &bad, "jit-only=1"), OPTIONS_UNKNOWN);
	options__release(&o);
	assert_int_equal(PARSE(&o, &bad, "HELP"), OPTIONS_UNKNOWN);
	options__release(&o);
	assert_int_equal(PARSE(&o, &bad, ""), OPTIONS_UNKNOWN);
	options__release(&o);
}

static void the_usage_names_every_option(void **state)
{
	static const char *const names[] = { "out=FILE", "perf-data=FILE", "jitdump=FILE", "jitdir=DIR",
					     "jit-only", "help", "status 1", "2 for a bad --dlarg" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_non_null(strstr(options__usage, names[i]));
}

/* The command line as /proc/self/cmdline holds it: NUL after each argument. */
#define CMDLINE(s) s, sizeof(s) - 1

static void perf_input_is_found_in_every_spelling(void **state)
{
	struct perf_cmdline c;

	assert_int_equal(perf_cmdline__parse(&c, CMDLINE("perf\0script\0-i\0a.data\0--dlfilter\0x.so\0")), 0);
	assert_string_equal(c.input, "a.data");
	assert_false(c.filters);
	perf_cmdline__release(&c);
	assert_int_equal(perf_cmdline__parse(&c, CMDLINE("perf\0script\0-ib.data\0")), 0);
	assert_string_equal(c.input, "b.data");
	perf_cmdline__release(&c);
	assert_int_equal(perf_cmdline__parse(&c, CMDLINE("perf\0script\0--input\0c.data\0")), 0);
	assert_string_equal(c.input, "c.data");
	perf_cmdline__release(&c);
	assert_int_equal(perf_cmdline__parse(&c, CMDLINE("perf\0script\0--input=d.data\0-i\0-\0")), 0);
	/* The last one wins, as in perf. */
	assert_string_equal(c.input, "-");
	perf_cmdline__release(&c);
	/* The last argument may lack its NUL (a command line cut at 8 KiB). */
	assert_int_equal(perf_cmdline__parse(&c, CMDLINE("perf\0script\0--input=e.data")), 0);
	assert_string_equal(c.input, "e.data");
	perf_cmdline__release(&c);
}

static void no_input_given_is_none(void **state)
{
	struct perf_cmdline c;

	/* -i as the very last word has no file after it. */
	assert_int_equal(perf_cmdline__parse(&c, CMDLINE("perf\0script\0-i\0")), 0);
	assert_null(c.input);
	perf_cmdline__release(&c);
	assert_int_equal(perf_cmdline__parse(&c, "", 0), 0);
	assert_null(c.input);
	assert_false(c.filters);
	perf_cmdline__release(&c);
}

static void perf_filters_are_noticed(void **state)
{
	static const char *const filters[] = {
		"--time", "--pid", "--tid", "-C", "--cpu", "-c", "--comms", "-S", "--symbols",
		"--dsos", "--guestmount", "--switch-on", "--switch-off",
	};
	struct perf_cmdline c;
	char buf[64];

	for (size_t i = 0; i < sizeof(filters) / sizeof(filters[0]); i++) {
		size_t n = (size_t)snprintf(buf, sizeof(buf), "perf%cscript%c%s%c1", 0, 0, filters[i], 0);

		assert_int_equal(perf_cmdline__parse(&c, buf, n), 0);
		assert_true(c.filters);
		perf_cmdline__release(&c);
		n = (size_t)snprintf(buf, sizeof(buf), "perf%cscript%c%s=1", 0, 0, filters[i]);
		assert_int_equal(perf_cmdline__parse(&c, buf, n), 0);
		assert_true(c.filters);
		perf_cmdline__release(&c);
	}
	/* Longer options that merely start alike are not filters. */
	assert_int_equal(perf_cmdline__parse(&c, CMDLINE("perf\0script\0--timestamp\0--pids\0")), 0);
	assert_false(c.filters);
	perf_cmdline__release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_option_is_taken),
		cmocka_unit_test(nothing_given_means_the_defaults),
		cmocka_unit_test(a_later_value_replaces_an_earlier_one),
		cmocka_unit_test(help_and_unknown_stop_the_parse),
		cmocka_unit_test(the_usage_names_every_option),
		cmocka_unit_test(perf_input_is_found_in_every_spelling),
		cmocka_unit_test(no_input_given_is_none),
		cmocka_unit_test(perf_filters_are_noticed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
