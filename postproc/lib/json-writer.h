/* SPDX-License-Identifier: MIT */
/*
 * The one way JSON is written, in the manner of git's json-writer: begin
 * and end objects and arrays, and put members (a key and a value) in them.
 * The writer tracks the nesting and the commas, and streams each piece to
 * its FILE as it comes: a document of every function (--json --all) is
 * gigabytes, never held in memory.
 *
 * Every value function takes the member's key: a key inside an object,
 * NULL inside an array and for the top value. Anything else (a value
 * without a key in an object, a key in an array, an end with nothing
 * open, a second top value, nesting past JSON_WRITER_DEPTH, a container
 * left open, and the misuses the functions below name) is a programming
 * error: the writer writes nothing more, keeps the first such error in
 * .bug, and json_writer__finish returns -EINVAL.
 *
 * Layout. A container is JSON_INLINE, its members on its line (`{"a": 1,
 * "b": 2}`), or JSON_LINES, each member on a line of its own indented by
 * its depth and the end on a line of its own (an empty one is `[]`).
 * json_writer__break starts the next member on a new line anyway, and
 * json_writer__layout changes the current container's layout for the
 * members that follow: the documents break their lines where a reader
 * looks for them.
 */
#ifndef POSTPROC_JSON_WRITER_H
#define POSTPROC_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Where the JSON goes, which decides its spacing and its strings' escapes. */
enum json_style {
	/*
	 * A document (JSON.md): ", " and ": " between members, two spaces of
	 * indent a level, a line feed after the top value. Strings: '"', '\\',
	 * \n, \t, \r by name; the other C0 controls, DEL, the C1 and bidi
	 * controls (utf8_is_control) as \u00XX / \uXXXX, so that a document
	 * printed on a terminal cannot drive it; a byte that starts no valid
	 * UTF-8 sequence as \ufffd; all else (valid UTF-8) as it is.
	 */
	JSON_DOCUMENT,
	/*
	 * Data in a page's <script type="application/json"> (html.h): no
	 * spaces, no indent, nothing after the top value. Strings hold the
	 * text html_escape shows: a byte that is not valid UTF-8 and each
	 * control but tab and line feed as U+FFFD itself; '"', '\\', \t, \n
	 * by name; '<', '>', '&' as \u003c, \u003e, \u0026, so that no "</",
	 * "<!--" or markup can end the element. U+2028 and U+2029 stay as they
	 * are: JSON.parse, which reads the element, takes them.
	 */
	JSON_SCRIPT,
};

enum json_layout {
	JSON_INLINE,	/* members on the container's line */
	JSON_LINES,	/* a line each, then the end on its own line */
};

/* How deep containers may nest. */
#define JSON_WRITER_DEPTH 16

/* The bytes a writer holds before they go to its FILE. */
#define JSON_WRITER_BUF 8192

struct json_writer {
	FILE *out;
	enum json_style style;
	unsigned depth;			/* open containers */
	bool done;			/* the top value is written */
	bool brk;			/* the next member starts a line */
	const char *bug;		/* the first misuse, or NULL */
	struct json_level {
		bool object;
		enum json_layout layout;
		size_t members;
	} level[JSON_WRITER_DEPTH];
	/*
	 * A document of every function is millions of small pieces: they are
	 * gathered here and go to out a buffer at a time, each piece a copy
	 * instead of a stdio call.
	 */
	size_t len;
	char buf[JSON_WRITER_BUF];
};

/*
 * Start writing one JSON value to out in style. Until json_writer__finish
 * nothing else may write to out (but json_writer__value_by_caller's
 * caller): the writer's bytes would land after it.
 */
void json_writer__init(struct json_writer *w, FILE *out, enum json_style style);

/*
 * Write out what the writer holds. Returns 0; -EINVAL after a misuse (.bug
 * says which) or when a container is still open or nothing was written;
 * -EIO when out has an error.
 */
int json_writer__finish(struct json_writer *w);

/* Open an object or an array as the member key (NULL: see above). */
void json_writer__object(struct json_writer *w, const char *key, enum json_layout layout);
void json_writer__array(struct json_writer *w, const char *key, enum json_layout layout);

/* Close the innermost open container. */
void json_writer__end(struct json_writer *w);

/* The next member starts on a new line, indented by its depth (a misuse
 * outside a container, as is json_writer__layout). */
void json_writer__break(struct json_writer *w);

/* The innermost container's layout from its next member on (and its end). */
void json_writer__layout(struct json_writer *w, enum json_layout layout);

/* Values. A NULL string is null. */
void json_writer__str(struct json_writer *w, const char *key, const char *s);
void json_writer__strn(struct json_writer *w, const char *key, const char *s, size_t n);
void json_writer__u64(struct json_writer *w, const char *key, uint64_t v);
void json_writer__i64(struct json_writer *w, const char *key, int64_t v);
void json_writer__bool(struct json_writer *w, const char *key, bool v);
void json_writer__null(struct json_writer *w, const char *key);

/*
 * v as printf's %.PRECf (conv 'f') or %.PRECg (conv 'g') writes it (any
 * other conv is a misuse); null when v is not finite (NaN or infinite),
 * which JSON has no number for.
 */
void json_writer__double(struct json_writer *w, const char *key, char conv, int prec, double v);

/* A value the caller formatted (a number), written as it is. */
void json_writer__raw(struct json_writer *w, const char *key, const char *text);

/*
 * Place the member key for a value the caller writes itself: out is
 * returned, to which exactly one JSON value must be written before the
 * writer is called again (NULL after a misuse, and at the top, which is
 * one: write nothing).
 */
FILE *json_writer__value_by_caller(struct json_writer *w, const char *key);

/*
 * s[0..n) as a quoted JSON string escaped as style says, outside any
 * writer: for JSON that is written by other means. Returns 0, or -EIO when
 * out has an error.
 */
int json_write_string(FILE *out, const char *s, size_t n, enum json_style style);

#endif
