/* SPDX-License-Identifier: MIT */
/*
 * The report: everything an output shows, decided once, between ranking
 * (rank.h) and the outputs (render.h).
 *
 * report__build (report-build.h) decides which functions are listed and in
 * what order, which of their blocks and instructions, what each annotation
 * cell says and when source is looked up, the control-flow edges of every
 * block, the header's figures, the notes the user must read, and what every
 * output shows of it (report-show.c): which columns, which cells repeat the
 * one above (ditto), the top of the heat scale and of the bars. An output
 * only lays this out: it reads a struct report and nothing else (no stream,
 * rank or annotator: this header is data only), decides no content and looks
 * nothing up:
 *
 *   stream --rank__build--> rank --report__build--> report --render--> output
 *
 * Counts are samples of the ranked event. Offsets are function-relative
 * bytes. Indexes are into the arrays of the same report (funcs, a function's
 * blocks, rows and edges). Strings are borrowed from the stream and the
 * annotator the report was built from, or the report's own. Nothing here
 * changes after report__build but what report__func_open fills.
 *
 * Whole functions (report_opts.whole_functions: JSON --all, the page, dot)
 * are held one at a time: a function's blocks, rows and edges are there
 * between report__func_open and report__func_close, which an output calls
 * around each (its code is disassembled again then: a report of every
 * function of a big profile never holds them all). Everything else, and
 * every part of a report of the shown blocks alone, is there from the start.
 */
#ifndef POSTPROC_REPORT_H
#define POSTPROC_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/insn.h"	/* INSN_*, the flags of a row */

struct source_text;

