/* SPDX-License-Identifier: MIT */
/* Reader of the annotated stream (plugin/STREAM.md): every section of every input merged. */
#ifndef POSTPROC_STREAM_H
#define POSTPROC_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The one plugin header the post-processor shares: the stream's constants. */
#include "../../plugin/lib/stream-format.h"
#include "lib/util.h"
#include "lib/code-data.h"
#include "lib/strbuf.h"

/* Distinct plugin warnings kept (the plugin itself writes at most 64 a section). */
#define STREAM_WARNINGS_MAX 256
/* Lines longer than HB_STREAM_LINE_MAX whose record was lost, told one by one. */
#define STREAM_LOST_MAX 64

/* One event, merged by name over all sections. */
struct stream_event {
	char *name;				/* owned */
	uint64_t samples[HB_CLASS__NR];		/* `total` records summed, by enum hb_sample_class */
	uint64_t period[HB_CLASS__NR];
	/* After stream__keep_kinds: samples as the input gave them; samples
	 * and period then hold those of the kinds kept. */
	uint64_t collected[HB_CLASS__NR];
};

/* One event's `branch-total` records summed, by class: branch-stack entries
 * (taken branches) and fall-through ranges (STREAM.md). */
struct stream_branch_totals {
	uint64_t entries[HB_CLASS__NR];
	uint64_t ranges[HB_CLASS__NR];
};

/* The branch-stack counts of a `branch` or `range` record (STREAM.md), summed
 * over all sections by (kind, ends, event, flags). */
enum stream_branch_kind {
	STREAM_BRANCH_TAKEN,	/* a taken branch, from -> to */
	STREAM_BRANCH_RANGE,	/* a fall-through range, from (start) .. to (end) */
};

/* The flags of a taken branch (STREAM.md `branch`: M, P, X, A). */
enum stream_branch_flag {
	STREAM_BRANCH_MISPRED = 1u << 0,
	STREAM_BRANCH_PREDICTED = 1u << 1,
	STREAM_BRANCH_IN_TX = 1u << 2,
	STREAM_BRANCH_ABORT = 1u << 3,
};

struct stream_branch {
	uint32_t from_obj, to_obj;	/* indexes in stream.objects (after stream__finish:
					 * the objects they were folded into) */
	uint64_t from_off, to_off;	/* from the objects' addr, in bytes */
	uint32_t ev;			/* index in stream.events */
	uint8_t kind;			/* enum stream_branch_kind */
	uint8_t flags;			/* enum stream_branch_flag; 0 for a range */
	uint64_t count;
	uint64_t cycles_nr, cycles_sum;	/* entries with a cycle count, their sum (STREAM.md) */
};

/* One frame of a callchain stack (STREAM.md `stack`): an object and the
 * offset in it (a caller's: its return address), or, obj
 * STREAM_FRAME_CLASS, a class (off: the enum hb_sample_class; HB_CLASS__NR
 * for a class this reader does not know or an object it skipped). */
struct stream_frame {
	uint32_t obj;		/* index in stream.objects (after stream__finish: folded) */
	uint64_t off;
};

#define STREAM_FRAME_CLASS UINT32_MAX

/* A `stack` record: frames[first .. first + frames_nr) of stream.frames, leaf first. */
struct stream_stack {
	uint32_t ev;		/* index in stream.events */
	uint32_t frames_nr;
	size_t first;
	uint64_t samples, period;
};

/* The samples of one (object, event, offset), summed over all sections. */
struct stream_sample {
	uint32_t obj;		/* index in stream.objects */
	uint32_t ev;		/* index in stream.events */
	uint64_t off;		/* from the object's addr, in bytes */
	uint64_t samples;
	uint64_t period;
};

/* Samples of one object, event and run (stream_object.tally). */
struct stream_tally {
	uint32_t run;		/* index in stream.runs */
	uint32_t ev;		/* index in stream.events */
	uint64_t samples;
};

