/* SPDX-License-Identifier: MIT */
/* The report between ranking and the outputs, built (report-build.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/names.h"
#include "annotate/source-text.h"
#include "annotate/targets.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "report-build.h"
#include "report-edges.h"
#include "report-notes.h"
#include "report-show.h"

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
	rep->jit = r->jit;
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

/* What every function's rows are made with: where targets out of a
 * function land, and which listed function each stream object is. */
struct build_env {
	struct targets *targets;	/* NULL: not known */
	const uint32_t *obj_func;	/* stream object -> report.funcs, UINT32_MAX: not listed */
};

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
};

/* sb's text, owned by the report from now on (report.strs); NULL when out
 * of memory. sb is left empty. */
static char *own(struct report *rep, struct strbuf *sb)
{
	char *s = sb->buf;

	if (sb->oom || !s || VEC_GROW(rep->strs, rep->strs_nr + 1, rep->strs_alloc)) {
		strbuf_release(sb);
		return NULL;
	}
	*sb = (struct strbuf){ 0 };
	return rep->strs[rep->strs_nr++] = s;
}

/*
 * A direct branch or call out of the function: where it goes, and what lands
 * there (report_row.target_name). The assembly cell ends in the target's
 * address ("call    0x7f3a40001000", "bl      #0x7f3a40001000"): the name
 * takes its place; where it ends otherwise (riscv64's auipc + jalr, whose
 * text is the offset the jalr adds), the name follows in angle brackets.
 */
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
	if (t.obj >= 0) {
		const struct annot_func *af = c->annot ? annotator__func(c->annot, s, (size_t)t.obj) : NULL;

		if (af)
			name = af->display;
		if (c->env->obj_func[t.obj] != UINT32_MAX)
			row->target_func = (int32_t)c->env->obj_func[t.obj];
	} else if (t.in_file) {
		if (strrchr(name, '/'))
			name = strrchr(name, '/') + 1;	/* as perf names code it has no symbol for */
	} else if ((demangled = names__demangle(name))) {
		name = demangled;	/* a file's symbol, shown as a sampled one is */
	}
	strbuf_addstr(&sb, name);
	free(demangled);
	if (t.off || t.in_file)
		strbuf_addf(&sb, "+0x%" PRIx64, t.off);
	if (!(row->target_name = own(c->rep, &sb)))
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
	if (!(row->text = own(c->rep, &sb)))
		return -ENOMEM;
	return 0;
}

