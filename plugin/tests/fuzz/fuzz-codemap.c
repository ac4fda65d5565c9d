// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the code map and the jitdump's code_index index. The
 * input is read as a jitdump (any records: loads, moves of loads and of
 * moves, overlapping and reused addresses); its loads go into a code map as
 * the plugin adds them (small pids, so loads of "different" processes meet),
 * in two batches with lookups between. Every lookup at an address and time
 * taken from a load (its start, middle, last byte, and around its time) or
 * from the input's last bytes is checked against the rule of codemap.h worked
 * out by brute force, and every moved load must carry its origin's code.
 * A disagreement aborts: libFuzzer reports it as a crash.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "jit/codemap.h"
#include "jit/jitdump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static enum codemap_result reference(const struct codemap *m, size_t upto, uint32_t pid,
				     uint64_t ip, uint64_t time, bool time_aware, size_t *id)
{
	bool found = false, later = false;
	size_t covering = 0;

	for (size_t i = 0; i < upto; i++) {
		const struct codemap_entry *e = codemap__entry(m, i);

		if (e->pid != pid || ip < e->start || ip >= e->end)
			continue;
		covering++;
		if (time_aware && e->time > time) {
			later = true;
			continue;
		}
		if (!found || e->time >= codemap__entry(m, *id)->time)
			*id = i;
		found = true;
	}
	if (found && !time_aware && covering > 1)
		return CODEMAP_AMBIGUOUS;
	return found ? CODEMAP_HIT : later ? CODEMAP_BEFORE_LOAD : CODEMAP_MISS;
}

static void check(struct codemap *m, size_t nr, uint32_t pid, uint64_t ip, uint64_t time)
{
	for (int ta = 0; ta < 2; ta++) {
		size_t got = SIZE_MAX, want = SIZE_MAX;
		enum codemap_result r = codemap__lookup(m, pid, ip, time, ta, &got);

		if (r != reference(m, nr, pid, ip, time, ta, &want) || ((r == CODEMAP_HIT || r == CODEMAP_AMBIGUOUS) && got != want))
			abort();
	}
}

static void lookups(struct codemap *m, const struct jitdump *jd, size_t nr, const uint8_t *data,
		    size_t size)
{
	for (size_t i = 0; i < nr; i++) {
		const struct jitdump_load *l = &jd->loads[i];
		uint32_t pid = l->pid & 3;
		uint64_t t = l->timestamp;

		check(m, nr, pid, l->code_addr, t);
		check(m, nr, pid, l->code_addr + l->code_size / 2, t ? t - 1 : 0);
		check(m, nr, pid, l->code_addr + l->code_size - 1, t + 1);
		check(m, nr, pid, l->code_addr + l->code_size, UINT64_MAX);
	}
	/* Addresses and times from the input's last bytes, near the loads. */
	for (size_t k = 0; k + 10 <= size && k < 160; k += 10) {
		const uint8_t *p = data + size - 10 - k;
		uint64_t base = nr ? jd->loads[p[0] % nr].code_addr : 0;

		check(m, nr, p[1] & 3, base + (uint64_t)(int8_t)p[2], (uint64_t)p[3] << 8 | p[4]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-codemap", 0);
	char path[64], err[1024];
	struct jitdump *jd = NULL;
	struct codemap *m;

	if (fd < 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (write(fd, data, size) != (ssize_t)size || jitdump__open(&jd, path, err, sizeof(err)) ||
	    !(m = codemap__new())) {
		jitdump__close(jd);
		close(fd);
		return 0;
	}
	for (size_t i = 0; i < jd->nr; i++) {
		const struct jitdump_load *l = &jd->loads[i], *o;

		if (l->moved_from >= 0) {
			/* The index found the latest holder of the code_index, earlier in the file. */
			if ((size_t)l->moved_from >= i)
				abort();
			o = &jd->loads[l->moved_from];
			if (o->code_index != l->code_index || o->code_size != l->code_size ||
			    o->code != l->code || strcmp(o->name, l->name))
				abort();
			for (size_t j = (size_t)l->moved_from + 1; j < i; j++)
				if (jd->loads[j].code_index == l->code_index)
					abort();
		}
	}
	size_t half = jd->nr / 2;

	for (size_t i = 0; i < jd->nr; i++) {
		const struct jitdump_load *l = &jd->loads[i];

		if (codemap__add(m, l->pid & 3, l->code_addr, l->code_size, l->timestamp, 0, i) != (long)i)
			abort();
		if (i + 1 == half)
			lookups(m, jd, half, data, size);
	}
	lookups(m, jd, jd->nr, data, size);
	codemap__free(m);
	jitdump__close(jd);
	close(fd);
	return 0;
}
