// SPDX-License-Identifier: MIT
/* Writes one section of the annotated stream (see stream-writer.h, STREAM.md). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stream-writer.h"

static bool escaped(unsigned char c)
{
	return c <= 0x20 || c >= 0x7f || c == '%';
}

static void put_bytes(FILE *f, const unsigned char *p, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";

	for (size_t i = 0; i < n; i++) {
		if (escaped(p[i])) {
			putc('%', f);
			putc(hex[p[i] >> 4], f);
			putc(hex[p[i] & 15], f);
		} else {
			putc(p[i], f);
		}
	}
}

/* How many bytes of s fit in max bytes as written (each escape is 3). */
static size_t fitting(const unsigned char *s, size_t max)
{
	size_t n = 0, used = 0;

	for (; s[n]; n++) {
		size_t w = escaped(s[n]) ? 3 : 1;

		if (used + w > max)
			break;
		used += w;
	}
	return n;
}

size_t stream_writer__put_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = fitting(s, HB_STREAM_STRING_MAX), cut;

	if (!s[n]) {
		put_bytes(f, s, n);
		return 0;
	}
	/* Too long: as much as fits before the marker, but not the first bytes
	 * of a UTF-8 character whose last ones do not fit. */
	cut = fitting(s, HB_STREAM_STRING_MAX - 3 * (sizeof(HB_STREAM_SHORTENED) - 1));
	size_t lead = cut;

	while (lead > 0 && cut - lead < 3 && (s[lead] & 0xc0) == 0x80)
		lead--;
	if (lead < cut && (s[lead] & 0xc0) == 0xc0)
		cut = lead;
	put_bytes(f, s, cut);
	put_bytes(f, (const unsigned char *)HB_STREAM_SHORTENED, sizeof(HB_STREAM_SHORTENED) - 1);
	return strlen(str);
}

/* The kind that starts a record's line. */
static void put_word(FILE *f, enum hb_record r)
{
	fputs(hb_records[r].word, f);
}

/* " key=value" of a number field, as its type writes it. */
static void put_number(FILE *f, enum hb_field k, uint64_t v)
{
	fprintf(f, hb_fields[k].type == HB_TYPE_HEX ? " %s=0x%" PRIx64 : " %s=%" PRIu64, hb_fields[k].key, v);
}

/* " key=" and a string field; its full length when it was shortened (stream_writer__put_string). */
static size_t put_field_string(FILE *f, enum hb_field k, const char *s)
{
	fprintf(f, " %s=", hb_fields[k].key);
	return stream_writer__put_string(f, s);
}

/* After a string that was shortened: its full length (STREAM.md "Lines"). */
static void put_length(FILE *f, enum hb_field k, size_t full)
{
	if (full)
		put_number(f, k, full);
}

