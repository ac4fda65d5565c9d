/* SPDX-License-Identifier: MIT */
/* JSON report, schema in postproc/JSON.md (version 1). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

#define JSON_VERSION 1

/* Length of the valid UTF-8 sequence at s (RFC 3629: no overlongs, no surrogates), or 0. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	/* The NUL terminator fails the continuation test, so this never reads past it. */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* A JSON string: RFC 8259 escapes; a byte that is not UTF-8 becomes U+FFFD. */
static void put_str(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', out);
	while (*s) {
		size_t n = utf8_len(s);

		if (!n) {
			fputs("\\ufffd", out);
			s++;
			continue;
		}
		if (n > 1) {
			fwrite(s, 1, n, out);
			s += n;
			continue;
		}
		switch (*s) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		default:
			if (*s < 0x20 || *s == 0x7f)
				fprintf(out, "\\u%04x", *s);
			else
				fputc(*s, out);
		}
		s++;
	}
	fputc('"', out);
}

static void put_key_str(FILE *out, const char *indent, const char *key, const char *val)
{
	fprintf(out, "%s\"%s\": ", indent, key);
	if (val)
		put_str(out, val);
	else
		fputs("null", out);
}

static void put_key_u64(FILE *out, const char *indent, const char *key, uint64_t v)
{
	fprintf(out, "%s\"%s\": %" PRIu64, indent, key, v);
}

static void put_opt_str(FILE *out, const char *key, const char *val)
{
	fprintf(out, ", \"%s\": ", key);
	if (val)
		put_str(out, val);
	else
		fputs("null", out);
}

/* The instruction's wasm offset and its CLIF / Wasm / source cells (null when absent). */
static void put_insn_annot(FILE *out, struct annotator *a, const struct rank *r,
			   const struct rank_func *f, const struct annot_func *af, uint32_t off,
			   bool with_source)
{
	struct annot_cell cells[ANNOT__NR];
	bool any = false;

	annotator__cells(a, r->stream, f->obj, off, with_source, cells);
	for (int c = 0; c < ANNOT__NR; c++)
		any |= af->has[c];
	if (!any)
		return;
	if (af->wasm) {
		/* The key of a CLIF or Wasm cell is the wasm offset both come from. */
		struct annot_cell w = cells[ANNOT_CLIF].text ? cells[ANNOT_CLIF] : cells[ANNOT_WASM];
		uint32_t woff;

		if (w.text)
			fprintf(out, ", \"wasm_offset\": %" PRIu64, w.key);
		else if (annotator__wasm_offset(a, af, off, &woff))
			fprintf(out, ", \"wasm_offset\": %" PRIu32, woff);
		else
			fputs(", \"wasm_offset\": null", out);
		put_opt_str(out, "clif", cells[ANNOT_CLIF].text);
		put_opt_str(out, "wasm", cells[ANNOT_WASM].text);
	}
	if (af->has[ANNOT_SOURCE] && with_source)
		put_opt_str(out, "source", cells[ANNOT_SOURCE].text);
}

static bool want_block(const struct rank_func *f, size_t b, const struct render_opts *o,
		       size_t shown_nr)
{
	return o->all || (f->block_rank[b] && f->block_rank[b] <= shown_nr);
}

