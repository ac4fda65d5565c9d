/* SPDX-License-Identifier: MIT */
/* A listed function's blocks, rows and edges, built when an output opens it (report-rows.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/lib/bsearch.h"
#include "analysis/cfg-text.h"
#include "annotate/source-text.h"
#include "annotate/v8/v8-name.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "report-branches.h"
#include "report-edges.h"
#include "report-rows.h"
#include "report-show.h"

/*
 * Rows of functions of the shown blocks kept built after an output closed
 * them (a text report reads a function's blocks in rank order, here and
 * there): about 38 MB. Past it, they are dropped, to be built again if an
 * output opens them again.
 */
#define KEPT_ROWS (1u << 18)

/* The rows of a whole function built at a time when an output asks for
 * them a window at a time (report__func_open_rows): about 700 kB. */
#define ROWS_WINDOW ((size_t)1 << 12)

/* What one function's rows are made with. */
struct func_ctx {
	const struct build_env *env;
	struct report *rep;
	const struct rank *r;
	const struct rank_func *rf;
	struct annotator *annot;
	const struct annot_func *af;
	const struct report_opts *o;
	/* the span of rows from one source line, for source_lines */
	const char *span_file;
	unsigned span_line;
	enum report_source source_rows;
	struct report_func_store *store;	/* where its strings go */
	/* the assembly cells of a disassembly without text; NULL with one:
	 * rows gone through for what they decide, their text unread */
	struct cfg_text *insn_text;
};

/* sb's text, owned by the function's store from now on (dropped with its
 * rows); NULL when out of memory. sb is left empty. */
static char *own(struct report_func_store *st, struct strbuf *sb)
{
	char *s = sb->buf;

	if (sb->oom || !s || VEC_GROW(st->strs, st->strs_nr + 1, st->strs_alloc)) {
		strbuf_release(sb);
		return NULL;
	}
	*sb = (struct strbuf){ 0 };
	return st->strs[st->strs_nr++] = s;
}

/*
 * A direct branch or call out of the function: where it goes, and what lands
 * there (report_row.target_name). The assembly cell ends in the target's
 * address ("call    0x7f3a40001000", "bl      #0x7f3a40001000"): the name
 * takes its place; where it ends otherwise (riscv64's auipc + jalr, whose
 * text is the offset the jalr adds), the name follows in angle brackets.
 */
/*
 * A slot of V8's wasm jump table by what it calls: the callee's name as V8
 * spells it without tag and tier, and its index ("go/token.searchInts-229",
 * "wasm-function[7]" for a function V8 never compiled or the module leaves
 * unnamed), demangled as the function rows are; the far jump table's slots
 * (V8's runtime stubs, 16 bytes each) by their index, which is V8's
 * WasmCode::RuntimeStubId: its list changes between V8 versions, which the
 * stream does not say, so the stub is not named.
 */
static void jump_table_name(const struct func_ctx *c, const struct target *t, struct strbuf *sb)
{
	char *demangled = t->name ? annotator__demangle(c->annot, t->name) : NULL;
	const char *name = demangled ? demangled : t->name, *func = NULL;
	size_t func_len = 0;
	int index;

	if (t->far_jump_table) {
		strbuf_addf(sb, "V8:wasm-far-jump-table[%" PRIu64 "]", t->off / 16);
		return;
	}
	if (!name || !v8_name__wasm(name, &index, &func, &func_len) || !func)
		strbuf_addf(sb, "wasm-function[%d]", t->wasm_index);
	else
		strbuf_addf(sb, "%.*s-%d", (int)func_len, func, t->wasm_index);
	free(demangled);
}

