/* SPDX-License-Identifier: MIT */
/* JSON report, schema in postproc/JSON.md (version 1). */
#include <stdint.h>

#include "lib/json-writer.h"
#include "render.h"
#include "stream/stream.h"

#define JSON_VERSION 1

/* v, or null when it is negative (none). */
static void put_index(struct json_writer *w, const char *key, int64_t v)
{
	if (v >= 0)
		json_writer__u64(w, key, (uint64_t)v);
	else
		json_writer__null(w, key);
}

/* The instruction's wasm offset and its CLIF / Wasm / source cells (null when absent). */
static void put_row_annot(struct json_writer *w, const struct report_func *f,
			  const struct report_row *row)
{
	if (f->wasm_offsets) {
		if (row->has_wasm_offset)
			json_writer__u64(w, "wasm_offset", row->wasm_offset);
		else
			json_writer__null(w, "wasm_offset");
		json_writer__str(w, "clif", row->cells[REPORT_COL_CLIF].text);
		json_writer__str(w, "wasm", row->cells[REPORT_COL_WASM].text);
	}
	if (row->source)
		json_writer__str(w, "source", row->cells[REPORT_COL_SOURCE].text);
}

/* Row k of f (at rows[0] or further in a window of them: row). */
static void put_row(struct json_writer *w, const struct report_func *f, const struct report_func_branches *fb,
		    const struct report_row *row, size_t k)
{
	json_writer__object(w, NULL, JSON_INLINE);
	json_writer__u64(w, "offset", row->off);
	json_writer__u64(w, "size", row->size);
	json_writer__str(w, "asm", row->text);
	json_writer__u64(w, "samples", row->samples);
	if (row->target_outside) {
		json_writer__u64(w, "target_address", row->target_address);
		json_writer__str(w, "target_name", row->target_name);
		if (row->target_func >= 0)
			json_writer__u64(w, "target_function", (uint64_t)row->target_func);
		if (row->target_wasm_index >= 0)
			json_writer__u64(w, "target_wasm_index", (uint64_t)row->target_wasm_index);
	}
	put_row_annot(w, f, row);
	if (fb && fb->measured && fb->measured->rows[k].measured) {
		const struct report_row_branch *rb = &fb->measured->rows[k];

		json_writer__u64(w, "taken", rb->taken);
		json_writer__u64(w, "not_taken", rb->not_taken);
	}
	json_writer__end(w);
}

static void put_block(struct json_writer *w, const struct report_func *f, const struct report_func_branches *fb,
		      const struct report_block *blk)
{
	json_writer__object(w, NULL, JSON_INLINE);
	json_writer__u64(w, "start", blk->start);
	json_writer__u64(w, "end", blk->end);
	json_writer__u64(w, "samples", blk->samples);
	put_index(w, "rank", blk->rank ? (int64_t)blk->rank : -1);
	json_writer__bool(w, "shown", blk->shown);
	if (fb && fb->measured) {
		size_t b = (size_t)(blk - f->blocks);

		json_writer__u64(w, "executions", fb->measured->executions[b]);
		json_writer__u64(w, "cycles_count", fb->measured->cycles[b][0]);
		json_writer__u64(w, "cycles_sum", fb->measured->cycles[b][1]);
	}
	json_writer__end(w);
}

/* Which function of the .cwasm it is, and whether its code agrees. */
static void put_wasm_function(struct json_writer *w, const struct report_wasm *wasm)
{
	json_writer__object(w, "wasm_function", JSON_INLINE);
	json_writer__str(w, "symbol", wasm->symbol);
	json_writer__u64(w, "text_offset", wasm->text_offset);
	if (wasm->module >= 0) {
		json_writer__i64(w, "module", wasm->module);
		json_writer__i64(w, "index", wasm->index);
	} else {
		json_writer__null(w, "module");
		json_writer__null(w, "index");
	}
	json_writer__bool(w, "stale", wasm->stale);
	json_writer__end(w);
}

