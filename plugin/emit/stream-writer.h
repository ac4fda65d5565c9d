/* SPDX-License-Identifier: MIT */
/* Writes one section of the annotated stream (plugin/STREAM.md). */
#ifndef PLUGIN_STREAM_WRITER_H
#define PLUGIN_STREAM_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../sample/branches.h"
#include "../sample/callchains.h"
#include "../sample/tally.h"
#include "../jit/jitdump.h"
#include "../lib/stream-format.h"

/* A code object to describe. All pointers are borrowed for the call. */
struct stream_writer_object {
	enum hb_object_kind kind;
	uint32_t id;		/* the caller's id, as used in the count entries */
	uint32_t pid;
	uint16_t e_machine;
	uint64_t addr, size;
	const char *name;
	const uint8_t *code;
	size_t code_len;
	/* Non-NULL: code[0, code_len) are the bytes of this file at
	 * code_file_off, whose CRC-64 is code_crc: written as `code-file`,
	 * not as `code` lines (STREAM.md). */
	const char *code_file;
	uint64_t code_file_off, code_crc;
	/* jit */
	uint64_t code_index, load_time;
	const char *dump;
	const struct jitdump_debug_entry *debug;
	size_t debug_nr;
	/* native, cwasm */
	const char *dso;
	uint64_t sym_start;
	const char *source;	/* how the function was found (STREAM.md `object`); NULL: not said */
};

struct stream_writer_jitdump {
	const char *path;
	uint32_t pid;
	size_t loads;
	const char *status;	/* one word: ok, truncated, corrupt */
};

/* A code load of a sampled process (STREAM.md `load`). */
struct stream_writer_load {
	uint32_t pid;
	uint64_t addr, size, load_time;
	const char *name;
};

/* An executable file mapping of a sampled process (STREAM.md `map`). */
struct stream_writer_map {
	uint32_t pid;
	uint64_t addr, size, pgoff, time;
	const char *path;
	const uint8_t *build_id;	/* the recording's, build_id_size bytes (0: none) */
	size_t build_id_size;
	const char *found;		/* the file read instead of path (--symfs, a search
					 * directory); NULL: path, or not read */
};

struct stream_writer_header {
	const char *producer;
	const char *input;
	bool time_aware;
	const char *const *events;
	size_t events_nr;
	const uint64_t (*totals)[HB_CLASS__NR][2]; /* [event][class] = {samples, period} */
	const struct stream_writer_jitdump *jitdumps;
	size_t jitdumps_nr;
	const char *const *warnings;
	size_t warnings_nr;
	/* after the samples, in this order (the caller's) */
	const struct stream_writer_load *loads;
	size_t loads_nr;
	const struct stream_writer_map *maps;
	size_t maps_nr;
	/* Branch stacks (STREAM.md `branch-total`, `branch`, `range`): NULL
	 * totals when no sample had one, and nothing is written. The counts
	 * name the caller's ids, as the sample counts do, in any order. */
	const uint64_t (*branch_totals)[HB_CLASS__NR][2];	/* [event][class] = {entries, ranges} */
	const struct branch_count *branches;
	size_t branches_nr;
	/* Callchain stacks (STREAM.md `stack`): none when no sample had a callchain. */
	const struct callchains *callchains;
};

/*
 * Write a complete section: header records, the objects (sorted here into the
 * deterministic order STREAM.md defines, and renumbered 0..), their code and
 * debug entries, then the samples. counts must be sorted by (obj, ev, off) and
 * only name ids present in objs. objs is reordered. Returns 0 or -EIO / -ENOMEM.
 */
int stream_writer__write(FILE *f, const struct stream_writer_header *h,
			 struct stream_writer_object *objs, size_t nr,
			 const struct tally_entry *counts, size_t counts_nr);

/* Write s with the stream's string escaping (bytes <= 0x20, >= 0x7f and '%'
 * as %XX) in at most HB_STREAM_STRING_MAX bytes. Returns 0, or when s did
 * not fit, s's full length in bytes: it was cut and marked (stream-format.h),
 * and the caller writes that length as <field>-length= on the line. */
size_t stream_writer__put_string(FILE *f, const char *s);

#endif
