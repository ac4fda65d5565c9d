// SPDX-License-Identifier: MIT
/* Unit tests of the plugin's --dlarg options (plugin/perf/options.c) and of what
 * it reads from perf's own command line (plugin/perf/perf-cmdline.c). The
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

#include "perf/options.h"
#include "perf/perf-cmdline.h"

#define ARGV(...) (char *[]){ __VA_ARGS__ }
#define ARGC(...) ((int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(o, bad, ...) options__parse(o, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), bad)

static void every_option_is_taken(void **state)
{
	struct options o;
	const char *bad;

	assert_int_equal(PARSE(&o, &bad, "out=/tmp/a b.hbs", "perf-data=rec/perf.data", "jitdump=/x/jit-1.dump",
			       "jitdir=/d1", "jitdump=jit-2.dump", "jit-only", "jitdir=/d2", "search=/s1",
			       "search=s 2"), OPTIONS_OK);
	assert_null(bad);
	assert_string_equal(o.out_path, "/tmp/a b.hbs");
	assert_string_equal(o.perf_data, "rec/perf.data");
	assert_int_equal(o.jitdumps_nr, 2);
	assert_string_equal(o.jitdumps[0], "/x/jit-1.dump");
	assert_string_equal(o.jitdumps[1], "jit-2.dump");
	/* One jitdir: the last one given. */
	assert_string_equal(o.jitdir, "/d2");
	/* Every search directory, in order. */
	assert_int_equal(o.search_nr, 2);
	assert_string_equal(o.search[0], "/s1");
	assert_string_equal(o.search[1], "s 2");
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
	assert_int_equal(o.search_nr, 0);
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
					     "search=DIR", "jit-only", "help", "status 1", "2 for a bad --dlarg" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_non_null(strstr(options__usage, names[i]));
}

/* The command line as /proc/self/cmdline holds it: NUL after each argument. */
#define CMDLINE(s) s, sizeof(s) - 1

/* --symfs's root, which the plugin's resolver reads the files under. */
static void perf_symfs_root_is_kept(void **state)
{
	struct perf_cmdline c;

	assert_int_equal(perf_cmdline__parse(&c, CMDLINE("perf\0script\0-i\0a.data\0")), 0);
	assert_null(c.symfs);
	perf_cmdline__release(&c);
	assert_int_equal(perf_cmdline__parse(&c, CMDLINE("perf\0script\0--symfs\0/r 1\0--dlfilter\0x.so\0")), 0);
	assert_string_equal(c.symfs, "/r 1");
	assert_false(c.filters);
	perf_cmdline__release(&c);
	assert_int_equal(perf_cmdline__parse(&c, CMDLINE("perf\0script\0--symfs=sym\0")), 0);
	assert_string_equal(c.symfs, "sym");
	perf_cmdline__release(&c);
	assert_null(c.symfs);
}

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

/* perf script -f reads other users' files: so does the plugin's perf map reader. */
static void perf_force_is_noticed(void **state)
{
	static const struct {
		const char *args;
		size_t len;
		bool force;
	} cases[] = {
		{ CMDLINE("perf\0script\0-f\0"), true },
		{ CMDLINE("perf\0script\0--force\0"), true },
		{ CMDLINE("perf\0script\0--for\0"), true },
		{ CMDLINE("perf\0script\0-vf\0"), true },
		{ CMDLINE("perf\0script\0--force\0--no-force\0"), false },
		{ CMDLINE("perf\0script\0-F\0f\0"), false },
		{ CMDLINE("perf\0script\0--dlarg\0-f\0"), false },
		{ CMDLINE("perf\0script\0"), false },
	};
	struct perf_cmdline c;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(perf_cmdline__parse(&c, cases[i].args, cases[i].len), 0);
		if (c.force != cases[i].force)
			fail_msg("case %zu: force %d, expected %d", i, c.force, cases[i].force);
		perf_cmdline__release(&c);
	}
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
	/* A command line that cannot tell: assume perf filters (see below). */
	assert_true(c.filters);
	perf_cmdline__release(&c);
	/* --no-input takes back an earlier -i. */
	assert_int_equal(perf_cmdline__parse(&c, CMDLINE("perf\0script\0-i\0a.data\0--no-input\0")), 0);
	assert_null(c.input);
	perf_cmdline__release(&c);
}

/*
 * perf's option parser (tools/lib/subcmd/parse-options.c) also takes -i
 * bundled after other short options, and --input abbreviated. Each line was
 * checked by hand with perf script 6.1: `perf script <args> -F ip` fails
 * naming the file expected, or, where there is none, on the other option's
 * value ("Invalid file: -i", "Invalid field requested") or at perf.data.
 */
