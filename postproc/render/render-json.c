/* SPDX-License-Identifier: MIT */
/* JSON report, schema in postproc/JSON.md (version 1). */
#define _GNU_SOURCE	/* fputs_unlocked, fwrite_unlocked */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "render.h"
#include "../plugin/lib/utf8.h"

#define JSON_VERSION 1

/*
 * A JSON --all report writes millions of small pieces: unlocked stdio (the
 * report holds the stream's lock for the whole run, see render) and integers
 * written by hand instead of through printf.
 */
#define PUTS(s, out) fputs_unlocked((s), (out))
#define PUTC(c, out) putc_unlocked((c), (out))

static void put_u64(FILE *out, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	fwrite_unlocked(p, 1, (size_t)(buf + sizeof(buf) - p), out);
}

/* Bytes a JSON string holds as they are: printable ASCII but '"' and '\\'. */
static bool plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/* A JSON string: RFC 8259 escapes; a byte that is not UTF-8 becomes U+FFFD. */
static void put_str(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t cp;

	PUTC('"', out);
	while (*s) {
		const unsigned char *run = s;
		size_t n;

		while (plain(*s))
			s++;
		if (s > run)
			fwrite_unlocked(run, 1, (size_t)(s - run), out);
		if (!*s)
			break;
		/* At most 4 bytes are read: the NUL terminator fails a continuation
		 * byte's test, so a sequence cut short never reads past it. */
		n = utf8_decode(s, 4, &cp);
		if (!n) {
			PUTS("\\ufffd", out);
			s++;
			continue;
		}
		if (n > 1) {
			/* C1 and bidi controls escaped too: the same string, and a
			 * document printed on a terminal does not drive it. */
			if (utf8_is_control(cp))
				fprintf(out, "\\u%04x", (unsigned)cp);
			else
				fwrite_unlocked(s, 1, n, out);
			s += n;
			continue;
		}
		switch (*s) {
		case '"':
			PUTS("\\\"", out);
			break;
		case '\\':
			PUTS("\\\\", out);
			break;
		case '\n':
			PUTS("\\n", out);
			break;
		case '\t':
			PUTS("\\t", out);
			break;
		case '\r':
			PUTS("\\r", out);
			break;
		default:
			/* below 0x20, or 0x7f */
			fprintf(out, "\\u%04x", *s);
		}
		s++;
	}
	PUTC('"', out);
}

