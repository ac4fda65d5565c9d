// SPDX-License-Identifier: MIT
/* libFuzzer target: the Wasm decoder (sections, every opcode, name section, components). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "annotate/wasm/wasm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wasm_module *m, *lazy;
	const struct wasm_insn *insns;
	char err[512];
	size_t n;

	if (wasm_module__parse(&m, data, size, "fuzz.wasm", err, sizeof(err)))
		return 0;
	/* The same input parses the same way twice. */
	if (wasm_module__parse(&lazy, data, size, "fuzz.wasm", err, sizeof(err)))
		__builtin_trap();
	n = wasm_module__insns(m, &insns);
	/*
	 * Every instruction's text is what the offset lookup returns, on this
	 * module (bodies decoded already) and on one whose bodies are decoded
	 * by the lookups themselves, one at a time.
	 */
	for (size_t i = 0; i < n; i++) {
		const char *t = wasm_module__insn_text(m, insns[i].off);
		const char *l = wasm_module__insn_text(lazy, insns[i].off);

		if (!insns[i].text != !t || !t != !l || (t && (strcmp(t, insns[i].text) || strcmp(t, l))))
			__builtin_trap();
		(void)wasm_module__func_name(m, insns[i].func);
	}
	if (wasm_module__lazy_errors(lazy))
		__builtin_trap();
	wasm_module__free(lazy);
	wasm_module__free(m);
	return 0;
}
