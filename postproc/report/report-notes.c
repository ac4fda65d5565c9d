/* SPDX-License-Identifier: MIT */
/* The report's notes: what it cannot show, said once, nothing dropped silently. */
#define _GNU_SOURCE	/* vasprintf */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/names.h"
#include "annotate/jits.h"
#include "../plugin/lib/utf8.h"
#include "report-notes.h"

int report_notes__add(struct report *rep, enum report_note_kind kind, const char *fmt, ...)
{
	va_list ap;
	char *text;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	if (VEC_GROW(rep->notes, rep->notes_nr + 1, rep->notes_alloc)) {
		free(text);
		return -ENOMEM;
	}
	rep->notes[rep->notes_nr++] = (struct report_note){ kind, text };
	return 0;
}

/* Return -ENOMEM from the caller when a note cannot be kept. */
#define NOTE(...)                                        \
	do {                                             \
		if (report_notes__add(rep, __VA_ARGS__)) \
			return -ENOMEM;                  \
	} while (0)

/* The name --function answers to and shows for an object: the other name
 * rank_opts gives (the display name), else the stream's. */
static const char *shown_name(const struct rank *r, const struct rank_opts *ro, size_t obj)
{
	const char *alt = ro->alt_names ? ro->alt_names[obj] : NULL;

	return alt ? alt : r->stream->objects[obj].name;
}

/*
 * Say how --function selected, and when it selected nothing, the sampled names
 * nearest to it (name_distance), else the hottest: the full names of JIT code
 * are long and differ between JIT versions.
 */
static int function_match(struct report *rep, const struct rank *r, const struct rank_opts *ro)
{
	enum { SUGGEST = 5 };
	const char *pat = ro->function;
	size_t best[SUGGEST], dist[SUGGEST], nbest = 0, selected = 0;

	for (size_t i = 0; i < r->funcs_nr; i++)
		selected += r->funcs[i].selected;
	if (r->function_match == NAME_MATCH_GLOB || r->function_match == NAME_MATCH_SUBSTRING) {
		NOTE(REPORT_NOTE_SELECTION, "--function '%s' is no exact name: %zu sampled code object%s %s",
		     pat, selected, plural(selected),
		     r->function_match == NAME_MATCH_GLOB ? "the glob matches" :
		     selected == 1 ? "whose name contains it" : "whose names contain it");
		return 0;
	}
	if (r->function_match != NAME_MATCH_NONE)
		return 0;
	for (size_t i = 0; i < r->funcs_nr; i++) {
		size_t obj = r->funcs[i].obj, d = name_distance(pat, r->stream->objects[obj].name);
		const char *alt = ro->alt_names ? ro->alt_names[obj] : NULL;
		size_t k;

		if (alt) {
			size_t da = name_distance(pat, alt);

			d = da < d ? da : d;
		}
		if (d == NAME_FAR)
			continue;
		/* Insert by distance, then samples, keeping the SUGGEST best. */
		for (k = nbest; k > 0; k--) {
			const struct rank_func *b = &r->funcs[best[k - 1]];

			if (dist[k - 1] < d || (dist[k - 1] == d && b->samples >= r->funcs[i].samples))
				break;
			if (k < SUGGEST) {
				best[k] = best[k - 1];
				dist[k] = dist[k - 1];
			}
		}
		if (k < SUGGEST) {
			best[k] = i;
			dist[k] = d;
			if (nbest < SUGGEST)
				nbest++;
		}
	}
	if (nbest) {
		NOTE(REPORT_NOTE_SELECTION,
		     "no sampled code object matches '%s' (as a name, a glob or a substring); the nearest:",
		     pat);
	} else {
		/* Nothing close: the hottest names show what names look like here. */
		for (size_t i = 0; i < r->funcs_nr; i++) {
			size_t k;

			for (k = nbest; k > 0 && r->funcs[best[k - 1]].samples < r->funcs[i].samples; k--)
				if (k < SUGGEST)
					best[k] = best[k - 1];
			if (k < SUGGEST) {
				best[k] = i;
				if (nbest < SUGGEST)
					nbest++;
			}
		}
		NOTE(REPORT_NOTE_SELECTION,
		     "no sampled code object matches '%s' (as a name, a glob or a substring)%s", pat,
		     nbest ? "; the hottest are:" : "");
	}
	for (size_t k = 0; k < nbest; k++)
		NOTE(REPORT_NOTE_SELECTION, "  '%s' (%" PRIu64 " sample%s)",
		     shown_name(r, ro, r->funcs[best[k]].obj), r->funcs[best[k]].samples,
		     plural(r->funcs[best[k]].samples));
	return 0;
}

