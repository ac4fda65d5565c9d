/* SPDX-License-Identifier: MIT */
/*
 * Driver of scripts/bench-scaling for the plugin's inputs that grow with a
 * jitdump: it writes synthetic dumps and times the plugin's readers on them.
 *   bench-plugin moves N FILE     write N loads (64-byte code) and N moves of them
 *   bench-plugin bigmoves N FILE  write one 64 KiB load moved N times
 *   bench-plugin tiny N FILE      write N loads of 16-byte code at distinct addresses
 *   bench-plugin open FILE        time jitdump__open (all records), print seconds
 *   bench-plugin index FILE       ... and the code map of its loads, as the plugin
 *                                 builds it at the first lookup
 *   bench-plugin overlap N        time a code map of one 1 MiB load over N tiny
 *                                 loads, and N lookups at distinct addresses
 * Times are printed as "<seconds>" on stdout; memory is measured by the caller.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jit/codemap.h"
#include "jit/jitdump.h"
#include "../jitdump-writer.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int write_moves(size_t n, const char *path, size_t code_size, bool one_load, bool moves)
{
	struct jitdump_writer w;
	struct jitdump_writer_header h = jitdump_writer__default_header(4242);
	uint8_t *code = malloc(code_size);
	unsigned seed = 1;
	uint64_t t = 1000;
	int ret;

	if (!code)
		return -ENOMEM;
	memset(code, 0x90, code_size);
	jitdump_writer__init(&w, false);
	jitdump_writer__header(&w, &h);
	for (size_t i = 0; i < (one_load ? 1 : n); i++) {
		struct jitdump_writer_load l = { .timestamp = t++, .pid = 4242, .tid = 4242,
						 .code_addr = 0x10000000 + i * 0x100, .code_index = i,
						 .name = "f", .code = code, .code_size = code_size };

		jitdump_writer__code_load(&w, &l);
	}
	for (size_t i = 0; moves && i < n; i++) {
		uint64_t idx = one_load ? 0 : (uint64_t)(rand_r(&seed) % (int)n);
		struct jitdump_writer_move m = { .timestamp = t++, .pid = 4242, .tid = 4242,
						 .old_code_addr = 0x10000000 + idx * 0x100,
						 .new_code_addr = 0x80000000 + i * 0x100,
						 .code_size = code_size, .code_index = idx };

		jitdump_writer__code_move(&w, &m);
	}
	ret = w.oom ? -ENOMEM : jitdump_writer__save(&w, path, w.len);
	jitdump_writer__release(&w);
	free(code);
	return ret;
}

static int time_open(const char *path)
{
	struct jitdump *jd;
	char err[1024];
	double t0 = now();
	int ret = jitdump__open(&jd, path, err, sizeof(err));

	if (ret < 0 || jd->error) {
		fprintf(stderr, "bench-plugin: %s\n", err);
		jitdump__close(jd);
		return 1;
	}
	printf("%.4f %zu\n", now() - t0, jd->nr);
	jitdump__close(jd);
	return 0;
}

static int time_index(const char *path)
{
	struct jitdump *jd;
	struct codemap *m = codemap__new();
	char err[1024];
	double t0 = now();
	size_t id;

	if (!m || jitdump__open(&jd, path, err, sizeof(err)) < 0 || jd->error) {
		fprintf(stderr, "bench-plugin: %s\n", err);
		return 1;
	}
	for (size_t i = 0; i < jd->nr; i++)
		codemap__add(m, jd->pid, jd->loads[i].code_addr, jd->loads[i].code_size,
			     jd->loads[i].timestamp, 0, i);
	codemap__lookup(m, jd->pid, jd->nr ? jd->loads[0].code_addr : 0, UINT64_MAX, true, &id);
	printf("%.4f %zu\n", now() - t0, jd->nr);
	codemap__free(m);
	jitdump__close(jd);
	return 0;
}

static int time_overlap(size_t n)
{
	struct codemap *m = codemap__new();
	unsigned seed = 2;
	size_t id, hits = 0;
	double t0 = now();

	if (!m)
		return 1;
	/* One big load first, then n tiny ones inside it, later in time. */
	codemap__add(m, 1, 0x10000000, 1 << 20, 1, 0, 0);
	for (size_t i = 0; i < n; i++)
		codemap__add(m, 1, 0x10000000 + (i * 8) % (1 << 20), 8, 2 + i, 0, i + 1);
	for (size_t i = 0; i < n; i++) {
		uint64_t ip = 0x10000000 + (uint64_t)(rand_r(&seed) % (1 << 20));

		hits += codemap__lookup(m, 1, ip, 2 + n, true, &id) == CODEMAP_HIT;
	}
	printf("%.4f %zu\n", now() - t0, hits);
	codemap__free(m);
	return hits == n ? 0 : 1;
}

int main(int argc, char **argv)
{
	size_t n = argc > 2 ? strtoull(argv[2], NULL, 10) : 0;

	if (argc == 4 && !strcmp(argv[1], "moves"))
		return write_moves(n, argv[3], 64, false, true) ? 1 : 0;
	if (argc == 4 && !strcmp(argv[1], "bigmoves"))
		return write_moves(n, argv[3], 65536, true, true) ? 1 : 0;
	if (argc == 4 && !strcmp(argv[1], "tiny"))
		return write_moves(n, argv[3], 16, false, false) ? 1 : 0;
	if (argc == 3 && !strcmp(argv[1], "index"))
		return time_index(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "open"))
		return time_open(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "overlap"))
		return time_overlap(n);
	fprintf(stderr, "usage: bench-plugin moves|bigmoves|tiny N FILE | open|index FILE | overlap N\n");
	return 2;
}