/* The annotation columns, in the order every output shows them. */
enum report_col {
	REPORT_COL_CLIF,		/* the CLIF lines of the instruction's wasm offset */
	REPORT_COL_WASM,		/* the Wasm instruction at that offset */
	REPORT_COL_SOURCE,		/* file:line from DWARF / jitdump DEBUG_INFO */
	REPORT_COL__NR
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

/* An annotation cell: [CLIF], [Wasm] or [Source] (enum report_col). */
struct report_cell {
	const char *text;		/* NULL: absent */
	uint64_t key;			/* tells equal texts of different places apart:
					 * the wasm offset, for CLIF and Wasm cells */
	/* The same text and key as the cell above it in its block (or in the
	 * trailing data): shown as a continuation ('"' in text). An absent cell
	 * is never one, and the cell after it is shown whole. */
	bool ditto;
};

/* One row of a function's listing: an instruction, or a data row (jump table
 * entry, undecodable bytes, trailing data). */
struct report_row {
	uint32_t off;
	uint16_t size;
	uint16_t flags;			/* INSN_* (analysis/insn.h) */
	uint64_t samples;		/* at exactly this offset */
	const char *text;		/* the assembly cell (cfg_insn.text) */
	int32_t block;			/* index in report_func.blocks; -1: trailing data */
	int32_t target_block;		/* the block a direct branch, call or table entry
					 * goes to (its start is the target), else -1 */
	/* A direct branch or call out of the function (its target outside the
	 * code): target_address is where it goes, target_name what lands
	 * there in that process at that time (annotate/targets.h): the code
	 * load or symbol by its display name, "+0x<off>" after it unless the
	 * target is its start ("blend", "JS:foo-1-turbofan+0x10"), or the file
	 * mapped there and the offset in it ("libc.so.6+0x9a0b0"); NULL when
	 * nothing is known to be there. The assembly cell (text) then ends in
	 * the name instead of the address. target_func: the listed function
	 * it lands in (index in report.funcs), else -1. */
	bool target_outside;
	uint64_t target_address;
	const char *target_name;
	int32_t target_func;
	/* A call through V8's wasm jump table: the callee's function index
	 * (target_name names it), else -1 (annotate/targets.h). */
	int32_t target_wasm_index;
	struct report_cell cells[REPORT_COL__NR];
	/* [Source]: the innermost frame's file (as DWARF or the JIT names it) and
	 * line; NULL / 0 if unknown. */
	const char *source_file;
	uint32_t source_line;
	uint32_t wasm_offset;		/* file offset in the original module, when
					 * has_wasm_offset (report_func.wasm_offsets) */
	/* report_opts.source_lines: line source_line of source_file, on the first
	 * row of each span of rows from one line within a block, when the file is
	 * readable (line_len bytes, no newline, not NUL-terminated); else NULL. */
	const char *line_text;
	uint32_t line_len;
	/* cells[REPORT_COL_SOURCE] was looked up and the function can have one: only
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
	/* The columns of its own table (the text report shows a block alone):
	 * [CLIF] and [Wasm] when the function has them, [Source] when one of the
	 * block's rows has a cell. */
	bool show[REPORT_COL__NR];
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

/* What the stream says of a function's code object (STREAM.md `object`). */
struct report_code {
	const char *name;		/* as the stream names it: the jitdump load name,
					 * or the symbol */
	const char *path;		/* the jitdump (jit), or the file (native, cwasm);
					 * NULL: none */
	bool jit;			/* of kind jit: a jitdump's code load */
	uint32_t e_machine;
	uint64_t pid;
	uint64_t address;		/* run-time address of its first byte */
	uint64_t size;
	uint64_t code_bytes;		/* the code bytes the stream has */
	uint64_t sym_start;		/* native and cwasm: the symbol's address in its file */
	const char *source;		/* native and cwasm: how the plugin found the function
					 * (STREAM.md `source=`); NULL: the stream does not say */
	uint64_t code_index;		/* jit: the load's code index */
	uint64_t load_time;		/* jit: CLOCK_MONOTONIC ns */
	/* native and cwasm: the stream's `map` of its process that covers its
	 * address (the newest), when there is one: the file's run-time range,
	 * the file offset at map_start, and its build-id (build_id_size bytes,
	 * 0: the recording has none). */
	bool mapped;
	/* jit: the bytes of the load joined in front of it (BEAM's prologue,
	 * stream-join.c: load code_index - 1), else 0. Here, in the room after
	 * mapped: the struct's size, and so Graphviz's layout, as before. */
	uint32_t joined_bytes;
	uint64_t map_start, map_size, map_pgoff;
	const uint8_t *build_id;
	uint8_t build_id_size;
};

/* A sampled offset of a function: every one with samples of the ranked
 * event, at an instruction start or not (report-points.h). */
struct report_point {
	uint64_t off;
	uint64_t samples;
	uint64_t period;		/* the sum of their periods */
	/* the name perf gives that address, name+0xname_off: the function's,
	 * or that of the range joined in front of it (BEAM's prologue,
	 * stream-join.c); borrowed from the stream */
	const char *name;
	uint64_t name_off;
};

/*
 * Measured by branch stacks (perf record -b; stream `branch`, `range`), of
 * the ranked event: a taken edge out of a function, its entries summed over
 * their flags, and a fall-through range that starts in it (the code that ran
 * straight through from start to end, both included). The other end is an
 * offset in to_name's code: this function's (same), or another's (to_func:
 * its index in report.funcs, -1 when it is not listed).
 */
struct report_branch {
	uint64_t from, to;		/* function-relative offsets */
	bool same;			/* to is in this function */
	const char *to_name;		/* the other end's object, as the stream names it */
	int32_t to_func;
	uint64_t count;
	uint64_t mispredicted, predicted, in_tx, abort;	/* entries with that flag */
	uint64_t cycles_nr, cycles_sum;	/* entries with a cycle count, their sum */
};

struct report_range {
	uint64_t start, end;		/* function-relative; end in end_name's code */
	bool same;			/* end is in this function */
	const char *end_name;
	int32_t end_func;
	uint64_t count;
	uint64_t cycles_nr, cycles_sum;	/* ranges with a cycle count, their sum */
	/* The code cannot have run straight from start to end: an unconditional
	 * jump, a return, a trap or data before end, or end is no instruction
	 * start (LBR loses entries now and then). Left out of the block
	 * executions, as a range into another function is. */
	bool impossible;
};

/* A row's counts measured by branch stacks (report_measured.rows). */
struct report_row_branch {
	/* a branch, call or return, or an instruction a measured edge leaves
	 * from: how often it was taken (entries from here), and how often the
	 * code ran on past it (possible fall-through ranges of this function
	 * that hold it before their end) */
	bool measured;
	uint64_t taken, not_taken;
};

/*
 * What branch stacks measured of an open function's blocks, rows and edges,
 * index for index (kept apart from them, so that a report without branch
 * stacks allocates exactly what it did before they were read).
 */
struct report_measured {
	uint64_t *executions;		/* [blocks_nr]: how often the block's first
					 * instruction ran (the possible ranges of this
					 * function that hold its start) */
	/* [blocks_nr]: {ranges, cycles} of the possible ranges that begin and
	 * end in the block (the block run alone) with a cycle count, and the
	 * sum of those counts: the block's cycles per run is their ratio */
	uint64_t (*cycles)[2];
	struct report_row_branch *rows;	/* [rows_nr] */
	uint64_t *edges;		/* [edges_nr]: how often control went that way: a
					 * taken or case edge's entries from the block to the
					 * target's start; a fall-through's possible ranges
					 * running on from the block into the next */
};

/* What branch stacks measured of a listed function (report_branch_stack.funcs). */
struct report_func_branches {
	struct report_branch *branches;	/* its taken edges, by (from, to object, to) */
	size_t branches_nr;
	struct report_range *ranges;	/* its ranges, by (start, end object, end) */
	size_t ranges_nr;
	struct report_measured *measured;	/* while it is open; else NULL */
};

/*
 * A block's cost as branch stacks measure it, without skid (report-cost.c):
 * how often it ran (as report_measured.executions), its instructions (data
 * rows not counted), and the cycles the possible ranges that hold it took,
 * each range's shared among its blocks by their instructions in it (a
 * range's cycles: its entries' average times its count), 0 where no range
 * has a cycle count. cost: those cycles where the recording has cycle
 * counts (report_branch_stack.cost_cycles), else executions x instructions;
 * samples: its samples, skid and all.
 */
struct report_block_cost {
	uint32_t func;			/* index in report.funcs */
	uint32_t start, end, insns;
	uint64_t executions;
	double cycles;
	double cost;
	uint64_t samples;
};

/*
 * A report's branch stacks (report.branch_stack, NULL without them): every
 * entry and range of the event, and each class's (index for index with
 * report.classes), and of the listed functions' ranges those that cannot have run
 * straight through (report_range.impossible) or end in another function;
 * each listed function's, index for index with report.funcs. Apart from
 * the functions, so that a report without branch stacks allocates exactly
 * what it did before they were read.
 */
struct report_branch_stack {
	uint64_t entries, ranges;
	uint64_t (*classes)[2];		/* [report.classes_nr]: {entries, ranges} */
	uint64_t ranges_impossible, ranges_crossing;
	struct report_func_branches *funcs;
	/* --by-executions (report_opts.by_executions): every block of the
	 * listed functions that ran, by cost, the most first (report-cost.c);
	 * cost_total their costs' sum. Else none. */
	bool by_executions;
	bool cost_cycles;		/* costs are cycles (a range has a cycle count) */
	struct report_block_cost *costs;
	size_t costs_nr;
	double cost_total;
};

/* A frame of a callchain stack (stream.h stream_frame), named as the
 * report names functions. */
struct report_frame {
	const char *display_name;	/* the report's name; a class's "[kernel]", "[unattributed.NAME]" */
	const char *name;		/* the object's own name (or the display name) */
	uint64_t address;		/* run-time: the sampled ip, a caller's return address; 0 for a class */
	int32_t func;			/* index in report.funcs, -1: not listed */
	bool placed;			/* in an object (else a class) */
};

/* The ranked event's callchain stacks, leaf first (report-stacks.c). */
struct report_stack {
	size_t first;			/* in report_stacks.frames */
	uint32_t frames_nr;
	uint64_t samples, period;
};

struct report_stacks {
	struct report_stack *v;
	size_t nr;
	struct report_frame *frames;
	size_t frames_nr;
};

/* One listed function: a sampled code object. */
struct report_func {
	size_t obj;			/* index in stream.objects */
	struct report_code code;
	const char *kind;		/* the kind's wire name: "jit", "native", "cwasm" */
	const char *display_name;	/* demangled, or the wasm name-section name */
	struct report_wasm wasm;
	/* The JIT tier its name gives ("turbofan", "maglev", "sparkplug",
	 * "ignition", "liftoff"), or NULL. */
	const char *tier;
	bool disassembled;		/* it has blocks and rows */
	const char *error;		/* not disassembled: why, as one phrase */
	uint32_t code_end;		/* disassembled: where trailing data begins */
	uint64_t samples;		/* all of the object's samples */
	uint64_t unaligned;		/* inside an instruction that starts elsewhere */
	uint64_t outside;		/* past the code bytes the stream has */
	/* Provenance: its samples by run (those with any), in run order; and
	 * how many other objects of the same code and name were folded into it
	 * (stream/stream-fold.c), CODE_MOVE copies not counted. */
	struct report_run_samples *runs;
	size_t runs_nr;
	uint32_t folded;
	/* The annotation columns it has; a [Source] column may still have no text
	 * in a given block. */
	bool has[REPORT_COL__NR];
	/* The columns of its whole listing (the HTML page): has[] for [CLIF]
	 * and [Wasm], [Source] when one of its rows (trailing data included)
	 * has a cell. A block's show[] is a part of it. */
	bool show[REPORT_COL__NR];
	/* Its rows carry a wasm offset and [CLIF] / [Wasm] cells: a function of
	 * the --cwasm module, with some column input given. */
	bool wasm_offsets;
	/* Whole: blocks are every block, rows every row, edges every edge
	 * (between report__func_open and report__func_close); else blocks and
	 * rows are the listed ones (the shown blocks), and there are no edges. */
	bool whole;
	struct report_block *blocks;	/* address order */
	size_t blocks_nr;
	struct report_row *rows;	/* the listed rows, address order */
	size_t rows_nr;
	struct report_edge *edges;	/* by source block, then target */
	size_t edges_nr;
	/* Known without its blocks: */
	size_t code_blocks_nr;		/* every block of its code */
	size_t code_rows_nr;		/* every row of its code, trailing data included */
	size_t sampled_blocks_nr;	/* its blocks with samples */
	size_t shown_blocks_nr;		/* its blocks the selection took */
	uint32_t hottest;		/* disassembled, with samples in a block: the
					 * start of its best ranked block */
	bool has_hottest;
	uint64_t row_max;		/* the most samples of a row it lists */
	uint64_t block_max;		/* the most samples of one of its blocks */
	/* report_opts.points: its sampled offsets, in address order; else none. */
	struct report_point *points;
	size_t points_nr;
	/* No code bytes (code.code_bytes 0: a perf map's function): no rows,
	 * and its one block is the whole function (listed, no rows), ranked
	 * by all its samples. Shown instead of rows: its samples by offset
	 * (offset order, owned), and one line (owned) that says why it has no
	 * instructions and how its runtime writes a jitdump, which has them.
	 * NULL / 0 for a function with code. */
	struct report_point *offsets;
	size_t offsets_nr;
	char *no_code;

