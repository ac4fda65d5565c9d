/* SPDX-License-Identifier: MIT */
/* The stream section of a session, assembled from what it counted and read, for
 * stream_writer__write (STREAM.md). */
#ifndef PLUGIN_STREAM_SECTION_H
#define PLUGIN_STREAM_SECTION_H

#include <stddef.h>

#include "../sample/tally.h"
#include "../sample/session.h"
#include "stream-writer.h"

/* Names this plugin in the stream's `producer` record. */
#define HB_PRODUCER "hotblocks.so/1"

struct stream_section {
	struct stream_writer_header header;
	struct stream_writer_object *objs;	/* one per distinct object id counted */
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
};

/* Assemble s from session, which must outlive s (s borrows its strings and
 * code). 0 or -ENOMEM; release s either way. */
int stream_section__assemble(struct stream_section *s, const struct session *session);
void stream_section__release(struct stream_section *s);

#endif