static int fill_row(struct func_ctx *c, struct report_row *row, size_t i, int32_t block)
{
	const struct cfg_insn *in = &c->rf->cfg.insns[i];
	const struct annot_func *af = c->af;
	struct annot_cell cells[ANNOT__NR];
	bool with_source;

	*row = (struct report_row){
		.off = in->off, .size = in->size, .flags = in->flags, .text = in->text,
		.samples = c->rf->insn_samples[i], .block = block, .target_block = -1,
		.target_func = -1,
	};
	if (in->flags & INSN_HAS_TARGET)
		row->target_block = (int32_t)report__block_at_start(&c->rf->cfg, in->target);
	if ((in->flags & (INSN_HAS_TARGET | INSN_TABLE)) == INSN_HAS_TARGET &&
	    in->target >= c->rf->cfg.size && name_target(c, row, in))
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

/* The blocks of a disassembled function, and its listed rows. */
static int fill_blocks_and_rows(struct func_ctx *c, struct report_func *f)
{
	const struct rank_func *rf = c->rf;
	const struct cfg_func *cfg = &rf->cfg;
	bool whole = c->o->whole_functions;
	size_t i, b, nrows = 0;
	int ret;

	f->blocks = calloc(cfg->blocks_nr ? cfg->blocks_nr : 1, sizeof(*f->blocks));
	if (!f->blocks)
		return -ENOMEM;
	f->blocks_nr = cfg->blocks_nr;
	for (b = 0; b < cfg->blocks_nr; b++) {
		struct report_block *rb = &f->blocks[b];
		uint32_t place = rf->block_rank[b];

		*rb = (struct report_block){
			.start = cfg->blocks[b].start, .end = cfg->blocks[b].end,
			.insns = (uint32_t)cfg->blocks[b].nr, .samples = rf->block_samples[b],
			.rank = place, .shown = place && place <= c->r->shown_nr,
		};
		rb->listed = whole || rb->shown;
		if (rb->listed)
			nrows += cfg->blocks[b].nr;
	}
	if (whole)
		nrows = cfg->insns_nr;
	f->rows = malloc((nrows ? nrows : 1) * sizeof(*f->rows));
	if (!f->rows)
		return -ENOMEM;

	if (whole) {
		/* Every row, trailing data included; b follows the blocks along. */
		int32_t prev = -2;

		for (i = 0, b = 0; i < cfg->insns_nr; i++) {
			int32_t in_block = -1;

			while (b < cfg->blocks_nr && cfg->blocks[b].first + cfg->blocks[b].nr <= i)
				b++;
			if (b < cfg->blocks_nr && cfg->blocks[b].first <= i)
				in_block = (int32_t)b;
			if (in_block != prev) {
				/* source line spans end with their block */
				if (in_block >= 0)
					f->blocks[in_block].first_row = f->rows_nr;
				c->span_file = NULL;
				c->span_line = 0;
				prev = in_block;
			}
			ret = fill_row(c, &f->rows[f->rows_nr], i, in_block);
			if (ret)
				return ret;
			f->rows_nr++;
		}
		return 0;
	}
	for (b = 0; b < cfg->blocks_nr; b++) {
		if (!f->blocks[b].listed)
			continue;
		f->blocks[b].first_row = f->rows_nr;
		c->span_file = NULL;
		c->span_line = 0;
		for (i = cfg->blocks[b].first; i < cfg->blocks[b].first + cfg->blocks[b].nr; i++) {
			ret = fill_row(c, &f->rows[f->rows_nr], i, (int32_t)b);
			if (ret)
				return ret;
			f->rows_nr++;
		}
	}
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

static int build_func(struct report *rep, const struct build_env *env, const struct rank *r,
		      const struct rank_func *rf, struct annotator *annot, const struct report_opts *o,
		      struct report_func *f)
{
	const struct stream_object *obj = &r->stream->objects[rf->obj];
	const struct annot_func *af = annot ? annotator__func(annot, r->stream, rf->obj) : NULL;
	struct func_ctx c = { env, rep, r, rf, annot, af, o, NULL, 0,
			      o->source_rows ? o->source_rows(o->source_rows_arg, rf->obj) :
					       REPORT_SOURCE_DEFAULT };
	int ret;

	*f = (struct report_func){
		.obj = rf->obj, .kind = stream__kind_name(obj->kind),
		.code = {
			.name = obj->name, .path = obj->path, .jit = obj->kind == HB_KIND_JIT,
			.e_machine = obj->e_machine, .pid = obj->pid, .address = obj->addr,
			.size = obj->size, .code_bytes = obj->code_nr, .sym_start = obj->sym_start,
			.source = obj->source[0] ? obj->source : NULL,
			.code_index = obj->code_index, .load_time = obj->load_time,
		},
		.display_name = af ? af->display : obj->name,
		.disassembled = rf->status == RANK_DISASSEMBLED,
		.error = why_not_disassembled(rf), .samples = rf->samples,
		.unaligned = rf->unaligned, .outside = rf->outside, .folded = obj->folds,
	};
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
	if (rf->status == RANK_DISASSEMBLED) {
		f->code_end = rf->cfg.code_end;
		ret = fill_blocks_and_rows(&c, f);
		if (!ret)
			ret = report_edges__build(f, &rf->cfg);
		if (ret)
			return ret;
	}
	for (int k = 0; af && k < REPORT_COL__NR; k++)
		f->has[k] = af->has[k];
	return 0;
}

int report__build(struct report *rep, const struct rank *r, const struct rank_opts *ro,
		  struct annotator *annot, const struct report_opts *o)
{
	uint32_t *at = NULL;	/* rank.funcs index -> funcs index, UINT32_MAX: not listed */
	uint32_t *obj_func = NULL;
	struct targets *targets = NULL;
	struct build_env env;
	bool *built = NULL;
	size_t i, nobj = r->stream->objects_nr;
	int ret = -ENOMEM;

	memset(rep, 0, sizeof(*rep));
	if (header(rep, r, ro, o))
		return -ENOMEM;
	if (o->source_lines && !(rep->source = source_text__new()))
		return -ENOMEM;

	at = malloc((r->funcs_nr ? r->funcs_nr : 1) * sizeof(*at));
	rep->funcs = calloc(r->funcs_nr ? r->funcs_nr : 1, sizeof(*rep->funcs));
	built = calloc(r->funcs_nr ? r->funcs_nr : 1, sizeof(*built));
	rep->shown = malloc((r->shown_nr ? r->shown_nr : 1) * sizeof(*rep->shown));
	obj_func = malloc((nobj ? nobj : 1) * sizeof(*obj_func));
	if (!at || !rep->funcs || !built || !rep->shown || !obj_func || targets__new(&targets, r->stream))
		goto out;
	for (i = 0; i < nobj; i++)
		obj_func[i] = UINT32_MAX;
	for (i = 0; i < r->funcs_nr; i++) {
		size_t k = r->by_heat[i];
		const struct rank_func *rf = &r->funcs[k];

		at[k] = UINT32_MAX;
		if (o->list_selected ? rf->selected : rf->shown)
			obj_func[rf->obj] = at[k] = (uint32_t)rep->funcs_nr++;
	}
	env = (struct build_env){ targets, obj_func };

	/* The notes name some objects: their display names come first, as before
	 * anything is listed. */
	ret = report_notes__input(rep, r, ro, annot, o->live_origin);
	if (ret)
		goto out;

	/* The functions of the shown blocks, hottest block first, then the rest. */
	for (i = 0; i < r->shown_nr; i++) {
		const struct rank_block *rb = &r->blocks[i];
		uint32_t fi = at[rb->func];

		rep->shown[i] = (struct report_ref){ fi, rb->block };
		if (built[fi])
			continue;
		built[fi] = true;
		ret = build_func(rep, &env, r, &r->funcs[rb->func], annot, o, &rep->funcs[fi]);
		if (ret)
			goto out;
	}
	rep->shown_nr = r->shown_nr;
	for (i = 0; i < r->funcs_nr; i++) {
		size_t k = r->by_heat[i];
		uint32_t fi = at[k];

		if (fi == UINT32_MAX || built[fi])
			continue;
		built[fi] = true;
		ret = build_func(rep, &env, r, &r->funcs[k], annot, o, &rep->funcs[fi]);
		if (ret)
			goto out;
	}
	/* A display name or source cell the annotator could not make for want of
	 * memory would be shown raw or missing: fail rather than print less. */
	if (annot && annotator__out_of_memory(annot)) {
		ret = -ENOMEM;
		goto out;
	}
	report_show__decide(rep);
	ret = report_notes__names(rep);
	if (!ret && annot)
		ret = report_notes__annotation(rep, annot);
out:
	free(at);
	free(built);
	free(obj_func);
	targets__free(targets);
	return ret;
}

void report__release(struct report *rep)
{
	for (size_t i = 0; rep->funcs && i < rep->funcs_nr; i++) {
		free(rep->funcs[i].blocks);
		free(rep->funcs[i].rows);
		free(rep->funcs[i].edges);
		free(rep->funcs[i].runs);
	}
	for (size_t i = 0; i < rep->notes_nr; i++)
		free(rep->notes[i].text);
	for (size_t i = 0; i < rep->strs_nr; i++)
		free(rep->strs[i]);
	free(rep->strs);
	free(rep->funcs);
	free(rep->classes);
	free(rep->shown);
	free(rep->notes);
	free(rep->events);
	free(rep->runs);
	source_text__free(rep->source);
	memset(rep, 0, sizeof(*rep));
}
