/* SPDX-License-Identifier: MIT */
/* The annotated stream's constants and words, shared by the writer (plugin) and the reader (postproc).
 * The format itself is specified in plugin/STREAM.md. */
#ifndef PLUGIN_STREAM_FORMAT_H
#define PLUGIN_STREAM_FORMAT_H

#include <stdbool.h>

#define HB_STREAM_MAGIC "hotblocks-stream"
#define HB_STREAM_VERSION 1
/* At most this many code bytes per `code` line. */
#define HB_STREAM_CODE_CHUNK 64

/*
 * No line is longer than HB_STREAM_LINE_MAX bytes, its newline not counted
 * (STREAM.md "Lines"): the writer keeps every line within it, and the reader
 * loses a longer line's record alone. The writer makes room by writing no
 * string field longer than HB_STREAM_STRING_MAX bytes (escapes counted; a
 * record has at most two): a longer one is cut at a character boundary, ends
 * in HB_STREAM_SHORTENED and is followed on its line by
 * <field>-length=<the string's full length in bytes>.
 */
#define HB_STREAM_LINE_MAX 65536
#define HB_STREAM_STRING_MAX 16384
#define HB_STREAM_SHORTENED "\xe2\x80\xa6"	/* U+2026 HORIZONTAL ELLIPSIS, in UTF-8 */

/*
 * Sample classes of the `total` record. Every sample falls in exactly one class
 * other than ALL. Columns: enum suffix, name on the wire.
 */
#define HB_SAMPLE_CLASSES(X)                                    \
	X(ALL, "all")                                           \
	X(JIT, "jit")                                           \
	X(NATIVE, "native")                                     \
	X(PERFMAP, "perfmap")                                   \
	X(KERNEL, "kernel")                                     \
	X(BEFORE_LOAD, "unattributed.before-load")              \
	X(AMBIGUOUS, "unattributed.ambiguous")                  \
	X(JIT_NO_LOAD, "unattributed.jit-no-load")              \
	X(NO_SYMBOL, "unattributed.no-symbol")                  \
	X(NO_MAP, "unattributed.no-map")                        \
	X(NOT_RESOLVED, "unattributed.not-resolved")            \
	X(TABLE_FULL, "unattributed.table-full")

enum hb_sample_class {
#define HB_CLASS_ENUM(suffix, name) HB_CLASS_##suffix,
	HB_SAMPLE_CLASSES(HB_CLASS_ENUM)
#undef HB_CLASS_ENUM
	HB_CLASS__NR
};

/* Object kinds of the `object` record. */
#define HB_OBJECT_KINDS(X) \
	X(JIT, "jit")      \
	X(NATIVE, "native") \
	X(CWASM, "cwasm")

enum hb_object_kind {
#define HB_KIND_ENUM(suffix, name) HB_KIND_##suffix,
	HB_OBJECT_KINDS(HB_KIND_ENUM)
#undef HB_KIND_ENUM
	HB_KIND__NR
};

/* The wire names of a sample class and of an object kind; "?" outside the enums. */
static inline const char *hb_class_name(enum hb_sample_class cls)
{
	static const char *const names[] = {
#define HB_CLASS_NAME(suffix, name) name,
		HB_SAMPLE_CLASSES(HB_CLASS_NAME)
#undef HB_CLASS_NAME
	};

	return (unsigned)cls < HB_CLASS__NR ? names[cls] : "?";
}

static inline const char *hb_kind_name(enum hb_object_kind kind)
{
	static const char *const names[] = {
#define HB_KIND_NAME(suffix, name) name,
		HB_OBJECT_KINDS(HB_KIND_NAME)
#undef HB_KIND_NAME
	};

	return (unsigned)kind < HB_KIND__NR ? names[kind] : "?";
}

/* The record kinds and key=value keys, from stream-records.def. */
enum hb_record {
#define HB_RECORD(ID, word, FIELDS) HB_REC_##ID,
#include "stream-records.def"
	HB_REC__NR
};

enum hb_field {
#define HB_FIELD(RECORD, ID, key, TYPE, KINDS, NEED) HB_FIELD_##RECORD##_##ID,
#include "stream-records.def"
	HB_FIELD__NR
};

/* A field's value on the wire (stream-records.def, TYPE). */
enum hb_field_type {
	HB_TYPE_DEC,
	HB_TYPE_HEX,
	HB_TYPE_STR,
	HB_TYPE_WORD,
	HB_TYPE_BYTES,
	HB_TYPE_LENGTH,
};

/* The object kinds a field is for (stream-records.def, KINDS). */
#define HB_KINDS_JIT (1u << HB_KIND_JIT)
#define HB_KINDS_FILE (1u << HB_KIND_NATIVE | 1u << HB_KIND_CWASM)
#define HB_KINDS_ALL (HB_KINDS_JIT | HB_KINDS_FILE)

struct hb_record_info {
	const char *word;
	unsigned fields;	/* before the key=value ones */
};

struct hb_field_info {
	enum hb_record record;
	const char *key;
	enum hb_field_type type;
	unsigned kinds;		/* HB_KINDS_ mask */
	bool required;
};

/* The rows of stream-records.def, indexed by enum hb_record and enum hb_field. */
extern const struct hb_record_info hb_records[HB_REC__NR];
extern const struct hb_field_info hb_fields[HB_FIELD__NR];

/* The record whose kind is word, or HB_REC__NR. */
enum hb_record hb_record_find(const char *word);

#endif