	/* private */
	struct report_func_store *store;
};

/*
 * Every sampled function of the ranked event, ranked: what a table of
 * functions lists, those without a shown block too (report.ranked).
 */
struct report_ranked {
	const char *name;		/* the stream's */
	const char *display_name;
	const char *kind;		/* "jit", "native", "cwasm" */
	const char *path;		/* its jitdump or file (a perf map's: the map) */
	uint64_t samples;
	int32_t func;			/* its index in report.funcs; -1: not listed */
	size_t shown_blocks;		/* its blocks the selection took */
	bool selected;			/* --function selects it */
};

/* One tier of a function (report_function): a sampled code object. */
struct report_function_tier {
	size_t ranked;			/* its index in report.ranked */
	const char *tier;		/* V8's wasm tier ("liftoff", "turbofan"), or NULL */
};

/*
 * A function as its users name it (report-tiers.c): a V8 wasm function's
 * code of every tier (Liftoff, TurboFan) together, one wasm function
 * whatever compiled it; any other sampled object alone. With tiers apart
 * (report_opts.tiers_apart) every sampled object is one.
 */
struct report_function {
	const char *name;		/* the stream's name, without the tier when tiered */
	const char *display_name;	/* (the same) */
	const char *kind;
	const char *path;		/* its jitdump or file */
	uint64_t samples;		/* its tiers' sum */
	bool selected;			/* --function selects one of its tiers */
	bool tiered;			/* a V8 wasm function's tiers together (one or more) */
	/* its tiers, hottest first: report.function_tiers[first_tier ..] */
	size_t first_tier, tiers_nr;
};

/* A shown block: funcs[func].blocks[block]. */
struct report_ref {
	uint32_t func, block;
};

/* One `total` class of the ranked event (all but `all`). */
struct report_class {
	const char *name;		/* wire name without "unattributed.": "jit", "no-map" */
	bool unattributed;		/* one of the plugin's losses, in no object */
	uint64_t samples;		/* of the kinds kept (--kind), else all */
	uint64_t period;		/* the sum of their periods (of the kinds kept) */
	uint64_t collected;		/* as the input gave them */
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
	uint64_t total;			/* T: every sample of the event (with --kind, of its kinds) */
	uint64_t total_period;		/* the sum of their periods */
	uint64_t jit;			/* W: in objects of kind jit or cwasm */
	unsigned kinds;			/* --kind: STREAM_KIND_*; 0: none given */
	uint64_t collected;		/* every sample of the event, of any kind (T without --kind) */
	struct report_class *classes;	/* wire order */
	size_t classes_nr;
	struct report_run *runs;	/* every run of the input, in input order */
	size_t runs_nr;
	uint64_t no_code;		/* samples in no block (rank.h), over every object */
	uint64_t not_disassembled;
	uint64_t unaligned;
	uint64_t outside_code;
	uint64_t skipped_records;	/* input lines of kinds the reader does not know */
	/* The input has branch stacks (a `branch-total`); else NULL */
	struct report_branch_stack *branch_stack;
	/* The input has callchain stacks of the event (`stack`); else NULL */
	struct report_stacks *stacks;
	struct {
		double percent;
		bool threshold;		/* false: --all */
		size_t top;		/* SIZE_MAX: no --top */
		const char *function;	/* --function, or NULL */
		bool all;		/* list_selected */
	} selection;

