/* SPDX-License-Identifier: MIT */
/* The records of what a run read and saw: its input, events, jitdumps, warnings, totals, loads and maps (stream-parse.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stream-parse.h"

/* STREAM.md `input`: which recording the run read, for provenance. */
int stream_runs__input(struct parser *p)
{
	struct stream_run *run = &p->s->runs[p->s->runs_nr - 1];
	int err;

	if (p->nf < 2 || run->input)
		return 0;
	if ((err = stream_lex__get_str(p, p->f[1], "input")))
		return err;
	run->input = strdup(p->f[1]);
	return run->input ? 0 : stream_lex__oom(p);
}

int stream_runs__event(struct parser *p)
{
	struct stream *s = p->s;
	uint64_t id;
	size_t i;
	int err;

	if ((err = stream_lex__check_record(p, HB_REC_EVENT)) ||
	    (err = stream_lex__get_dec(p, p->f[1], "event id", &id)) ||
	    (err = stream_lex__get_str(p, p->f[2], "event name")))
		return err;
	if (stream_ids__has_ev(p, id))
		return stream_lex__bad(p, "event %s defined twice in this section", p->f[1]);
	for (i = 0; i < s->events_nr; i++)
		if (!strcmp(s->events[i].name, p->f[2]))
			break;
	if (i == s->events_nr) {
		if (s->events_nr == MAX_EVENTS)
			return stream_lex__bad(p, "more than %d distinct events", MAX_EVENTS);
		if (VEC_GROW(s->events, s->events_nr + 1, s->events_alloc))
			return stream_lex__oom(p);
		memset(&s->events[i], 0, sizeof(s->events[i]));
		s->events[i].name = strdup(p->f[2]);
		if (!s->events[i].name)
			return stream_lex__oom(p);
		s->events_nr++;
	}
	return stream_ids__add_ev(p, id, (uint32_t)i, UINT32_MAX);
}

/* STREAM.md `jitdump`: the dumps the run read, inputs no report may replace (output-file.h). */
int stream_runs__jitdump(struct parser *p)
{
	struct stream_run *run = &p->s->runs[p->s->runs_nr - 1];
	int err;

	if (p->nf < 2)
		return 0;
	if ((err = stream_lex__get_str(p, p->f[1], "jitdump path")))
		return err;
	if (VEC_GROW(run->jitdumps, run->jitdumps_nr + 1, run->jitdumps_alloc) ||
	    !(run->jitdumps[run->jitdumps_nr] = strdup(p->f[1])))
		return stream_lex__oom(p);
	run->jitdumps_nr++;
	return 0;
}

/* STREAM.md `warning`: kept once per distinct text, so a saved stream still tells them. */
int stream_runs__warning(struct parser *p)
{
	struct stream *s = p->s;
	char *text;
	size_t i;
	int err;

	if (p->nf < 2)
		return stream_lex__bad(p, "'%s' record without text", hb_records[HB_REC_WARNING].word);
	if ((err = stream_lex__get_str(p, p->f[1], "warning")))
		return err;
	for (i = 0; i < s->warnings_nr; i++)
		if (!strcmp(s->warnings[i].text, p->f[1]))
			return 0;
	if (s->warnings_nr == STREAM_WARNINGS_MAX) {
		s->warnings_dropped++;
		return 0;
	}
	if (VEC_GROW(s->warnings, s->warnings_nr + 1, s->warnings_alloc) || !(text = strdup(p->f[1])))
		return stream_lex__oom(p);
	s->warnings[s->warnings_nr++] = (struct stream_warning){ text, p->fname };
	return 0;
}

int stream_runs__total(struct parser *p)
{
	struct stream_event *e;
	struct local_ev *le = NULL;
	uint64_t samples = 0, period = 0;
	uint32_t ev;
	size_t cls;
	int err;

	if ((err = stream_lex__check_record(p, HB_REC_TOTAL)) || (err = stream_ids__find_ev(p, p->f[1], &le)) ||
	    (err = stream_lex__get_dec(p, p->f[3], "samples", &samples)) ||
	    (err = stream_lex__get_dec(p, p->f[4], "period", &period)))
		return err;
	if (le->ev == LOST) {
		stream_ids__skip_lost(p, le->lost, 0);
		return 0;
	}
	ev = le->ev;
	if ((cls = stream_lex__class(p->f[2])) == HB_CLASS__NR) {
		/* A newer writer's class: still a sample of `all`, which is given on its own. */
		p->s->skipped_classes++;
		return 0;
	}
	e = &p->s->events[ev];
	if (!add_u64(&e->samples[cls], samples) || !add_u64(&e->period[cls], period))
		return stream_lex__bad(p, "sample total overflows 64 bits");
	struct stream_run *run = &p->s->runs[p->s->runs_nr - 1];

	if (cls == HB_CLASS_ALL) {
		if (stream__tally_add(&run->totals, &run->totals_nr, &run->totals_alloc,
				       (uint32_t)(p->s->runs_nr - 1), ev, samples))
			return stream_lex__oom(p);
		return 0;
	}
	if (VEC_GROW(run->classes, run->classes_nr + 1, run->classes_alloc))
		return stream_lex__oom(p);
	run->classes[run->classes_nr++] = (struct stream_class_total){ ev, (uint32_t)cls, samples };
	return 0;
}

