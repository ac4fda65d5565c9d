/* SPDX-License-Identifier: MIT */
/* The report between ranking and the outputs, built (report-build.h). */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/jits.h"
#include "annotate/source-text.h"
#include "annotate/targets.h"
#include "lib/util.h"
#include "report-branches.h"
#include "report-cost.h"
#include "report-build.h"
#include "report-notes.h"
#include "report-points.h"
#include "report-rows.h"
#include "report-show.h"
#include "report-stacks.h"
#include "report-tiers.h"

/* A cell of column c is the annotator's cell of the same column. */
_Static_assert((int)REPORT_COL_CLIF == (int)ANNOT_CLIF && (int)REPORT_COL_WASM == (int)ANNOT_WASM &&
	       (int)REPORT_COL_SOURCE == (int)ANNOT_SOURCE && (int)REPORT_COL__NR == (int)ANNOT__NR,
	       "the report's columns are the annotator's");

static int header(struct report *rep, const struct rank *r, const struct rank_opts *ro,
		  const struct report_opts *o)
{
	static const char unattributed[] = "unattributed.";
	const struct stream *s = r->stream;
	const struct stream_event *ev = r->event >= 0 ? &s->events[r->event] : NULL;

	rep->event = ev ? ev->name : NULL;
	rep->events = malloc((s->events_nr ? s->events_nr : 1) * sizeof(*rep->events));
	if (!rep->events)
		return -ENOMEM;
	for (size_t i = 0; i < s->events_nr; i++)
		rep->events[i] = s->events[i].name;
	rep->events_nr = s->events_nr;
	rep->total = r->total;
	rep->total_period = ev ? ev->period[HB_CLASS_ALL] : 0;
	rep->jit = r->jit;
	rep->kinds = s->kinds;
	rep->collected = ev && s->kinds ? ev->collected[HB_CLASS_ALL] : r->total;
	rep->runs = calloc(s->runs_nr ? s->runs_nr : 1, sizeof(*rep->runs));
	if (!rep->runs)
		return -ENOMEM;
	for (size_t i = 0; i < s->runs_nr; i++) {
		const struct stream_run *run = &s->runs[i];

		rep->runs[i] = (struct report_run){ run->origin, run->line, run->input, 0 };
		for (size_t k = 0; k < run->totals_nr; k++)
			if ((long)run->totals[k].ev == r->event)
				rep->runs[i].total = sat_add(rep->runs[i].total, run->totals[k].samples);
	}
	rep->runs_nr = s->runs_nr;
	rep->classes = calloc(HB_CLASS__NR, sizeof(*rep->classes));
	if (!rep->classes)
		return -ENOMEM;
	for (int c = HB_CLASS_ALL + 1; c < HB_CLASS__NR; c++) {
		const char *name = stream__class_name(c);
		bool lost = !strncmp(name, unattributed, sizeof(unattributed) - 1);

		rep->classes[rep->classes_nr++] = (struct report_class){
			.name = lost ? name + sizeof(unattributed) - 1 : name,
			.unattributed = lost,
			.samples = ev ? ev->samples[c] : 0,
			.period = ev ? ev->period[c] : 0,
			.collected = ev ? (s->kinds ? ev->collected : ev->samples)[c] : 0,
		};
	}
	rep->no_code = r->nocode_samples;
	rep->not_disassembled = r->failed_samples;
	rep->unaligned = r->unaligned_samples;
	rep->outside_code = r->outside_samples;
	rep->skipped_records = sat_add(sat_add(s->skipped_kinds, s->skipped_classes),
				       sat_add(s->skipped_objects, s->skipped_object_lines));
	rep->selection.percent = ro->percent;
	rep->selection.threshold = !ro->no_threshold;
	rep->selection.top = ro->top;
	rep->selection.function = ro->function;
	rep->selection.all = o->list_selected;
	return 0;
}

static const char *why_not_disassembled(const struct rank_func *rf)
{
	switch (rf->status) {
	case RANK_NO_CODE:
		return "no code bytes in the stream";
	case RANK_SKIPPED:
		return "not disassembled: no block of it can be shown";
	case RANK_FAILED:
		return rf->error;
	default:
		return NULL;
	}
}

/* How many selected functions of rep->functions a table of functions takes:
 * the rule of rank__threshold (the reference's), over the functions. */
static void functions_shown(struct report *rep, const struct rank *r, const struct rank_opts *ro)
{
	uint64_t printed = 0;
	size_t n = 0;

	for (size_t i = 0; i < rep->functions_nr && n < ro->top; i++) {
		if (!rep->functions[i].selected)
			continue;
		/* the same float expression as rank__threshold's */
		if (!ro->no_threshold && (double)printed / (double)r->total * 100.0 >= ro->percent)
			break;
		printed = sat_add(printed, rep->functions[i].samples);
		n++;
	}
	rep->functions_shown = n;
}

