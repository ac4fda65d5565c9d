// SPDX-License-Identifier: MIT
/* What the plugin could not place, explained (see explain.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "../lib/message.h"
#include "explain.h"

/* At most max bytes of name to *out, not cutting a UTF-8 character, control
 * bytes as \xNN (names come from the profiled program); "..." when cut. */
static void put_name(char **out, const char *end, const char *name, size_t max)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t n = 0;

	while (s[n] && n < max)
		n++;
	/* Not inside a character: back to its first byte. */
	if (s[n])
		while (n && (s[n] & 0xc0) == 0x80)
			n--;
	for (size_t i = 0; i < n && *out + 5 < end; i++)
		*out += s[i] < 0x20 || s[i] == 0x7f ? sprintf(*out, "\\x%02x", s[i]) : sprintf(*out, "%c", s[i]);
	if (s[n] && *out + 4 < end)
		*out += sprintf(*out, "...");
}

static int by_samples(const void *a, const void *b)
{
	const struct ambiguous_set *x = a, *y = b;

	return x->samples != y->samples ? (x->samples < y->samples ? 1 : -1) : 0;
}

/* Name the loads ambiguous samples could have been, the most sampled sets first. */
static void explain_ambiguous(const struct account *a, const struct dumps *dumps, uint64_t ambiguous,
			      struct warnings *w)
{
	enum { SETS = 3, NAME = 40 };
	char text[768], *out = text, *end = text + sizeof(text);
	struct ambiguous_set sets[MAX_AMBIGUOUS_SETS];

	memcpy(sets, a->ambiguous, a->ambiguous_nr * sizeof(sets[0]));
	qsort(sets, a->ambiguous_nr, sizeof(sets[0]), by_samples);
	text[0] = '\0';
	for (size_t i = 0; i < a->ambiguous_nr && i < SETS; i++) {
		const struct ambiguous_set *s = &sets[i];
		size_t named = s->nr < AMBIGUOUS_NAMED ? s->nr : AMBIGUOUS_NAMED;

		out += snprintf(out, (size_t)(end - out), "%s", i ? "; " : "");
		for (size_t k = 0; k < named && out + 8 < end; k++) {
			const struct jitdump_load *l = dumps__load(dumps, s->ids[k], NULL);

			out += snprintf(out, (size_t)(end - out), "%s", k ? " or " : "");
			put_name(&out, end - 32, l && l->name ? l->name : "?", NAME);
		}
		if (out + 40 < end)
			out += snprintf(out, (size_t)(end - out), "%s (pid %" PRIu32 ", %" PRIu64 ")",
					s->nr > named ? " or others" : "", s->pid, s->samples);
	}
	if (a->ambiguous_nr > SETS && out + 24 < end)
		snprintf(out, (size_t)(end - out), "; and other loads");
	warnings__add(w, "%" PRIu64 " JIT sample%s hit addresses that several code loads covered, with no time to tell"
		      " which ran (counted as unattributed.ambiguous): %s", ambiguous, ambiguous == 1 ? "" : "s", text);
}

void explain__unresolved(const struct account *a, const struct dumps *dumps, const char *perf_data, bool live,
			 struct warnings *w)
{
	uint64_t no_load = account__total(a, HB_CLASS_JIT_NO_LOAD), before = account__total(a, HB_CLASS_BEFORE_LOAD);
	uint64_t jit = account__total(a, HB_CLASS_JIT), ambiguous = account__total(a, HB_CLASS_AMBIGUOUS);

	if (ambiguous)
		explain_ambiguous(a, dumps, ambiguous, w);
	/* A few strays (a stub perf did not see either) are worth a line; so
	 * are more beside the more the dumps placed (V8's wasm jump table); a
	 * missing or unreadable jitdump (>= 1% unresolved, and no more placed)
	 * is worth the full hint. */
	if (no_load && no_load * 100 < jit) {
		warnings__note(w, "%" PRIu64 " sample%s in JIT-looking memory matched no jitdump code load"
			       " (%zu jitdump%s read: code its JIT did not log, e.g. a stub or V8's wasm"
			       " jump table; counted as unattributed.jit-no-load)",
			       no_load, no_load == 1 ? "" : "s", dumps->nr, dumps->nr == 1 ? "" : "s");
	} else if (no_load && dumps->nr && no_load < jit) {
		/* The dumps placed most JIT samples: they were written and found, and
		 * the rest is code the JIT does not log, such as V8's wasm jump table
		 * (the one its wasm calls go through; the post-processor names its
		 * slots in calls). Advice to enable the jitdump would be wrong. */
		warnings__note(w, "%" PRIu64 " sample%s in JIT-looking memory matched no jitdump code load, beside the"
			       " %" PRIu64 " the %zu jitdump%s read placed: code its JIT did not log"
			       " (V8's wasm jump table, which its wasm calls go through, or a stub; counted as"
			       " unattributed.jit-no-load)",
			       no_load, no_load == 1 ? "" : "s", jit, dumps->nr, dumps->nr == 1 ? "" : "s");
	} else if (no_load) {
		message__say(
			"hotblocks: warning: %" PRIu64 " sample%s in JIT-looking memory matched no jitdump code load.\n"
			"  perf.data scanned for jitdump markers: %s\n"
			"  jitdumps read: %zu; searched:\n%s"
			"  fix: run the JIT with its jitdump enabled (node --perf-prof, wasmtime --profile=jitdump),\n"
			"  keep jit-<pid>.dump next to perf.data, or pass --dlarg jitdump=FILE / --dlarg jitdir=DIR\n",
			no_load, no_load == 1 ? "" : "s", live ? "(none: pipe input)" : perf_data,
			dumps->nr, dumps->searched_len ? dumps->searched : "  (nothing)\n");
	}
	if (before)
		warnings__add(w, "%" PRIu64 " sample%s hit JIT code before its load record's time"
			      " (counted as unattributed.before-load)", before, before == 1 ? "" : "s");
}