/* What f is and where its code came from: a JIT's code load, or a file's symbol. */
static void put_code(struct json_writer *w, const struct report_func *f)
{
	const struct report_code *code = &f->code;

	json_writer__str(w, "name", code->name);
	json_writer__str(w, "display_name", f->display_name);
	if (f->wasm.matched)
		put_wasm_function(w, &f->wasm);
	json_writer__str(w, "kind", f->kind);
	json_writer__u64(w, "pid", code->pid);
	if (code->jit) {
		json_writer__u64(w, "code_index", code->code_index);
		json_writer__u64(w, "load_time", code->load_time);
		json_writer__str(w, "dump", code->path);
		if (code->joined_bytes) {
			/* BEAM's prologue, joined in front: its load and size */
			json_writer__object(w, "joined", JSON_INLINE);
			json_writer__u64(w, "code_index", code->code_index - 1);
			json_writer__u64(w, "bytes", code->joined_bytes);
			json_writer__end(w);
		}
	} else {
		json_writer__str(w, "dso", code->path);
		json_writer__str(w, "symbol", code->name);
		json_writer__u64(w, "sym_start", code->sym_start);
		json_writer__str(w, "source", code->source);
	}
	json_writer__u64(w, "e_machine", code->e_machine);
	json_writer__u64(w, "address", code->address);
	json_writer__u64(w, "size", code->size);
	json_writer__u64(w, "code_bytes", code->code_bytes);
}

void render_json__runs(struct json_writer *w, const struct report_func *f)
{
	json_writer__array(w, "runs", JSON_INLINE);
	for (size_t i = 0; i < f->runs_nr; i++) {
		json_writer__object(w, NULL, JSON_INLINE);
		json_writer__u64(w, "run", f->runs[i].run);
		json_writer__u64(w, "samples", f->runs[i].samples);
		json_writer__end(w);
	}
	json_writer__end(w);
}

/* Measured by branch stacks: the function's taken edges and the ranges that start in it. */
static void put_branches(struct json_writer *w, const struct report_func_branches *f)
{
	json_writer__array(w, "branches", JSON_LINES);
	for (size_t i = 0; i < f->branches_nr; i++) {
		const struct report_branch *b = &f->branches[i];

		json_writer__object(w, NULL, JSON_INLINE);
		json_writer__u64(w, "from", b->from);
		json_writer__u64(w, "to", b->to);
		json_writer__str(w, "to_name", b->to_name);
		put_index(w, "to_function", b->to_func);
		json_writer__u64(w, "count", b->count);
		json_writer__u64(w, "mispredicted", b->mispredicted);
		json_writer__u64(w, "predicted", b->predicted);
		json_writer__u64(w, "in_tx", b->in_tx);
		json_writer__u64(w, "abort", b->abort);
		json_writer__u64(w, "cycles_count", b->cycles_nr);
		json_writer__u64(w, "cycles_sum", b->cycles_sum);
		json_writer__end(w);
	}
	json_writer__end(w);
	json_writer__array(w, "ranges", JSON_LINES);
	for (size_t i = 0; i < f->ranges_nr; i++) {
		const struct report_range *r = &f->ranges[i];

		json_writer__object(w, NULL, JSON_INLINE);
		json_writer__u64(w, "start", r->start);
		json_writer__u64(w, "end", r->end);
		json_writer__str(w, "end_name", r->end_name);
		put_index(w, "end_function", r->end_func);
		json_writer__u64(w, "count", r->count);
		json_writer__u64(w, "cycles_count", r->cycles_nr);
		json_writer__u64(w, "cycles_sum", r->cycles_sum);
		json_writer__bool(w, "possible", r->same && !r->impossible);
		json_writer__end(w);
	}
	json_writer__end(w);
}