/* A run's samples of one event in one `total` class other than `all`. */
struct stream_class_total {
	uint32_t ev;		/* index in stream.events */
	uint32_t cls;		/* enum hb_sample_class */
	uint64_t samples;
};

/* One section of the input: one run of the plugin (perf script). */
struct stream_run {
	const char *origin;	/* the fname given to stream__read (borrowed) */
	unsigned long line;	/* where the section starts there */
	char *input;		/* owned: its `input` record (the perf.data read), or NULL */
	char **jitdumps;	/* owned: the paths of its `jitdump` records */
	size_t jitdumps_nr, jitdumps_alloc;
	/* owned: its `total <ev> all` records, summed by event, in record order */
	struct stream_tally *totals;
	size_t totals_nr, totals_alloc;
	/* owned: its other `total` records, in record order (what --kind keeps of a run) */
	struct stream_class_total *classes;
	size_t classes_nr, classes_alloc;
};

/* One jitdump DEBUG_INFO entry of a code object (STREAM.md `debug`). */
struct stream_debug {
	uint64_t addr;		/* code address as the JIT wrote it (absolute) */
	uint32_t line, discrim;
	char *file;		/* owned, decoded; "\xff" = same file as the previous entry */
};

/* One code object, merged over sections by its identity (STREAM.md `object`). */
struct stream_object {
	enum hb_object_kind kind;
	uint32_t pid;
	uint32_t e_machine;	/* ELF machine of the code */
	uint64_t addr;		/* run-time address of the first code byte */
	uint64_t size;		/* bytes, as the writer gave it */
	uint64_t code_index;	/* jit only */
	uint64_t load_time;	/* jit only, CLOCK_MONOTONIC ns */
	uint64_t sym_start;	/* native and cwasm only */
	char *name;		/* owned */
	char *path;		/* owned: jit `dump`, native/cwasm `dso` */
	/* The full lengths in bytes of a name and path the writer shortened
	 * (`name-length=`, `dump-length=` / `dso-length=`), else 0. */
	uint64_t name_length, path_length;
	/* native/cwasm: how the plugin found the function (STREAM.md `source=`):
	 * "symtab", "eh-frame", "perf-map", ...; "" when the writer did not say */
	char source[16];
	uint8_t *code;		/* owned: code[0..code_nr) are the known code bytes */
	size_t code_nr, code_alloc;
	/* A `code-file` record's (STREAM.md): code[0..code_file_len) are the
	 * bytes of code_file at code_file_off, their CRC-64 code_crc, read
	 * by stream__finish (owned; NULL: none). */
	char *code_file;
	uint64_t code_file_off, code_file_len, code_crc;
	/* owned: DEBUG_INFO entries in record order, from the first section that had them */
	struct stream_debug *debug;
	size_t debug_nr, debug_alloc;
	/* After stream__finish (stream-join.c): a DEBUG_INFO entry before addr
	 * applies from offset 0 (BEAM's clause heads); the bytes of a load joined
	 * in front of this one's (BEAM's prologue: addr is its), else 0; the data
	 * among the code (owned, data_nr rows, by offset). */
	bool debug_from_start;
	uint64_t joined_bytes;
	char *joined_name;	/* owned: that load's name (a perf map's lone
				 * prologue: its own, the object named as its body) */
	struct code_data *data;
	size_t data_nr;
	/* After stream__finish: moved_into is the object this one's samples were
	 * folded into (a CODE_MOVE copy of the same code), else UINT32_MAX; moves
	 * counts the copies folded into this one. */
	uint32_t moved_into;
	uint32_t moves;
	/* After stream__finish: folded_into is the object this one's samples were
	 * folded into (the same code under the same name, stream-fold.c), else
	 * UINT32_MAX; folds counts the objects folded into this one. */
	uint32_t folded_into;
	uint32_t folds;
	/* owned: its samples by run and event; after stream__finish, sorted by
	 * (ev, run), one entry each, those of the objects folded into it included. */
	struct stream_tally *tally;
	size_t tally_nr, tally_alloc;
	/* After stream__finish: this object's samples, sorted by (ev, off); borrowed from stream. */
	struct stream_sample *samples;
	size_t samples_nr;
	/* Where the object was first defined: the fname given to stream__read
	 * (borrowed, must outlive the stream) and its line there. */
	const char *origin;
	unsigned long origin_line;
};