/* The key=value fields of a `load` or `map` (rec) record into v; its pid fits 32 bits. */
static int get_target_fields(struct parser *p, enum hb_record rec, enum hb_field pid, struct stream_field *v)
{
	int err = stream_lex__get_fields(p, rec, HB_KINDS_ALL, 1, p->f[0], v);

	if (!err && v[pid].num > UINT32_MAX)
		return stream_lex__bad(p, "%s: pid %" PRIu64 " is out of range", p->f[0], v[pid].num);
	return err;
}

/* STREAM.md `load`: a code load of a sampled process. */
int stream_runs__load(struct parser *p)
{
	struct stream_field v[HB_FIELD__NR];
	struct stream *s = p->s;
	char *name;
	int err;

	if ((err = get_target_fields(p, HB_REC_LOAD, HB_FIELD_LOAD_PID, v)))
		return err;
	if (VEC_GROW(s->loads, s->loads_nr + 1, s->loads_alloc) || !(name = strdup(v[HB_FIELD_LOAD_NAME].str)))
		return stream_lex__oom(p);
	s->loads[s->loads_nr++] = (struct stream_load){
		(uint32_t)v[HB_FIELD_LOAD_PID].num, v[HB_FIELD_LOAD_ADDR].num, v[HB_FIELD_LOAD_SIZE].num,
		v[HB_FIELD_LOAD_LOAD_TIME].num, name
	};
	return 0;
}

/* A map's build-id= (lowercase hex) into m. */
static int get_build_id(struct parser *p, const char *hex, struct stream_map *m)
{
	size_t n = strlen(hex);

	if (n % 2 || n / 2 > sizeof(m->build_id) || strspn(hex, "0123456789abcdef") != n)
		return stream_lex__bad(p, "%s: build-id '%s' is not up to %zu bytes of lowercase hex",
				       p->f[0], hex, sizeof(m->build_id));
	for (size_t i = 0; i < n / 2; i++)
		m->build_id[i] = (uint8_t)(hexval((unsigned char)hex[2 * i]) << 4 |
					   hexval((unsigned char)hex[2 * i + 1]));
	m->build_id_size = (uint8_t)(n / 2);
	return 0;
}

/* STREAM.md `map`: an executable file mapping of a sampled process. */
int stream_runs__map(struct parser *p)
{
	struct stream_field v[HB_FIELD__NR];
	struct stream *s = p->s;
	struct stream_map m = { 0 };
	int err;

	if ((err = get_target_fields(p, HB_REC_MAP, HB_FIELD_MAP_PID, v)))
		return err;
	if (v[HB_FIELD_MAP_BUILD_ID].given && (err = get_build_id(p, v[HB_FIELD_MAP_BUILD_ID].str, &m)))
		return err;
	if (VEC_GROW(s->maps, s->maps_nr + 1, s->maps_alloc) || !(m.path = strdup(v[HB_FIELD_MAP_DSO].str)))
		return stream_lex__oom(p);
	if (v[HB_FIELD_MAP_FOUND].given) {
		char *found = strdup(v[HB_FIELD_MAP_FOUND].str);

		if (!found || VEC_GROW(s->maps_found, s->maps_nr + 1, s->maps_found_alloc)) {
			free(found);
			free(m.path);
			return stream_lex__oom(p);
		}
		while (s->maps_found_nr < s->maps_nr)
			s->maps_found[s->maps_found_nr++] = NULL;
		s->maps_found[s->maps_found_nr++] = found;
	}
	m.pid = (uint32_t)v[HB_FIELD_MAP_PID].num;
	m.addr = v[HB_FIELD_MAP_ADDR].num;
	m.size = v[HB_FIELD_MAP_SIZE].num;
	m.pgoff = v[HB_FIELD_MAP_PGOFF].num;
	m.time = v[HB_FIELD_MAP_TIME].num;
	s->maps[s->maps_nr++] = m;
	return 0;
}
