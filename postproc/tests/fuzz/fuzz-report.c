// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: a whole report. The input is read as an annotated stream,
 * merged, ranked and rendered as text (with --source-lines), and as JSON,
 * the HTML page (its graphs laid out by Graphviz) and dot (--all), with
 * every annotation column: the wasmtime-format recording's
 * module.cwasm, its CLIF directory and hot.wasm (test-data/wasmtime), found
 * from the target's own path (build-fuzz/fuzz-report), so objects named like
 * its functions get [CLIF], [Wasm] and [Source] cells. The seeds are streams
 * of real recordings.
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "analysis/rank.h"
#include "render/render.h"
#include "report/report-build.h"
#include "stream/stream.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__lsan_default_suppressions(void);

/*
 * Graphviz 2.42's dot engine loses the virtual edges it makes when it
 * reverses an edge to break a cycle (acyclic -> new_virtual_edge, seen
 * under valgrind with full stacks): gvFreeLayout frees none of them. The
 * sanitizer's fast unwinding stops in Graphviz's allocator (the library has
 * no frame pointers), so what is left out is what Graphviz allocates itself
 * through gmalloc; our graphs are allocated by libcgraph and by us, and
 * their leaks still fail the run.
 */
const char *__lsan_default_suppressions(void)
{
	return "leak:gmalloc\n";
}

static char cwasm[PATH_MAX], clif[PATH_MAX], wasm[PATH_MAX];
static FILE *null_out;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char self[PATH_MAX];
	char *slash;

	/* build-fuzz/fuzz-report -> the checkout's top directory. */
	if (!realpath((*argv)[0], self) || !(slash = strrchr(self, '/')))
		return 0;
	*slash = '\0';
	if ((slash = strrchr(self, '/')))
		*slash = '\0';
	snprintf(cwasm, sizeof(cwasm), "%s/test-data/wasmtime/module.cwasm", self);
	snprintf(clif, sizeof(clif), "%s/test-data/wasmtime/clif", self);
	snprintf(wasm, sizeof(wasm), "%s/test-data/wasmtime/hot.wasm", self);
	null_out = fopen("/dev/null", "w");
	return 0;
}

static void report(struct stream *s, struct annotator *annot, bool json)
{
	struct rank_opts o = { .percent = 80.0, .top = SIZE_MAX, .no_threshold = json };
	struct report_opts repo = { .list_selected = json, .whole_functions = json,
				    .source_lines = !json };
	struct render_opts ro = { .color = !json };
	struct report rep = { 0 };
	struct rank r;

	if (!rank__build(&r, s, 0, &o) && !report__build(&rep, &r, &o, annot, &repo)) {
		(json ? render_json : render_text)(null_out, &rep, &ro);
		if (json) {
			render_html(null_out, &rep, &ro);
			render_dot(null_out, &rep, &ro);
		}
	}
	report__release(&rep);
	rank__release(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size, "r");
	struct annot_inputs in = { .cwasm = cwasm, .clif_dir = clif, .wasm = wasm };
	struct annotator *annot = NULL;
	struct stream s;
	char err[1024];

	if (!f || !null_out)
		return 0;
	stream__init(&s);
	if (!stream__read(&s, f, "fuzz.hbs", err, sizeof(err)) && !stream__finish(&s) && s.events_nr &&
	    !annotator__open(&annot, &in, err, sizeof(err))) {
		if (!annotator__bind(annot, &s))
			report(&s, annot, false);
		annotator__close(annot);
		/* A fresh annotator: its cache belongs to one report. */
		if (!annotator__open(&annot, &in, err, sizeof(err))) {
			if (!annotator__bind(annot, &s))
				report(&s, annot, true);
			annotator__close(annot);
		}
	}
	stream__release(&s);
	fclose(f);
	return 0;
}