/*
 * A line longer than HB_STREAM_LINE_MAX: its record alone is lost (STREAM.md
 * "Lines"); when it defined an object or an event, the lines of its section
 * that refer to that id are skipped and counted here.
 */
struct stream_lost {
	const char *origin;	/* the fname given to stream__read (borrowed) */
	unsigned long line;
	uint64_t bytes;		/* the line's length, its newline not counted */
	char kind[24];		/* its record kind (first word, cut) */
	bool has_id;
	uint64_t id;		/* `object` / `event`: the section-local id it defined */
	uint64_t lines;		/* lines that referred to it, skipped */
	uint64_t samples;	/* samples on the skipped `sample` lines */
};

/*
 * A code load of a sampled process (STREAM.md `load`): code a branch or a
 * call may land in, sampled or not; what names a target in a JIT's code.
 */
struct stream_load {
	uint32_t pid;
	uint64_t addr;		/* run-time address of its first byte */
	uint64_t size;
	uint64_t load_time;	/* CLOCK_MONOTONIC ns, as in `object` */
	char *name;		/* owned, decoded */
};

/* An executable file mapping of a sampled process (STREAM.md `map`). */
struct stream_map {
	uint32_t pid;
	uint64_t addr;		/* run-time address of its first byte */
	uint64_t size;
	uint64_t pgoff;		/* the file offset mapped at addr */
	uint64_t time;		/* when it was mapped, perf's clock (0: before the recording) */
	char *path;		/* owned, decoded */
	uint8_t build_id[20];	/* the recording's, build_id_size bytes (0: none given) */
	uint8_t build_id_size;
};

/* A `warning` line of the plugin's, kept for the report (once per distinct text). */
struct stream_warning {
	char *text;		/* owned, decoded */
	const char *origin;	/* the fname given to stream__read (borrowed) */
};

