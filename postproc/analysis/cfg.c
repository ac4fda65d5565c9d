/* SPDX-License-Identifier: MIT */
/* One code object's basic blocks: where its code ends, its leaders, its jump tables (cfg.h). */
#include <capstone/capstone.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/lib/bsearch.h"
#include "cfg-decode.h"
#include "cfg.h"
#include "lib/util.h"

/*
 * The instruction starting at each offset, or -1: the passes below look up
 * every target, so a table of the function's size (4 bytes a byte, while
 * it is built) rather than a search each.
 */
static int32_t *insn_index(const struct cfg_func *f)
{
	int32_t *at = malloc((f->size ? f->size : 1) * sizeof(*at));

	if (!at)
		return NULL;
	memset(at, 0xff, f->size * sizeof(*at));
	for (size_t i = 0; i < f->insns_nr; i++)
		at[f->insns[i].off] = (int32_t)i;
	return at;
}

/* Index of the instruction at a target inside [0, end), or -1. */
static long target_insn(const struct cfg_func *f, const int32_t *at, const struct cfg_insn *in,
			uint32_t end)
{
	if (!cfg_insn__has_branch_target(in) || in->target >= end)
		return -1;
	return at[in->target];
}

/*
 * code_end: the end of the last instruction that a path from the entry or from a
 * sampled instruction reaches (jump tables included), or that a direct branch of
 * the code before it targets (followed in turn), so that out-of-line code after the
 * last return (V8's deoptimisation exits, OSR prologues) stays code. What follows
 * is trailing data.
 */
static int find_code_end(struct cfg_func *f, const struct fin *fin, const int32_t *at)
{
	size_t n = f->insns_nr, sp = 0, *stack;
	uint8_t *seen;
	uint32_t end = 0;

	f->code_end = 0;
	if (!n)
		return 0;
	seen = calloc(n, 1);
	/* each instruction is pushed at most once */
	stack = malloc(n * sizeof(*stack));
	if (!seen || !stack) {
		free(seen);
		free(stack);
		return -ENOMEM;
	}
#define PUSH(i) do { if (!seen[i]) { seen[i] = 1; stack[sp++] = (i); } } while (0)
	PUSH(0);
	for (size_t i = 0; i < n; i++)
		if (fin[i].by == BY_SAMPLE)
			PUSH(i);
	for (size_t scan = 0;;) {
		while (sp) {
			size_t i = stack[--sp];
			const struct cfg_insn *in = &f->insns[i];
			long t;

			if (in->off + in->size > end)
				end = in->off + in->size;
			if (i + 1 < n && !fin[i].cut && !(in->flags & INSN_TABLE) &&
			    !(f->insns[i + 1].flags & INSN_WORD) &&
			    (!cfg_insn__ends_block(in->flags) || (in->flags & INSN_COND)))
				PUSH(i + 1);
			t = target_insn(f, at, in, f->size);
			if (t >= 0)
				PUSH((size_t)t);
			/* the rows of a recognised table, each of which leads to its case */
			if (fin[i].table_end > fin[i].table) {
				long j = fin[i].table < f->size ? at[fin[i].table] : -1;

				for (; j >= 0 && (size_t)j < n && f->insns[j].off < fin[i].table_end; j++)
					PUSH((size_t)j);
			}
		}
		/* every direct target of the code so far is code too */
		for (; scan < n && f->insns[scan].off < end; scan++) {
			long t = target_insn(f, at, &f->insns[scan], f->size);

			if (t >= 0)
				PUSH((size_t)t);
		}
		if (!sp)
			break;
	}
#undef PUSH
	free(seen);
	free(stack);
	f->code_end = end;
	return 0;
}

/* f->tables gets the table the jump insns[i] reads: known only while building. */
static int add_table_of(struct cfg_func *f, const struct fin *fin, size_t i, size_t *alloc)
{
	long j = cfg_func__insn_at(f, fin[i].table);
	size_t nr = 0;

	/* rows of data entries, or the instructions of a table of jumps */
	while (j >= 0 && (size_t)j + nr < f->insns_nr && f->insns[j + nr].off < fin[i].table_end &&
	       (fin[i].entry_size || (f->insns[j + nr].flags & INSN_TABLE)))
		nr++;
	if (!nr)
		return 0;
	if (VEC_GROW(f->tables, f->tables_nr + 1, *alloc))
		return -ENOMEM;
	f->tables[f->tables_nr++] = (struct cfg_table){ i, (size_t)j, nr, fin[i].entry_size };
	return 0;
}

/*
 * Leaders, among the instructions below code_end: offset 0, every direct branch,
 * call or table target that is an instruction start, the instruction after one
 * that cannot fall through (jump, conditional branch, return, trap, data cut
 * short by a surer decoding), and the first and the next after a jump table's rows.
 */