/* The name to show for an object in a note. */
static const char *note_name(const struct rank *r, struct annotator *annot, size_t obj)
{
	return annot ? annotator__func(annot, r->stream, obj)->display : r->stream->objects[obj].name;
}

/* "name (n), name (n) and K more": the objects with the most samples lost, by which. */
static void lossy_functions(const struct rank *r, bool unaligned, struct annotator *annot,
			    char *buf, size_t len)
{
	enum { SHOW = 3 };
	size_t top[SHOW], shown = 0, more = 0, at = 0;

#define LOST(i) (unaligned ? r->funcs[i].unaligned : r->funcs[i].outside)
	for (size_t i = 0; i < r->funcs_nr; i++) {
		size_t k;

		if (!LOST(i))
			continue;
		if (shown == SHOW && LOST(top[SHOW - 1]) >= LOST(i)) {
			more++;
			continue;
		}
		if (shown == SHOW)
			more++;
		else
			shown++;
		for (k = shown - 1; k && LOST(top[k - 1]) < LOST(i); k--)
			top[k] = top[k - 1];
		top[k] = i;
	}
	buf[0] = '\0';
	for (size_t k = 0; k < shown && at < len; k++) {
		const char *name = note_name(r, annot, r->funcs[top[k]].obj);

		at += (size_t)snprintf(buf + at, len - at, "%s%s (%" PRIu64 ")", k ? ", " : "", name,
				       LOST(top[k]));
	}
	if (at >= len)
		at = len - 1;
	buf[at] = '\0';
	if (more && at < len)
		snprintf(buf + at, len - at, " and %zu more", more);
#undef LOST
}

/*
 * The plugin's warnings, carried by the stream: a report of a saved stream
 * must still tell them, but not those the plugin has just printed itself.
 */
static int plugin_warnings(struct report *rep, const struct stream *s, const char *live_origin)
{
	uint64_t told = 0;

	for (size_t i = 0; i < s->warnings_nr; i++) {
		if (live_origin && !strcmp(s->warnings[i].origin, live_origin))
			continue;
		const char *text = s->warnings[i].text;
		bool noted = !strncmp(text, "note: ", 6);	/* a note, not a warning (STREAM.md) */

		NOTE(REPORT_NOTE_INPUT, "%s: the plugin %s: %s", s->warnings[i].origin, noted ? "noted" : "warned",
		     noted ? text + 6 : text);
		told++;
	}
	if (s->warnings_dropped && told)
		NOTE(REPORT_NOTE_INPUT, "... and %" PRIu64 " more distinct plugin warning%s",
		     s->warnings_dropped, plural(s->warnings_dropped));
	/* code a `code-file` record named and no file had (stream-code-files.c) */
	for (size_t i = 0; i < s->code_file_problems_nr; i++)
		NOTE(REPORT_NOTE_INPUT, "%s", s->code_file_problems[i]);
	if (s->code_file_problems_dropped)
		NOTE(REPORT_NOTE_INPUT, "... and %" PRIu64 " more functions whose code file could not be read",
		     s->code_file_problems_dropped);
	return 0;
}

/*
 * Lines over the stream's limit (STREAM.md "Lines"): the reader lost each
 * one's record alone, and of an object or event the lines naming it.
 */