/* funcs[fi], opened by report__func_open_rows: its rows written a window at a time. */
static int put_func(struct json_writer *w, const struct report *rep, size_t fi)
{
	const struct report_func *f = &rep->funcs[fi];
	const struct report_func_branches *fb = report__func_branches(rep, fi);
	size_t next = 0, first;
	long n;

	json_writer__object(w, NULL, JSON_LINES);
	put_code(w, f);
	json_writer__bool(w, "disassembled", f->disassembled);
	if (f->disassembled)
		json_writer__u64(w, "code_end", f->code_end);
	else
		json_writer__str(w, "error", f->error);
	json_writer__u64(w, "samples", f->samples);
	json_writer__u64(w, "unaligned_samples", f->unaligned);
	json_writer__u64(w, "outside_code_samples", f->outside);
	render_json__runs(w, f);
	json_writer__u64(w, "folded", f->folded);
	json_writer__array(w, "instructions", JSON_LINES);
	while (first = next, (n = report__func_rows(rep, fi, &next)) > 0)
		for (size_t i = 0; i < (size_t)n; i++)
			put_row(w, f, fb, &f->rows[i], first + i);
	if (n < 0)
		return (int)n;
	json_writer__end(w);
	if (f->offsets) {
		/* no code bytes: its samples by offset instead, and why */
		json_writer__str(w, "no_code", f->no_code);
		json_writer__array(w, "offsets", JSON_LINES);
		for (size_t i = 0; i < f->offsets_nr; i++) {
			json_writer__object(w, NULL, JSON_INLINE);
			json_writer__u64(w, "offset", f->offsets[i].off);
			json_writer__u64(w, "samples", f->offsets[i].samples);
			if (f->code.joined_bytes && f->offsets[i].off < f->code.joined_bytes) {
				/* in the range joined in front (BEAM's prologue): perf's name */
				json_writer__str(w, "symbol", f->offsets[i].name);
				json_writer__u64(w, "symbol_offset", f->offsets[i].name_off);
			}
			json_writer__end(w);
		}
		json_writer__end(w);
	}
	json_writer__array(w, "blocks", JSON_LINES);
	for (size_t b = 0; b < f->blocks_nr; b++)
		if (f->blocks[b].listed)
			put_block(w, f, fb, &f->blocks[b]);
	json_writer__end(w);
	if (fb)
		put_branches(w, fb);
	json_writer__end(w);
	return 0;
}

static void put_runs(struct json_writer *w, const struct report *rep)
{
	json_writer__array(w, "events", JSON_INLINE);
	for (size_t i = 0; i < rep->events_nr; i++)
		json_writer__str(w, NULL, rep->events[i]);
	json_writer__end(w);
	json_writer__array(w, "runs", JSON_LINES);
	for (size_t i = 0; i < rep->runs_nr; i++) {
		const struct report_run *run = &rep->runs[i];

		json_writer__object(w, NULL, JSON_INLINE);
		json_writer__str(w, "stream", run->origin);
		json_writer__u64(w, "line", run->line);
		json_writer__str(w, "input", run->input);
		json_writer__u64(w, "total_samples", run->total);
		json_writer__end(w);
	}
	json_writer__end(w);
}

/* The classes of one side (unattributed or not), each with its samples as
 * kept (collected false) or as the input gave them. */
static void put_class_counts(struct json_writer *w, const struct report *rep, bool unattributed,
			     bool collected)
{
	for (size_t i = 0; i < rep->classes_nr; i++) {
		const struct report_class *c = &rep->classes[i];

		if (c->unattributed == unattributed)
			json_writer__u64(w, c->name, collected ? c->collected : c->samples);
	}
}

/* The classes, the unattributed ones in their own object. */
static void put_classes(struct json_writer *w, const char *key, const struct report *rep, bool collected)
{
	json_writer__object(w, key, JSON_INLINE);
	put_class_counts(w, rep, false, collected);
	json_writer__object(w, "unattributed", JSON_INLINE);
	put_class_counts(w, rep, true, collected);
	json_writer__end(w);
	json_writer__end(w);
}

