/* SPDX-License-Identifier: MIT */
/* The stream's sections and their lines, each to its record's reader, merged into a struct stream (stream__read, stream.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stream-parse.h"

static int rec_ignore(struct parser *p)
{
	return 0;
}

/* The records this reader knows, by the table's kinds (STREAM.md "Records");
 * a section's start and end are the parser's own. */
static int (*const records[HB_REC__NR])(struct parser *p) = {
	[HB_REC_PRODUCER] = rec_ignore,
	[HB_REC_INPUT] = stream_runs__input,
	[HB_REC_TIME_AWARE] = rec_ignore,
	[HB_REC_EVENT] = stream_runs__event,
	[HB_REC_JITDUMP] = stream_runs__jitdump,
	[HB_REC_WARNING] = stream_runs__warning,
	[HB_REC_TOTAL] = stream_runs__total,
	[HB_REC_OBJECT] = stream_objects__object,
	[HB_REC_CODE] = stream_objects__code,
	[HB_REC_CODE_FILE] = stream_objects__code_file,
	[HB_REC_DEBUG] = stream_objects__debug,
	[HB_REC_SAMPLE] = stream_objects__sample,
	[HB_REC_BRANCH_TOTAL] = stream_branches__total,
	[HB_REC_BRANCH] = stream_branches__branch,
	[HB_REC_RANGE] = stream_branches__range,
	[HB_REC_STACK] = stream_stacks__stack,
	[HB_REC_LOAD] = stream_runs__load,
	[HB_REC_MAP] = stream_runs__map,
};

static void section_reset(struct parser *p)
{
	p->objs_nr = p->evs_nr = 0;
	idx_table_clear(&p->obj_ids);
	idx_table_clear(&p->ev_ids);
}

static int section_start(struct parser *p)
{
	uint64_t major = 0;
	int err;

	if (p->in_section)
		return stream_lex__bad(p, "new section before the end of the one started at line %lu"
			   " (truncated stream?)", p->section_line);
	if (p->nf < 2)
		return stream_lex__bad(p, "'%s' without a version", HB_STREAM_MAGIC);
	if ((err = stream_lex__get_dec(p, p->f[1], "stream version", &major)))
		return err;
	if (major != HB_STREAM_VERSION)
		return stream_lex__bad(p, "stream version %s is not supported (this hotblocks reads version %d)",
			   p->f[1], HB_STREAM_VERSION);
	if ((err = stream_lex__check_record(p, HB_REC_SECTION)))
		return err;
	if (p->s->runs_nr >= UINT32_MAX - 1)
		return stream_lex__bad(p, "too many sections");
	if (VEC_GROW(p->s->runs, p->s->runs_nr + 1, p->s->runs_alloc))
		return stream_lex__oom(p);
	p->s->runs[p->s->runs_nr++] = (struct stream_run){ .origin = p->fname, .line = p->line };
	p->in_section = true;
	p->section_line = p->line;
	section_reset(p);
	return 0;
}

/* Whether tok is a whole unsigned decimal number (an id), into *v. */
static bool dec_id(const char *tok, uint64_t *v)
{
	uint64_t n = 0;

	if (!*tok)
		return false;
	for (; *tok; tok++) {
		if (*tok < '0' || *tok > '9' || n > (UINT64_MAX - (uint64_t)(*tok - '0')) / 10)
			return false;
		n = n * 10 + (uint64_t)(*tok - '0');
	}
	*v = n;
	return true;
}

/*
 * A line longer than HB_STREAM_LINE_MAX (head: its first bytes; bytes: its
 * length): its record alone is lost and told (stream.lost). An object or
 * event it defined is remembered as lost, so that the lines referring to it
 * are skipped and counted, not refused. The lines that make the sections
 * cannot be lost without losing more: there it is an error.
 */