static int name_target(struct func_ctx *c, struct report_row *row, const struct cfg_insn *in)
{
	const struct stream *s = c->r->stream;
	const struct stream_object *obj = &s->objects[c->rf->obj];
	const char *name, *tail;
	char *demangled = NULL;
	struct strbuf sb = { 0 };
	struct target t;
	char hex[24];
	size_t n, hn;

	row->target_outside = true;
	row->target_address = obj->addr + in->target;
	if (!c->env->targets || !targets__find(c->env->targets, c->rf->obj, row->target_address, &t))
		return 0;
	name = t.name;
	row->target_wasm_index = t.wasm_index;
	if (t.wasm_index >= 0 || t.far_jump_table) {
		jump_table_name(c, &t, &sb);
		name = NULL;
	} else if (t.obj >= 0) {
		const struct annot_func *af = c->annot ? annotator__func(c->annot, s, (size_t)t.obj) : NULL;

		if (af)
			name = af->display;
		if (c->env->obj_func[t.obj] != UINT32_MAX)
			row->target_func = (int32_t)c->env->obj_func[t.obj];
	} else if (t.in_file) {
		if (strrchr(name, '/'))
			name = strrchr(name, '/') + 1;	/* as perf names code it has no symbol for */
	} else if ((demangled = annotator__demangle(c->annot, name))) {
		name = demangled;	/* a file's symbol, shown as a sampled one is */
	}
	if (name)
		strbuf_addstr(&sb, name);
	free(demangled);
	if ((t.off || t.in_file) && !t.far_jump_table)
		strbuf_addf(&sb, "+0x%" PRIx64, t.off);
	if (!(row->target_name = own(c->store, &sb)))
		return -ENOMEM;
	hn = (size_t)snprintf(hex, sizeof(hex), "0x%" PRIx64, row->target_address);
	n = strlen(row->text);
	tail = row->text + n - (n >= hn ? hn : 0);
	if (n > hn && !strcmp(tail, hex)) {
		if (tail > row->text && tail[-1] == '#')	/* aarch64's immediate */
			tail--;
		strbuf_add(&sb, row->text, (size_t)(tail - row->text));
		strbuf_addstr(&sb, row->target_name);
	} else {
		strbuf_addf(&sb, "%s <%s>", row->text, row->target_name);
	}
	if (!(row->text = own(c->store, &sb)))
		return -ENOMEM;
	return 0;
}

static int fill_row(struct func_ctx *c, struct report_row *row, const struct cfg_insn *in,
		    uint64_t samples, int32_t block, int32_t target_block)
{
	const struct annot_func *af = c->af;
	struct annot_cell cells[ANNOT__NR];
	bool with_source;

	*row = (struct report_row){
		.off = in->off, .size = in->size, .flags = in->flags, .text = in->text,
		.samples = samples, .block = block, .target_block = target_block,
		.target_func = -1,
		.target_wasm_index = -1,
	};
	if ((in->flags & (INSN_HAS_TARGET | INSN_TABLE)) == INSN_HAS_TARGET &&
	    in->target >= c->r->stream->objects[c->rf->obj].code_nr && name_target(c, row, in))
		return -ENOMEM;
	if (!af)
		return 0;

	/* list_selected: [Source] for the sampled rows only (report.h) */
	switch (c->source_rows) {
	case REPORT_SOURCE_NONE:
		with_source = false;
		break;
	case REPORT_SOURCE_ALL:
		with_source = true;
		break;
	default:
		with_source = !c->o->list_selected || row->samples;
	}
	annotator__cells(c->annot, c->r->stream, c->rf->obj, in->off, with_source, cells);
	for (int k = 0; k < REPORT_COL__NR; k++)
		row->cells[k] = (struct report_cell){ cells[k].text, cells[k].key, false };
	row->source_file = cells[ANNOT_SOURCE].file;
	row->source_line = cells[ANNOT_SOURCE].line;
	/* After the lookup: a DSO's DWARF is opened at the first one. */
	row->source = with_source && af->has[ANNOT_SOURCE];
	if (af->wasm) {
		/* The key of a CLIF or Wasm cell is the wasm offset both come from. */
		const struct report_cell *w = row->cells[REPORT_COL_CLIF].text ? &row->cells[REPORT_COL_CLIF] :
					      &row->cells[REPORT_COL_WASM];

		if (w->text) {
			row->has_wasm_offset = true;
			row->wasm_offset = (uint32_t)w->key;
		} else {
			row->has_wasm_offset = annotator__wasm_offset(c->annot, af, in->off,
								      &row->wasm_offset);
		}
	} else {
		/* V8 wasm code, with V8's listing: the positions it recorded. */
		row->has_wasm_offset = annotator__v8_wasm_offset(c->annot, c->r->stream, c->rf->obj,
								 in->off, &row->wasm_offset);
	}

	/* objdump -S style: the source line above the first row it produced. */
	const char *file = row->source_file;
	unsigned line = row->source_line;

	if (c->rep->source && row->source && file && line &&
	    (line != c->span_line || !c->span_file || strcmp(file, c->span_file))) {
		size_t len = 0;

		if (source_text__line(c->rep->source, file, line, &row->line_text, &len))
			return -ENOMEM;
		row->line_len = (uint32_t)len;
		c->span_file = file;
		c->span_line = line;
	}
	return 0;
}

