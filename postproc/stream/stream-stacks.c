// SPDX-License-Identifier: MIT
/*
 * The callchain records (STREAM.md `stack`): each stack's frames, leaf
 * first, and its samples. Their objects are folded as the samples' are.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stream-parse.h"

/* One frame token: <id>:0x<offset>, or a class's name. */
static int frame(struct parser *p, char *tok, struct stream_frame *f)
{
	char *colon = strchr(tok, ':');
	struct local_obj *lo = NULL;
	int err;

	if (!*tok)
		return stream_lex__bad(p, "empty stack frame");
	if (!colon) {
		/* a newer writer's class: a frame in no object all the same */
		*f = (struct stream_frame){ STREAM_FRAME_CLASS, stream_lex__class(tok) };
		return 0;
	}
	*colon = '\0';
	if ((err = stream_ids__find_obj(p, tok, &lo)) ||
	    (err = stream_lex__get_hex(p, colon + 1, "stack frame offset", &f->off)))
		return err;
	if (lo->obj == LOST || lo->obj == SKIPPED)
		*f = (struct stream_frame){ STREAM_FRAME_CLASS, HB_CLASS__NR };
	else
		f->obj = lo->obj;
	return 0;
}

int stream_stacks__stack(struct parser *p)
{
	struct local_ev *le = NULL;
	struct stream_stack st = { 0 };
	struct stream *s = p->s;
	size_t first = s->frames_nr;
	int err;

	if ((err = stream_lex__check_record(p, HB_REC_STACK)) || (err = stream_ids__find_ev(p, p->f[1], &le)) ||
	    (err = stream_lex__get_dec(p, p->f[2], "stack samples", &st.samples)) ||
	    (err = stream_lex__get_dec(p, p->f[3], "stack period", &st.period)))
		return err;
	if (le->ev == LOST) {
		stream_ids__skip_lost(p, le->lost, 0);
		return 0;
	}
	for (char *tok = p->f[4], *next; tok; tok = next) {
		if ((next = strchr(tok, ',')))
			*next++ = '\0';
		if (VEC_GROW(s->frames, s->frames_nr + 1, s->frames_alloc))
			return stream_lex__oom(p);
		if ((err = frame(p, tok, &s->frames[s->frames_nr]))) {
			s->frames_nr = first;
			return err;
		}
		s->frames_nr++;
	}
	if (s->frames_nr - first > UINT32_MAX || VEC_GROW(s->stacks, s->stacks_nr + 1, s->stacks_alloc))
		return stream_lex__oom(p);
	st.ev = le->ev;
	st.first = first;
	st.frames_nr = (uint32_t)(s->frames_nr - first);
	s->stacks[s->stacks_nr++] = st;
	return 0;
}

void stream_stacks__finish(struct stream *s)
{
	for (size_t i = 0; i < s->frames_nr; i++)
		if (s->frames[i].obj != STREAM_FRAME_CLASS)
			s->frames[i].obj = stream_branches__owner(s, s->frames[i].obj);
}