static int lost_records(struct report *rep, const struct stream *s)
{
	for (size_t i = 0; i < s->lost_nr; i++) {
		const struct stream_lost *l = &s->lost[i];
		const char *kind = l->kind;	/* notes are escaped where they are shown */
		char what[256];

		if (l->has_id)
			snprintf(what, sizeof(what), "%s %" PRIu64 " and the %" PRIu64 " line%s naming it"
				 " (%" PRIu64 " sample%s: counted in the total, in no function)", kind, l->id,
				 l->lines, plural(l->lines), l->samples, plural(l->samples));
		else
			snprintf(what, sizeof(what), "its '%s' record", kind);
		NOTE(REPORT_NOTE_INPUT, "%s:%lu: a line of %" PRIu64 " bytes is longer than a stream's lines"
		     " can be (%u): lost %s", l->origin, l->line, l->bytes, HB_STREAM_LINE_MAX, what);
	}
	if (s->lost_dropped)
		NOTE(REPORT_NOTE_INPUT, "... and %" PRIu64 " more such line%s (%" PRIu64 " lines naming"
		     " what they defined and %" PRIu64 " samples lost in all)", s->lost_dropped,
		     plural(s->lost_dropped), s->lost_lines, s->lost_samples);
	return 0;
}

/* Names and paths the plugin shortened to keep its lines within the limit,
 * with their full lengths (`name-length=`, STREAM.md "Lines"). */
static int shortened_names(struct report *rep, const struct stream *s)
{
	enum { SHOWN = 40 };	/* bytes of a name shown, at a character boundary */
	size_t n = 0, first = 0;

	for (size_t i = 0; i < s->objects_nr; i++)
		if (s->objects[i].name_length || s->objects[i].path_length)
			if (!n++)
				first = i;
	if (!n)
		return 0;
	const struct stream_object *o = &s->objects[first];
	const char *shown = o->name_length ? o->name : o->path;
	char head[SHOWN + 1];
	size_t at = 0, k;

	while (shown[at] && (k = utf8_seq_len((const uint8_t *)shown + at, strlen(shown + at))) &&
	       at + k <= SHOWN)
		at += k;
	memcpy(head, shown, at);
	head[at] = '\0';
	NOTE(REPORT_NOTE_INPUT, "%zu code object%s had a name or path longer than a stream takes:"
	     " shown cut, ending in " HB_STREAM_SHORTENED "; the %s of '%s" HB_STREAM_SHORTENED "' is %"
	     PRIu64 " bytes long", n, plural(n), o->name_length ? "name" : "path", head,
	     o->name_length ? o->name_length : o->path_length);
	return 0;
}

/*
 * The samples of class the plugin's warnings and notes told, each "N
 * sample(s) ... counted as CLASS" (its first count of samples, then the
 * class's name on the wire): the report does not count them again.
 */
static uint64_t told_by_plugin(const struct stream *s, enum hb_sample_class c)
{
	char tag[64];
	uint64_t told = 0;

	snprintf(tag, sizeof(tag), "counted as %s", stream__class_name(c));
	for (size_t i = 0; i < s->warnings_nr; i++) {
		const char *t = s->warnings[i].text, *at = strstr(t, tag);

		if (!at || (at[strlen(tag)] && at[strlen(tag)] != ')' && at[strlen(tag)] != ';'))
			continue;
		for (const char *p = t; *p; p++) {
			char *end;

			if (*p < '0' || *p > '9' || (p > t && p[-1] >= '0' && p[-1] <= '9'))
				continue;
			uint64_t n = strtoull(p, &end, 10);

			if (!strncmp(end, " sample", 7) || !strncmp(end, " JIT sample", 11)) {
				told = sat_add(told, n);
				break;
			}
		}
	}
	return told;
}

/* The plugin's own losses: in the total (the denominator), in no function;
 * those of a class the plugin told in full (its notes, a saved stream's
 * "the plugin noted") not counted again. */