static int split(struct cfg_func *f, const struct fin *fin, const int32_t *at)
{
	size_t n = 0, nblocks = 0, tables_alloc = 0;
	uint8_t *leader;

	while (n < f->insns_nr && f->insns[n].off < f->code_end)
		n++;
	if (!n)
		return 0;
	leader = calloc(n, 1);
	if (!leader)
		return -ENOMEM;
	leader[0] = 1;
	for (size_t i = 0; i < n; i++) {
		const struct cfg_insn *in = &f->insns[i];
		long t = target_insn(f, at, in, f->code_end);
		bool table = in->flags & INSN_TABLE;

		if (t >= 0)
			leader[t] = 1;
		else if (cfg_insn__has_branch_target(in) && in->target < f->code_end)
			f->bad_targets++;
		bool words = (in->flags & INSN_WORD) && (f->insns[i + 1 < n ? i + 1 : i].flags & INSN_WORD);

		/* a runtime's words, one after another, are one block of data */
		if (i + 1 < n && (cfg_insn__ends_block(in->flags) || (fin[i].cut && !words) ||
				  table != !!(f->insns[i + 1].flags & INSN_TABLE) ||
				  !!(in->flags & INSN_WORD) != !!(f->insns[i + 1].flags & INSN_WORD)))
			leader[i + 1] = 1;
	}
	for (size_t i = 0; i < n; i++)
		nblocks += leader[i];
	f->blocks = calloc(nblocks, sizeof(*f->blocks));
	if (!f->blocks) {
		free(leader);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		const struct cfg_insn *in = &f->insns[i];
		struct cfg_block *blk;

		if (leader[i]) {
			blk = &f->blocks[f->blocks_nr++];
			blk->start = in->off;
			blk->first = i;
		}
		blk = &f->blocks[f->blocks_nr - 1];
		blk->end = in->off + in->size;
		blk->nr++;
		/* the last instruction decides; the same rule as find_code_end's */
		if (i + 1 == n || leader[i + 1])
			blk->falls_through = !fin[i].cut && !(in->flags & INSN_TABLE) &&
					     !(i + 1 < f->insns_nr && (f->insns[i + 1].flags & INSN_WORD)) &&
					     (!cfg_insn__ends_block(in->flags) || (in->flags & INSN_COND));
		if (fin[i].table_end > fin[i].table && add_table_of(f, fin, i, &tables_alloc)) {
			free(leader);
			return -ENOMEM;
		}
	}
	free(leader);
	return 0;
}

int cfg_func__build_from(struct cfg_func *out, const struct cfg_input *in, char *err,
			 size_t errlen)
{
	const struct arch *arch;
	struct fin *fin = NULL;
	int32_t *at = NULL;
	int ret;

	memset(out, 0, sizeof(*out));
	arch = cfg_arch__find(in->e_machine);
	if (!arch) {
		return errf(err, errlen, -ENOTSUP, "cannot disassemble e_machine %d: only %s are "
			    "supported", in->e_machine, cfg_arch__supported());
	}
	if (in->size > UINT32_MAX) {
		return errf(err, errlen, -ERANGE, "%s code of %zu bytes is too large", arch->name,
			    in->size);
	}
	out->size = (uint32_t)in->size;
	if (!in->size)
		return 0;

	if (err && errlen)
		err[0] = '\0';
	ret = cfg_decode__insns(out, in, arch, &fin, err, errlen);
	if (!ret && !(at = insn_index(out)))
		ret = -ENOMEM;
	if (!ret)
		ret = find_code_end(out, fin, at);
	if (!ret && !(in->flags & CFG_TRAILING_DATA))
		out->code_end = out->size;
	if (!ret)
		ret = split(out, fin, at);
	free(fin);
	free(at);
	if (!ret)
		return 0;
	cfg_func__release(out);
	/* capstone's message, or the only other failure */
	if (err && errlen && err[0])
		return ret;
	return errf(err, errlen, ret, "out of memory disassembling %zu bytes", in->size);
}

int cfg_func__build(struct cfg_func *out, int e_machine, const uint8_t *code, size_t size,
		    unsigned int flags, char *err, size_t errlen)
{
	struct cfg_input in = {
		.e_machine = e_machine, .code = code, .size = size, .flags = flags,
	};

	return cfg_func__build_from(out, &in, err, errlen);
}

long cfg_func__insn_at(const struct cfg_func *f, uint32_t off)
{
	/* offsets are distinct: instructions do not overlap */
	size_t i = LOWER_BOUND(f->insns_nr, k, f->insns[k].off < off);

	return i < f->insns_nr && f->insns[i].off == off ? (long)i : -1;
}

size_t cfg_table__cases(const struct cfg_func *f, const struct cfg_table *t)
{
	const struct cfg_insn *a, *z;

	if (!t->entry_size || !t->nr)
		return t->nr;
	a = &f->insns[t->first];
	z = &f->insns[t->first + t->nr - 1];
	return (z->off + z->size - a->off) / t->entry_size;
}

uint64_t cfg_table__case(const struct cfg_func *f, const struct cfg_table *t, size_t k)
{
	if (!t->entry_size)
		return f->insns[t->first + k].target;
	return f->insns[t->first].off + (uint64_t)k * t->entry_size;
}

long cfg_func__block_at(const struct cfg_func *f, uint32_t off)
{
	/* first block starting after off; the one before it may contain off */
	size_t lo = LOWER_BOUND(f->blocks_nr, i, f->blocks[i].start <= off);

	if (!lo || off >= f->blocks[lo - 1].end)
		return -1;
	return lo - 1;
}

int cfg__capstone_version(int *minor)
{
	int major, min;

	cs_version(&major, &min);
	if (minor)
		*minor = min;
	return major;
}

void cfg__prepare(void)
{
	cs_support(CS_ARCH_ALL);
}

void cfg_func__release(struct cfg_func *f)
{
	free(f->insns);
	free(f->blocks);
	free(f->tables);
	free(f->strtab);
	memset(f, 0, sizeof(*f));
}
