// SPDX-License-Identifier: MIT
/*
 * The branch-stack records (STREAM.md `branch-total`, `branch`, `range`):
 * counts by class per event, and the counts of each taken edge and
 * fall-through range, summed over sections. Their objects are folded as the
 * samples' are (a CODE_MOVE copy, the same code of another run: offsets mean
 * the same in both).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stream-parse.h"

int stream_branches__total(struct parser *p)
{
	struct local_ev *le = NULL;
	uint64_t entries = 0, ranges = 0;
	size_t cls;
	int err;

	if ((err = stream_lex__check_record(p, HB_REC_BRANCH_TOTAL)) ||
	    (err = stream_ids__find_ev(p, p->f[1], &le)) ||
	    (err = stream_lex__get_dec(p, p->f[3], "branch entries", &entries)) ||
	    (err = stream_lex__get_dec(p, p->f[4], "branch ranges", &ranges)))
		return err;
	if (le->ev == LOST) {
		stream_ids__skip_lost(p, le->lost, 0);
		return 0;
	}
	if ((cls = stream_lex__class(p->f[2])) == HB_CLASS__NR) {
		/* a newer writer's class: still in `all`, given on its own */
		p->s->skipped_classes++;
		return 0;
	}
	struct stream *s = p->s;

	if (le->ev >= s->branch_totals_nr) {
		struct stream_branch_totals *v = realloc(s->branch_totals, (le->ev + 1) * sizeof(*v));

		if (!v)
			return stream_lex__oom(p);
		memset(v + s->branch_totals_nr, 0, (le->ev + 1 - s->branch_totals_nr) * sizeof(*v));
		s->branch_totals = v;
		s->branch_totals_nr = le->ev + 1;
	}
	struct stream_branch_totals *t = &s->branch_totals[le->ev];

	if (!add_u64(&t->entries[cls], entries) || !add_u64(&t->ranges[cls], ranges))
		return stream_lex__bad(p, "branch total overflows 64 bits");
	p->s->has_branches = true;
	return 0;
}

/* A line of an object or event this reader skips or lost: counted so. */
static bool skipped(struct parser *p, const struct local_obj *a, const struct local_obj *b,
		    const struct local_ev *le)
{
	const struct local_obj *lost = a->obj == LOST ? a : b->obj == LOST ? b : NULL;

	if (lost)
		stream_ids__skip_lost(p, lost->lost, 0);
	else if (le->ev == LOST)
		stream_ids__skip_lost(p, le->lost, 0);
	else if (a->obj == SKIPPED || b->obj == SKIPPED)
		p->s->skipped_object_lines++;
	else
		return false;
	return true;
}

/* The flags word of a `branch` line: M, P, X, A in that order, or -. */
static int get_flags(struct parser *p, const char *tok, uint8_t *flags)
{
	static const char letters[] = "MPXA";
	const char *at = letters;

	*flags = 0;
	if (!strcmp(tok, "-"))
		return 0;
	for (const char *c = tok; *c; c++) {
		const char *l = strchr(at, *c);

		if (!l || !*c)
			return stream_lex__bad(p, "branch flags '%s': M, P, X, A (in that order) or -", tok);
		*flags |= (uint8_t)(1u << (l - letters));
		at = l + 1;
	}
	return *tok ? 0 : stream_lex__bad(p, "empty branch flags");
}

/* A `branch` (taken) or `range` line: its ends, event and counts. */
static int branch_line(struct parser *p, enum stream_branch_kind kind)
{
	struct local_obj *from = NULL, *to = NULL;
	struct local_ev *le = NULL;
	struct stream_branch b = { .kind = (uint8_t)kind };
	int err;

	if ((err = stream_lex__check_record(p, kind == STREAM_BRANCH_TAKEN ? HB_REC_BRANCH : HB_REC_RANGE)) ||
	    (err = stream_ids__find_obj(p, p->f[1], &from)) ||
	    (err = stream_lex__get_hex(p, p->f[2], "branch source offset", &b.from_off)) ||
	    (err = stream_ids__find_obj(p, p->f[3], &to)) ||
	    (err = stream_lex__get_hex(p, p->f[4], "branch target offset", &b.to_off)) ||
	    (err = stream_ids__find_ev(p, p->f[5], &le)))
		return err;
	/* a range has no flags: its counts come one field earlier */
	size_t at = kind == STREAM_BRANCH_TAKEN ? 7 : 6;

	if ((kind == STREAM_BRANCH_TAKEN && (err = get_flags(p, p->f[6], &b.flags))) ||
	    (err = stream_lex__get_dec(p, p->f[at], "branch count", &b.count)) ||
	    (err = stream_lex__get_dec(p, p->f[at + 1], "branch cycles count", &b.cycles_nr)) ||
	    (err = stream_lex__get_dec(p, p->f[at + 2], "branch cycles sum", &b.cycles_sum)))
		return err;
	if (b.cycles_nr > b.count)
		return stream_lex__bad(p, "more branches with cycles (%s) than branches (%s)", p->f[at + 1], p->f[at]);
	if (skipped(p, from, to, le))
		return 0;
	b.from_obj = from->obj;
	b.to_obj = to->obj;
	b.ev = le->ev;
	if (VEC_GROW(p->s->branches, p->s->branches_nr + 1, p->s->branches_alloc))
		return stream_lex__oom(p);
	p->s->branches[p->s->branches_nr++] = b;
	return 0;
}

int stream_branches__branch(struct parser *p)
{
	return branch_line(p, STREAM_BRANCH_TAKEN);
}

int stream_branches__range(struct parser *p)
{
	return branch_line(p, STREAM_BRANCH_RANGE);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_branch(const void *pa, const void *pb)
{
	const struct stream_branch *a = pa, *b = pb;
	int c;

	if ((c = cmp_u64(a->kind, b->kind)) || (c = cmp_u64(a->from_obj, b->from_obj)) ||
	    (c = cmp_u64(a->from_off, b->from_off)) || (c = cmp_u64(a->to_obj, b->to_obj)) ||
	    (c = cmp_u64(a->to_off, b->to_off)) || (c = cmp_u64(a->ev, b->ev)))
		return c;
	return cmp_u64(a->flags, b->flags);
}

uint32_t stream_branches__owner(const struct stream *s, uint32_t o)
{
	if (s->objects[o].moved_into != UINT32_MAX)
		o = s->objects[o].moved_into;
	if (s->objects[o].folded_into != UINT32_MAX)
		o = s->objects[o].folded_into;
	return o;
}

int stream_branches__finish(struct stream *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->branches_nr; i++) {
		s->branches[i].from_obj = stream_branches__owner(s, s->branches[i].from_obj);
		s->branches[i].to_obj = stream_branches__owner(s, s->branches[i].to_obj);
	}
	if (s->branches_nr)
		qsort(s->branches, s->branches_nr, sizeof(*s->branches), cmp_branch);
	for (size_t i = 0; i < s->branches_nr; i++) {
		struct stream_branch *b = &s->branches[i];

		if (n && !cmp_branch(&s->branches[n - 1], b)) {
			struct stream_branch *into = &s->branches[n - 1];

			/* saturating, as folded samples are */
			into->count = sat_add(into->count, b->count);
			into->cycles_nr = sat_add(into->cycles_nr, b->cycles_nr);
			into->cycles_sum = sat_add(into->cycles_sum, b->cycles_sum);
		} else {
			s->branches[n++] = *b;
		}
	}
	s->branches_nr = n;
	return 0;
}