/* The files with samples no symbol or FDE covers (the report's notes name
 * the files whose functions only FDEs named). */
struct no_symbols {
	struct warnings *w;
	uint64_t all;		/* the run's samples */
	bool elsewhere;		/* recorded under another kernel than this one's */
	char few[512];		/* the files of few samples: "PATH N (WHY); ..." */
	size_t few_len;
	uint64_t few_samples;
	size_t few_files;
};

/*
 * Where a file's share is worth a warning (1% of the run's samples, as for
 * stray JIT samples), say so and why; a few samples go into one note. A
 * recording made under another kernel (another machine, or boot) was read
 * elsewhere: its files missing here or of another build ([vdso] is always
 * the other kernel's) are what that leads to, not a fault, and they are
 * that machine's, not this one's: named by their base names, in the note up
 * to a tenth of the samples (a report missing more is one to fix).
 */
static void warn_no_symbols(void *arg, const char *path, const char *why, bool not_here,
			    const struct resolve_file_stats *st)
{
	struct no_symbols *ns = arg;
	bool theirs = ns->elsewhere && not_here;
	const char *base = strrchr(path, '/');

	if (!st->no_symbol)
		return;
	if (st->no_symbol * (theirs ? 10 : 100) >= ns->all) {
		warnings__add(ns->w, "%s: %" PRIu64 " sample%s in code no symbol or .eh_frame entry covers (%s;"
			      " counted as unattributed.no-symbol)", path, st->no_symbol, st->no_symbol == 1 ? "" : "s", why);
		return;
	}
	if (theirs)
		why = !strcmp(path, "[vdso]") ? "its kernel's" : !strncmp(why, "not found", 9) ? "not here" :
											      "another build here";
	ns->few_samples += st->no_symbol;
	if (ns->few_files++ < 3 && ns->few_len < sizeof(ns->few))
		ns->few_len += (size_t)snprintf(ns->few + ns->few_len, sizeof(ns->few) - ns->few_len, "%s%s %" PRIu64
						" (%s)", ns->few_len ? "; " : "", theirs && base ? base + 1 : path,
						st->no_symbol, why);
}

/* One note per file read from elsewhere than its recorded path, or refused there. */
static void note_elsewhere(void *arg, const char *path, const char *found, bool refused)
{
	if (refused)
		warnings__note(arg, "%s: not at its recorded path; %s has its name but not its build-id: not used",
			       path, found);
	else
		warnings__note(arg, "%s: not at its recorded path; read from %s", path, found);
}

void explain__natives(const struct resolve *r, const struct account *a, const char *recorded_release, bool stats,
		      struct warnings *w)
{
	struct utsname here;
	if (stats)
		fprintf(stderr, "hotblocks: stats: %zu files mapped, %zu indexed, %zu symbols read, %zu KiB of symbol "
			"index; %zu perf maps read; %" PRIu64 " samples left to perf\n", r->maps.files_nr,
			r->files_indexed, r->symbols_indexed, resolve__memory(r) / 1024, r->pmaps_nr, r->deferred);
	if (r->deferred)
		warnings__add(w, "%" PRIu64 " sample%s resolved by perf's own symbol lookup%s%s", r->deferred,
			      r->deferred == 1 ? "" : "s", r->usable ? "" : ": ",
			      r->usable ? " (guest or unknown cpumode)" : r->why_not);
	struct no_symbols ns = { .w = w, .all = account__total(a, HB_CLASS_ALL) };

	ns.elsewhere = recorded_release && recorded_release[0] && !uname(&here) && strcmp(here.release, recorded_release);

	resolve__files_elsewhere(r, note_elsewhere, w);
	resolve__files_without_symbols(r, warn_no_symbols, &ns);
	/* Said with its class, which the report then does not count again. */
	if (ns.few_samples && ns.elsewhere)
		warnings__note(w, "recorded under kernel %s, not this one: %" PRIu64 " sample%s in code no symbol or"
			       " .eh_frame entry covers: %s%s; counted as unattributed.no-symbol", recorded_release,
			       ns.few_samples, ns.few_samples == 1 ? "" : "s", ns.few, ns.few_files > 3 ? "; and others" : "");
	else if (ns.few_samples)
		warnings__note(w, "%" PRIu64 " sample%s in code no symbol or .eh_frame entry covers: %s%s;"
			       " counted as unattributed.no-symbol", ns.few_samples, ns.few_samples == 1 ? "" : "s",
			       ns.few, ns.few_files > 3 ? "; and others" : "");
}