struct stream {
	struct stream_object *objects;	/* first-appearance order over all sections */
	size_t objects_nr, objects_alloc;
	struct stream_event *events;	/* first-appearance order */
	size_t events_nr, events_alloc;
	struct stream_sample *samples;	/* after stream__finish: sorted by (obj, ev, off) */
	size_t samples_nr, samples_alloc;
	uint64_t sections;		/* complete sections read */
	struct stream_run *runs;	/* every section begun, in input order */
	size_t runs_nr, runs_alloc;
	uint64_t skipped_kinds;		/* lines of a record kind this reader does not know */
	uint64_t skipped_classes;	/* `total` lines of an unknown sample class */
	uint64_t skipped_objects;	/* `object` lines of an unknown object kind */
	uint64_t skipped_object_lines;	/* code/debug/sample lines of those objects */
	/* The plugin's diagnostics (`warning` records), distinct texts in order,
	 * at most STREAM_WARNINGS_MAX; warnings_dropped counts the rest. */
	struct stream_warning *warnings;
	size_t warnings_nr, warnings_alloc;
	uint64_t warnings_dropped;
	/* Records lost to lines over HB_STREAM_LINE_MAX: the first STREAM_LOST_MAX
	 * in input order; lost_nr + lost_dropped are all of them, lost_lines and
	 * lost_samples what all of them took with them. */
	struct stream_lost *lost;
	size_t lost_nr, lost_alloc;
	uint64_t lost_dropped, lost_lines, lost_samples;
	/* The code loads and file mappings of the sampled processes, in input
	 * order over all sections (STREAM.md `load`, `map`). */
	struct stream_load *loads;
	size_t loads_nr, loads_alloc;
	struct stream_map *maps;
	size_t maps_nr, maps_alloc;
	/* maps_found[i]: the file the plugin read instead of maps[i].path
	 * (map's found=: --symfs, a search directory; owned, NULL: none said),
	 * maps_found_nr of them; NULL when no map said one, so that a stream
	 * without them allocates what it did before they were read. */
	char **maps_found;
	size_t maps_found_nr, maps_found_alloc;
	/* The kinds stream__keep_kinds kept (STREAM_KIND_*), 0: every sample */
	unsigned kinds;
	/* The branch-stack counts (STREAM.md `branch`, `range`); after
	 * stream__finish sorted by (kind, from_obj, from_off, to_obj, to_off,
	 * ev, flags), one each. has_branches: a `branch-total` was read;
	 * branch_totals[ev] its event's (branch_totals_nr of them: events
	 * after those have none). Apart from the events, so that a stream
	 * without branch stacks allocates what it did before they were read. */
	struct stream_branch *branches;
	size_t branches_nr, branches_alloc;
	bool has_branches;
	struct stream_branch_totals *branch_totals;
	size_t branch_totals_nr;
	/* The callchain stacks (STREAM.md `stack`), in input order, and their
	 * frames; none when the recording has no callchains. */
	struct stream_stack *stacks;
	size_t stacks_nr, stacks_alloc;
	struct stream_frame *frames;
	size_t frames_nr, frames_alloc;
	/* Other copies of the files `code-file` records name, tried where the
	 * named file is gone or changed (the report's --cwasm): borrowed, set
	 * before stream__finish. */
	const char *const *code_files_also;
	size_t code_files_also_nr;
	uint64_t code_files_read;	/* objects whose code stream__finish read from a file */
	/* Objects whose file it could not read, one text each (owned; the first
	 * STREAM_WARNINGS_MAX, code_file_problems_dropped the rest). */
	char **code_file_problems;
	size_t code_file_problems_nr, code_file_problems_alloc;
	uint64_t code_file_problems_dropped;
	/* private */
	struct idx_table obj_tab;
	size_t samples_merged;		/* samples_nr after the last merge of equal keys */
	bool finished;
};

/* Set up an empty stream. */
void stream__init(struct stream *s);

/*
 * Read every section of f (named fname in messages) and merge it into s.
 * An object that another section defined with the same identity must agree
 * on everything else (pid, e_machine, size and name for jit objects;
 * e_machine, size and kind for native and cwasm ones, whose pid and address
 * change from run to run): a disagreement is an error naming both places,
 * never resolved by a guess.
 * A line longer than HB_STREAM_LINE_MAX loses its record alone (s->lost).
 * Returns 0, or on bad input -EINVAL with "FNAME:LINE: message" in err
 * (-EIO for a read error, -ENOMEM); s must then only be released.
 * Not valid after stream__finish.
 */
int stream__read(struct stream *s, FILE *f, const char *fname, char *err, size_t errlen);

/*
 * The len code bytes a `code-file` record names (STREAM.md) into *out
 * (malloc()ed; nothing is allocated past what a file holds): those of path
 * at off, else of the first of also[0..also_nr) that has them, their CRC-64
 * (lzma_crc64) crc. 0, or -ENOENT with why the bytes are not to be had
 * ("FILE: ...", naming the file and offset), -ENOMEM.
 */
int stream__code_file_read(const char *path, uint64_t off, uint64_t len, uint64_t crc, const char *const *also,
			   size_t also_nr, uint8_t **out, char *why, size_t whylen);

/*
 * buf[0..len), a stream (named name in messages), with each `code-file`
 * line written out as the `code` lines it stands for (HB_STREAM_CODE_CHUNK
 * bytes a line, as the plugin writes them), into out: what an archive keeps
 * (postproc/FORMATS.md, "The archive"). Returns 1 when it had such lines, 0
 * when not (out untouched), -ENOENT with "NAME:LINE: ..." in err when a
 * file has not the bytes (stream__code_file_read), -ENOMEM.
 */