static int unattributed(struct report *rep, const struct rank *r)
{
	static const struct { enum hb_sample_class c; const char *what; } lost[] = {
		{ HB_CLASS_BEFORE_LOAD, "before their code's load record" },
		{ HB_CLASS_AMBIGUOUS, "where several code loads were, with no time to choose" },
		{ HB_CLASS_JIT_NO_LOAD, "in JIT memory no jitdump load covers" },
		{ HB_CLASS_NO_SYMBOL, "in files without a symbol there" },
		{ HB_CLASS_NO_MAP, "outside every mapping" },
		{ HB_CLASS_NOT_RESOLVED, "not resolved (jit-only)" },
		{ HB_CLASS_TABLE_FULL, "beyond the plugin's table" },
	};
	const uint64_t *n = r->stream->events[r->event].samples;
	char why[512];
	size_t len = 0;
	uint64_t sum = 0;

	why[0] = '\0';
	for (size_t k = 0; k < ARRAY_SIZE(lost); k++) {
		if (!n[lost[k].c] || told_by_plugin(r->stream, lost[k].c) == n[lost[k].c])
			continue;
		sum = sat_add(sum, n[lost[k].c]);
		len += (size_t)snprintf(why + len, len < sizeof(why) ? sizeof(why) - len : 0,
					"%s%" PRIu64 " %s", len ? ", " : "", n[lost[k].c], lost[k].what);
	}
	if (sum)
		NOTE(REPORT_NOTE_LOSS,
		     "%" PRIu64 " sample%s unattributed (%s): counted in the total, in no function",
		     sum, plural(sum), why);
	return 0;
}

/* --kind: what it left out, class by class, and that kernel samples have no blocks. */
static int kinds_kept(struct report *rep, const struct rank *r)
{
	const struct stream *s = r->stream;
	const struct stream_event *ev = &s->events[r->event];
	char kinds[32], why[512];
	uint64_t sum = 0;
	size_t len = 0;

	stream__kinds_text(s->kinds, kinds, sizeof(kinds));
	why[0] = '\0';
	for (int c = HB_CLASS_ALL + 1; c < HB_CLASS__NR; c++) {
		uint64_t n = ev->collected[c] - ev->samples[c];

		if (!n)
			continue;
		sum = sat_add(sum, n);
		len += (size_t)snprintf(why + len, len < sizeof(why) ? sizeof(why) - len : 0, "%s%s %" PRIu64,
					len ? ", " : "", stream__class_name(c), n);
	}
	/* of unknown classes: in `all` alone */
	if (ev->collected[HB_CLASS_ALL] - ev->samples[HB_CLASS_ALL] > sum) {
		uint64_t n = ev->collected[HB_CLASS_ALL] - ev->samples[HB_CLASS_ALL] - sum;

		sum = sat_add(sum, n);
		len += (size_t)snprintf(why + len, len < sizeof(why) ? sizeof(why) - len : 0, "%sof unknown"
					" classes %" PRIu64, len ? ", " : "", n);
	}
	if (sum)
		NOTE(REPORT_NOTE_SELECTION, "--kind %s: %" PRIu64 " of the %" PRIu64 " sample%s are of"
		     " other kinds or of none (%s): not counted, not shown", kinds, sum,
		     ev->collected[HB_CLASS_ALL], plural(ev->collected[HB_CLASS_ALL]), why);
	if ((s->kinds & STREAM_KIND_KERNEL) && ev->samples[HB_CLASS_KERNEL])
		NOTE(REPORT_NOTE_SELECTION, "--kind kernel: the plugin counts kernel samples (%" PRIu64
		     ") in no function (it reads no kernel code): counted in the total, in no block",
		     ev->samples[HB_CLASS_KERNEL]);
	return 0;
}

/* Functions a perf map names: ranked whole, as a perf map gives no code
 * bytes. Their samples and count, for the note on objects without code;
 * counted over every sampled object, so that no -p changes them. */