static void put_func(FILE *out, const struct rank *r, const struct rank_func *f,
		     const struct render_opts *o)
{
	const struct stream_object *obj = &r->stream->objects[f->obj];
	const char *in = "      ";
	bool first;
	size_t b, i;

	const struct annot_func *af = o->annot ? annotator__func(o->annot, r->stream, f->obj) : NULL;

	fputs("    {\n", out);
	put_key_str(out, in, "name", obj->name);
	fputs(",\n", out);
	put_key_str(out, in, "display_name", af ? af->display : obj->name);
	fputs(",\n", out);
	if (af && af->wasm) {
		/* Matched to the .cwasm: which function, and whether its code agrees. */
		fprintf(out, "%s\"wasm_function\": {\"symbol\": ", in);
		put_str(out, af->symbol);
		fprintf(out, ", \"text_offset\": %" PRIu64 ", \"module\": ", af->text_off);
		if (af->module >= 0)
			fprintf(out, "%d, \"index\": %d", af->module, af->func_index);
		else
			fputs("null, \"index\": null", out);
		fprintf(out, ", \"stale\": %s},\n", af->stale ? "true" : "false");
	}
	put_key_str(out, in, "kind", stream__kind_name(obj->kind));
	fputs(",\n", out);
	put_key_u64(out, in, "pid", obj->pid);
	fputs(",\n", out);
	if (obj->kind == HB_KIND_JIT) {
		put_key_u64(out, in, "code_index", obj->code_index);
		fputs(",\n", out);
		put_key_u64(out, in, "load_time", obj->load_time);
		fputs(",\n", out);
		put_key_str(out, in, "dump", obj->path);
	} else {
		put_key_str(out, in, "dso", obj->path);
		fputs(",\n", out);
		put_key_str(out, in, "symbol", obj->name);
		fputs(",\n", out);
		put_key_u64(out, in, "sym_start", obj->sym_start);
	}
	fputs(",\n", out);
	put_key_u64(out, in, "e_machine", obj->e_machine);
	fputs(",\n", out);
	put_key_u64(out, in, "address", obj->addr);
	fputs(",\n", out);
	put_key_u64(out, in, "size", obj->size);
	fputs(",\n", out);
	put_key_u64(out, in, "code_bytes", obj->code_nr);
	fputs(",\n", out);
	fprintf(out, "%s\"disassembled\": %s,\n", in, f->status == RANK_DISASSEMBLED ? "true" : "false");
	if (f->status == RANK_DISASSEMBLED) {
		put_key_u64(out, in, "code_end", f->cfg.code_end);
	} else {
		put_key_str(out, in, "error",
			    f->status == RANK_NO_CODE ? "no code bytes in the stream" :
			    f->status == RANK_SKIPPED ? "not disassembled: no block of it can be shown" :
			    f->error);
	}
	fputs(",\n", out);
	put_key_u64(out, in, "samples", f->samples);
	fputs(",\n", out);
	put_key_u64(out, in, "unaligned_samples", f->unaligned);
	fputs(",\n", out);
	put_key_u64(out, in, "outside_code_samples", f->outside);
	fputs(",\n", out);

	fprintf(out, "%s\"instructions\": [", in);
	first = true;
	if (f->status == RANK_DISASSEMBLED) {
		/* --all: every instruction, trailing data included; else those of listed blocks. */
		size_t nb = 0;

		for (i = 0; i < f->cfg.insns_nr; i++) {
			const struct cfg_insn *insn = &f->cfg.insns[i];

			while (nb < f->cfg.blocks_nr &&
			       f->cfg.blocks[nb].first + f->cfg.blocks[nb].nr <= i)
				nb++;
			if (!o->all && (nb == f->cfg.blocks_nr || f->cfg.blocks[nb].first > i ||
					!want_block(f, nb, o, r->shown_nr)))
				continue;
			fprintf(out, "%s\n%s  {\"offset\": %" PRIu32 ", \"size\": %" PRIu16
				", \"asm\": ", first ? "" : ",", in, insn->off, insn->size);
			put_str(out, insn->text);
			fprintf(out, ", \"samples\": %" PRIu64, f->insn_samples[i]);
			/* --all lists every instruction of every function: source
			 * lines only where there are samples, to keep it fast. */
			if (af)
				put_insn_annot(out, o->annot, r, f, af, insn->off,
					       !o->all || f->insn_samples[i]);
			fputc('}', out);
			first = false;
		}
	}
	fprintf(out, "%s],\n", first ? "" : "\n      ");

	fprintf(out, "%s\"blocks\": [", in);
	first = true;
	for (b = 0; f->status == RANK_DISASSEMBLED && b < f->cfg.blocks_nr; b++) {
		const struct cfg_block *blk = &f->cfg.blocks[b];

		if (!want_block(f, b, o, r->shown_nr))
			continue;
		fprintf(out, "%s\n%s  {\"start\": %" PRIu32 ", \"end\": %" PRIu32
			", \"samples\": %" PRIu64 ", \"rank\": ", first ? "" : ",", in, blk->start,
			blk->end, f->block_samples[b]);
		if (f->block_rank[b])
			fprintf(out, "%" PRIu32, f->block_rank[b]);
		else
			fputs("null", out);
		fprintf(out, ", \"shown\": %s}",
			f->block_rank[b] && f->block_rank[b] <= r->shown_nr ? "true" : "false");
		first = false;
	}
	fprintf(out, "%s]\n", first ? "" : "\n      ");
	fputs("    }", out);
}

