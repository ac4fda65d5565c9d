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

/* After a string field that was shortened: its full length (STREAM.md "Lines"). */
static void put_length(FILE *f, const char *field, size_t full)
{
	if (full)
		fprintf(f, " %s-length=%zu", field, full);
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

static void write_object(FILE *f, const struct stream_writer_object *o, size_t sid)
{
	const char *path_key = o->kind == HB_KIND_JIT ? "dump" : "dso";
	size_t path_len, name_len;

	fprintf(f, "object %zu %s pid=%" PRIu32 " e_machine=%u addr=0x%" PRIx64 " size=%" PRIu64,
		sid, hb_kind_name(o->kind), o->pid, o->e_machine, o->addr, o->size);
	if (o->kind == HB_KIND_JIT) {
		fprintf(f, " code-index=%" PRIu64 " load-time=%" PRIu64 " dump=", o->code_index,
			o->load_time);
		path_len = stream_writer__put_string(f, o->dump ? o->dump : "");
	} else {
		fputs(" dso=", f);
		path_len = stream_writer__put_string(f, o->dso ? o->dso : "");
		fprintf(f, " sym-start=0x%" PRIx64, o->sym_start);
		if (o->source)
			fprintf(f, " source=%s", o->source);
	}
	fputs(" name=", f);
	name_len = stream_writer__put_string(f, o->name ? o->name : "");
	put_length(f, path_key, path_len);
	put_length(f, "name", name_len);
	putc('\n', f);

	for (size_t off = 0; off < o->code_len; off += HB_STREAM_CODE_CHUNK) {
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
		fprintf(f, "code %zu 0x%zx ", sid, off);
		fwrite(line, 1, 2 * n + 1, f);
	}
	for (size_t i = 0; i < o->debug_nr; i++) {
		const struct jitdump_debug_entry *e = &o->debug[i];

		fprintf(f, "debug %zu 0x%" PRIx64 " %" PRIu32 " %" PRIu32 " ", sid, e->addr, e->line,
			e->discrim);
		put_length(f, "file", stream_writer__put_string(f, e->file ? e->file : ""));
		putc('\n', f);
	}
}

int stream_writer__write(FILE *f, const struct stream_writer_header *h,
			 struct stream_writer_object *objs, size_t nr,
			 const struct tally_entry *counts, size_t counts_nr)
{
	struct id_map *ids = NULL;
	struct tally_entry *samples = NULL;
	int ret = -ENOMEM;

	if (nr)
		qsort(objs, nr, sizeof(*objs), cmp_object);
	ids = malloc((nr ? nr : 1) * sizeof(*ids));
	samples = malloc((counts_nr ? counts_nr : 1) * sizeof(*samples));
	if (!ids || !samples)
		goto out;
	for (size_t i = 0; i < nr; i++)
		ids[i] = (struct id_map){ .id = objs[i].id, .stream_id = (uint32_t)i };
	qsort(ids, nr, sizeof(*ids), cmp_id_map);

	size_t n = 0;

	for (size_t i = 0; i < counts_nr; i++) {
		struct id_map key = { .id = counts[i].obj };
		const struct id_map *m = bsearch(&key, ids, nr, sizeof(*ids), cmp_id_map);

		if (!m)
			continue;
		samples[n] = counts[i];
		samples[n++].obj = m->stream_id;
	}
	qsort(samples, n, sizeof(*samples), cmp_sample);

	fprintf(f, "%s %d\n", HB_STREAM_MAGIC, HB_STREAM_VERSION);
	fputs("producer ", f);
	put_length(f, "text", stream_writer__put_string(f, h->producer));
	fputs("\ninput ", f);
	put_length(f, "path", stream_writer__put_string(f, h->input ? h->input : "-"));
	fprintf(f, "\ntime-aware %s\n", h->time_aware ? "yes" : "no");
	for (size_t e = 0; e < h->events_nr; e++) {
		fprintf(f, "event %zu ", e);
		put_length(f, "name", stream_writer__put_string(f, h->events[e]));
		putc('\n', f);
	}
	for (size_t i = 0; i < h->jitdumps_nr; i++) {
		const struct stream_writer_jitdump *j = &h->jitdumps[i];
		size_t path_len;

		fputs("jitdump ", f);
		path_len = stream_writer__put_string(f, j->path);
		fprintf(f, " pid=%" PRIu32 " loads=%zu status=%s", j->pid, j->loads, j->status);
		put_length(f, "path", path_len);
		putc('\n', f);
	}
	for (size_t i = 0; i < h->warnings_nr; i++) {
		fputs("warning ", f);
		put_length(f, "text", stream_writer__put_string(f, h->warnings[i]));
		putc('\n', f);
	}
	for (size_t e = 0; e < h->events_nr; e++)
		for (int c = 0; c < HB_CLASS__NR; c++)
			if (h->totals[e][c][0] || c == HB_CLASS_ALL)
				fprintf(f, "total %zu %s %" PRIu64 " %" PRIu64 "\n", e, hb_class_name(c),
					h->totals[e][c][0], h->totals[e][c][1]);
	for (size_t i = 0; i < nr; i++)
		write_object(f, &objs[i], i);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "sample %" PRIu32 " %" PRIu32 " 0x%" PRIx64 " %" PRIu64 " %" PRIu64 "\n",
			samples[i].obj, samples[i].ev, samples[i].off, samples[i].samples,
			samples[i].period);
	for (size_t i = 0; i < h->loads_nr; i++) {
		const struct stream_writer_load *l = &h->loads[i];

		fprintf(f, "load pid=%" PRIu32 " addr=0x%" PRIx64 " size=%" PRIu64 " load-time=%" PRIu64
			" name=", l->pid, l->addr, l->size, l->load_time);
		put_length(f, "name", stream_writer__put_string(f, l->name));
		putc('\n', f);
	}
	for (size_t i = 0; i < h->maps_nr; i++) {
		const struct stream_writer_map *m = &h->maps[i];

		fprintf(f, "map pid=%" PRIu32 " addr=0x%" PRIx64 " size=%" PRIu64 " pgoff=0x%" PRIx64
			" time=%" PRIu64 " dso=", m->pid, m->addr, m->size, m->pgoff, m->time);
		put_length(f, "dso", stream_writer__put_string(f, m->path));
		if (m->build_id_size) {
			fputs(" build-id=", f);
			for (size_t k = 0; k < m->build_id_size; k++)
				fprintf(f, "%02x", m->build_id[k]);
		}
		putc('\n', f);
	}
	fputs("end\n", f);
	ret = fflush(f) || ferror(f) ? -EIO : 0;
out:
	free(ids);
	free(samples);
	return ret;
}