static int perf_map_functions(struct report *rep, const struct rank *r, uint64_t *samples_out,
			      uint64_t *funcs_out)
{
	uint64_t samples = 0, funcs = 0;
	size_t hottest = 0;

	for (size_t i = 0; i < r->funcs_nr; i++) {
		const struct stream_object *o = &r->stream->objects[r->funcs[i].obj];

		if (strcmp(o->source, "perf-map") || o->code_nr)
			continue;
		if (!funcs || r->funcs[i].samples > r->funcs[hottest].samples)
			hottest = i;
		samples = sat_add(samples, r->funcs[i].samples);
		funcs++;
	}
	*samples_out = samples;
	*funcs_out = funcs;
	if (funcs)
		NOTE(REPORT_NOTE_LOSS, "%" PRIu64 " sample%s in %" PRIu64 " function%s a perf map names"
		     " (/tmp/perf-<pid>.map): each ranked as a whole function, with its samples by offset,"
		     " but a perf map has no code bytes, so no blocks or instructions; %s",
		     samples, plural(samples), funcs, plural(funcs),
		     jits__perf_map(r->stream, r->funcs[hottest].obj)->jitdump);
	return 0;
}

struct file_samples {
	const char *path;
	uint64_t samples;
};

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct file_samples *)a)->path, ((const struct file_samples *)b)->path);
}

static int by_samples(const void *a, const void *b)
{
	const struct file_samples *x = a, *y = b;

	return x->samples != y->samples ? (x->samples > y->samples ? -1 : 1) : strcmp(x->path, y->path);
}

/* The files whose functions had no symbol, hottest first: named as perf names
 * unknown code, by their .eh_frame bounds. Says which, and how to get names. */
static int files_without_symbols(struct report *rep, const struct rank *r)
{
	enum { TOP = 3 };
	struct file_samples *f = malloc((r->funcs_nr ? r->funcs_nr : 1) * sizeof(*f));
	size_t nf = 0, nfiles = 0, len = 0;
	uint64_t samples = 0;
	char names[512];

	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < r->funcs_nr; i++) {
		const struct stream_object *o = &r->stream->objects[r->funcs[i].obj];

		if (!strcmp(o->source, "eh-frame") && r->funcs[i].samples) {
			f[nf++] = (struct file_samples){ o->path, r->funcs[i].samples };
			samples = sat_add(samples, r->funcs[i].samples);
		}
	}
	/* one entry per file, then the hottest first */
	qsort(f, nf, sizeof(*f), by_path);
	for (size_t i = 0; i < nf; i++) {
		if (nfiles && !strcmp(f[nfiles - 1].path, f[i].path))
			f[nfiles - 1].samples = sat_add(f[nfiles - 1].samples, f[i].samples);
		else
			f[nfiles++] = f[i];
	}
	qsort(f, nfiles, sizeof(*f), by_samples);
	names[0] = '\0';
	for (size_t k = 0; k < nfiles && k < TOP; k++) {
		const char *base = strrchr(f[k].path, '/');

		len += (size_t)snprintf(names + len, len < sizeof(names) ? sizeof(names) - len : 0, "%s%s %.1f%%",
					k ? ", " : "", base ? base + 1 : f[k].path,
					100.0 * (double)f[k].samples / (double)samples);
	}
	free(f);
	/* A few samples (under 10, or 1% of the event's) are worth a line, not
	 * the advice on debug symbols. */
	uint64_t all = r->event >= 0 ? r->stream->events[r->event].samples[HB_CLASS_ALL] : 0;

	if (samples && (samples < 10 || samples * 100 < all))
		NOTE(REPORT_NOTE_LOSS, "%" PRIu64 " sample%s in functions without symbols, of %zu stripped file%s"
		     " (%s%s): named by their .eh_frame bounds (FILE+0xOFFSET)",
		     samples, plural(samples), nfiles, plural(nfiles), names, nfiles > TOP ? ", ..." : "");
	else if (samples)
		NOTE(REPORT_NOTE_LOSS, "%" PRIu64 " sample%s in functions without symbols, of %zu stripped file%s"
		     " (%s%s): named by their .eh_frame bounds, as perf names unknown code (FILE+0xOFFSET);"
		     " for their names install the files' debug symbols (Debian: the -dbgsym package of"
		     " the package `dpkg -S FILE` names, from the debug archive), or let debuginfod fetch"
		     " them: DEBUGINFOD_URLS=https://debuginfod.debian.net perf script ...",
		     samples, plural(samples), nfiles, plural(nfiles), names, nfiles > TOP ? ", ..." : "");
	return 0;
}