/* A whole function's blocks, all of them, from its disassembly d. */
static int whole_blocks(const struct func_ctx *c, struct report_func *f, const struct rank_decoded *d)
{
	const struct cfg_func *cfg = &d->cfg;

	f->blocks = calloc(cfg->blocks_nr ? cfg->blocks_nr : 1, sizeof(*f->blocks));
	if (!f->blocks)
		return -ENOMEM;
	f->blocks_nr = cfg->blocks_nr;
	for (size_t b = 0; b < cfg->blocks_nr; b++) {
		uint32_t place = d->block_rank[b];

		f->blocks[b] = (struct report_block){
			.start = cfg->blocks[b].start, .end = cfg->blocks[b].end,
			.insns = (uint32_t)cfg->blocks[b].nr, .samples = d->block_samples[b],
			.rank = place, .shown = place && place <= c->r->shown_nr, .listed = true,
			/* every instruction is a row */
			.first_row = cfg->blocks[b].first,
		};
	}
	return 0;
}

/*
 * A whole function's rows from cur on, one an instruction (trailing data
 * included), into rows[*nr ..] until *nr is limit. cur follows the
 * instructions and blocks along, and carries the source line span over to
 * the next call.
 */
static int whole_rows(struct func_ctx *c, struct report_row *rows, size_t *nr,
		      const struct rank_decoded *d, struct rows_cursor *cur, size_t limit)
{
	const struct cfg_func *cfg = &d->cfg;
	int ret = 0;

	c->span_file = cur->span_file;
	c->span_line = cur->span_line;
	for (; cur->insn < cfg->insns_nr && *nr < limit; cur->insn++) {
		const size_t i = cur->insn;
		const struct cfg_insn *in = &cfg->insns[i];
		struct cfg_insn untexted;
		char buf[CFG_TEXT_MAX];
		const struct cfg_block *blks = cfg->blocks;
		int32_t in_block = -1, to = -1;

		while (cur->block < cfg->blocks_nr && blks[cur->block].first + blks[cur->block].nr <= i)
			cur->block++;
		if (cur->block < cfg->blocks_nr && blks[cur->block].first <= i)
			in_block = (int32_t)cur->block;
		if (in_block != cur->prev) {
			/* source line spans end with their block */
			c->span_file = NULL;
			c->span_line = 0;
			cur->prev = in_block;
		}
		if (in->flags & INSN_HAS_TARGET)
			to = (int32_t)report__block_at_start(cfg, in->target);
		if (!in->text) {
			/* decoded without text (report__func_open_blocks) */
			untexted = *in;
			untexted.text = c->insn_text ? (char *)cfg_text__insn(c->insn_text, in, buf) :
						       (char *)"";
			in = &untexted;
		}
		ret = fill_row(c, &rows[*nr], in, d->insn_samples[i], in_block, to);
		if (!ret && c->insn_text && rows[*nr].text == buf) {
			struct strbuf sb = { 0 };

			strbuf_addstr(&sb, buf);
			if (!(rows[*nr].text = own(c->store, &sb)))
				ret = -ENOMEM;
		}
		if (ret)
			break;
		++*nr;
	}
	cur->span_file = c->span_file;
	cur->span_line = c->span_line;
	return ret;
}