	/* Listed functions: those with a shown block (list_selected: every
	 * selected one), hottest first (rank.by_heat). */
	struct report_func *funcs;
	size_t funcs_nr;
	/* Every sampled function, hottest first (rank.by_heat): a table ranks
	 * them all, the listed ones among them. */
	struct report_ranked *ranked;
	size_t ranked_nr;
	/* The same functions as their users name them, hottest first: a V8
	 * wasm function's tiers together (report_function), unless tiers
	 * apart; and their tiers. */
	struct report_function *functions;
	size_t functions_nr;
	struct report_function_tier *function_tiers;
	bool tiered;			/* some function has its tiers together */
	/* A table of functions (--functions): the selected ones of functions,
	 * taken hottest first by --percent and --top as blocks are (of all
	 * samples); how many it takes. */
	size_t functions_shown;
	/* The blocks the selection took, hottest first: what the text shows. */
	struct report_ref *shown;
	size_t shown_nr;
	size_t shown_funcs_nr;		/* listed functions with a shown block */
	/* The top of the one heat scale: the share (0..1) of all samples in the
	 * hottest block of any listed function. */
	double heat_max;
	/* A full bar: the most samples of any listed row. */
	uint64_t row_max;
	/* In the order to tell them; REPORT_NOTE_ANNOTATION ones last. */
	struct report_note *notes;
	size_t notes_nr;