int report_notes__input(struct report *rep, const struct rank *r, const struct rank_opts *ro,
			struct annotator *annot, const char *live_origin)
{
	const struct stream *s = r->stream;
	uint64_t skipped = sat_add(s->skipped_objects, s->skipped_object_lines);
	char names[1024];

	if (plugin_warnings(rep, s, live_origin) || lost_records(rep, s) || shortened_names(rep, s))
		return -ENOMEM;
	if (s->skipped_kinds)
		NOTE(REPORT_NOTE_INPUT, "skipped %" PRIu64 " record%s of unknown kinds",
		     s->skipped_kinds, plural(s->skipped_kinds));
	if (s->skipped_classes)
		NOTE(REPORT_NOTE_INPUT, "skipped %" PRIu64 " total%s of unknown sample classes",
		     s->skipped_classes, plural(s->skipped_classes));
	if (skipped)
		NOTE(REPORT_NOTE_INPUT, "skipped %" PRIu64 " object%s of unknown kinds and their %"
		     PRIu64 " code/debug/sample line%s", s->skipped_objects, plural(s->skipped_objects),
		     s->skipped_object_lines, plural(s->skipped_object_lines));
	if (r->event >= 0 && s->kinds && kinds_kept(rep, r))
		return -ENOMEM;
	if (r->event >= 0 && unattributed(rep, r))
		return -ENOMEM;
	uint64_t pm_samples, pm_funcs;

	if (perf_map_functions(rep, r, &pm_samples, &pm_funcs) || files_without_symbols(rep, r))
		return -ENOMEM;
	/* the others without code bytes (the perf map's have their note) */
	if (r->nocode_objects > pm_funcs)
		NOTE(REPORT_NOTE_LOSS, "%" PRIu64 " sample%s in %" PRIu64 " object%s without code bytes:"
		     " each ranked as a whole function, with its samples by offset", r->nocode_samples - pm_samples,
		     plural(r->nocode_samples - pm_samples), r->nocode_objects - pm_funcs,
		     plural(r->nocode_objects - pm_funcs));
	if (r->failed_objects)
		NOTE(REPORT_NOTE_LOSS, "%" PRIu64 " sample%s in %" PRIu64 " object%s not disassembled"
		     " (%s): counted, in no block", r->failed_samples, plural(r->failed_samples),
		     r->failed_objects, plural(r->failed_objects), r->failed_error);
	if (r->unaligned_samples) {
		lossy_functions(r, true, annot, names, sizeof(names));
		NOTE(REPORT_NOTE_LOSS, "%" PRIu64 " sample%s inside an instruction that is sampled more"
		     " (the code bytes are not those that ran): counted, in no block: %s",
		     r->unaligned_samples, plural(r->unaligned_samples), names);
	}
	if (r->outside_samples) {
		lossy_functions(r, false, annot, names, sizeof(names));
		NOTE(REPORT_NOTE_LOSS, "%" PRIu64 " sample%s past the code bytes the input has: counted,"
		     " in no block: %s", r->outside_samples, plural(r->outside_samples), names);
	}
	if (r->percent_capped)
		NOTE(REPORT_NOTE_SELECTION, "only %" PRIu64 " of the %" PRIu64 " samples (%.1f%%) are in"
		     " objects that can have blocks: --percent %g counts against those %" PRIu64,
		     r->blockable, r->total, r->total ? 100.0 * r->blockable / r->total : 0.0,
		     ro->percent, r->blockable);
	if (r->attributed > r->total)
		NOTE(REPORT_NOTE_INPUT, "the stream's total of %" PRIu64 " sample%s is less than the %"
		     PRIu64 " it attributes to code objects", r->total, plural(r->total), r->attributed);
	if (ro->function)
		return function_match(rep, r, ro);
	return 0;
}

/* Listed functions by name, then list order (hottest first): pointers into one array. */
static int by_name(const void *a, const void *b)
{
	const struct report_func *x = *(const struct report_func *const *)a;
	const struct report_func *y = *(const struct report_func *const *)b;
	int c = strcmp(x->display_name, y->display_name);

	return c ? c : x < y ? -1 : x > y;
}

