/* SPDX-License-Identifier: MIT */
/*
 * The report: everything an output shows, decided once, between ranking
 * (rank.h) and the outputs (render.h).
 *
 * report__build decides which functions are listed and in what order, which
 * of their blocks and instructions, what each annotation cell says and when
 * source is looked up, the control-flow edges of every block, the header's
 * figures, and the notes the user must read. An output only lays this out:
 * it reads a struct report and nothing else (no stream, rank or annotator),
 * decides no content and looks nothing up. Text and JSON are such outputs;
 * a new one (an HTML page with each function's graph, Graphviz dot, a
 * comparison of two reports) is another, added without touching policy:
 *
 *   stream --rank__build--> rank --report__build--> report --render--> output
 *
 * Counts are samples of the ranked event. Offsets are function-relative
 * bytes. Indexes are into the arrays of the same report (funcs, a function's
 * blocks, rows and edges). Nothing here changes after report__build.
 */
#ifndef POSTPROC_REPORT_H
#define POSTPROC_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "annotate.h"
#include "rank.h"
#include "stream.h"

struct source_text;

/* Which rows of a function get a [Source] lookup (report_opts.source_rows). */
enum report_source {
	REPORT_SOURCE_DEFAULT,		/* every listed row; with every_function the sampled ones */
	REPORT_SOURCE_NONE,		/* none: the report does not need them */
	REPORT_SOURCE_ALL,		/* every listed row */
};

/* What the report lists beyond the shown blocks (report__build). */
struct report_opts {
	/* Every function --function selects, not only those with a shown
	 * block (JSON --all: every sampled function). */
	bool every_function;
	/* Every block and every instruction of a listed function, trailing data
	 * after code_end included, not only its shown blocks (JSON --all; a
	 * drawing of the whole graph). */
	bool whole_functions;
	/* Read the source line of each run of rows (text --source-lines). */
	bool source_lines;
	/* Which rows of object obj get [Source], when not the default (NULL:
	 * the default for all): a comparison matches the blocks of code that
	 * changed by their source lines, and needs none for code that did not. */
	enum report_source (*source_rows)(void *arg, size_t obj);
	void *source_rows_arg;
	/* Plugin warnings read from the input of this name (the fname given to
	 * stream__read) are left out: the plugin has just printed them on the
	 * same terminal (perf script ... | hotblocks). NULL: none. */
	const char *live_origin;
};

/* One control-flow edge, between two blocks of one function. */
enum report_edge_kind {
	REPORT_EDGE_FALLTHROUGH,	/* on into the next block: no branch ends the
					 * block, or a conditional one is not taken */
	REPORT_EDGE_TAKEN,		/* a direct jump, or a conditional branch taken */
	REPORT_EDGE_CASE,		/* a case of a jump table, from the block of the
					 * indirect jump that reads it (one edge per
					 * distinct case, however many entries send
					 * control there) */
};

struct report_edge {
	uint32_t from, to;		/* indexes in report_func.blocks */
	enum report_edge_kind kind;
	/* It closes a cycle: a depth-first walk from the entry block (then from
	 * each block it did not reach, in address order) meets its target still
	 * open. Every loop has at least one; drawings show them going back up. */
	bool back;
};

/* An annotation cell: [CLIF], [Wasm] or [Source] (annotate.h). */
struct report_cell {
	const char *text;		/* NULL: absent */
	uint64_t key;			/* tells equal texts of different places apart:
					 * the wasm offset, for CLIF and Wasm cells */
};

/* One row of a function's listing: an instruction, or a data row (jump table
 * entry, undecodable bytes, trailing data). */
struct report_row {
	uint32_t off;
	uint16_t size;
	uint16_t flags;			/* INSN_* (cfg.h) */
	uint64_t samples;		/* at exactly this offset */
	const char *text;		/* the assembly cell (cfg_insn.text) */
	int32_t block;			/* index in report_func.blocks; -1: trailing data */
	int32_t target_block;		/* the block a direct branch, call or table entry
					 * goes to (its start is the target), else -1 */
	struct report_cell cells[ANNOT__NR];
	/* [Source]: the innermost frame's file (as DWARF or the JIT names it) and
	 * line; NULL / 0 if unknown. */
	const char *source_file;
	uint32_t source_line;
	uint32_t wasm_offset;		/* file offset in the original module, when
					 * has_wasm_offset (report_func.wasm_offsets) */
	/* report_opts.source_lines: line source_line of source_file, on the first
	 * row of each run of rows from one line within a block, when the file is
	 * readable (line_len bytes, no newline, not NUL-terminated); else NULL. */
	const char *line_text;
	uint32_t line_len;
	/* cells[ANNOT_SOURCE] was looked up and the function can have one: only
	 * then is an absent source cell "unknown" rather than "not asked". */
	bool source;
	bool has_wasm_offset;
};

/* One basic block (cfg.h), with or without samples. */
struct report_block {
	uint32_t start, end;		/* [start, end) */
	uint32_t insns;			/* its rows, data rows included */
	uint64_t samples;
	uint32_t rank;			/* 1-based place among the ranked blocks (the
					 * sampled blocks of selected functions); 0: none */
	bool shown;			/* the selection took it (report.shown) */
	bool listed;			/* its rows are in the report: rows[first_row ..
					 * first_row + insns) */
	size_t first_row;
	size_t first_edge, edges_nr;	/* its successors: edges[first_edge ..], by target */
};

/* A function of the --cwasm module (report_func.wasm). */
struct report_wasm {
	bool matched;			/* the object is one of the module's functions */
	const char *symbol;		/* its .cwasm ELF symbol */
	uint64_t text_offset;		/* the symbol's offset in .text */
	int module, index;		/* wasm[module]::function[index]; -1: a trampoline
					 * or builtin */
	bool stale;			/* its code differs from what ran */
};

