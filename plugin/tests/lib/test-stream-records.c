// SPDX-License-Identifier: MIT
/*
 * Unit tests of the stream's table, plugin/lib/stream-records.def (through
 * stream-format.h's arrays): every record kind and key is one word, none is
 * another's, and each is documented in plugin/STREAM.md where a reader of
 * the format looks for it: a kind at the start of its line in "Records",
 * a key=value key on its record's line (an object's on its kind's line), a
 * shortened string's length key in the table of "Lines". The expected
 * places are STREAM.md's own text, read here.
 */
#define _GNU_SOURCE	/* strchrnul */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/stream-format.h"

/* plugin/STREAM.md (the tests run from the top of the tree). */
static char *spec;

static int read_spec(void **state)
{
	FILE *f = fopen("plugin/STREAM.md", "r");
	size_t n;

	(void)state;
	if (!f)
		return -1;
	spec = calloc(1, 1 << 20);
	n = spec ? fread(spec, 1, (1 << 20) - 1, f) : 0;
	fclose(f);
	return n ? 0 : -1;
}

static int free_spec(void **state)
{
	(void)state;
	free(spec);
	return 0;
}

/* Whether s is one word of the stream: not empty, no space, '=' or '%'. */
static bool one_word(const char *s)
{
	return *s && !strpbrk(s, " =%\t\n");
}

static void each_word_is_one_and_its_own(void **state)
{
	(void)state;
	assert_string_equal(hb_records[HB_REC_SECTION].word, HB_STREAM_MAGIC);
	for (unsigned r = 0; r < HB_REC__NR; r++) {
		assert_non_null(hb_records[r].word);
		assert_true(one_word(hb_records[r].word));
		/* found as itself: no other kind is the same word */
		assert_int_equal(hb_record_find(hb_records[r].word), r);
	}
	assert_int_equal(hb_record_find("no-such-record"), HB_REC__NR);
	for (unsigned k = 0; k < HB_FIELD__NR; k++) {
		const struct hb_field_info *f = &hb_fields[k];

		assert_non_null(f->key);
		assert_true(one_word(f->key));
		assert_true(f->record < HB_REC__NR);
		assert_true(f->kinds && !(f->kinds & ~HB_KINDS_ALL));
		/* a record's keys come after its kind, before the next record's */
		assert_true(!k || hb_fields[k - 1].record <= f->record);
		for (unsigned j = 0; j < k; j++)
			if (hb_fields[j].record == f->record)
				assert_string_not_equal(hb_fields[j].key, f->key);
		if (f->type == HB_TYPE_LENGTH) {
			size_t n = strlen(f->key);

			assert_true(n > 7 && !strcmp(f->key + n - 7, "-length"));
			assert_false(f->required);
		}
	}
}

/* Whether a line of the spec that starts with start holds s. */
static bool a_line_has(const char *start, const char *s)
{
	size_t n = strlen(start);

	for (const char *l = spec;; l++) {
		const char *end = strchrnul(l, '\n');

		if (!strncmp(l, start, n) && memmem(l, (size_t)(end - l), s, strlen(s)))
			return true;
		if (!*end)
			return false;
		l = end;
	}
}

static void each_kind_starts_its_line_in_the_records(void **state)
{
	const char *records = strstr(spec, "\n## Records");

	(void)state;
	assert_non_null(records);
	for (unsigned r = 0; r < HB_REC__NR; r++) {
		char *a, *b;

		assert_true(asprintf(&a, "\n%s ", hb_records[r].word) > 0);
		assert_true(asprintf(&b, "\n%s\n", hb_records[r].word) > 0);
		if (!strstr(records, a) && !strstr(records, b))
			fail_msg("STREAM.md's records have no line of '%s'", hb_records[r].word);
		free(a);
		free(b);
	}
}

/* How the lines that document field f's record start, for an object of kind (an HB_KIND_). */
static char *record_line(const struct hb_field_info *f, int kind)
{
	char *start;

	if (f->record == HB_REC_OBJECT)
		assert_true(asprintf(&start, "object <id> %s ", hb_kind_name(kind)) > 0);
	else
		assert_true(asprintf(&start, "%s ", hb_records[f->record].word) > 0);
	return start;
}

static void each_key_is_on_its_records_line(void **state)
{
	(void)state;
	for (unsigned k = 0; k < HB_FIELD__NR; k++) {
		const struct hb_field_info *f = &hb_fields[k];
		char *plain, *optional;

		if (f->type == HB_TYPE_LENGTH)
			continue;
		assert_true(asprintf(&plain, " %s=", f->key) > 0);
		assert_true(asprintf(&optional, "[%s=", f->key) > 0);
		for (int kind = 0; kind < HB_KIND__NR; kind++) {
			/* cwasm's line says "...same fields as native..." */
			if (!(f->kinds & 1u << kind) || kind == HB_KIND_CWASM)
				continue;
			char *start = record_line(f, kind);

			/* shown in brackets: a reader does without it */
			if (a_line_has(start, optional))
				assert_false(f->required);
			else if (!a_line_has(start, plain))
				fail_msg("no line of STREAM.md starting '%s' has%s", start, plain);
			free(start);
		}
		free(plain);
		free(optional);
	}
}

static void each_length_is_in_the_lines_table(void **state)
{
	(void)state;
	for (unsigned k = 0; k < HB_FIELD__NR; k++) {
		const struct hb_field_info *f = &hb_fields[k];
		char *row, *key;

		if (f->type != HB_TYPE_LENGTH)
			continue;
		assert_true(asprintf(&row, "  | `%s` |", hb_records[f->record].word) > 0);
		assert_true(asprintf(&key, "`%s=`", f->key) > 0);
		if (!a_line_has(row, key))
			fail_msg("STREAM.md's table of shortened strings lacks %s on the row of '%s'", key,
				 hb_records[f->record].word);
		free(row);
		free(key);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_word_is_one_and_its_own),
		cmocka_unit_test(each_kind_starts_its_line_in_the_records),
		cmocka_unit_test(each_key_is_on_its_records_line),
		cmocka_unit_test(each_length_is_in_the_lines_table),
	};

	return cmocka_run_group_tests(tests, read_spec, free_spec);
}