/* A group of listed functions of one name: by[at .. at + count), the hottest first. */
struct name_group {
	size_t at, count;
	const struct report_func *first;
};

static int by_first(const void *a, const void *b)
{
	const struct name_group *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

/* ", a.hbs:1+b.hbs:1": where the sections of f's samples began (at most 3). */
static void runs_of(const struct report *rep, const struct report_func *f, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, ", ");

	for (size_t i = 0; i < f->runs_nr && at < len; i++) {
		const struct report_run *run = &rep->runs[f->runs[i].run];

		if (i == 3) {
			snprintf(buf + at, len - at, "+%zu more", f->runs_nr - i);
			return;
		}
		at += (size_t)snprintf(buf + at, len - at, "%s%s:%lu", i ? "+" : "", run->origin,
				       run->line);
	}
}

int report_notes__names(struct report *rep)
{
	enum { TELL = 5, WHERE = 3 };
	const struct report_func **by;
	size_t groups_nr = 0, n = rep->funcs_nr, i, j;
	struct name_group *groups;
	char where[WHERE][300];
	int ret = -ENOMEM;

	if (n < 2)
		return 0;
	by = malloc(n * sizeof(*by));
	groups = malloc(n * sizeof(*groups));
	if (!by || !groups)
		goto out;
	for (i = 0; i < n; i++)
		by[i] = &rep->funcs[i];
	qsort(by, n, sizeof(*by), by_name);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(by[j]->display_name, by[i]->display_name); j++)
			;
		if (j - i > 1)
			groups[groups_nr++] = (struct name_group){ i, j - i, by[i] };
	}
	/* Told in list order: by the place of each name's hottest function. */
	qsort(groups, groups_nr, sizeof(*groups), by_first);
	ret = 0;
	for (i = 0; i < groups_nr && i < TELL && !ret; i++) {
		const struct name_group *g = &groups[i];
		size_t codes = 0;

		/* Every sampled code of the name, listed or not: no -p changes it. */
		for (j = 0; j < rep->ranked_nr; j++)
			codes += !strcmp(rep->ranked[j].display_name, g->first->display_name);
		if (codes < g->count)
			codes = g->count;
		for (j = 0; j < WHERE; j++)
			where[j][0] = '\0';
		/* With one run there is nothing to say where each came from. */
		for (j = 0; rep->runs_nr > 1 && j < WHERE && j < g->count; j++)
			runs_of(rep, by[g->at + j], where[j], sizeof(where[j]));
		ret = report_notes__add(rep, REPORT_NOTE_SELECTION,
				   "'%s' names %zu different codes%s%s%s%s%s%s: each is ranked on its own",
				   g->first->display_name, codes, rep->runs_nr > 1 ? " (from the runs" : "",
				   where[0] + (rep->runs_nr > 1 ? 1 : 0), where[1], where[2],
				   rep->runs_nr > 1 && g->count > WHERE ? ", ..." : "",
				   rep->runs_nr > 1 ? ")" : "");
	}
	if (!ret && groups_nr > TELL)
		ret = report_notes__add(rep, REPORT_NOTE_SELECTION, "... and %zu more names of several"
				   " different codes", groups_nr - TELL);
out:
	free(by);
	free(groups);
	return ret;
}

struct summary_ctx {
	struct report *rep;
	int ret;
};

static void summary_note(void *arg, const char *line)
{
	struct summary_ctx *c = arg;

	if (!c->ret)
		c->ret = report_notes__add(c->rep, REPORT_NOTE_ANNOTATION, "%s", line);
}

int report_notes__annotation(struct report *rep, const struct annotator *annot)
{
	struct summary_ctx c = { rep, 0 };

	annotator__summary(annot, summary_note, &c);
	return c.ret;
}

int report_notes__targets(struct report *rep, const struct targets *t)
{
	struct summary_ctx c = { rep, 0 };

	targets__summary(t, summary_note, &c);
	return c.ret;
}