/* A whole function, disassembled again (d): every block, every row, trailing
 * data included. */
static int fill_whole(struct func_ctx *c, struct report_func *f, const struct rank_decoded *d)
{
	struct rows_cursor cur = { .prev = -2 };
	int ret = whole_blocks(c, f, d);

	if (ret)
		return ret;
	f->rows = malloc((d->cfg.insns_nr ? d->cfg.insns_nr : 1) * sizeof(*f->rows));
	if (!f->rows)
		return -ENOMEM;
	ret = whole_rows(c, f->rows, &f->rows_nr, d, &cur, d->cfg.insns_nr);
	return ret ? ret : report_edges__build(f, &d->cfg);
}

/* The index of f's listed block starting at target, or -1. */
static int32_t listed_block_at(const struct report_func *f, uint64_t target)
{
	/* blocks do not overlap: one starts at target at most */
	size_t i = LOWER_BOUND(f->blocks_nr, k, f->blocks[k].start < target);

	return i < f->blocks_nr && f->blocks[i].start == target ? (int32_t)i : -1;
}

/* f's shown blocks, from ranking's sums of rf (f->blocks NULL when out of
 * memory); returns how many rows they have. */
static size_t shown_blocks(const struct rank *r, const struct rank_func *rf, struct report_func *f)
{
	size_t nrows = 0;

	for (size_t k = 0; k < rf->sums_nr; k++) {
		const struct rank_sum *sum = &r->sums[rf->first_sum + k];

		if (sum->rank && sum->rank <= r->shown_nr) {
			f->blocks_nr++;
			nrows += sum->insns;
		}
	}
	f->blocks = calloc(f->blocks_nr ? f->blocks_nr : 1, sizeof(*f->blocks));
	f->blocks_nr = 0;
	for (size_t k = 0; f->blocks && k < rf->sums_nr; k++) {
		const struct rank_sum *sum = &r->sums[rf->first_sum + k];

		if (sum->rank && sum->rank <= r->shown_nr)
			f->blocks[f->blocks_nr++] = (struct report_block){
				.start = sum->start, .end = sum->end, .insns = sum->insns,
				.samples = sum->samples, .rank = sum->rank, .shown = true, .listed = true,
			};
	}
	return nrows;
}

/*
 * The shown blocks of a disassembled function and their rows, from what
 * ranking kept of them; each row's text written again (cfg_text__insn),
 * into the function's own store.
 */