static const char *unattributed_key(const char *cls)
{
	static const char prefix[] = "unattributed.";

	return strncmp(cls, prefix, sizeof(prefix) - 1) ? NULL : cls + sizeof(prefix) - 1;
}

static int render(FILE *out, const struct rank *r, const struct render_opts *o)
{
	const struct stream *s = r->stream;
	const struct stream_event *ev = r->event >= 0 ? &s->events[r->event] : NULL;
	const struct rank_opts *ro = o->rank;
	const struct rank_func **order;
	size_t i, nr = 0;
	int c;

	fputs("{\n", out);
	fprintf(out, "  \"format\": \"hotblocks\",\n  \"version\": %d,\n", JSON_VERSION);
	put_key_str(out, "  ", "event", ev ? ev->name : NULL);
	fputs(",\n  \"events\": [", out);
	for (i = 0; i < s->events_nr; i++) {
		fputs(i ? ", " : "", out);
		put_str(out, s->events[i].name);
	}
	fputs("],\n", out);
	put_key_u64(out, "  ", "total_samples", r->total);
	fputs(",\n", out);
	put_key_u64(out, "  ", "jit_samples", r->jit);
	fputs(",\n  \"samples\": {", out);
	for (c = HB_CLASS_ALL + 1; c < HB_CLASS__NR; c++) {
		const char *name = stream__class_name(c);

		if (unattributed_key(name))
			continue;
		fprintf(out, "%s\"%s\": %" PRIu64, c == HB_CLASS_ALL + 1 ? "" : ", ", name,
			ev ? ev->samples[c] : 0);
	}
	fputs(", \"unattributed\": {", out);
	for (c = HB_CLASS_ALL + 1, i = 0; c < HB_CLASS__NR; c++) {
		const char *key = unattributed_key(stream__class_name(c));

		if (!key)
			continue;
		fprintf(out, "%s\"%s\": %" PRIu64, i++ ? ", " : "", key, ev ? ev->samples[c] : 0);
	}
	fputs("}},\n", out);
	fprintf(out, "  \"not_in_blocks\": {\"no_code\": %" PRIu64 ", \"not_disassembled\": %"
		PRIu64 ", \"unaligned\": %" PRIu64 ", \"outside_code\": %" PRIu64 "},\n",
		r->nocode_samples, r->failed_samples, r->unaligned_samples, r->outside_samples);
	fprintf(out, "  \"skipped_records\": %" PRIu64 ",\n",
		sat_add(sat_add(s->skipped_kinds, s->skipped_classes),
			sat_add(s->skipped_objects, s->skipped_object_lines)));
	fprintf(out, "  \"selection\": {\"percent\": %.15g, \"threshold\": %s, \"top\": ",
		ro->percent, ro->no_threshold ? "false" : "true");
	if (ro->top == SIZE_MAX)
		fputs("null", out);
	else
		fprintf(out, "%zu", ro->top);
	fputs(", ", out);
	put_key_str(out, "", "function", ro->function);
	fprintf(out, ", \"all\": %s},\n", o->all ? "true" : "false");
	fprintf(out, "  \"blocks_shown\": %zu,\n", r->shown_nr);

	order = malloc((r->funcs_nr ? r->funcs_nr : 1) * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (i = 0; i < r->funcs_nr; i++) {
		const struct rank_func *f = &r->funcs[r->by_heat[i]];

		if (o->all ? f->selected : f->shown)
			order[nr++] = f;
	}
	fputs("  \"functions\": [", out);
	for (i = 0; i < nr; i++) {
		fputs(i ? ",\n" : "\n", out);
		put_func(out, r, order[i], o);
	}
	fputs(nr ? "\n  ]\n}\n" : "]\n}\n", out);
	free(order);
	return ferror(out) ? -EIO : 0;
}

const struct render_ops render_json = {
	.name = "json",
	.render = render,
};
