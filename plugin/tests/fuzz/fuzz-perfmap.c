// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: perf maps (plugin/jit/perfmap.c), written by the
 * profiled program: the input is the map. It is parsed in memory, then
 * loaded from a file with a bound of a few KiB (the cut at a line). Every
 * lookup (each line's start, its last byte and end, addresses from the
 * input) must hold the address and agree with perf's tree (symset.h: the
 * two answers must never differ).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-files.h"
#include "jit/perfmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(struct perfmap *m, uint64_t ip)
{
	const struct symset_sym *s = perfmap__find(m, ip);

	if (s && !(s->start <= ip && (ip < s->end || (ip == s->start && s->end == s->start))))
		__builtin_trap();
	if (s != symset__find_in_tree(&m->set, ip))
		__builtin_trap();
	if (s)
		(void)strlen(s->name);
}

static void lookups(struct perfmap *m, const uint8_t *data, size_t size)
{
	for (size_t i = 0; i < m->set.nr && i < 256; i++) {
		check(m, m->set.v[i].start);
		check(m, m->set.v[i].end - 1);
		check(m, m->set.v[i].end);
	}
	for (size_t i = 0; i + 8 <= size && i < 128; i += 8) {
		uint64_t a;

		memcpy(&a, data + i, 8);
		check(m, a);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct perfmap m;

	if (!text)
		return 0;
	memcpy(text, data, size);
	if (perfmap__parse(&m, text, size) == 0)
		lookups(&m, data, size);
	perfmap__release(&m);
	if (perfmap__load(&m, fuzz_put("perf-1.map", data, size), 1024 + size % 4096, false) == 0) {
		if (m.lines > size)
			__builtin_trap();
		lookups(&m, data, size);
	}
	perfmap__release(&m);
	return 0;
}