static int str_cmp(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* STREAM.md "Objects are written in a deterministic order". */
static int cmp_object(const void *pa, const void *pb)
{
	const struct stream_writer_object *a = pa, *b = pb;
	int c;

	if ((a->kind == HB_KIND_JIT) != (b->kind == HB_KIND_JIT))
		return a->kind == HB_KIND_JIT ? -1 : 1;
	if (a->kind == HB_KIND_JIT) {
		if ((c = cmp_u64(a->pid, b->pid)) || (c = cmp_u64(a->load_time, b->load_time)) ||
		    (c = cmp_u64(a->code_index, b->code_index)) || (c = cmp_u64(a->addr, b->addr)))
			return c;
		return cmp_u64(a->id, b->id);
	}
	if ((c = str_cmp(a->dso, b->dso)) || (c = cmp_u64(a->sym_start, b->sym_start)) ||
	    (c = str_cmp(a->name, b->name)) || (c = cmp_u64(a->pid, b->pid)))
		return c;
	return cmp_u64(a->id, b->id);
}

struct id_map {
	uint32_t id, stream_id;
};

static int cmp_id_map(const void *pa, const void *pb)
{
	const struct id_map *a = pa, *b = pb;

	return cmp_u64(a->id, b->id);
}

static int cmp_sample(const void *pa, const void *pb)
{
	const struct tally_entry *a = pa, *b = pb;
	int c;

	if ((c = cmp_u64(a->obj, b->obj)) || (c = cmp_u64(a->ev, b->ev)))
		return c;
	return cmp_u64(a->off, b->off);
}

/* An object's record: its key=value fields in the table's order (stream-records.def). */
static void write_object_record(FILE *f, const struct stream_writer_object *o, size_t sid)
{
	size_t path_len, name_len;
	bool jit = o->kind == HB_KIND_JIT;

	fprintf(f, "%s %zu %s", hb_records[HB_REC_OBJECT].word, sid, hb_kind_name(o->kind));
	put_number(f, HB_FIELD_OBJECT_PID, o->pid);
	put_number(f, HB_FIELD_OBJECT_E_MACHINE, o->e_machine);
	put_number(f, HB_FIELD_OBJECT_ADDR, o->addr);
	put_number(f, HB_FIELD_OBJECT_SIZE, o->size);
	if (jit) {
		put_number(f, HB_FIELD_OBJECT_CODE_INDEX, o->code_index);
		put_number(f, HB_FIELD_OBJECT_LOAD_TIME, o->load_time);
		path_len = put_field_string(f, HB_FIELD_OBJECT_DUMP, o->dump ? o->dump : "");
	} else {
		path_len = put_field_string(f, HB_FIELD_OBJECT_DSO, o->dso ? o->dso : "");
		put_number(f, HB_FIELD_OBJECT_SYM_START, o->sym_start);
		/* a word: written as it is */
		if (o->source)
			fprintf(f, " %s=%s", hb_fields[HB_FIELD_OBJECT_SOURCE].key, o->source);
	}
	name_len = put_field_string(f, HB_FIELD_OBJECT_NAME, o->name ? o->name : "");
	put_length(f, jit ? HB_FIELD_OBJECT_DUMP_LENGTH : HB_FIELD_OBJECT_DSO_LENGTH, path_len);
	put_length(f, HB_FIELD_OBJECT_NAME_LENGTH, name_len);
	putc('\n', f);
}

static void write_object(FILE *f, const struct stream_writer_object *o, size_t sid)
{
	write_object_record(f, o, sid);
	if (o->code_file && o->code_len) {
		fprintf(f, "%s %zu 0x%" PRIx64 " %zu 0x%016" PRIx64 " ", hb_records[HB_REC_CODE_FILE].word, sid,
			o->code_file_off, o->code_len, o->code_crc);
		/* within the string limit: code-refs.c refers to no longer path */
		stream_writer__put_string(f, o->code_file);
		putc('\n', f);
	}
	for (size_t off = 0; !o->code_file && off < o->code_len; off += HB_STREAM_CODE_CHUNK) {
		size_t n = o->code_len - off < HB_STREAM_CODE_CHUNK ? o->code_len - off : HB_STREAM_CODE_CHUNK;

		/* A table and one fwrite per line: code bytes are most of a stream,
		 * and printf per byte cost more than resolving the samples. */
		static const char hex[] = "0123456789abcdef";
		char line[2 * HB_STREAM_CODE_CHUNK + 1];

		for (size_t i = 0; i < n; i++) {
			line[2 * i] = hex[o->code[off + i] >> 4];
			line[2 * i + 1] = hex[o->code[off + i] & 15];
		}
		line[2 * n] = '\n';
		fprintf(f, "%s %zu 0x%zx ", hb_records[HB_REC_CODE].word, sid, off);
		fwrite(line, 1, 2 * n + 1, f);
	}
	for (size_t i = 0; i < o->debug_nr; i++) {
		const struct jitdump_debug_entry *e = &o->debug[i];

		fprintf(f, "%s %zu 0x%" PRIx64 " %" PRIu32 " %" PRIu32 " ", hb_records[HB_REC_DEBUG].word, sid,
			e->addr, e->line, e->discrim);
		put_length(f, HB_FIELD_DEBUG_FILE_LENGTH, stream_writer__put_string(f, e->file ? e->file : ""));
		putc('\n', f);
	}
}

/* A record of one string field: "<kind> <string>[ <length>]\n". */
static void write_string_record(FILE *f, enum hb_record r, const char *s, enum hb_field length)
{
	put_word(f, r);
	putc(' ', f);
	put_length(f, length, stream_writer__put_string(f, s));
	putc('\n', f);
}

/* The branch-stack entries and ranges of each event, by class (as `total`). */
static void write_branch_totals(FILE *f, const struct stream_writer_header *h)
{
	for (size_t e = 0; h->branch_totals && e < h->events_nr; e++) {
		const uint64_t(*t)[2] = h->branch_totals[e];

		if (!t[HB_CLASS_ALL][0] && !t[HB_CLASS_ALL][1])
			continue;
		for (int c = 0; c < HB_CLASS__NR; c++)
			if (t[c][0] || t[c][1] || c == HB_CLASS_ALL)
				fprintf(f, "%s %zu %s %" PRIu64 " %" PRIu64 "\n", hb_records[HB_REC_BRANCH_TOTAL].word, e,
					hb_class_name(c), t[c][0], t[c][1]);
	}
}

/* The records before the objects: what the run read, its events, warnings and totals. */
static void write_header(FILE *f, const struct stream_writer_header *h)
{
	fprintf(f, "%s %d\n", hb_records[HB_REC_SECTION].word, HB_STREAM_VERSION);
	write_string_record(f, HB_REC_PRODUCER, h->producer, HB_FIELD_PRODUCER_TEXT_LENGTH);
	write_string_record(f, HB_REC_INPUT, h->input ? h->input : "-", HB_FIELD_INPUT_PATH_LENGTH);
	fprintf(f, "%s %s\n", hb_records[HB_REC_TIME_AWARE].word, h->time_aware ? "yes" : "no");
	for (size_t e = 0; e < h->events_nr; e++) {
		fprintf(f, "%s %zu ", hb_records[HB_REC_EVENT].word, e);
		put_length(f, HB_FIELD_EVENT_NAME_LENGTH, stream_writer__put_string(f, h->events[e]));
		putc('\n', f);
	}
	for (size_t i = 0; i < h->jitdumps_nr; i++) {
		const struct stream_writer_jitdump *j = &h->jitdumps[i];
		size_t path_len;

		put_word(f, HB_REC_JITDUMP);
		putc(' ', f);
		path_len = stream_writer__put_string(f, j->path);
		put_number(f, HB_FIELD_JITDUMP_PID, j->pid);
		put_number(f, HB_FIELD_JITDUMP_LOADS, j->loads);
		fprintf(f, " %s=%s", hb_fields[HB_FIELD_JITDUMP_STATUS].key, j->status);
		put_length(f, HB_FIELD_JITDUMP_PATH_LENGTH, path_len);
		putc('\n', f);
	}
	for (size_t i = 0; i < h->warnings_nr; i++)
		write_string_record(f, HB_REC_WARNING, h->warnings[i], HB_FIELD_WARNING_TEXT_LENGTH);
	for (size_t e = 0; e < h->events_nr; e++)
		for (int c = 0; c < HB_CLASS__NR; c++)
			if (h->totals[e][c][0] || c == HB_CLASS_ALL)
				fprintf(f, "%s %zu %s %" PRIu64 " %" PRIu64 "\n", hb_records[HB_REC_TOTAL].word, e,
					hb_class_name(c), h->totals[e][c][0], h->totals[e][c][1]);
	write_branch_totals(f, h);
}

static int cmp_branch(const void *pa, const void *pb)
{
	const struct branch_count *a = pa, *b = pb;
	int c;

	if ((c = cmp_u64(a->kind, b->kind)) || (c = cmp_u64(a->from_obj, b->from_obj)) ||
	    (c = cmp_u64(a->from_off, b->from_off)) || (c = cmp_u64(a->to_obj, b->to_obj)) ||
	    (c = cmp_u64(a->to_off, b->to_off)) || (c = cmp_u64(a->ev, b->ev)))
		return c;
	return cmp_u64(a->flags, b->flags);
}

/* A taken edge's flags as one word: M, P, X, A as perf's brstack prints them, or -. */
static void put_branch_flags(FILE *f, unsigned flags)
{
	static const char letters[] = "MPXA";

	putc(' ', f);
	for (unsigned i = 0; i < 4; i++)
		if (flags & 1u << i)
			putc(letters[i], f);
	if (!flags)
		putc('-', f);
}

/* The branch counts whose both ends have an object, renamed to the stream's
 * ids (ids: sorted by caller's id) and sorted: taken edges, then ranges. */
static int write_branches(FILE *f, const struct stream_writer_header *h, const struct id_map *ids, size_t nr)
{
	struct branch_count *v = malloc((h->branches_nr ? h->branches_nr : 1) * sizeof(*v));
	size_t n = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < h->branches_nr; i++) {
		struct id_map kf = { .id = h->branches[i].from_obj }, kt = { .id = h->branches[i].to_obj };
		const struct id_map *mf = bsearch(&kf, ids, nr, sizeof(*ids), cmp_id_map);
		const struct id_map *mt = bsearch(&kt, ids, nr, sizeof(*ids), cmp_id_map);

		if (!mf || !mt)
			continue;
		v[n] = h->branches[i];
		v[n].from_obj = mf->stream_id;
		v[n++].to_obj = mt->stream_id;
	}
	qsort(v, n, sizeof(*v), cmp_branch);
	for (size_t i = 0; i < n; i++) {
		const struct branch_count *b = &v[i];
		bool taken = b->kind == BRANCH_TAKEN;

		fprintf(f, "%s %" PRIu32 " 0x%" PRIx64 " %" PRIu32 " 0x%" PRIx64 " %" PRIu32,
			hb_records[taken ? HB_REC_BRANCH : HB_REC_RANGE].word, b->from_obj, b->from_off, b->to_obj,
			b->to_off, b->ev);
		if (taken)
			put_branch_flags(f, b->flags);
		fprintf(f, " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", b->count, b->cycles_nr, b->cycles_sum);
	}
	free(v);
	return 0;
}