static int fill_shown(struct func_ctx *c, struct report_func *f, size_t fi)
{
	const struct rank *r = c->r;
	const struct rank_func *rf = c->rf;
	struct cfg_text *texts = NULL;
	struct cfg_input in;
	struct strbuf sb = { 0 };
	size_t nrows = shown_blocks(r, rf, f), *at = NULL;
	char buf[CFG_TEXT_MAX];
	int ret = -ENOMEM;

	f->rows = malloc((nrows ? nrows : 1) * sizeof(*f->rows));
	at = malloc((nrows ? nrows : 1) * sizeof(*at));
	if (!f->blocks || !f->rows || !at)
		goto out;
	rank__input(r, fi, &in);
	ret = cfg_text__open(&texts, &in, NULL, 0);
	if (ret)
		goto out;
	for (size_t b = 0, k = 0; b < f->blocks_nr; b++) {
		const struct rank_sum *sum;
		uint32_t off;
		size_t target;

		/* the sum of this block: sums and listed blocks are both by address */
		while ((sum = &r->sums[rf->first_sum + k])->start != f->blocks[b].start)
			k++;
		f->blocks[b].first_row = f->rows_nr;
		c->span_file = NULL;
		c->span_line = 0;
		off = sum->start;
		target = sum->first_target;
		for (uint32_t j = 0; j < sum->insns; j++) {
			struct cfg_insn insn;
			int32_t to = -1;

			rank__insn(r, sum, j, &off, &target, &insn);
			at[f->rows_nr] = sb.len;
			cfg_text__insn(texts, &insn, buf);
			insn.text = buf;
			strbuf_add(&sb, buf, strlen(buf) + 1);
			if ((insn.flags & INSN_HAS_TARGET) && insn.target < rf->code_end)
				to = listed_block_at(f, insn.target);
			ret = fill_row(c, &f->rows[f->rows_nr], &insn,
				       rank__samples_at(r, fi, insn.off), (int32_t)b, to);
			if (ret)
				goto out;
			/* its text in texts below, unless a target's name made another */
			if (f->rows[f->rows_nr].text == buf)
				f->rows[f->rows_nr].text = NULL;
			f->rows_nr++;
		}
	}
	ret = -ENOMEM;
	if (sb.oom)
		goto out;
	/* the texts stay where they are from here on */
	f->store->texts = sb.buf;
	sb = (struct strbuf){ 0 };
	for (size_t i = 0; i < f->rows_nr; i++)
		if (!f->rows[i].text)
			f->rows[i].text = f->store->texts + at[i];
	ret = 0;
out:
	cfg_text__close(texts);
	strbuf_release(&sb);
	free(at);
	return ret;
}

void report_rows__drop(struct report_func *f)
{
	FREE_AND_NULL(f->blocks);
	FREE_AND_NULL(f->rows);
	FREE_AND_NULL(f->edges);
	f->blocks_nr = f->rows_nr = f->edges_nr = 0;
	FREE_AND_NULL(f->store->texts);
	for (size_t i = 0; i < f->store->strs_nr; i++)
		free(f->store->strs[i]);
	FREE_AND_NULL(f->store->strs);
	f->store->strs_nr = f->store->strs_alloc = 0;
	rank_decoded__release(&f->store->decoded);
	cfg_text__close(f->store->insn_text);
	f->store->insn_text = NULL;
	f->store->built = f->store->windowed = f->store->by_block = false;
	f->store->data_samples = 0;
}

/* The built functions of the shown blocks no output has open, dropped once
 * they hold more than KEPT_ROWS rows. */
static void keep_rows(const struct report *rep)
{
	struct report_build *b = rep->build;
	size_t k = 0;

	if (b->kept_rows <= KEPT_ROWS)
		return;
	for (size_t j = 0; j < b->kept_nr; j++) {
		struct report_func *f = &rep->funcs[b->kept[j]];

		if (f->store->users) {
			b->kept[k++] = b->kept[j];
			continue;
		}
		b->kept_rows -= f->rows_nr;
		report_branches__drop(rep, b->kept[j]);
		report_rows__drop(f);
	}
	b->kept_nr = k;
}

/* What funcs[i]'s rows are made with. */
static struct func_ctx func_ctx(const struct report *rep, size_t i)
{
	const struct report_build *b = rep->build;
	const struct rank_func *rf = &b->r->funcs[b->rank_of[i]];

	return (struct func_ctx){ &b->env, (struct report *)rep, b->r, rf, b->annot,
				  b->annot ? annotator__func(b->annot, b->r->stream, rf->obj) : NULL, &b->o,
				  NULL, 0, b->o.source_rows ? b->o.source_rows(b->o.source_rows_arg, rf->obj) :
							      REPORT_SOURCE_DEFAULT, rep->funcs[i].store, NULL };
}

/* A source cell the annotator could not make for want of memory would be
 * missing: fail rather than print less. */
