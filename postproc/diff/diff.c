/* SPDX-License-Identifier: MIT */
/* The comparison's wire names (diff.h). */
#include "diff.h"

const char *diff__func_match_name(enum diff_func_match m)
{
	switch (m) {
	case DIFF_FUNC_IDENTITY:
		return "identity";
	case DIFF_FUNC_WASM:
		return "wasm";
	case DIFF_FUNC_NAME:
		return "name";
	default:
		return NULL;
	}
}

const char *diff__key_name(enum diff_key k)
{
	static const char *const names[DIFF_KEY__NR] = {
		[DIFF_KEY_CODE] = "code", [DIFF_KEY_WASM] = "wasm", [DIFF_KEY_SOURCE] = "source",
		[DIFF_KEY_ASM] = "asm",
	};

	return (unsigned)k < DIFF_KEY__NR ? names[k] : NULL;
}
