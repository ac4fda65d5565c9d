/* SPDX-License-Identifier: MIT */
/* A section's local ids: its objects and events by the ids its lines name them by, and the lines of lost ones (stream-parse.h). */
#include <stdint.h>

#include "stream-parse.h"

static bool local_obj_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct parser *p = ctx;

	return p->objs[idx].id == *(const uint64_t *)key;
}

static bool local_ev_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct parser *p = ctx;

	return p->evs[idx].id == *(const uint64_t *)key;
}

bool stream_ids__has_obj(struct parser *p, uint64_t id)
{
	return idx_table_find(&p->obj_ids, hash_u64(0, id), local_obj_eq, &id, p) >= 0;
}

bool stream_ids__has_ev(struct parser *p, uint64_t id)
{
	return idx_table_find(&p->ev_ids, hash_u64(0, id), local_ev_eq, &id, p) >= 0;
}

int stream_ids__find_obj(struct parser *p, const char *tok, struct local_obj **lo)
{
	uint64_t id;
	long i;
	int err = stream_lex__get_dec(p, tok, "object id", &id);

	if (err)
		return err;
	i = idx_table_find(&p->obj_ids, hash_u64(0, id), local_obj_eq, &id, p);
	if (i < 0)
		return stream_lex__bad(p, "object %s was not defined in this section", tok);
	*lo = &p->objs[i];
	return 0;
}

int stream_ids__find_ev(struct parser *p, const char *tok, struct local_ev **le)
{
	uint64_t id;
	long i;
	int err = stream_lex__get_dec(p, tok, "event id", &id);

	if (err)
		return err;
	i = idx_table_find(&p->ev_ids, hash_u64(0, id), local_ev_eq, &id, p);
	if (i < 0)
		return stream_lex__bad(p, "event %s was not defined in this section", tok);
	*le = &p->evs[i];
	return 0;
}

int stream_ids__add_obj(struct parser *p, uint64_t id, uint32_t obj, uint32_t lost)
{
	if (VEC_GROW(p->objs, p->objs_nr + 1, p->objs_alloc) ||
	    idx_table_add(&p->obj_ids, hash_u64(0, id), (uint32_t)p->objs_nr))
		return stream_lex__oom(p);
	p->objs[p->objs_nr++] = (struct local_obj){ .id = id, .obj = obj, .lost = lost };
	return 0;
}

int stream_ids__add_ev(struct parser *p, uint64_t id, uint32_t ev, uint32_t lost)
{
	if (VEC_GROW(p->evs, p->evs_nr + 1, p->evs_alloc) ||
	    idx_table_add(&p->ev_ids, hash_u64(0, id), (uint32_t)p->evs_nr))
		return stream_lex__oom(p);
	p->evs[p->evs_nr++] = (struct local_ev){ .id = id, .ev = ev, .lost = lost };
	return 0;
}

void stream_ids__skip_lost(struct parser *p, uint32_t lost, uint64_t samples)
{
	struct stream *s = p->s;

	s->lost_lines++;
	s->lost_samples = sat_add(s->lost_samples, samples);
	if (lost != UINT32_MAX) {
		s->lost[lost].lines++;
		s->lost[lost].samples = sat_add(s->lost[lost].samples, samples);
	}
}
