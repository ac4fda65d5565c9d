/* SPDX-License-Identifier: MIT */
/*
 * The stream reader's parts (stream__read, stream.h): the line reader and
 * the parser's state, top down: stream-read.c reads the sections and hands
 * each line to its record's reader, stream-runs.c reads the records of what
 * a run read and saw (events, totals, loads, maps), stream-objects.c the
 * objects, their code and their samples, stream-branches.c the branch-stack
 * counts, stream-code-files.c the code `code-file` records name (read from
 * their files by stream__finish); stream-ids.c keeps a section's
 * local ids, stream-lex.c reads lines and fields. The words of each record
 * are the stream's table (plugin/lib/stream-records.def). Internal to the
 * stream folder.
 */
#ifndef POSTPROC_STREAM_PARSE_H
#define POSTPROC_STREAM_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stream.h"

/* Fields kept from one line; a longer line's extra fields are ignored unread. */
#define MAX_FIELDS 64
/* Distinct event names over all inputs: perf records a handful. */
#define MAX_EVENTS 4096
/* Section-local object id whose object kind was unknown: its lines are skipped. */
#define SKIPPED UINT32_MAX
/* Section-local object or event id whose defining line was too long (STREAM.md
 * "Lines"): the lines that refer to it are skipped and counted. */
#define LOST (UINT32_MAX - 1)
/* What is kept of a line longer than HB_STREAM_LINE_MAX: enough for its kind and id. */
#define LONG_HEAD 64

/* Buffered line reader with a bounded line length. */
struct reader {
	FILE *f;
	char *buf;
	size_t pos, len, alloc;	/* unread bytes are buf[pos..len) */
	/* In a line longer than HB_STREAM_LINE_MAX: its first bytes and its
	 * length so far; the rest is read past, not kept. */
	bool in_long;
	char head[LONG_HEAD + 1];
	uint64_t long_len;
};

/* A section-local object id and what it maps to. */
struct local_obj {
	uint64_t id;
	uint32_t obj;		/* index in stream.objects, or SKIPPED, or LOST */
	uint32_t lost;		/* LOST: index in stream.lost, or UINT32_MAX (not kept) */
	uint64_t code_next;	/* offset the next `code` chunk of this section must start at */
	/* 0: no debug line yet in this section; 1: this section supplies the object's
	 * debug entries; 2: an earlier section did (the same load: keep those). */
	uint8_t debug_state;
};

struct local_ev {
	uint64_t id;
	uint32_t ev;		/* index in stream.events, or LOST */
	uint32_t lost;		/* LOST: index in stream.lost, or UINT32_MAX (not kept) */
};

struct parser {
	struct stream *s;
	const char *fname;
	unsigned long line;
	char *err;
	size_t errlen;
	bool in_section;
	unsigned long section_line;
	char *f[MAX_FIELDS];	/* fields of the current line, NUL-terminated in place */
	size_t nf;
	struct local_obj *objs;
	size_t objs_nr, objs_alloc;
	struct idx_table obj_ids;
	struct local_ev *evs;
	size_t evs_nr, evs_alloc;
	struct idx_table ev_ids;
};