/* Every sampled function, hottest first, listed or not (report.ranked). */
static int ranked(struct report *rep, const struct rank *r, struct annotator *annot,
		  const uint32_t *at)
{
	for (size_t i = 0; i < r->funcs_nr; i++) {
		size_t k = r->by_heat[i];
		const struct rank_func *rf = &r->funcs[k];
		const struct stream_object *obj = &r->stream->objects[rf->obj];
		const struct report_func *f = at[k] != UINT32_MAX ? &rep->funcs[at[k]] : NULL;

		rep->ranked[rep->ranked_nr++] = (struct report_ranked){
			.name = obj->name, .kind = stream__kind_name(obj->kind), .path = obj->path,
			.display_name = f ? f->display_name : annotator__name(annot, r->stream, rf->obj),
			.samples = rf->samples, .func = f ? (int32_t)at[k] : -1,
			.shown_blocks = f ? f->shown_blocks_nr : 0, .selected = rf->selected,
		};
	}
	return annot && annotator__out_of_memory(annot) ? -ENOMEM : 0;
}

/*
 * f without code bytes (report.h): its one block, the whole function, its
 * samples by offset, and why it has no instructions: of a perf map's, the
 * runtime's way to a jitdump (annotate/jits.h).
 */
static int no_code(const struct rank *r, size_t fi, struct report_func *f)
{
	const struct rank_func *rf = &r->funcs[fi];
	const struct stream_object *obj = &r->stream->objects[rf->obj];
	const struct rank_sum *sum = rf->sums_nr ? &r->sums[rf->first_sum] : NULL;
	int n;

	if (report_points__sampled(r, fi, &f->offsets, &f->offsets_nr) ||
	    !(f->blocks = calloc(1, sizeof(*f->blocks))))
		return -ENOMEM;
	for (size_t i = 0; i < f->offsets_nr; i++)
		if (f->offsets[i].samples > f->row_max)
			f->row_max = f->offsets[i].samples;
	f->blocks[0] = (struct report_block){
		.start = 0, .end = obj->size < UINT32_MAX ? (uint32_t)obj->size : UINT32_MAX,
		.samples = rf->samples, .rank = sum ? sum->rank : 0,
		.shown = sum && sum->rank && sum->rank <= r->shown_nr, .listed = true,
	};
	f->blocks_nr = f->code_blocks_nr = 1;
	if (!strcmp(obj->source, "perf-map")) {
		const struct jit_runtime *jit = jits__perf_map(r->stream, rf->obj);

		n = asprintf(&f->no_code, "no instructions: a perf map (%s) names this code%s%s, but a"
			     " perf map has no code bytes; %s", obj->path, jit->name ? " of " : "",
			     jit->name ? jit->name : "", jit->jitdump);
	} else {
		n = asprintf(&f->no_code, "no instructions: the stream has no code bytes for it (the"
			     " plugin could not read %s)", obj->path[0] ? obj->path : "them");
	}
	if (n < 0) {
		f->no_code = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* What f is known by without its blocks: its code, names, runs, counts. */
static int build_func(struct report *rep, const struct rank *r, size_t fi,
		      struct annotator *annot, const struct report_opts *o, struct report_func *f)
{
	const struct rank_func *rf = &r->funcs[fi];
	const struct stream_object *obj = &r->stream->objects[rf->obj];
	const struct annot_func *af = annot ? annotator__func(annot, r->stream, rf->obj) : NULL;
	uint32_t best = 0;

	*f = (struct report_func){
		.obj = rf->obj, .kind = stream__kind_name(obj->kind),
		.code = {
			.name = obj->name, .path = obj->path, .jit = obj->kind == HB_KIND_JIT,
			.e_machine = obj->e_machine, .pid = obj->pid, .address = obj->addr,
			.size = obj->size, .code_bytes = obj->code_nr, .sym_start = obj->sym_start,
			.source = obj->source[0] ? obj->source : NULL,
			.code_index = obj->code_index, .load_time = obj->load_time,
			.joined_bytes = (uint32_t)obj->joined_bytes,
		},
		.display_name = af ? af->display : obj->name,
		.disassembled = rf->status == RANK_DISASSEMBLED,
		.error = why_not_disassembled(rf), .samples = rf->samples,
		.unaligned = rf->unaligned, .outside = rf->outside, .folded = obj->folds,
		.whole = o->whole_functions, .code_blocks_nr = rf->blocks_nr,
		.code_rows_nr = rf->insns_nr, .sampled_blocks_nr = rf->sums_nr,
	};
	if (report_points__func(f, r, fi, o->points))
		return -ENOMEM;
	/* The tally is sorted by (event, run): the event's entries are one run. */
	for (size_t i = 0; i < obj->tally_nr; i++) {
		if ((long)obj->tally[i].ev != r->event || !obj->tally[i].samples)
			continue;
		if (!f->runs && !(f->runs = malloc((obj->tally_nr - i) * sizeof(*f->runs))))
			return -ENOMEM;
		f->runs[f->runs_nr++] = (struct report_run_samples){ obj->tally[i].run,
								      obj->tally[i].samples };
	}
	if (af && af->wasm) {
		f->wasm = (struct report_wasm){
			.matched = true, .symbol = af->symbol, .text_offset = af->text_off,
			.module = af->module, .index = af->func_index, .stale = af->stale,
		};
		/* The columns of a wasm function are known before any lookup. */
		for (int k = 0; k < ANNOT__NR; k++)
			f->wasm_offsets |= af->has[k];
	}
	for (int k = 0; af && k < REPORT_COL__NR; k++)
		f->has[k] = af->has[k];
	for (size_t k = 0; k < rf->sums_nr; k++) {
		const struct rank_sum *sum = &r->sums[rf->first_sum + k];

		bool shown = sum->rank && sum->rank <= r->shown_nr;

		f->shown_blocks_nr += shown;
		if (sum->samples > f->block_max)
			f->block_max = sum->samples;
		/* a row it lists: of a shown block, or of any (whole) */
		if (shown && sum->row_max > f->row_max)
			f->row_max = sum->row_max;
		if (sum->rank && (!best || sum->rank < best)) {
			best = sum->rank;
			f->hottest = sum->start;
			f->has_hottest = true;
		}
	}
	if (!obj->code_nr)
		return no_code(r, fi, f);
	if (rf->status != RANK_DISASSEMBLED)
		return 0;
	f->code_end = rf->code_end;
	if (o->whole_functions)
		f->row_max = rf->row_max;
	/* its blocks and rows: when an output opens it */
	return (f->store = calloc(1, sizeof(*f->store))) ? 0 : -ENOMEM;
}

/*
 * Which functions are listed, hottest first: at[k] is rank.funcs[k]'s index
 * in rep->funcs (UINT32_MAX: not listed); and what their rows are built with
 * (rep->build).
 */
static int list_funcs(struct report *rep, const struct rank *r, struct annotator *annot,
		      const struct report_opts *o, uint32_t *at)
{
	size_t nobj = r->stream->objects_nr;
	/* stream object -> funcs index, UINT32_MAX: not listed */
	uint32_t *obj_func = malloc((nobj ? nobj : 1) * sizeof(*obj_func));
	struct report_build *b = rep->build;

	if (!obj_func)
		return -ENOMEM;
	for (size_t i = 0; i < nobj; i++)
		obj_func[i] = UINT32_MAX;
	for (size_t i = 0; i < r->funcs_nr; i++) {
		size_t k = r->by_heat[i];
		const struct rank_func *rf = &r->funcs[k];

		at[k] = UINT32_MAX;
		if (o->list_selected ? rf->selected : rf->shown)
			obj_func[rf->obj] = at[k] = (uint32_t)rep->funcs_nr++;
	}
	*b = (struct report_build){ .r = r, .annot = annot, .o = *o, .env.obj_func = obj_func };
	if (!(b->rank_of = malloc((rep->funcs_nr ? rep->funcs_nr : 1) * sizeof(size_t))) ||
	    targets__new(&b->env.targets, r->stream))
		return -ENOMEM;
	for (size_t i = 0; i < r->funcs_nr; i++)
		if (at[i] != UINT32_MAX)
			b->rank_of[at[i]] = i;
	return 0;
}

/* The listed functions (build_func), those of the shown blocks first,
 * hottest block first, then the rest, hottest first; and rep->shown. */
static int build_funcs(struct report *rep, const struct rank *r, struct annotator *annot,
		       const struct report_opts *o, const uint32_t *at)
{
	bool *built = calloc(r->funcs_nr ? r->funcs_nr : 1, sizeof(*built));
	int ret = 0;

	if (!built)
		return -ENOMEM;
	for (size_t i = 0; !ret && i < r->shown_nr; i++) {
		const struct rank_block *rb = &r->blocks[i];
		uint32_t fi = at[rb->func];

		rep->shown[i] = (struct report_ref){ fi, rb->block };
		if (built[fi])
			continue;
		built[fi] = true;
		ret = build_func(rep, r, rb->func, annot, o, &rep->funcs[fi]);
	}
	if (!ret)
		rep->shown_nr = r->shown_nr;
	for (size_t i = 0; !ret && i < r->funcs_nr; i++) {
		size_t k = r->by_heat[i];
		uint32_t fi = at[k];

		if (fi == UINT32_MAX || built[fi])
			continue;
		built[fi] = true;
		ret = build_func(rep, r, k, annot, o, &rep->funcs[fi]);
	}
	free(built);
	return ret;
}

/* A shown block of a function that lists only its shown blocks: its place
 * among them, which are in address order as its sums. */
static int shown_places(struct report *rep, const struct rank *r)
{
	/* rank.sums index -> a shown block's place in its function */
	uint32_t *place = malloc((r->sums_nr ? r->sums_nr : 1) * sizeof(*place));

	if (!place)
		return -ENOMEM;
	for (size_t i = 0; i < r->funcs_nr; i++) {
		const struct rank_func *rf = &r->funcs[i];
		uint32_t n = 0;

		for (size_t k = rf->first_sum; k < rf->first_sum + rf->sums_nr; k++)
			if (r->sums[k].rank && r->sums[k].rank <= r->shown_nr)
				place[k] = n++;
	}
	for (size_t i = 0; i < rep->shown_nr; i++)
		rep->shown[i].block = place[r->blocks[i].sum];
	free(place);
	return 0;
}

int report__build(struct report *rep, const struct rank *r, const struct rank_opts *ro,
		  struct annotator *annot, const struct report_opts *o)
{
	uint32_t *at;	/* rank.funcs index -> funcs index, UINT32_MAX: not listed */
	int ret = -ENOMEM;

	memset(rep, 0, sizeof(*rep));
	if (header(rep, r, ro, o))
		return -ENOMEM;
	if (o->source_lines && !(rep->source = source_text__new()))
		return -ENOMEM;

	at = malloc((r->funcs_nr ? r->funcs_nr : 1) * sizeof(*at));
	rep->funcs = calloc(r->funcs_nr ? r->funcs_nr : 1, sizeof(*rep->funcs));
	rep->ranked = calloc(r->funcs_nr ? r->funcs_nr : 1, sizeof(*rep->ranked));
	rep->build = calloc(1, sizeof(*rep->build));
	rep->shown = malloc((r->shown_nr ? r->shown_nr : 1) * sizeof(*rep->shown));
	if (at && rep->funcs && rep->ranked && rep->build && rep->shown)
		ret = list_funcs(rep, r, annot, o, at);
	/* The notes name some objects: their display names come first, as before
	 * anything is listed. */
	if (!ret)
		ret = report_notes__input(rep, r, ro, annot, o->live_origin);
	if (!ret)
		ret = build_funcs(rep, r, annot, o, at);
	if (!ret)
		ret = report_branches__build(rep, r, rep->build->env.obj_func, rep->build->rank_of);
	if (!ret)
		ret = report_stacks__build(rep, r, annot, rep->build->env.obj_func);
	if (!ret)
		ret = report_cost__build(rep, r, rep->build->rank_of, o->by_executions);
	if (!ret && !o->whole_functions)
		ret = shown_places(rep, r);
	if (!ret)
		ret = ranked(rep, r, annot, at);
	if (!ret)
		ret = report_tiers__build(rep, o->tiers_apart);
	if (!ret)
		functions_shown(rep, r, ro);
	/* A display name or source cell the annotator could not make for want of
	 * memory would be shown raw or missing: fail rather than print less. */
	if (!ret && annot && annotator__out_of_memory(annot))
		ret = -ENOMEM;
	if (!ret) {
		report_show__decide(rep);
		ret = report_notes__names(rep);
	}
	if (!ret && annot)
		ret = report_notes__annotation(rep, annot);
	if (!ret)
		ret = report_notes__targets(rep, rep->build->env.targets);
	free(at);
	return ret;
}

void report__release(struct report *rep)
{
	report_branches__release(rep);
	report_stacks__release(rep);
	for (size_t i = 0; rep->funcs && i < rep->funcs_nr; i++) {
		struct report_func *f = &rep->funcs[i];

		if (f->store)
			report_rows__drop(f);
		else
			free(f->blocks);	/* a function without code: its one block */
		free(f->offsets);
		free(f->no_code);
		free(f->runs);
		free(f->points);
		free(f->store);
	}
	for (size_t i = 0; i < rep->notes_nr; i++)
		free(rep->notes[i].text);
	if (rep->build) {
		free(rep->build->rank_of);
		free(rep->build->kept);
		free(rep->build->env.obj_func);
		targets__free(rep->build->env.targets);
	}
	free(rep->build);
	free(rep->funcs);
	report_tiers__release(rep);
	free(rep->ranked);
	free(rep->classes);
	free(rep->shown);
	free(rep->notes);
	free(rep->events);
	free(rep->runs);
	source_text__free(rep->source);
	memset(rep, 0, sizeof(*rep));
}