static int lost_line(struct parser *p, char *head, uint64_t bytes)
{
	struct stream *s = p->s;
	uint32_t lost = UINT32_MAX;
	enum hb_record rec;
	bool has_id, object, event;
	uint64_t id = 0;

	stream_lex__split(p, head);
	rec = hb_record_find(p->f[0]);
	if (!p->in_section || rec == HB_REC_SECTION || rec == HB_REC_END)
		return stream_lex__bad(p, "line of %" PRIu64 " bytes, longer than a stream's lines can be (%u)%s",
			   bytes, HB_STREAM_LINE_MAX, p->in_section ? "" : " (not a hotblocks stream?)");
	/* The id is known when the head holds all of it (a field follows). */
	has_id = (rec == HB_REC_OBJECT || rec == HB_REC_EVENT) && p->nf > 2 && dec_id(p->f[1], &id);
	object = has_id && rec == HB_REC_OBJECT;
	event = has_id && rec == HB_REC_EVENT;
	if (s->lost_nr < STREAM_LOST_MAX) {
		struct stream_lost *l;

		if (VEC_GROW(s->lost, s->lost_nr + 1, s->lost_alloc))
			return stream_lex__oom(p);
		l = &s->lost[s->lost_nr];
		*l = (struct stream_lost){ .origin = p->fname, .line = p->line, .bytes = bytes,
					   .has_id = has_id, .id = id };
		snprintf(l->kind, sizeof(l->kind), "%s", p->f[0]);
		lost = (uint32_t)s->lost_nr++;
	} else {
		s->lost_dropped++;
	}
	if (object && stream_ids__has_obj(p, id))
		return stream_lex__bad(p, "object %s defined twice in this section", p->f[1]);
	if (event && stream_ids__has_ev(p, id))
		return stream_lex__bad(p, "event %s defined twice in this section", p->f[1]);
	if (object)
		return stream_ids__add_obj(p, id, LOST, lost);
	return event ? stream_ids__add_ev(p, id, LOST, lost) : 0;
}

static int parse_line(struct parser *p, char *line)
{
	enum hb_record rec;

	if (!*line || *line == '#')
		return 0;
	stream_lex__split(p, line);
	rec = hb_record_find(p->f[0]);
	if (rec == HB_REC_SECTION)
		return section_start(p);
	if (!p->in_section && rec == HB_REC_END)
		return stream_lex__bad(p, "'%s' outside a section", hb_records[HB_REC_END].word);
	if (!p->in_section)
		return stream_lex__bad(p, "expected '%s %d' (not a hotblocks stream?)", HB_STREAM_MAGIC,
			   HB_STREAM_VERSION);
	if (rec == HB_REC_END) {
		if (p->nf > 1)
			return stream_lex__bad(p, "'%s' takes no fields", hb_records[HB_REC_END].word);
		p->in_section = false;
		p->s->sections++;
		return 0;
	}
	/* STREAM.md: newer writers may add kinds without bumping the version. */
	if (rec == HB_REC__NR) {
		p->s->skipped_kinds++;
		return 0;
	}
	return records[rec](p);
}

int stream__read(struct stream *s, FILE *f, const char *fname, char *err, size_t errlen)
{
	struct reader r = { .f = f };
	struct parser p = { .s = s, .fname = fname, .err = err, .errlen = errlen };
	uint64_t sections = s->sections;
	char *line = NULL;
	int ret;

	if (s->finished) {
		snprintf(err, errlen, "%s: stream already finished", fname);
		return -EINVAL;
	}
	while ((ret = stream_lex__next_line(&r, &p, &line)) > 0) {
		ret = ret == 2 ? lost_line(&p, line, r.long_len) : parse_line(&p, line);
		if (ret)
			goto out;
	}
	if (ret)
		goto out;
	if (p.in_section)
		ret = stream_lex__bad(&p, "truncated stream: the section started at line %lu has no 'end'",
			  p.section_line);
	else if (s->sections == sections && !p.line) {
		snprintf(err, errlen, "%s+0x0: empty input: no '%s' section", fname, HB_STREAM_MAGIC);
		ret = -EINVAL;
	} else if (s->sections == sections) {
		snprintf(err, errlen, "%s:%lu: no '%s' section in its %lu line%s", fname, p.line,
			 HB_STREAM_MAGIC, p.line, p.line == 1 ? "" : "s");
		ret = -EINVAL;
	}
out:
	free(r.buf);
	free(p.objs);
	free(p.evs);
	idx_table_release(&p.obj_ids);
	idx_table_release(&p.ev_ids);
	return ret;
}