void render_json__kinds(struct json_writer *w, unsigned kinds)
{
	char name[32];

	json_writer__array(w, "kinds", JSON_INLINE);
	for (unsigned k = 1; k & STREAM_KINDS_ALL; k <<= 1) {
		if (!(kinds & k))
			continue;
		stream__kinds_text(k, name, sizeof(name));
		json_writer__str(w, NULL, name);
	}
	json_writer__end(w);
}

/* --kind: its kinds, and every sample of the event, of any kind. */
static void put_kinds(struct json_writer *w, const struct report *rep)
{
	render_json__kinds(w, rep->kinds);
	json_writer__u64(w, "collected_samples", rep->collected);
	put_classes(w, "collected", rep, true);
}

/* --by-executions: the blocks by cost (JSON.md "branch_stack.cost_by_block"). */
static void put_costs(struct json_writer *w, const struct report *rep)
{
	const struct report_branch_stack *bs = rep->branch_stack;

	json_writer__str(w, "cost_unit", bs->cost_cycles ? "cycles" : "instructions");
	json_writer__array(w, "cost_by_block", JSON_LINES);
	for (size_t i = 0; i < bs->costs_nr; i++) {
		const struct report_block_cost *c = &bs->costs[i];

		json_writer__object(w, NULL, JSON_INLINE);
		json_writer__str(w, "function", rep->funcs[c->func].code.name);
		json_writer__str(w, "display_name", rep->funcs[c->func].display_name);
		json_writer__u64(w, "start", c->start);
		json_writer__u64(w, "end", c->end);
		json_writer__u64(w, "insns", c->insns);
		json_writer__u64(w, "executions", c->executions);
		json_writer__double(w, "cycles", 'f', 1, c->cycles);
		json_writer__double(w, "cost", 'f', 1, c->cost);
		json_writer__double(w, "share", 'f', 4, bs->cost_total > 0 ? c->cost * 100.0 / bs->cost_total : 0.0);
		json_writer__u64(w, "samples", c->samples);
		json_writer__end(w);
	}
	json_writer__end(w);
}

/* Branch stacks: every entry and range of the event, and where they counted. */
static void put_branch_stack(struct json_writer *w, const struct report *rep)
{
	const struct report_branch_stack *bs = rep->branch_stack;

	json_writer__object(w, "branch_stack", JSON_INLINE);
	json_writer__u64(w, "entries", bs->entries);
	json_writer__u64(w, "ranges", bs->ranges);
	json_writer__object(w, "classes", JSON_INLINE);
	for (size_t i = 0; i < rep->classes_nr; i++) {
		const uint64_t *n = bs->classes[i];

		if (!n[0] && !n[1])
			continue;
		json_writer__object(w, rep->classes[i].name, JSON_INLINE);
		json_writer__u64(w, "entries", n[0]);
		json_writer__u64(w, "ranges", n[1]);
		json_writer__end(w);
	}
	json_writer__end(w);
	if (bs->by_executions)
		put_costs(w, rep);
	json_writer__end(w);
}

/* Where the samples are: the classes, then what is in no block. */
static void put_samples(struct json_writer *w, const struct report *rep)
{
	json_writer__u64(w, "total_samples", rep->total);
	json_writer__u64(w, "jit_samples", rep->jit);
	if (rep->kinds)
		put_kinds(w, rep);
	put_classes(w, "samples", rep, false);
	json_writer__object(w, "not_in_blocks", JSON_INLINE);
	json_writer__u64(w, "no_code", rep->no_code);
	json_writer__u64(w, "not_disassembled", rep->not_disassembled);
	json_writer__u64(w, "unaligned", rep->unaligned);
	json_writer__u64(w, "outside_code", rep->outside_code);
	json_writer__end(w);
	json_writer__u64(w, "skipped_records", rep->skipped_records);
	if (rep->branch_stack)
		put_branch_stack(w, rep);
}

