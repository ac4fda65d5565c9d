/* SPDX-License-Identifier: MIT */
/*
 * Driver of scripts/bench-graph: what laying out and drawing control-flow
 * graphs costs, on real compiled code. Every function of an ELF file's
 * symbol table (scripts/bench-graph gives it postproc/hotblocks itself:
 * GCC's code and capstone's big decoder switches) is disassembled by cfg.c
 * and made a graph of its blocks, edges from its branches:
 *   bench-graph runs ELF LO HI MAX_BOXES   one line per function of LO..HI
 *       blocks: "blocks edges", then "boxes ms svg_bytes" (layout and SVG)
 *       as it is (dashes past 1500 blocks: minutes), then again folded to
 *       fit MAX_BOXES (graph__collapse_to_fit), then the name
 *   bench-graph set ELF LO HI N MAX_BOXES  the first N functions of LO..HI
 *       blocks one after another, as a report would (MAX_BOXES 0: unfolded):
 *       "functions blocks boxes seconds svg_bytes"
 * Which blocks are hot is made up (no samples here): the entry and the
 * blocks of one small loop, as a hot loop in a profile; the rest is cold.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/cfg.h"
#include "render/graph/graph.h"
#include "render/graph/heat.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

/* The block after b in address order starts where b ends. */
static bool falls_through(const struct cfg_func *f, size_t b)
{
	const struct cfg_insn *last = &f->insns[f->blocks[b].first + f->blocks[b].nr - 1];

	if (b + 1 >= f->blocks_nr || f->blocks[b + 1].start != f->blocks[b].end)
		return false;
	if (last->flags & (INSN_JUMP | INSN_RET | INSN_TRAP))
		return false;
	/* A jump table's entries are data: nothing falls into them. */
	return !(f->insns[f->blocks[b + 1].first].flags & INSN_TABLE) &&
	       !(last->flags & INSN_TABLE);
}

/* The graph of f's blocks; hot: the entry and the blocks of its first loop
 * of at most 12 blocks (a back edge in address order). */
static int build(struct graph *g, const struct cfg_func *f, const char *id)
{
	struct heat_scale scale;
	long loop_lo = -1, loop_hi = -1;
	char nid[32], l0[32], l1[32];

	heat_scale__init(&scale, 0.5);
	for (size_t b = 0; b < f->blocks_nr && loop_lo < 0; b++) {
		const struct cfg_insn *last = &f->insns[f->blocks[b].first + f->blocks[b].nr - 1];
		long t;

		if (!(last->flags & INSN_HAS_TARGET) || (last->flags & (INSN_CALL | INSN_TABLE)))
			continue;
		t = cfg_func__block_at(f, last->target);
		if (t >= 0 && (size_t)t <= b && b - t < 12)
			loop_lo = t, loop_hi = b;
	}
	if (graph__init(g, id))
		return -ENOMEM;
	for (size_t b = 0; b < f->blocks_nr; b++) {
		bool hot = b == 0 || ((long)b >= loop_lo && (long)b <= loop_hi);
		double share = hot ? (b == 0 ? 0.001 : 0.05 + 0.01 * (b % 5)) : 0;
		struct heat_colour c = heat_scale__colour(&scale, share);
		const char *lines[] = { l0, l1 };
		struct graph_node_spec s = { nid, lines, 2, NULL, nid, c.fill, c.ink, !hot };

		snprintf(nid, sizeof(nid), "%s-%x", id, f->blocks[b].start);
		snprintf(l0, sizeof(l0), "+0x%x %6.2f%%", f->blocks[b].start, share * 100);
		snprintf(l1, sizeof(l1), "%zu insns", f->blocks[b].nr);
		if (graph__add_node(g, &s) < 0)
			return -ENOMEM;
	}
	for (size_t b = 0; b < f->blocks_nr; b++) {
		const struct cfg_block *blk = &f->blocks[b];
		const struct cfg_insn *last = &f->insns[blk->first + blk->nr - 1];
		long t;

		if (f->insns[blk->first].flags & INSN_TABLE) {
			/* a jump table block: its cases leave the block before it */
			for (size_t i = 0; b > 0 && i < blk->nr; i++) {
				const struct cfg_insn *in = &f->insns[blk->first + i];

				t = (in->flags & INSN_TABLE) ? cfg_func__block_at(f, in->target) : -1;
				if (t >= 0 && graph__add_edge(g, b - 1, t, GRAPH_EDGE_CASE))
					return -ENOMEM;
			}
			continue;
		}
		if (falls_through(f, b) && graph__add_edge(g, b, b + 1, GRAPH_EDGE_FALLTHROUGH))
			return -ENOMEM;
		if ((last->flags & INSN_HAS_TARGET) && !(last->flags & INSN_CALL) &&
		    (last->flags & (INSN_JUMP | INSN_COND))) {
			t = cfg_func__block_at(f, last->target);
			if (t >= 0 && graph__add_edge(g, b, t, GRAPH_EDGE_TAKEN))
				return -ENOMEM;
		}
	}
	return graph__mark_back_edges(g, 0);
}