/* The stacks being written: their frames renamed to the stream's ids. */
struct stack_out {
	const struct stack_count *c;
	struct stack_frame *f;
};

static int cmp_stack(const void *pa, const void *pb)
{
	const struct stack_out *a = pa, *b = pb;
	int c;

	if ((c = cmp_u64(a->c->ev, b->c->ev)))
		return c;
	for (uint32_t i = 0; i < a->c->frames_nr && i < b->c->frames_nr; i++)
		if ((c = cmp_u64(a->f[i].obj, b->f[i].obj)) || (c = cmp_u64(a->f[i].off, b->f[i].off)))
			return c;
	return cmp_u64(a->c->frames_nr, b->c->frames_nr);
}

/* The callchain stacks, leaf first, frames renamed to the stream's ids
 * (a frame of an object not written is named as code without a symbol),
 * sorted by (event, frames). */
static int write_stacks(FILE *f, const struct stream_writer_header *h, const struct id_map *ids, size_t nr)
{
	const struct callchains *cc = h->callchains;

	if (!cc || !cc->nr)
		return 0;
	struct stack_out *v = malloc(cc->nr * sizeof(*v));
	struct stack_frame *frames = malloc((cc->frames_nr ? cc->frames_nr : 1) * sizeof(*frames));

	if (!v || !frames) {
		free(v);
		free(frames);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cc->nr; i++) {
		const struct stack_count *c = &cc->v[i];

		v[i] = (struct stack_out){ c, frames + c->first };
		for (uint32_t k = 0; k < c->frames_nr; k++) {
			struct stack_frame fr = cc->frames[c->first + k];

			if (fr.obj != STACK_FRAME_CLASS) {
				struct id_map key = { .id = fr.obj };
				const struct id_map *m = bsearch(&key, ids, nr, sizeof(*ids), cmp_id_map);

				fr = m ? (struct stack_frame){ m->stream_id, fr.off } :
					 (struct stack_frame){ STACK_FRAME_CLASS, HB_CLASS_NO_SYMBOL };
			}
			v[i].f[k] = fr;
		}
	}
	qsort(v, cc->nr, sizeof(*v), cmp_stack);
	for (size_t i = 0; i < cc->nr; i++) {
		fprintf(f, "%s %" PRIu32 " %" PRIu64 " %" PRIu64 " ", hb_records[HB_REC_STACK].word, v[i].c->ev,
			v[i].c->samples, v[i].c->period);
		for (uint32_t k = 0; k < v[i].c->frames_nr; k++) {
			const struct stack_frame *fr = &v[i].f[k];

			if (k)
				putc(',', f);
			if (fr->obj == STACK_FRAME_CLASS)
				fputs(hb_class_name((enum hb_sample_class)fr->off), f);
			else
				fprintf(f, "%" PRIu32 ":0x%" PRIx64, fr->obj, fr->off);
		}
		putc('\n', f);
	}
	free(v);
	free(frames);
	return 0;
}