static int annotated(const struct report_build *b)
{
	return b->annot && annotator__out_of_memory(b->annot) ? -ENOMEM : 0;
}

int report__func_open(const struct report *rep, size_t i)
{
	struct report_func *f = &rep->funcs[i];
	struct report_build *b = rep->build;
	struct func_ctx c;
	int ret;

	if (!f->store)
		return 0;
	if (f->store->built) {
		/* rows a window at a time or a block at a time are no
		 * function's rows to read */
		if (f->store->windowed || f->store->by_block)
			return -EINVAL;
		f->store->users++;
		return 0;
	}
	c = func_ctx(rep, i);
	f->store->built = true;
	f->store->users = 1;
	if (f->whole) {
		ret = rank__decode(b->r, b->rank_of[i], &f->store->decoded);
		if (!ret)
			ret = fill_whole(&c, f, &f->store->decoded);
	} else {
		ret = fill_shown(&c, f, b->rank_of[i]);
		if (!ret && VEC_GROW(b->kept, b->kept_nr + 1, b->kept_alloc))
			ret = -ENOMEM;
		if (!ret) {
			b->kept[b->kept_nr++] = (uint32_t)i;
			b->kept_rows += f->rows_nr;
		}
	}
	if (!ret)
		ret = annotated(b);
	if (!ret)
		ret = report_branches__measure(rep, i);
	if (!ret)
		report_show__func(f);
	if (!ret && !f->whole)
		keep_rows(rep);
	return ret;
}

/* What writes the texts of funcs[i]'s rows, its disassembly having none. */
static int open_insn_text(const struct report *rep, size_t i)
{
	struct report_func_store *st = rep->funcs[i].store;
	struct cfg_input in;

	if (st->insn_text)
		return 0;
	rank__input(rep->build->r, rep->build->rank_of[i], &in);
	return cfg_text__open(&st->insn_text, &in, NULL, 0);
}

static size_t rows_window(const struct report_build *b)
{
	return b->o.rows_window ? b->o.rows_window : ROWS_WINDOW;
}

int report__func_open_rows(const struct report *rep, size_t i)
{
	struct report_func *f = &rep->funcs[i];
	struct report_build *b = rep->build;
	struct report_func_store *st = f->store;
	struct func_ctx c;
	int ret;

	/* Branch stacks measure every row at once (report_branches__measure). */
	if (!st || !f->whole || st->built || rep->branch_stack)
		return report__func_open(rep, i);
	c = func_ctx(rep, i);
	st->built = st->windowed = true;
	st->users = 1;
	st->cursor = (struct rows_cursor){ .prev = -2 };
	/* its rows' texts written a window at a time (insn_text) */
	ret = rank__decode_no_text(b->r, b->rank_of[i], &st->decoded);
	if (!ret)
		ret = open_insn_text(rep, i);
	if (!ret)
		ret = whole_blocks(&c, f, &st->decoded);
	if (!ret && !(f->rows = malloc(rows_window(b) * sizeof(*f->rows))))
		ret = -ENOMEM;
	if (!ret)
		ret = report_edges__build(f, &st->decoded.cfg);
	return ret;
}

/* The strings of the rows of the window before: theirs alone. */
static void drop_strs(struct report_func_store *st)
{
	for (size_t i = 0; i < st->strs_nr; i++)
		free(st->strs[i]);
	st->strs_nr = 0;
}

long report__func_rows(const struct report *rep, size_t i, size_t *next)
{
	struct report_func *f = &rep->funcs[i];
	struct report_func_store *st = f->store;
	struct func_ctx c;
	size_t first = *next;
	int ret;

	if (!st || !st->windowed) {
		/* every row, at once */
		if (first)
			return 0;
		*next = f->rows_nr;
		return (long)f->rows_nr;
	}
	if (first != st->cursor.next)
		return -EINVAL;
	drop_strs(st);
	f->rows_nr = 0;
	c = func_ctx(rep, i);
	c.insn_text = st->insn_text;
	ret = whole_rows(&c, f->rows, &f->rows_nr, &st->decoded, &st->cursor,
			 rows_window(rep->build));
	if (!ret)
		ret = annotated(rep->build);
	if (ret)
		return ret;
	st->cursor.next += f->rows_nr;
	*next = st->cursor.next;
	return (long)f->rows_nr;
}