void render_json__str(FILE *out, const char *s)
{
	put_str(out, s);
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

/* ", \"key\": " and the string, or null. */
static void put_opt_str(FILE *out, const char *key, const char *val)
{
	PUTS(key, out);
	if (val)
		put_str(out, val);
	else
		PUTS("null", out);
}

/* The instruction's wasm offset and its CLIF / Wasm / source cells (null when absent). */
static void put_row_annot(FILE *out, const struct report_func *f, const struct report_row *row)
{
	if (f->wasm_offsets) {
		PUTS(", \"wasm_offset\": ", out);
		if (row->has_wasm_offset)
			put_u64(out, row->wasm_offset);
		else
			PUTS("null", out);
		put_opt_str(out, ", \"clif\": ", row->cells[REPORT_COL_CLIF].text);
		put_opt_str(out, ", \"wasm\": ", row->cells[REPORT_COL_WASM].text);
	}
	if (row->source)
		put_opt_str(out, ", \"source\": ", row->cells[REPORT_COL_SOURCE].text);
}

static void put_func(FILE *out, const struct report_func *f)
{
	const struct report_code *code = &f->code;
	const char *in = "      ";
	bool first;
	size_t b, i;

	fputs("    {\n", out);
	put_key_str(out, in, "name", code->name);
	fputs(",\n", out);
	put_key_str(out, in, "display_name", f->display_name);
	fputs(",\n", out);
	if (f->wasm.matched) {
		/* Matched to the .cwasm: which function, and whether its code agrees. */
		fprintf(out, "%s\"wasm_function\": {\"symbol\": ", in);
		put_str(out, f->wasm.symbol);
		fprintf(out, ", \"text_offset\": %" PRIu64 ", \"module\": ", f->wasm.text_offset);
		if (f->wasm.module >= 0)
			fprintf(out, "%d, \"index\": %d", f->wasm.module, f->wasm.index);
		else
			fputs("null, \"index\": null", out);
		fprintf(out, ", \"stale\": %s},\n", f->wasm.stale ? "true" : "false");
	}
	put_key_str(out, in, "kind", f->kind);
	fputs(",\n", out);
	put_key_u64(out, in, "pid", code->pid);
	fputs(",\n", out);
	if (code->jit) {
		put_key_u64(out, in, "code_index", code->code_index);
		fputs(",\n", out);
		put_key_u64(out, in, "load_time", code->load_time);
		fputs(",\n", out);
		put_key_str(out, in, "dump", code->path);
	} else {
		put_key_str(out, in, "dso", code->path);
		fputs(",\n", out);
		put_key_str(out, in, "symbol", code->name);
		fputs(",\n", out);
		put_key_u64(out, in, "sym_start", code->sym_start);
		fputs(",\n", out);
		put_key_str(out, in, "source", code->source);
	}
	fputs(",\n", out);
	put_key_u64(out, in, "e_machine", code->e_machine);
	fputs(",\n", out);
	put_key_u64(out, in, "address", code->address);
	fputs(",\n", out);
	put_key_u64(out, in, "size", code->size);
	fputs(",\n", out);
	put_key_u64(out, in, "code_bytes", code->code_bytes);
	fputs(",\n", out);
	fprintf(out, "%s\"disassembled\": %s,\n", in, f->disassembled ? "true" : "false");
	if (f->disassembled)
		put_key_u64(out, in, "code_end", f->code_end);
	else
		put_key_str(out, in, "error", f->error);
	fputs(",\n", out);
	put_key_u64(out, in, "samples", f->samples);
	fputs(",\n", out);
	put_key_u64(out, in, "unaligned_samples", f->unaligned);
	fputs(",\n", out);
	put_key_u64(out, in, "outside_code_samples", f->outside);
	fputs(",\n", out);
	fprintf(out, "%s\"runs\": [", in);
	for (i = 0; i < f->runs_nr; i++) {
		PUTS(i ? ", {\"run\": " : "{\"run\": ", out);
		put_u64(out, f->runs[i].run);
		PUTS(", \"samples\": ", out);
		put_u64(out, f->runs[i].samples);
		PUTC('}', out);
	}
	PUTS("],\n", out);
	put_key_u64(out, in, "folded", f->folded);
	fputs(",\n", out);

	fprintf(out, "%s\"instructions\": [", in);
	for (i = 0; i < f->rows_nr; i++) {
		const struct report_row *row = &f->rows[i];

		PUTS(i ? ",\n        {\"offset\": " : "\n        {\"offset\": ", out);
		put_u64(out, row->off);
		PUTS(", \"size\": ", out);
		put_u64(out, row->size);
		PUTS(", \"asm\": ", out);
		put_str(out, row->text);
		PUTS(", \"samples\": ", out);
		put_u64(out, row->samples);
		if (row->target_outside) {
			PUTS(", \"target_address\": ", out);
			put_u64(out, row->target_address);
			put_opt_str(out, ", \"target_name\": ", row->target_name);
			if (row->target_func >= 0) {
				PUTS(", \"target_function\": ", out);
				put_u64(out, (uint64_t)row->target_func);
			}
		}
		put_row_annot(out, f, row);
		PUTC('}', out);
	}
	fprintf(out, "%s],\n", f->rows_nr ? "\n      " : "");

	fprintf(out, "%s\"blocks\": [", in);
	first = true;
	for (b = 0; b < f->blocks_nr; b++) {
		const struct report_block *blk = &f->blocks[b];

		if (!blk->listed)
			continue;
		PUTS(first ? "\n        {\"start\": " : ",\n        {\"start\": ", out);
		put_u64(out, blk->start);
		PUTS(", \"end\": ", out);
		put_u64(out, blk->end);
		PUTS(", \"samples\": ", out);
		put_u64(out, blk->samples);
		PUTS(", \"rank\": ", out);
		if (blk->rank)
			put_u64(out, blk->rank);
		else
			PUTS("null", out);
		PUTS(blk->shown ? ", \"shown\": true}" : ", \"shown\": false}", out);
		first = false;
	}
	fprintf(out, "%s]\n", first ? "" : "\n      ");
	fputs("    }", out);
}

static int render_locked(FILE *out, const struct report *rep);

int render_json(FILE *out, const struct report *rep, const struct render_opts *o)
{
	int ret;

	flockfile(out);
	ret = render_locked(out, rep);
	funlockfile(out);
	return ret;
}

static int render_locked(FILE *out, const struct report *rep)
{
	size_t i, k;

	fputs("{\n", out);
	fprintf(out, "  \"format\": \"hotblocks\",\n  \"version\": %d,\n", JSON_VERSION);
	put_key_str(out, "  ", "event", rep->event);
	fputs(",\n  \"events\": [", out);
	for (i = 0; i < rep->events_nr; i++) {
		fputs(i ? ", " : "", out);
		put_str(out, rep->events[i]);
	}
	fputs("],\n  \"runs\": [", out);
	for (i = 0; i < rep->runs_nr; i++) {
		const struct report_run *run = &rep->runs[i];

		fputs(i ? ",\n    {" : "\n    {", out);
		put_key_str(out, "", "stream", run->origin);
		fprintf(out, ", \"line\": %lu, ", run->line);
		put_key_str(out, "", "input", run->input);
		fprintf(out, ", \"total_samples\": %" PRIu64 "}", run->total);
	}
	fputs(rep->runs_nr ? "\n  ],\n" : "],\n", out);
	put_key_u64(out, "  ", "total_samples", rep->total);
	fputs(",\n", out);
	put_key_u64(out, "  ", "jit_samples", rep->jit);
	fputs(",\n  \"samples\": {", out);
	for (i = 0, k = 0; i < rep->classes_nr; i++)
		if (!rep->classes[i].unattributed)
			fprintf(out, "%s\"%s\": %" PRIu64, k++ ? ", " : "", rep->classes[i].name,
				rep->classes[i].samples);
	fputs(", \"unattributed\": {", out);
	for (i = 0, k = 0; i < rep->classes_nr; i++)
		if (rep->classes[i].unattributed)
			fprintf(out, "%s\"%s\": %" PRIu64, k++ ? ", " : "", rep->classes[i].name,
				rep->classes[i].samples);
	fputs("}},\n", out);
	fprintf(out, "  \"not_in_blocks\": {\"no_code\": %" PRIu64 ", \"not_disassembled\": %"
		PRIu64 ", \"unaligned\": %" PRIu64 ", \"outside_code\": %" PRIu64 "},\n",
		rep->no_code, rep->not_disassembled, rep->unaligned, rep->outside_code);
	fprintf(out, "  \"skipped_records\": %" PRIu64 ",\n", rep->skipped_records);
	fprintf(out, "  \"selection\": {\"percent\": %.15g, \"threshold\": %s, \"top\": ",
		rep->selection.percent, rep->selection.threshold ? "true" : "false");
	if (rep->selection.top == SIZE_MAX)
		fputs("null", out);
	else
		fprintf(out, "%zu", rep->selection.top);
	fputs(", ", out);
	put_key_str(out, "", "function", rep->selection.function);
	fprintf(out, ", \"all\": %s},\n", rep->selection.all ? "true" : "false");
	fprintf(out, "  \"blocks_shown\": %zu,\n", rep->shown_nr);

	/* Every sampled function, ranked: which are listed, which are shown. */
	fputs("  \"sampled_functions\": [", out);
	for (i = 0; i < rep->ranked_nr; i++) {
		const struct report_ranked *f = &rep->ranked[i];

		PUTS(i ? ",\n    {\"name\": " : "\n    {\"name\": ", out);
		put_str(out, f->name);
		PUTS(", \"display_name\": ", out);
		put_str(out, f->display_name);
		PUTS(", \"kind\": \"", out);
		PUTS(f->kind, out);
		PUTS("\", \"samples\": ", out);
		put_u64(out, f->samples);
		PUTS(f->selected ? ", \"selected\": true" : ", \"selected\": false", out);
		PUTS(", \"shown_blocks\": ", out);
		put_u64(out, f->shown_blocks);
		PUTS(", \"function\": ", out);
		if (f->func >= 0)
			put_u64(out, (uint64_t)f->func);
		else
			PUTS("null", out);
		PUTC('}', out);
	}
	fputs(rep->ranked_nr ? "\n  ],\n" : "],\n", out);

	fputs("  \"functions\": [", out);
	/* one function at a time: --all writes every one whole */
	for (i = 0; i < rep->funcs_nr; i++) {
		int ret = report__func_open(rep, i);

		if (ret)
			return ret;
		fputs(i ? ",\n" : "\n", out);
		put_func(out, &rep->funcs[i]);
		report__func_close(rep, i);
	}
	fputs(rep->funcs_nr ? "\n  ]\n}\n" : "]\n}\n", out);
	return ferror(out) ? -EIO : 0;
}