static void perf_input_in_perfs_other_spellings(void **state)
{
	static const struct { const char *args; size_t len; const char *input; } cases[] = {
		{ CMDLINE("perf\0script\0--inp=a.data\0"), "a.data" },
		{ CMDLINE("perf\0script\0--inpu\0b.data\0"), "b.data" },
		{ CMDLINE("perf\0script\0-fic.data\0"), "c.data" },
		{ CMDLINE("perf\0script\0-vi\0d.data\0"), "d.data" },
		/* after a value-less option of perf's list (-d), the bundle goes on */
		{ CMDLINE("perf\0script\0-di\0e.data\0"), "e.data" },
		/* A value that looks like an option is still the file. */
		{ CMDLINE("perf\0script\0-i\0-C0\0"), "-C0" },
		/* perf's own options before the subcommand, one with a value. */
		{ CMDLINE("perf_6.1\0--no-pager\0--debug\0verbose=1\0script\0-ie.data\0"), "e.data" },
		/* Values of other options are not -i. */
		{ CMDLINE("perf\0script\0-F\0-ix\0"), NULL },
		{ CMDLINE("perf\0script\0--dlarg\0-i\0x\0"), NULL },
		{ CMDLINE("perf\0script\0-k\0-i\0"), NULL },
		/* Options end at "--" and at the first word that is none. */
		{ CMDLINE("perf\0script\0--\0-i\0x\0"), NULL },
		{ CMDLINE("perf\0script\0report\0x\0-i\0y\0"), NULL },
	};
	struct perf_cmdline c;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(perf_cmdline__parse(&c, cases[i].args, cases[i].len), 0);
		if (cases[i].input)
			assert_string_equal(c.input, cases[i].input);
		else
			assert_null(c.input);
		perf_cmdline__release(&c);
	}
}

static void perf_filters_are_noticed(void **state)
{
	static const char *const filters[] = {
		"--time", "--pid", "--tid", "-C", "--cpu", "-c", "--comms", "-S", "--symbols",
		"--dsos", "--graph-function", "--switch-on", "--switch-off",
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

/*
 * Every spelling perf's option parser accepts for a filter: a short option
 * with its value attached or bundled after other short options, a long one
 * abbreviated to any unambiguous prefix, with '=' or the next word. Each was
 * checked by hand with perf script 6.1: perf accepts it as that option (on
 * test-data/fakejit, --tim and -S keep fewer samples, -d none, and -C is
 * refused as the recording has no CPU numbers); where a value looks like an
 * option perf takes it as the value ("Invalid file: -S").
 */
static void perf_filters_in_perfs_other_spellings(void **state)
{
	static const struct { const char *args; size_t len; bool filters; } cases[] = {
		{ CMDLINE("perf\0script\0-C0\0"), true },
		{ CMDLINE("perf\0script\0-cnode\0"), true },
		{ CMDLINE("perf\0script\0-Smain\0"), true },
		{ CMDLINE("perf\0script\0-fC0\0"), true },
		{ CMDLINE("perf\0script\0-fC\0""0\0"), true },
		{ CMDLINE("perf\0script\0-fd\0"), true },
		{ CMDLINE("perf\0script\0--pi=5\0"), true },
		{ CMDLINE("perf\0script\0--pi\0""5\0"), true },
		{ CMDLINE("perf\0script\0--tim\0""1,2\0"), true },
		{ CMDLINE("perf\0script\0--cp=0\0"), true },
		{ CMDLINE("perf\0script\0--co\0node\0"), true },
		{ CMDLINE("perf\0script\0--symb=main\0"), true },
		{ CMDLINE("perf\0script\0--ds\0x.so\0"), true },
		{ CMDLINE("perf\0script\0--gr=main\0"), true },
		{ CMDLINE("perf\0script\0--switch-of\0ev\0"), true },
		{ CMDLINE("perf\0script\0--deb\0"), true },
		/* An optional value only ever follows '=': -C0 is an option. */
		{ CMDLINE("perf\0script\0--itrace\0-C0\0"), true },
		/* A perf that cannot be read (an alias, say): assume filters. */
		{ CMDLINE("perf\0s\0"), true },
		/* Values of other options are not filters. */
		{ CMDLINE("perf\0script\0-F\0-C0\0"), false },
		{ CMDLINE("perf\0script\0--dlarg\0--time\0"), false },
		{ CMDLINE("perf\0script\0--dla=x\0-k\0-S\0"), false },
		{ CMDLINE("perf\0--buildid-dir\0--time\0script\0"), false },
		/* Where guest code is found, not which samples are kept. */
		{ CMDLINE("perf\0script\0--guestmount\0/g\0"), false },
		/* Options end at "--" and at the first word that is none. */
		{ CMDLINE("perf\0script\0--\0-C0\0"), false },
		{ CMDLINE("perf\0script\0record\0x\0-C0\0"), false },
		/* The last word about an option counts: --no-... takes it back. */
		{ CMDLINE("perf\0script\0--time\0""1,2\0--no-time\0"), false },
		{ CMDLINE("perf\0script\0-C0\0--no-cp\0"), false },
		{ CMDLINE("perf\0script\0--no-pid\0--pid=5\0"), true },
	};
	struct perf_cmdline c;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(perf_cmdline__parse(&c, cases[i].args, cases[i].len), 0);
		if (c.filters != cases[i].filters)
			fail_msg("case %zu: filters %d, expected %d", i, c.filters, cases[i].filters);
		perf_cmdline__release(&c);
	}
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
		cmocka_unit_test(perf_force_is_noticed),
		cmocka_unit_test(no_input_given_is_none),
		cmocka_unit_test(perf_filters_are_noticed),
		cmocka_unit_test(perf_symfs_root_is_kept),
		cmocka_unit_test(perf_input_in_perfs_other_spellings),
		cmocka_unit_test(perf_filters_in_perfs_other_spellings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