/* One run of the input: a section of a stream, one run of the plugin. */
struct report_run {
	const char *origin;		/* the stream file it was read from */
	unsigned long line;		/* where its section starts there */
	const char *input;		/* the recording the plugin read, or NULL */
	uint64_t total;			/* its samples of the event (`total all`) */
};

/* A function's samples from one run. */
struct report_run_samples {
	uint32_t run;			/* index in report.runs */
	uint64_t samples;
};

/* One listed function: a sampled code object. */
struct report_func {
	size_t obj;			/* index in stream.objects */
	const struct stream_object *object; /* borrowed: its identity (kind, pid,
					 * addresses, jitdump or DSO) and code */
	const char *kind;		/* the kind's wire name: "jit", "native", "cwasm" */
	const char *display_name;	/* demangled, or the wasm name-section name */
	struct report_wasm wasm;
	enum rank_status status;
	const char *error;		/* not RANK_DISASSEMBLED: why, as one phrase */
	uint32_t code_end;		/* RANK_DISASSEMBLED: where trailing data begins */
	uint64_t samples;		/* all of the object's samples */
	uint64_t unaligned;		/* inside an instruction that starts elsewhere */
	uint64_t outside;		/* past the code bytes the stream has */
	/* Provenance: its samples by run (those with any), in run order; and
	 * how many other objects of the same code and name were folded into it
	 * (stream-fold.h), CODE_MOVE copies not counted. */
	struct report_run_samples *runs;
	size_t runs_nr;
	uint32_t folded;
	/* The annotation columns it has; a [Source] column may still have no text
	 * in a given block. */
	bool columns[ANNOT__NR];
	/* Its rows carry a wasm offset and [CLIF] / [Wasm] cells: a function of
	 * the --cwasm module, with some column input given. */
	bool wasm_offsets;
	struct report_block *blocks;	/* every block, address order */
	size_t blocks_nr;
	struct report_row *rows;	/* the listed rows, address order */
	size_t rows_nr;
	struct report_edge *edges;	/* by source block, then target */
	size_t edges_nr;
};

/* A shown block: funcs[func].blocks[block]. */
struct report_ref {
	uint32_t func, block;
};

/* One `total` class of the ranked event (all but `all`). */
struct report_class {
	const char *name;		/* wire name without "unattributed.": "jit", "no-map" */
	bool unattributed;		/* one of the plugin's losses, in no object */
	uint64_t samples;
};

enum report_note_kind {
	REPORT_NOTE_INPUT,		/* the input: plugin warnings, skipped records */
	REPORT_NOTE_LOSS,		/* samples counted in the total, in no block */
	REPORT_NOTE_SELECTION,		/* how --percent and --function selected */
	REPORT_NOTE_ANNOTATION,		/* the --cwasm / --clif / --wasm inputs */
};

/* Something the user should know that the report itself cannot show. */
struct report_note {
	enum report_note_kind kind;
	char *text;			/* owned: one line, lowercase, no final period;
					 * names and paths in it as the input has them:
					 * each output escapes it its way (term.h) */
};

struct report {
	/* Header. */
	const char *event;		/* the ranked event; NULL: the input has none */
	const char **events;		/* every event, first-appearance order */
	size_t events_nr;
	uint64_t total;			/* T: every sample of the event */
	uint64_t jit;			/* W: in objects of kind jit or cwasm */
	struct report_class classes[HB_CLASS__NR];	/* wire order */
	size_t classes_nr;
	struct report_run *runs;	/* every run of the input, in input order */
	size_t runs_nr;
	uint64_t no_code;		/* samples in no block (rank.h), over every object */
	uint64_t not_disassembled;
	uint64_t unaligned;
	uint64_t outside_code;
	uint64_t skipped_records;	/* input lines of kinds the reader does not know */
	struct {
		double percent;
		bool threshold;		/* false: --all */
		size_t top;		/* SIZE_MAX: no --top */
		const char *function;	/* --function, or NULL */
		bool all;		/* every_function */
	} selection;

	/* Listed functions: those with a shown block (every_function: every
	 * selected one), hottest first (rank.by_heat). */
	struct report_func *funcs;
	size_t funcs_nr;
	/* The blocks the selection took, hottest first: what the text shows. */
	struct report_ref *shown;
	size_t shown_nr;
	/* In the order to tell them; REPORT_NOTE_ANNOTATION ones last. */
	struct report_note *notes;
	size_t notes_nr;

	/* private */
	struct source_text *source;
	size_t notes_alloc;
};

/*
 * Build the report of r (built with ro) for o. annot (may be NULL: no
 * columns, names as the stream has them) makes the cells and display names;
 * the report borrows r, its stream and annot: release it first. Annotation
 * follows the order of the shown blocks, then of the other listed functions,
 * so that the annotator's notes name the code the report shows first.
 * [Source] cells are looked up for every listed row, but with
 * every_function for the sampled rows only (a lookup per instruction of
 * every function would cost more than the rest of the report); source_rows
 * may decide otherwise per function.
 * Returns 0 or -ENOMEM; rep must be released either way.
 */
int report__build(struct report *rep, const struct rank *r, const struct rank_opts *ro,
		  struct annotator *annot, const struct report_opts *o);
void report__release(struct report *rep);

/* The wire name of every edge kind: "fallthrough", "taken", "case". */
const char *report__edge_kind_name(enum report_edge_kind kind);

/*
 * rank_opts.alt_name for names taken from an annotator: an object answers
 * --function to its display name too. arg is a struct report_names.
 */
struct report_names {
	struct annotator *annot;
	const struct stream *stream;
};
const char *report__display_name(void *arg, size_t obj);

#endif
