/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of postproc/annotate/v8/v8-name.c on the name forms real V8s wrote in the
 * recordings under test-data (v8-wasm, v8-versions: node 18, 20, 22), taken
 * apart by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "annotate/v8/v8-name.h"

static void expect(const char *name, const char *tag, char tier, const char *func, const char *where,
		   const char *script, bool js)
{
	struct v8_name n;

	v8_name__parse(name, &n);
	if (tag) {
		assert_non_null(n.tag);
		assert_int_equal(n.tag_len, strlen(tag));
		assert_memory_equal(n.tag, tag, n.tag_len);
	} else {
		assert_null(n.tag);
	}
	assert_int_equal(n.tier, tier);
	assert_int_equal(n.func_len, strlen(func));
	assert_memory_equal(n.func, func, n.func_len);
	if (where) {
		assert_non_null(n.where);
		assert_string_equal(n.where, where);
		assert_int_equal(n.where_len, strlen(where));
		assert_int_equal(n.script_len, strlen(script));
		assert_memory_equal(n.where, script, n.script_len);
	} else {
		assert_null(n.where);
	}
	assert_int_equal(v8_name__is_js(&n), js);
}

static void v8_forms(void **state)
{
	(void)state;
	expect("JS:*work /srv/app.js:12:21", "JS", '*', "work", "/srv/app.js:12:21", "/srv/app.js", true);
	expect("JS:+work /srv/app.js:12:21", "JS", '+', "work", "/srv/app.js:12:21", "/srv/app.js", true);
	expect("JS:^ /tmp/run.js:1:1", "JS", '^', "", "/tmp/run.js:1:1", "/tmp/run.js", true);
	expect("LazyCompile:*work /srv/app.js:12", "LazyCompile", '*', "work", "/srv/app.js:12",
	       "/srv/app.js", true);
	expect("Function:^work /srv/app.js:12", "Function", '^', "work", "/srv/app.js:12",
	       "/srv/app.js", true);
	expect("Script:~ /tmp/hot.js:1", "Script", '~', "", "/tmp/hot.js:1", "/tmp/hot.js", true);
	expect("JS:work-1-turbofan", "JS", 0, "work-1-turbofan", NULL, NULL, true);
	expect("Function:work-1-liftoff", "Function", 0, "work-1-liftoff", NULL, NULL, true);
	expect("Builtin:ArrayPrototypePush", "Builtin", 0, "ArrayPrototypePush", NULL, NULL, false);
	expect("Stub:js-to-wasm:i:i", "Stub", 0, "js-to-wasm:i:i", NULL, NULL, false);
	expect("JSX:*work", "JSX", '*', "work", NULL, NULL, false);
}

static void other_names(void **state)
{
	(void)state;
	expect("fib", NULL, 0, "fib", NULL, NULL, false);
	/* wasmtime's symbols: the word before "::" passes for a tag. */
	expect("wasm[0]::function[1]::fib", "wasm[0]", 0, ":function[1]::fib", NULL, NULL, false);
	/* A colon after a space is no tag's. */
	expect("a b:c", NULL, 0, "a", "b:c", "b:c", false);
	/* Only ":digits" is taken off the script, twice at most. */
	expect("JS:*f /a:b.js", "JS", '*', "f", "/a:b.js", "/a:b.js", true);
	expect("JS:*f /app.js::5", "JS", '*', "f", "/app.js::5", "/app.js:", true);
	expect("JS:*f /x.js:5:", "JS", '*', "f", "/x.js:5:", "/x.js:5:", true);
	expect("JS:*f /x.js:1:2:3", "JS", '*', "f", "/x.js:1:2:3", "/x.js:1", true);
	expect("JS:*f ", "JS", '*', "f", NULL, NULL, true);
}

/* The script a load name names, or none; identities are in test-diff.c. */
static void script_of_a_name(void **state)
{
	char buf[64];

	(void)state;
	assert_true(v8_name__script("JS:*work /srv/app.js:12:21", buf, sizeof(buf)));
	assert_string_equal(buf, "/srv/app.js");
	assert_true(v8_name__script("LazyCompile:*work /srv/app.js:12", buf, sizeof(buf)));
	assert_string_equal(buf, "/srv/app.js");
	assert_false(v8_name__script("JS:work-1-turbofan", buf, sizeof(buf)));
	assert_false(v8_name__script("JS:*work /srv/app.js:12:21", buf, 8));
}

/* wasm_ok NAME INDEX FUNC: V8's name of a wasm function's code (FUNC NULL: unnamed). */
static void wasm_ok(const char *name, int index, const char *func)
{
	const char *f = "x";
	size_t n = 99;
	int i = -1;

	assert_true(v8_name__wasm(name, &i, &f, &n));
	assert_int_equal(i, index);
	if (!func) {
		assert_null(f);
		assert_int_equal(n, 0);
	} else {
		assert_int_equal(n, strlen(func));
		assert_memory_equal(f, func, n);
	}
}

/*
 * The names node 20 gave base.wasm's functions (test-data/diff: JS:hash-1-turbofan,
 * JS:mix-2-turbofan, JS:run-0-liftoff) and a module's without a name
 * section (node 20.20.2 named one such function JS:wasm-function[0]-0-liftoff
 * and JS:wasm-function[0]-0-turbofan, checked by hand with --perf-prof);
 * names of JavaScript and of other code are not wasm functions.
 */
static void wasm_functions(void **state)
{
	int i;
	const char *f;
	size_t n;

	wasm_ok("JS:hash-1-turbofan", 1, "hash");
	wasm_ok("JS:run-0-liftoff", 0, "run");
	wasm_ok("JS:wasm-function[3]-3-liftoff", 3, NULL);
	wasm_ok("JS:my-name-12-turbofan", 12, "my-name");
	wasm_ok("JS:-7-liftoff", 7, NULL);
	assert_false(v8_name__wasm("JS:*work /srv/app.js:12:21", &i, &f, &n));
	assert_false(v8_name__wasm("JS:hash-turbofan", &i, &f, &n));
	assert_false(v8_name__wasm("JS:hash-1", &i, &f, &n));
	assert_false(v8_name__wasm("Builtin:ArrayPrototypePush", &i, &f, &n));
	assert_false(v8_name__wasm("-turbofan", &i, &f, &n));
}

/* A wasm function's tier, and its name without it: one function whatever
 * compiled it; no tier for any other name. */
static void wasm_tiers(void **state)
{
	size_t n = 0;
	const char *t;

	assert_non_null(t = v8_name__wasm_tier("JS:hash-1-turbofan", &n));
	assert_string_equal(t, "turbofan");
	assert_int_equal(n, strlen("JS:hash-1"));
	assert_non_null(t = v8_name__wasm_tier("JS:wasm-function[3]-3-liftoff", &n));
	assert_string_equal(t, "liftoff");
	assert_int_equal(n, strlen("JS:wasm-function[3]-3"));
	assert_null(v8_name__wasm_tier("JS:*work /srv/app.js:12:21", &n));
	assert_null(v8_name__wasm_tier("JS:hash-turbofan", &n));
	assert_null(v8_name__wasm_tier("JS:hash-1", &n));
	assert_null(v8_name__wasm_tier("turbofan", &n));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(v8_forms),
		cmocka_unit_test(other_names),
		cmocka_unit_test(script_of_a_name),
		cmocka_unit_test(wasm_functions),
		cmocka_unit_test(wasm_tiers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
