/* SPDX-License-Identifier: MIT */
/* Which of V8's jitdump DEBUG_INFO entries map machine code, and their bias (v8-debug.h). */
#include <elf.h>
#include <string.h>

#include "v8-debug.h"
#include "v8-name.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

bool v8_debug__bias(const char *name, uint32_t e_machine, uint64_t *bias)
{
	struct v8_name n;

	*bias = 0;
	if (!name)
		return true;
	v8_name__parse(name, &n);
	if (!v8_name__is_js(&n))
		return true;
	/* V8 kElfHeaderSize: sizeof(Elf32_Ehdr) on its 32-bit targets (ia32, arm). */
	*bias = e_machine == EM_386 || e_machine == EM_ARM ? V8_DEBUG_BIAS32 : V8_DEBUG_BIAS64;
	switch (n.tier) {
	case '*':	/* TurboFan */
	case '+':	/* Maglev */
		return true;
	case '^':	/* Sparkplug: the bytecode's position table */
	case '~':	/* interpreter */
		return false;
	default:
		/* No marker: wasm code ("JS:work-1-turbofan", machine offsets from
		 * --perf-prof-annotate-wasm) or a function whose optimization is
		 * disabled (interpreted, bytecode offsets). */
		return ends_with(name, "-turbofan") || ends_with(name, "-liftoff");
	}
}