/* The records after the samples: code loads and file mappings. */
static void write_targets(FILE *f, const struct stream_writer_header *h)
{
	for (size_t i = 0; i < h->loads_nr; i++) {
		const struct stream_writer_load *l = &h->loads[i];

		put_word(f, HB_REC_LOAD);
		put_number(f, HB_FIELD_LOAD_PID, l->pid);
		put_number(f, HB_FIELD_LOAD_ADDR, l->addr);
		put_number(f, HB_FIELD_LOAD_SIZE, l->size);
		put_number(f, HB_FIELD_LOAD_LOAD_TIME, l->load_time);
		put_length(f, HB_FIELD_LOAD_NAME_LENGTH, put_field_string(f, HB_FIELD_LOAD_NAME, l->name));
		putc('\n', f);
	}
	for (size_t i = 0; i < h->maps_nr; i++) {
		const struct stream_writer_map *m = &h->maps[i];

		put_word(f, HB_REC_MAP);
		put_number(f, HB_FIELD_MAP_PID, m->pid);
		put_number(f, HB_FIELD_MAP_ADDR, m->addr);
		put_number(f, HB_FIELD_MAP_SIZE, m->size);
		put_number(f, HB_FIELD_MAP_PGOFF, m->pgoff);
		put_number(f, HB_FIELD_MAP_TIME, m->time);
		put_length(f, HB_FIELD_MAP_DSO_LENGTH, put_field_string(f, HB_FIELD_MAP_DSO, m->path));
		if (m->build_id_size) {
			fprintf(f, " %s=", hb_fields[HB_FIELD_MAP_BUILD_ID].key);
			for (size_t k = 0; k < m->build_id_size; k++)
				fprintf(f, "%02x", m->build_id[k]);
		}
		if (m->found)
			put_length(f, HB_FIELD_MAP_FOUND_LENGTH, put_field_string(f, HB_FIELD_MAP_FOUND, m->found));
		putc('\n', f);
	}
}