/* "FNAME:LINE: message" in p->err; returns -EINVAL. */
int stream_lex__bad(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Out of memory while reading; returns -ENOMEM. */
int stream_lex__oom(struct parser *p);

/* The next line of r in *line (NUL-terminated, without its newline; a line
 * longer than HB_STREAM_LINE_MAX keeps only its head, r->in_long). Returns 1,
 * 0 at the end, or a negative errno. */
int stream_lex__next_line(struct reader *r, struct parser *p, char **line);

/* The fields of line, split at spaces in place, into p->f and p->nf. */
void stream_lex__split(struct parser *p, char *line);

/* A decimal field tok of what into *v; 0 or stream_lex__bad's -EINVAL. */
int stream_lex__get_dec(struct parser *p, const char *tok, const char *what, uint64_t *v);

/* A "0x" hexadecimal field. */
int stream_lex__get_hex(struct parser *p, const char *tok, const char *what, uint64_t *v);

/* A string field (STREAM.md escapes), decoded in place. */
int stream_lex__get_str(struct parser *p, char *tok, const char *what);

/* The sample class tok names (STREAM.md "total classes"); HB_CLASS__NR for
 * a name of a newer writer's. */
size_t stream_lex__class(const char *tok);

/* At least n fields on the line. */
int stream_lex__check_fields(struct parser *p, size_t n);

/* The fields record rec is given before its key=value ones (the table's FIELDS). */
int stream_lex__check_record(struct parser *p, enum hb_record rec);

/* One key=value field of a record, as stream_lex__get_fields reads it. */
struct stream_field {
	bool given;
	uint64_t num;		/* DEC, HEX, LENGTH */
	char *str;		/* STR, WORD, BYTES: in the line, decoded */
};

/*
 * The key=value fields of record rec, from p->f[first] on: those the
 * table gives rec (for an object of one of the kinds, a HB_KINDS_ mask),
 * each once, every REQUIRED one given, into v (indexed by enum hb_field;
 * unknown keys are ignored, STREAM.md). what names the record in messages
 * ("load", "object 3"). 0 or stream_lex__bad's -EINVAL.
 */
int stream_lex__get_fields(struct parser *p, enum hb_record rec, unsigned kinds, size_t first,
			   const char *what, struct stream_field v[HB_FIELD__NR]);

/* Section-local ids (stream-ids.c). */

/* The object or event tok names in this section (stream_lex__bad if none). */
int stream_ids__find_obj(struct parser *p, const char *tok, struct local_obj **lo);
int stream_ids__find_ev(struct parser *p, const char *tok, struct local_ev **le);

/* Whether this section defined the object or event id already. */
bool stream_ids__has_obj(struct parser *p, uint64_t id);
bool stream_ids__has_ev(struct parser *p, uint64_t id);

/* This section's object or event id: stream.objects[obj] (or SKIPPED,
 * LOST), stream.events[ev] (or LOST); lost: its stream.lost, or
 * UINT32_MAX. 0 or stream_lex__oom's -ENOMEM. */
int stream_ids__add_obj(struct parser *p, uint64_t id, uint32_t obj, uint32_t lost);
int stream_ids__add_ev(struct parser *p, uint64_t id, uint32_t ev, uint32_t lost);

/* A line that refers to a lost object or event (lost: its stream.lost
 * index, or UINT32_MAX) is skipped, and counted with the samples it had. */
void stream_ids__skip_lost(struct parser *p, uint32_t lost, uint64_t samples);

/* The records: each gets the split line (its kind is p->f[0]); 0 or a negative errno. */
int stream_runs__input(struct parser *p);
int stream_runs__event(struct parser *p);
int stream_runs__jitdump(struct parser *p);
int stream_runs__warning(struct parser *p);
int stream_runs__total(struct parser *p);
int stream_runs__load(struct parser *p);
int stream_runs__map(struct parser *p);
int stream_objects__object(struct parser *p);
int stream_objects__code(struct parser *p);
int stream_objects__code_file(struct parser *p);
int stream_objects__debug(struct parser *p);
int stream_objects__sample(struct parser *p);
int stream_branches__total(struct parser *p);
int stream_branches__branch(struct parser *p);
int stream_branches__range(struct parser *p);
/* stream__finish: the branches' objects folded as the samples' were, equal keys summed. */
int stream_branches__finish(struct stream *s);
/* The object o's samples went to after folding (stream-fold.c). */
uint32_t stream_branches__owner(const struct stream *s, uint32_t o);
int stream_stacks__stack(struct parser *p);
/* stream__finish: the frames' objects folded as the samples' were. */
void stream_stacks__finish(struct stream *s);

/* Read the code of the objects `code-file` records named (stream-code-files.c),
 * at the start of stream__finish. Returns 0 or -ENOMEM. */
int stream_code_files__read(struct stream *s);

/* Join the loads a JIT writes for one function into one object (stream-join.c),
 * at the start of stream__finish. Returns 0 or -ENOMEM. */
int stream_join__functions(struct stream *s);

#endif