static void put_selection(struct json_writer *w, const struct report *rep)
{
	json_writer__object(w, "selection", JSON_INLINE);
	json_writer__double(w, "percent", 'g', 15, rep->selection.percent);
	json_writer__bool(w, "threshold", rep->selection.threshold);
	if (rep->selection.top == SIZE_MAX)
		json_writer__null(w, "top");
	else
		json_writer__u64(w, "top", rep->selection.top);
	json_writer__str(w, "function", rep->selection.function);
	json_writer__bool(w, "all", rep->selection.all);
	json_writer__end(w);
	json_writer__u64(w, "blocks_shown", rep->shown_nr);
}

/* Every sampled function, ranked: which are listed, which are shown. */
static void put_sampled(struct json_writer *w, const struct report *rep)
{
	json_writer__array(w, "sampled_functions", JSON_LINES);
	for (size_t i = 0; i < rep->ranked_nr; i++) {
		const struct report_ranked *f = &rep->ranked[i];

		json_writer__object(w, NULL, JSON_INLINE);
		json_writer__str(w, "name", f->name);
		json_writer__str(w, "display_name", f->display_name);
		json_writer__str(w, "kind", f->kind);
		json_writer__u64(w, "samples", f->samples);
		json_writer__bool(w, "selected", f->selected);
		json_writer__u64(w, "shown_blocks", f->shown_blocks);
		put_index(w, "function", f->func);
		json_writer__end(w);
	}
	json_writer__end(w);
}

/* V8 wasm functions with their tiers together (report.functions), when
 * the input has any: each one's samples and its split by tier. */
static void put_tiered(struct json_writer *w, const struct report *rep)
{
	if (!rep->tiered)
		return;
	json_writer__array(w, "tiered_functions", JSON_LINES);
	for (size_t i = 0; i < rep->functions_nr; i++) {
		const struct report_function *f = &rep->functions[i];

		if (!f->tiered)
			continue;
		json_writer__object(w, NULL, JSON_INLINE);
		json_writer__str(w, "name", f->name);
		json_writer__str(w, "display_name", f->display_name);
		json_writer__u64(w, "samples", f->samples);
		json_writer__bool(w, "selected", f->selected);
		json_writer__array(w, "tiers", JSON_INLINE);
		for (size_t t = 0; t < f->tiers_nr; t++) {
			const struct report_function_tier *ft = &rep->function_tiers[f->first_tier + t];

			json_writer__object(w, NULL, JSON_INLINE);
			json_writer__str(w, "tier", ft->tier);
			json_writer__u64(w, "samples", rep->ranked[ft->ranked].samples);
			json_writer__u64(w, "sampled_function", ft->ranked);
			put_index(w, "function", rep->ranked[ft->ranked].func);
			json_writer__end(w);
		}
		json_writer__end(w);
		json_writer__end(w);
	}
	json_writer__end(w);
}

/* One function at a time, its rows a window at a time: --all writes every one whole. */
static int put_funcs(struct json_writer *w, const struct report *rep)
{
	json_writer__array(w, "functions", JSON_LINES);
	for (size_t i = 0; i < rep->funcs_nr; i++) {
		int ret = report__func_open_rows(rep, i);

		if (!ret)
			ret = put_func(w, rep, i);
		report__func_close(rep, i);
		if (ret)
			return ret;
	}
	json_writer__end(w);
	return 0;
}

int render_json(FILE *out, const struct report *rep, const struct render_opts *o)
{
	struct json_writer w;
	int ret, done;

	json_writer__init(&w, out, JSON_DOCUMENT);
	json_writer__object(&w, NULL, JSON_LINES);
	json_writer__str(&w, "format", "hotblocks");
	json_writer__u64(&w, "version", JSON_VERSION);
	json_writer__str(&w, "event", rep->event);
	put_runs(&w, rep);
	put_samples(&w, rep);
	put_selection(&w, rep);
	put_sampled(&w, rep);
	put_tiered(&w, rep);
	ret = put_funcs(&w, rep);
	if (!ret)
		json_writer__end(&w);
	done = json_writer__finish(&w);
	return ret ? ret : done;
}