/* Lay out and draw: milliseconds, SVG bytes in *bytes. */
static double draw(struct graph *g, size_t *bytes)
{
	char err[256];
	double t0 = now();
	char *svg;

	if (graph__layout(g, 0, err, sizeof(err))) {
		fprintf(stderr, "bench-graph: layout of %s failed: %s\n", g->id, err);
		exit(1);
	}
	svg = graph__svg(g, bytes);
	if (!svg)
		exit(1);
	free(svg);
	return (now() - t0) * 1e3;
}

typedef void (*visit_fn)(const struct cfg_func *f, const char *name, void *ctx);

/* Every FUNC symbol of the ELF file with code and lo..hi blocks. */
static void each_function(const char *path, size_t lo, size_t hi, visit_fn visit, void *ctx)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;

	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE || !(e = elf_begin(fd, ELF_C_READ, NULL))) {
		fprintf(stderr, "bench-graph: cannot read %s\n", path);
		exit(1);
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			GElf_Shdr th;
			Elf_Scn *ts;
			Elf_Data *td;
			struct cfg_func f;

			if (!gelf_getsym(d, i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    !sym.st_size)
				continue;
			ts = elf_getscn(e, sym.st_shndx);
			if (!ts || !gelf_getshdr(ts, &th) || th.sh_type != SHT_PROGBITS ||
			    sym.st_value < th.sh_addr || sym.st_value + sym.st_size > th.sh_addr + th.sh_size)
				continue;
			td = elf_getdata(ts, NULL);
			if (!td || !td->d_buf)
				continue;
			if (cfg_func__build(&f, 62, (const uint8_t *)td->d_buf + (sym.st_value - th.sh_addr),
					    sym.st_size, 0, NULL, 0))
				continue;
			if (f.blocks_nr >= lo && f.blocks_nr <= hi)
				visit(&f, elf_strptr(e, sh.sh_link, sym.st_name), ctx);
			cfg_func__release(&f);
		}
	}
	elf_end(e);
	close(fd);
}

/* Drawn boxes, milliseconds and SVG bytes of g as it is now. */
static void stage(struct graph *g)
{
	size_t bytes;
	double ms = draw(g, &bytes);

	printf(" %zu %.2f %zu", graph__shown_nodes(g), ms, bytes);
}

/* dot's time grows too fast past this many boxes to draw them unfolded here. */
#define RAW_MAX 1500

struct opts {
	size_t max_boxes, want, done, blocks, drawn, bytes;
	double secs;
};

static void run_one(const struct cfg_func *f, const char *name, void *ctx)
{
	struct opts *o = ctx;
	struct graph g;

	if (build(&g, f, "f"))
		exit(1);
	printf("%zu %zu", f->blocks_nr, g.edges_nr);
	if (f->blocks_nr <= RAW_MAX)
		stage(&g);
	else
		printf(" - - -");
	if (graph__collapse_to_fit(&g, o->max_boxes) < 0)
		exit(1);
	stage(&g);
	printf(" %s\n", name);
	fflush(stdout);
	graph__release(&g);
}

static void set_one(const struct cfg_func *f, const char *name, void *ctx)
{
	struct opts *o = ctx;
	struct graph g;
	char id[16];
	size_t bytes;
	double t0;

	if (o->done >= o->want)
		return;
	t0 = now();
	snprintf(id, sizeof(id), "f%zu", o->done);
	if (build(&g, f, id) || (o->max_boxes && graph__collapse_to_fit(&g, o->max_boxes) < 0))
		exit(1);
	o->drawn += graph__shown_nodes(&g);
	draw(&g, &bytes);
	graph__release(&g);
	o->secs += now() - t0;
	o->bytes += bytes;
	o->blocks += f->blocks_nr;
	o->done++;
	(void)name;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };

	if (argc == 6 && !strcmp(argv[1], "runs")) {
		o.max_boxes = strtoul(argv[5], NULL, 0);
		each_function(argv[2], strtoul(argv[3], NULL, 0), strtoul(argv[4], NULL, 0), run_one, &o);
		return 0;
	}
	if (argc == 7 && !strcmp(argv[1], "set")) {
		o.want = strtoul(argv[5], NULL, 0);
		o.max_boxes = strtoul(argv[6], NULL, 0);
		each_function(argv[2], strtoul(argv[3], NULL, 0), strtoul(argv[4], NULL, 0), set_one, &o);
		printf("%zu %zu %zu %.4f %zu\n", o.done, o.blocks, o.drawn, o.secs, o.bytes);
		return o.done == o.want ? 0 : 1;
	}
	fprintf(stderr, "usage: bench-graph runs ELF LO HI MAX_BOXES | set ELF LO HI N MAX_BOXES\n");
	return 2;
}
