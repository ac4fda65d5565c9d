/* SPDX-License-Identifier: MIT */
/* The stream section of a run, assembled from what it counted and read, for
 * stream_writer__write (STREAM.md). */
#ifndef PLUGIN_EMIT_STREAM_SECTION_H
#define PLUGIN_EMIT_STREAM_SECTION_H

#include <stddef.h>

#include "../jit/dumps.h"
#include "../lib/warnings.h"
#include "../native/mmaps.h"
#include "../native/natives.h"
#include "../sample/account.h"
#include "../sample/branches.h"
#include "../sample/callchains.h"
#include "../sample/events.h"
#include "code-refs.h"
#include "stream-writer.h"

/* What a run's section is made of; all borrowed. */
struct stream_section_inputs {
	const struct account *account;	/* the counts and the class totals */
	const struct branches *branches;	/* branch-stack counts; NULL: none */
	const struct callchains *callchains;	/* callchain stacks; NULL: none */
	const struct events *events;
	const struct dumps *dumps;	/* the JIT objects (code map ids) and the dumps' status */
	const struct natives *natives;	/* the native objects (ids with NATIVE_ID_BIT) */
	const struct mmaps *maps;	/* the recording's mappings; NULL when not read */
	const struct warnings *warnings;
	const char *perf_data;		/* the recording perf read, "-" for a pipe */
	/* --dlarg code-refs: JIT code a mapped file holds is named (code-refs.h),
	 * the file looked for in places */
	bool code_refs;
	struct code_refs_places places;
};

/* Names this plugin in the stream's `producer` record. */
#define HB_PRODUCER "hotblocks.so/1"

struct stream_section {
	struct stream_writer_header header;
	struct stream_writer_object *objs;	/* one per distinct object id counted (samples, branch ends) */
	size_t objs_nr;
	struct tally_entry *counts;		/* sorted by (object, event, offset) */
	size_t counts_nr;
	struct stream_writer_jitdump *jitdumps;
	const char *events[MAX_EVENTS];
	/* The code loads and executable file mappings of the processes with
	 * objects, for naming branch and call targets (STREAM.md `load`, `map`). */
	struct stream_writer_load *loads;
	size_t loads_nr;
	struct stream_writer_map *maps;
	size_t maps_nr;
	struct code_refs refs;			/* owns the objects' code_file paths */
};

/* Assemble s from in, whose parts must outlive s (s borrows their strings
 * and code). 0 or -ENOMEM; release s either way. */
int stream_section__assemble(struct stream_section *s, const struct stream_section_inputs *in);
void stream_section__release(struct stream_section *s);

#endif