/* counts renamed to the stream's object ids (the objects' order), those of
 * no object left out, sorted by (obj, ev, off) into samples; their number. */
static size_t renumber_samples(const struct stream_writer_object *objs, size_t nr, struct id_map *ids,
			       const struct tally_entry *counts, size_t counts_nr, struct tally_entry *samples)
{
	size_t n = 0;

	for (size_t i = 0; i < nr; i++)
		ids[i] = (struct id_map){ .id = objs[i].id, .stream_id = (uint32_t)i };
	qsort(ids, nr, sizeof(*ids), cmp_id_map);
	for (size_t i = 0; i < counts_nr; i++) {
		struct id_map key = { .id = counts[i].obj };
		const struct id_map *m = bsearch(&key, ids, nr, sizeof(*ids), cmp_id_map);

		if (!m)
			continue;
		samples[n] = counts[i];
		samples[n++].obj = m->stream_id;
	}
	qsort(samples, n, sizeof(*samples), cmp_sample);
	return n;
}

int stream_writer__write(FILE *f, const struct stream_writer_header *h,
			 struct stream_writer_object *objs, size_t nr,
			 const struct tally_entry *counts, size_t counts_nr)
{
	struct id_map *ids = NULL;
	struct tally_entry *samples = NULL;
	const char *sample = hb_records[HB_REC_SAMPLE].word;
	int ret = -ENOMEM;
	size_t n;

	if (nr)
		qsort(objs, nr, sizeof(*objs), cmp_object);
	ids = malloc((nr ? nr : 1) * sizeof(*ids));
	samples = malloc((counts_nr ? counts_nr : 1) * sizeof(*samples));
	if (!ids || !samples)
		goto out;
	n = renumber_samples(objs, nr, ids, counts, counts_nr, samples);
	write_header(f, h);
	for (size_t i = 0; i < nr; i++)
		write_object(f, &objs[i], i);
	/* A sample's line as any other: its kind is one more %s of six. */
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s %" PRIu32 " %" PRIu32 " 0x%" PRIx64 " %" PRIu64 " %" PRIu64 "\n", sample,
			samples[i].obj, samples[i].ev, samples[i].off, samples[i].samples,
			samples[i].period);
	if (write_branches(f, h, ids, nr) < 0 || write_stacks(f, h, ids, nr) < 0)
		goto out;
	write_targets(f, h);
	fprintf(f, "%s\n", hb_records[HB_REC_END].word);
	ret = fflush(f) || ferror(f) ? -EIO : 0;
out:
	free(ids);
	free(samples);
	return ret;
}