int report__func_open_blocks(const struct report *rep, size_t i)
{
	struct report_func *f = &rep->funcs[i];
	struct report_build *b = rep->build;
	struct report_func_store *st = f->store;
	struct rows_cursor cur = { .prev = -2 };
	struct func_ctx c;
	int ret;

	/* Branch stacks measure every row at once (report_branches__measure). */
	if (!st || !f->whole || st->built || rep->branch_stack)
		return report__func_open(rep, i);
	c = func_ctx(rep, i);
	st->built = st->by_block = true;
	st->users = 1;
	ret = rank__decode_no_text(b->r, b->rank_of[i], &st->decoded);
	if (!ret)
		ret = whole_blocks(&c, f, &st->decoded);
	if (!ret)
		ret = report_edges__build(f, &st->decoded.cfg);
	if (!ret && !(f->rows = malloc(rows_window(b) * sizeof(*f->rows))))
		ret = -ENOMEM;
	/* what every row decides, a window of them at a time */
	report_show__columns(f, NULL, 0, true);
	while (!ret && cur.insn < st->decoded.cfg.insns_nr) {
		drop_strs(st);
		f->rows_nr = 0;
		ret = whole_rows(&c, f->rows, &f->rows_nr, &st->decoded, &cur, rows_window(b));
		if (ret)
			break;
		report_show__columns(f, f->rows, f->rows_nr, false);
		for (size_t r = 0; r < f->rows_nr; r++)
			if (f->rows[r].block < 0)
				st->data_samples = sat_add(st->data_samples, f->rows[r].samples);
	}
	drop_strs(st);
	FREE_AND_NULL(f->rows);
	f->rows_nr = 0;
	return ret ? ret : annotated(b);
}

int report__func_block_rows(const struct report *rep, size_t i, size_t b, struct report_row *rows)
{
	const struct report_func *f = &rep->funcs[i];
	struct report_func_store *st = f->store;
	const struct report_block *blk = &f->blocks[b];
	struct rows_cursor cur = { .insn = blk->first_row, .block = b, .prev = -2 };
	struct func_ctx c;
	size_t nr = 0;
	int ret;

	if (!st || !st->by_block) {
		for (size_t r = blk->first_row; r < blk->first_row + blk->insns && r < f->rows_nr; r++)
			rows[nr++] = f->rows[r];
		return (int)nr;
	}
	if ((ret = open_insn_text(rep, i)))
		return ret;
	c = func_ctx(rep, i);
	c.insn_text = st->insn_text;
	ret = whole_rows(&c, rows, &nr, &st->decoded, &cur, blk->insns);
	if (!ret)
		ret = annotated(rep->build);
	if (ret)
		return ret;
	report_show__ditto(rows, nr);
	return (int)nr;
}

uint64_t report__func_data_samples(const struct report *rep, size_t i)
{
	const struct report_func *f = &rep->funcs[i];
	uint64_t samples = 0;

	if (f->store && f->store->by_block)
		return f->store->data_samples;
	for (size_t r = 0; r < f->rows_nr; r++)
		if (f->rows[r].block < 0)
			samples = sat_add(samples, f->rows[r].samples);
	return samples;
}

void report__func_close(const struct report *rep, size_t i)
{
	struct report_func *f = &rep->funcs[i];

	if (!f->store || !f->store->built || !f->store->users)
		return;
	/* a whole function's go at once; the shown blocks' are kept a while */
	if (!--f->store->users && f->whole) {
		report_branches__drop(rep, i);
		report_rows__drop(f);
	}
}