	/* private */
	struct source_text *source;
	size_t notes_alloc;
	struct report_build *build;	/* what report__func_open builds from */
};

/* What branch stacks measured of funcs[fi], or NULL without them. */
static inline const struct report_func_branches *report__func_branches(const struct report *rep, size_t fi)
{
	return rep->branch_stack ? &rep->branch_stack->funcs[fi] : NULL;
}

/* The wire name of every edge kind: "fallthrough", "taken", "case". */
const char *report__edge_kind_name(enum report_edge_kind kind);

/*
 * funcs[i]'s blocks, rows and edges, for an output to read until
 * report__func_close (a whole function's: built now; else already there,
 * and these do nothing). Returns 0, -ENOMEM, or -EIO when its code
 * disassembles otherwise than it ranked (a bug). Opening one that is open
 * does nothing.
 */
int report__func_open(const struct report *rep, size_t i);
void report__func_close(const struct report *rep, size_t i);

/*
 * funcs[i] opened for an output that reads each row once, in order, and
 * then needs it no more (JSON): a whole function's rows are built a window
 * at a time (report__func_rows), so that memory follows a window, not the
 * function; its blocks and edges are there as report__func_open has them,
 * but not what its rows decide (report_block.show, report_func.show, the
 * cells' ditto). Any other function (and one branch stacks measured, which
 * are measured over every row at once) opens as with report__func_open.
 * Closed by report__func_close; not opened otherwise while open so.
 */
int report__func_open_rows(const struct report *rep, size_t i);

/*
 * Of funcs[i] opened by report__func_open_rows: its rows from *next on,
 * now in rows[0 .. rows_nr) (those of the call before gone), *next moved
 * past them. Start with *next 0. Returns how many (0: no more), -ENOMEM,
 * or -EINVAL when *next is not where the rows before ended (a bug).
 */
long report__func_rows(const struct report *rep, size_t i, size_t *next);

/*
 * funcs[i] opened for an output that shows the rows of some of its blocks
 * only (a page's region of a function too big for it): a whole function's
 * blocks and edges are there as report__func_open has them, and what its
 * rows decide (report_block.show, report_func.show), but no rows: its rows
 * were gone through a window at a time, and a block's are built when asked
 * for (report__func_block_rows). Any other function (and one branch stacks
 * measured) opens as with report__func_open. Closed by report__func_close;
 * not opened otherwise while open so.
 */
int report__func_open_blocks(const struct report *rep, size_t i);

/*
 * Of funcs[i] opened by report__func_open_blocks: the rows of its block b
 * into rows[0 .. blocks[b].insns), as report__func_open has them (their
 * strings the function's until it is closed). Returns how many, or -ENOMEM.
 */
int report__func_block_rows(const struct report *rep, size_t i, size_t b, struct report_row *rows);

/* Of funcs[i] opened by report__func_open or _blocks: the samples of its
 * rows in no block (the data after its code). */
uint64_t report__func_data_samples(const struct report *rep, size_t i);

#endif