int stream__expand_code_files(const char *buf, size_t len, struct strbuf *out, const char *const *also,
			      size_t also_nr, const char *name, char *err, size_t errlen);

/* Done reading: read the code `code-file` records name (one that cannot be
 * had is a warning of the stream's: its object has no code), fold copies of one code (CODE_MOVE, and the same code under
 * the same name, stream-fold.c), sort the samples and point each object at
 * its own. Returns 0, -ENOMEM, or -ERANGE when one offset's samples over all
 * sections overflow 64 bits. */
int stream__finish(struct stream *s);

/* Index of the event called name, or -1. */
long stream__find_event(const struct stream *s, const char *name);

/* Free everything s owns. */
void stream__release(struct stream *s);

/*
 * For the reader's parts (stream-read.c, stream-fold.c): sort s->samples and
 * sum those of one (object, event, offset); returns 0, or -ERANGE when a sum
 * does not fit 64 bits (overflow sets nothing); saturate: sums stick at
 * UINT64_MAX instead (after folding moved code).
 */
int stream__merge_samples(struct stream *s, bool saturate);

/*
 * Add samples to a tally kept sorted by (ev, run) as it grows (in record
 * order): the last entry when it is of the same run and event, else a new
 * one. Saturates. Returns 0 or -ENOMEM.
 */
int stream__tally_add(struct stream_tally **v, size_t *nr, size_t *alloc, uint32_t run,
		      uint32_t ev, uint64_t samples);

/*
 * What code a sample is in, as --kind names it (stream-kinds.c): jit (a
 * jitdump's code load, a perf map's function, wasmtime's .cwasm code: what
 * the report's W counts), native (any other file's function) or kernel (the
 * plugin counts kernel samples, in no object).
 */
enum stream_kind {
	STREAM_KIND_JIT = 1u << 0,
	STREAM_KIND_NATIVE = 1u << 1,
	STREAM_KIND_KERNEL = 1u << 2,
};
#define STREAM_KINDS_ALL (STREAM_KIND_JIT | STREAM_KIND_NATIVE | STREAM_KIND_KERNEL)

/* The kind of obj's code: STREAM_KIND_JIT or STREAM_KIND_NATIVE. */
unsigned stream__object_kind(const struct stream_object *obj);

/* The kinds a `total` class holds: native's is native and jit (wasmtime's
 * .cwasm code is file-backed); 0 for all and for those of no kind
 * (unattributed no-map, not-resolved, table-full: nothing says what ran). */
unsigned stream__class_kinds(enum hb_sample_class cls);

/* Or into *kinds the kinds of arg, one name or a comma list ("jit,kernel");
 * -EINVAL for any other word. */
int stream__parse_kinds(const char *arg, unsigned *kinds);

/* kinds as --kind spells them, "jit,native", into buf. */
void stream__kinds_text(unsigned kinds, char *buf, size_t len);

/*
 * Keep only the samples of kinds (finished s; nonzero, not all): the other
 * kinds' objects lose their samples, each event's and each run's `total`
 * classes keep only the kinds' samples (the classes of no kind none) and
 * `all` becomes their sum, so that everything after (ranking, --percent,
 * every share, a comparison's noise) is of those kinds. The input's counts
 * stay in stream_event.collected. Returns 0.
 */
int stream__keep_kinds(struct stream *s, unsigned kinds);

/* The wire names of the enums, "jit", "unattributed.no-map", ... */
const char *stream__kind_name(enum hb_object_kind kind);
const char *stream__class_name(enum hb_sample_class cls);

/* The file the plugin read instead of s->maps[i].path, or NULL. */
const char *stream__map_found(const struct stream *s, size_t i);

#endif
