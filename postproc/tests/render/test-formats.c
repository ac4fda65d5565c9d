/* SPDX-License-Identifier: MIT */
/* Unit tests of the table of outputs (postproc/render/formats.def). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "render/formats.h"

/* Every row has a name, a render, and an option and help unless it is the
 * default; names and options are unique; a --NAME=FILE output draws graphs
 * or pages (FORMAT_FILE goes with a whole listing). */
static void every_row_is_whole(void **state)
{
	(void)state;
	assert_null(formats[FORMAT_text].option);
	for (size_t i = 0; i < FORMAT__NR; i++) {
		const struct output_format *f = &formats[i];

		assert_non_null(f->name);
		assert_true(f->name[0]);
		assert_non_null(f->render);
		if (i != FORMAT_text) {
			assert_non_null(f->option);
			assert_non_null(f->help);
			assert_true((f->diff_render != NULL) == (f->diff_help != NULL));
		}
		if (f->needs & FORMAT_FILE)
			assert_true(f->needs & FORMAT_WHOLE);
		for (size_t k = 0; k < i; k++) {
			assert_string_not_equal(formats[k].name, f->name);
			if (f->option && formats[k].option)
				assert_string_not_equal(formats[k].option, f->option);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_row_is_whole),
	};

	return cmocka_run_group_tests_name("formats", tests, NULL, NULL);
}
