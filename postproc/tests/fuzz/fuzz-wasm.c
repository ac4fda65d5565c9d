// SPDX-License-Identifier: MIT
/* libFuzzer target: the Wasm decoder (sections, every opcode, name section, components). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "annotate/wasm/wasm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wasm_module *m;
	const struct wasm_insn *insns;
	char err[512];
	size_t n, sum = 0;

	if (wasm_module__parse(&m, data, size, "fuzz.wasm", err, sizeof(err)))
		return 0;
	n = wasm_module__insns(m, &insns);
	/* Every instruction's text is what the offset lookup returns. */
	for (size_t i = 0; i < n; i++) {
		const char *t = wasm_module__insn_text(m, insns[i].off);

		if (insns[i].text)
			sum += strlen(insns[i].text) + (t ? strlen(t) : 0);
		(void)wasm_module__func_name(m, insns[i].func);
	}
	(void)sum;
	wasm_module__free(m);
	return 0;
}
