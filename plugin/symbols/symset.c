// SPDX-License-Identifier: MIT
/* The symbols of one perf dso, kept and found as perf keeps and finds them (see symset.h). */
#include <ctype.h>
#include <elf.h>
#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/bsearch.h"
#include "../lib/vec.h"
#include "symset.h"

/* Replay log entries: insert every symbol up to seq (no flag), or perf's
 * fix-ups over the whole tree (OP_FIXUP). */
#define OP_FIXUP (1u << 31)
#define MAX_SEQ (OP_FIXUP - 1)
/* symset_sym.flags */
#define SYM_DEAD 1u	/* removed by perf's symbols__fixup_duplicate */
#define SYM_DECIDED 2u	/* on the first of a run of equal starts: its aliases are chosen */

void symset__init(struct symset *s)
{
	memset(s, 0, sizeof(*s));
	symtree__init(&s->tree);
}

void symset__release(struct symset *s)
{
	symtree__release(&s->tree);
	free(s->v);
	free(s->pmax);
	free(s->seq_start);
	free(s->ops);
	free(s->index_of_seq);
	memset(s, 0, sizeof(*s));
}

/* What perf 6.1's demangler makes of a name (cplus_demangle without options,
 * else OCaml's caml prefix), for its choice among aliases; malloc'ed or NULL. */
char *symset__perf_demangle(const char *name)
{
	char *d = cplus_demangle(name, 0);
	size_t n, j = 0;

	if (d || strncmp(name, "caml", 4) || name[4] < 'A' || name[4] > 'Z')
		return d;
	n = strlen(name);
	if (!(d = malloc(n + 1)))
		return NULL;
	for (size_t i = 4; i < n;) {
		if (name[i] == '_' && name[i + 1] == '_') {
			d[j++] = '.';
			i += 2;
		} else if (name[i] == '$' && isxdigit((unsigned char)name[i + 1]) &&
			   isxdigit((unsigned char)name[i + 2])) {
			char hx[3] = { name[i + 1], name[i + 2], 0 };

			d[j++] = (char)strtoul(hx, NULL, 16);
			i += 3;
		} else {
			d[j++] = name[i++];
		}
	}
	d[j] = '\0';
	return d;
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/*
 * Two C++ names that differ only in which variant of a constructor (C1, C2,
 * C3) or destructor (D0, D1, D2) they are: the demangler shows both alike, so
 * perf's comparison ties and keeps the first. Saves demangling the many such
 * aliases of a C++ program (13,000 pairs in node).
 */
static bool same_structor(const char *a, const char *b)
{
	size_t i = 0;

	if (strncmp(a, "_Z", 2) || strstr(a, "SyS"))
		return false;
	while (a[i] && a[i] == b[i])
		i++;
	/* <ctor-dtor-name> ends a nested name (E), takes template arguments (I) or an ABI tag (B) */
	return i > 2 && a[i] && b[i] && (a[i - 1] == 'C' || a[i - 1] == 'D') &&
	       strchr("0123", a[i]) && strchr("0123", b[i]) && a[i + 1] && strchr("EIB", a[i + 1]) &&
	       !strcmp(a + i + 1, b + i + 1);
}

/* What choose_best_symbol reads of the name perf shows (demangled), worked
 * out once per symbol of a run of equal starts. */
struct shown {
	bool known;
	size_t len, underscores;
	bool sys;	/* a kernel SyS alias */
};

static void shown_of(const struct symset_sym *sym, struct shown *sh)
{
	char *d;
	const char *m;

	if (sh->known)
		return;
	d = symset__perf_demangle(sym->name);
	m = d ? d : sym->name;
	sh->len = strlen(m);
	sh->underscores = leading_underscores(m);
	sh->sys = (sh->len >= 3 && !strncmp(m, "SyS", 3)) || (sh->len >= 10 && !strncmp(m, "compat_SyS", 10));
	sh->known = true;
	free(d);
}

/* perf's choose_best_symbol: true when sa (before sb in the tree) is kept. */
static bool keep_first(const struct symset_sym *sa, struct shown *ha, const struct symset_sym *sb,
		       struct shown *hb)
{
	uint64_t la = sa->end - sa->start, lb = sb->end - sb->start;

	if (!lb && la)
		return true;
	if (!la && lb)
		return false;
	if ((sa->binding == STB_WEAK) != (sb->binding == STB_WEAK))
		return sb->binding == STB_WEAK;
	if ((sa->binding == STB_GLOBAL) != (sb->binding == STB_GLOBAL))
		return sa->binding == STB_GLOBAL;
	/* one name twice (.symtab and .dynsym): either is the same symbol */
	if (!strcmp(sa->name, sb->name) || same_structor(sa->name, sb->name))
		return true;
	/* the rest compares the names perf shows: demangled */
	shown_of(sa, ha);
	shown_of(sb, hb);
	if (ha->underscores != hb->underscores)
		return hb->underscores > ha->underscores;
	if (ha->len != hb->len)
		return ha->len > hb->len;
	/* perf avoids the kernel's SyS aliases, else keeps the first */
	return !ha->sys;
}

bool symset__add(struct symset *es, uint64_t start, uint64_t size, const char *name, uint8_t binding,
		 uint8_t tag)
{
	if (es->seq_nr >= MAX_SEQ || VEC_GROW(es->v, es->nr + 1, es->alloc) < 0 ||
	    VEC_GROW(es->seq_start, es->seq_nr + 1, es->seq_alloc) < 0)
		return false;
	es->seq_start[es->seq_nr] = start;
	es->v[es->nr++] = (struct symset_sym){
		.start = start, .end = size ? start + size : start, .name = name,
		.seq = (uint32_t)es->seq_nr++, .binding = binding, .tag = tag,
	};
	return true;
}

static bool add_op(struct symset *es, uint32_t op)
{
	if (VEC_GROW(es->ops, es->ops_nr + 1, es->ops_alloc) < 0)
		return false;
	es->ops[es->ops_nr++] = op;
	return true;
}

/*
 * Sort v[0, n) by its uint64_t start, keeping the order of equal starts
 * (they were added in seq order): a least-significant-digit radix sort, as
 * few passes of at most 16 bits as the starts' bits need, between v and tmp.
 * One definition per element type: a type of 16 bytes sorts faster than one
 * of 32.
 */
#define DEFINE_SORT_BY_START(fn, type)						\
static void fn(type *v, type *tmp, size_t n)					\
{										\
	enum { MAX_BITS = 16 };							\
	static size_t count[1 << MAX_BITS];					\
	type *from = v, *to = tmp, *x;						\
	uint64_t all = 0;							\
	int bits = 0, passes, digit;						\
										\
	for (size_t i = 0; i < n; i++)						\
		all |= from[i].start;						\
	while (bits < 64 && all >> bits)					\
		bits++;								\
	/* digits of about log2(n) bits: a few symbols clear few counts */	\
	int most = 8;								\
	while (most < MAX_BITS && (size_t)1 << (most + 1) <= n)			\
		most++;								\
	passes = (bits + most - 1) / most;					\
	digit = passes ? (bits + passes - 1) / passes : 0;			\
	for (int p = 0; p < passes; p++) {					\
		int shift = p * digit;						\
		uint64_t mask = (1ULL << digit) - 1;				\
		size_t sum = 0;							\
										\
		memset(count, 0, sizeof(count[0]) << digit);			\
		for (size_t i = 0; i < n; i++)					\
			count[(from[i].start >> shift) & mask]++;		\
		for (size_t b = 0; b <= mask; b++) {				\
			size_t c = count[b];					\
										\
			count[b] = sum;						\
			sum += c;						\
		}								\
		for (size_t i = 0; i < n; i++)					\
			to[count[(from[i].start >> shift) & mask]++] = from[i];	\
		x = from, from = to, to = x;					\
	}									\
	if (from != v)								\
		memcpy(v, from, n * sizeof(*v));				\
}

/* A symbol's start and the order it was added in: what its rank needs. */
struct start_seq {
	uint64_t start;
	uint32_t seq;
};

DEFINE_SORT_BY_START(sort_by_start, struct symset_sym)
DEFINE_SORT_BY_START(sort_starts, struct start_seq)

/* v[0, committed) is in tree order; the symbols after it were just added:
 * sort them and merge (an equal start goes after the ones already there, as
 * perf's tree puts it). Logs the insertions. */
bool symset__commit(struct symset *es)
{
	size_t old = es->committed, n = es->nr - old, i = old, j = n, k = es->nr;
	struct symset_sym *m;

	es->committed = es->nr;
	if (!add_op(es, (uint32_t)es->seq_nr))
		return false;
	if (!n)
		return true;
	if (!(m = malloc(n * sizeof(*m))))
		return false;
	sort_by_start(es->v + old, m, n);
	if (!old || es->v[old - 1].start <= es->v[old].start) {
		free(m);
		return true;
	}
	/* merge from the end: the batch (now in m) after the old symbols of its start */
	memcpy(m, es->v + old, n * sizeof(*m));
	while (j > 0) {
		if (i > 0 && es->v[i - 1].start > m[j - 1].start)
			es->v[--k] = es->v[--i];
		else
			es->v[--k] = m[--j];
	}
	free(m);
	return true;
}

/* Room for n more symbols, reserved before a table of n is read. */
bool symset__reserve(struct symset *es, size_t n)
{
	return VEC_GROW(es->v, es->nr + n, es->alloc) == 0 &&
	       VEC_GROW(es->seq_start, es->seq_nr + n, es->seq_alloc) == 0;
}

/*
 * perf's symbols__fixup_end over all symbols in tree order, then
 * symbols__fixup_duplicate: of a run of equal starts the one
 * choose_best_symbol prefers stays. That choice is made lazily: it reads
 * the names (in node, 75,000 pairs of one name in .symtab and .dynsym, all
 * over 13 MB of string tables), and only the runs a lookup meets need it
 * (decide()). It comes out as perf's: the fix-ups of every table fold each
 * run from its first symbol on, winner against the next (so two tables'
 * folds are one fold over the run), and a winner always has a size, so no
 * later end fix-up changes the ends a fold read. The log keeps the rounds
 * for perf's tree (build_tree()).
 */
bool symset__commit_fixed(struct symset *es)
{
	struct symset_sym *v;
	size_t n;

	if (!symset__commit(es))
		return false;
	v = es->v;
	n = es->nr;
	for (size_t i = 0; i + 1 < n; i++)
		if (v[i].end == v[i].start)
			v[i].end = v[i + 1].start;
	if (n && v[n - 1].end == v[n - 1].start)
		v[n - 1].end = ((v[n - 1].start + 4095) & ~4095ULL) + 4096;
	es->fixed_seq = (uint32_t)es->seq_nr;
	return add_op(es, OP_FIXUP);
}

/* The run of equal starts around v[i]: [*first, *last]. */
static void run_of(const struct symset *es, size_t i, size_t *first, size_t *last)
{
	size_t a = i, b = i;

	while (a > 0 && es->v[a - 1].start == es->v[i].start)
		a--;
	while (b + 1 < es->nr && es->v[b + 1].start == es->v[i].start)
		b++;
	*first = a;
	*last = b;
}

/* perf's symbols__fixup_duplicate on the run v[first..last]: its symbols of
 * tables read with fix-ups (seq < fixed_seq), folded in tree order, the
 * winner of each pair meeting the next; the others stay (a PLT's). */
static void decide(struct symset *es, size_t first, size_t last)
{
	struct symset_sym *v = es->v;
	struct shown hbest = { 0 };
	size_t best = SIZE_MAX;

	if (v[first].flags & SYM_DECIDED)
		return;
	v[first].flags |= SYM_DECIDED;
	for (size_t j = first; j <= last; j++) {
		struct shown hj = { 0 };

		if (v[j].seq >= es->fixed_seq || (v[j].flags & SYM_DEAD))
			continue;
		if (best == SIZE_MAX) {
			best = j;
		} else if (keep_first(&v[best], &hbest, &v[j], &hj)) {
			v[j].flags |= SYM_DEAD;
		} else {
			v[best].flags |= SYM_DEAD;
			best = j;
			hbest = hj;
		}
	}
}

size_t symset__kept(struct symset *es)
{
	size_t kept = 0, first, last;

	for (size_t i = 0; i < es->nr; i = last + 1) {
		run_of(es, i, &first, &last);
		decide(es, first, last);
		for (size_t j = first; j <= last; j++)
			kept += !(es->v[j].flags & SYM_DEAD);
	}
	return kept;
}

/* perf's tree, made as perf made it: on the first lookup that needs its shape. */
/* Every symbol ever added, by (start, seq): its in-order rank in perf's tree. */
static uint32_t *ranks(const struct symset *es)
{
	struct start_seq *v = malloc(es->seq_nr * sizeof(*v)), *tmp = malloc(es->seq_nr * sizeof(*tmp));
	uint32_t *rank = malloc(es->seq_nr * sizeof(*rank));

	if (v && tmp && rank) {
		for (size_t i = 0; i < es->seq_nr; i++)
			v[i] = (struct start_seq){ es->seq_start[i], (uint32_t)i };
		sort_starts(v, tmp, es->seq_nr);
		for (size_t i = 0; i < es->seq_nr; i++)
			rank[v[i].seq] = (uint32_t)i;
	} else {
		free(rank);
		rank = NULL;
	}
	free(v);
	free(tmp);
	return rank;
}

/*
 * perf's symbols__fixup_duplicate as perf ran it, in the tree: every run of
 * equal starts among the symbols inserted so far (seq < next) and not
 * removed, in tree order, folded as decide() folds it, each loser removed
 * when perf removes it.
 */
static void replay_duplicates(struct symset *es, uint32_t next, uint8_t *gone)
{
	struct symset_sym *v = es->v;

	for (size_t i = 0, j; i < es->nr; i = j) {
		struct shown hbest = { 0 };
		size_t best = SIZE_MAX;

		for (j = i; j < es->nr && v[j].start == v[i].start; j++) {
			struct shown hj = { 0 };

			if (v[j].seq >= next || gone[v[j].seq])
				continue;
			if (best == SIZE_MAX) {
				best = j;
				continue;
			}
			size_t lose = keep_first(&v[best], &hbest, &v[j], &hj) ? j : best;

			if (lose == best) {
				best = j;
				hbest = hj;
			}
			gone[v[lose].seq] = 1;
			symtree__erase(&es->tree, v[lose].seq + 1);
		}
	}
}

static bool build_tree(struct symset *es)
{
	uint32_t next = 0, *rank;
	uint8_t *gone;

	if (es->tree_built)
		return es->index_of_seq != NULL;
	es->tree_built = true;
	if (!es->seq_nr || !(rank = ranks(es)))
		return false;
	gone = calloc(es->seq_nr, 1);
	if (!gone || !(es->index_of_seq = calloc(es->seq_nr, sizeof(*es->index_of_seq))) ||
	    symtree__ranked(&es->tree, es->seq_nr) < 0) {
		free(gone);
		free(rank);
		goto fail;
	}
	for (size_t k = 0; k < es->ops_nr; k++) {
		uint32_t op = es->ops[k];

		if (op & OP_FIXUP) {
			replay_duplicates(es, next, gone);
			continue;
		}
		for (; next < op; next++)
			symtree__insert_ranked(&es->tree, es->seq_start[next], es->seq_start[next], rank[next]);
	}
	free(rank);
	/* every run now chosen as perf chose it (decide() comes to the same) */
	for (size_t i = 0; i < es->nr; i++) {
		struct symset_sym *sym = &es->v[i];

		sym->flags = (uint8_t)((sym->flags & ~SYM_DEAD) | SYM_DECIDED | (gone[sym->seq] ? SYM_DEAD : 0));
		if (gone[sym->seq])
			continue;
		es->tree.end[sym->seq + 1] = sym->end;
		es->index_of_seq[sym->seq] = (uint32_t)i;
	}
	free(gone);
	return true;
fail:
	free(es->index_of_seq);
	es->index_of_seq = NULL;
	return false;
}

static bool covers(const struct symset_sym *s, uint64_t ip)
{
	return ip >= s->start && (ip < s->end || (ip == s->end && ip == s->start));
}

/* The first symbol kept at or after v[i] (its run chosen), or SIZE_MAX. */
static size_t kept_from(struct symset *es, size_t i)
{
	size_t first, last;

	for (; i < es->nr; i = last + 1) {
		run_of(es, i, &first, &last);
		decide(es, first, last);
		for (size_t j = i; j <= last; j++)
			if (!(es->v[j].flags & SYM_DEAD))
				return j;
	}
	return SIZE_MAX;
}

bool symset__done(struct symset *es)
{
	if (!symset__commit(es))
		return false;
	free(es->pmax);
	es->pmax = NULL;
	/* no more symbols: the growth room goes */
	if (es->nr && es->nr < es->alloc) {
		struct symset_sym *v = realloc(es->v, es->nr * sizeof(*v));

		if (v) {
			es->v = v;
			es->alloc = es->nr;
		}
	}
	if (es->nr && !(es->pmax = malloc(es->nr * sizeof(*es->pmax)))) {
		es->nr = es->committed = 0;
		return false;
	}
	/* perf's leftmost node and its in-order successor */
	es->leftmost = kept_from(es, 0);
	es->second = es->leftmost == SIZE_MAX ? SIZE_MAX : kept_from(es, es->leftmost + 1);
	/* pmax[i]: the largest end of v[0..i] but the leftmost node (looked at on
	 * its own) and the symbols known to be removed; the runs not chosen yet
	 * count all theirs (the bound only ever sends a lookup to the tree) */
	for (size_t i = 0; i < es->nr; i++) {
		uint64_t prev = i ? es->pmax[i - 1] : 0, end = es->v[i].end;

		if (i == es->leftmost || (es->v[i].flags & SYM_DEAD))
			end = 0;
		es->pmax[i] = prev > end ? prev : end;
	}
	return true;
}

size_t symset__memory(const struct symset *es)
{
	return es->tree.alloc * sizeof(*es->tree.n) + es->alloc * sizeof(*es->v) +
	       (es->pmax ? es->nr * sizeof(*es->pmax) : 0) + es->seq_alloc * sizeof(*es->seq_start) +
	       es->ops_alloc * sizeof(*es->ops) + (es->index_of_seq ? es->seq_nr * sizeof(*es->index_of_seq) : 0);
}

/*
 * The symbol perf's lookup returns for ip: its index, or -1.
 *
 * perf's search walks down from the root and stops at the first symbol
 * whose range holds ip; it only ever visits the ancestors of the place ip
 * would be inserted at, which include pred, the last symbol starting at or
 * before ip. So when no symbol but pred can hold ip, the answer is pred (or
 * none) whatever the tree's shape: the sorted array says. A symbol that is
 * not pred may be on the path or not, and only the tree knows; except the
 * leftmost node, whose subtree is itself and at most its in-order
 * successor: it is on the path only when pred is that successor or itself.
 * (The common overlap: a size-0 _init stretched by the end fix-up over the
 * PLT, whose entries come after all fix-ups.) Only pred's run of equal
 * starts has its aliases chosen here.
 */
static long find_symbol(struct symset *es, uint64_t ip)
{
	const struct symset_sym *v = es->v;
	size_t lo = LOWER_BOUND(es->nr, i, v[i].start <= ip), pred, first, last;
	bool others = false;

	if (!lo)
		return -1;
	run_of(es, lo - 1, &first, &last);
	decide(es, first, last);
	/* pred: the run's last symbol kept (a run keeps at least one) */
	for (pred = last; pred > first && (v[pred].flags & SYM_DEAD); pred--)
		;
	/* symbols of pred's start before it (batches without fix-ups have them) */
	for (size_t k = first; k < pred && !others; k++)
		others = !(v[k].flags & SYM_DEAD) && covers(&v[k], ip);
	/* any before those, but the leftmost node */
	others = others || (first > 0 && es->pmax[first - 1] > ip);
	/* the leftmost node: on the path when pred is it or its successor */
	others = others || (first > es->leftmost && covers(&v[es->leftmost], ip) &&
			    !(es->second != SIZE_MAX && pred > es->second &&
			      v[es->second].start > v[es->leftmost].start));
	if (!others)
		return covers(&v[pred], ip) ? (long)pred : -1;
	if (!build_tree(es))
		return covers(&v[pred], ip) ? (long)pred : -1;
	uint32_t node = symtree__find(&es->tree, ip);

	return node ? (long)es->index_of_seq[node - 1] : -1;
}

const struct symset_sym *symset__find_in_tree(struct symset *es, uint64_t ip)
{
	uint32_t node;

	if (!es->pmax || !build_tree(es) || !(node = symtree__find(&es->tree, ip)))
		return NULL;
	return &es->v[es->index_of_seq[node - 1]];
}

const struct symset_sym *symset__find(struct symset *es, uint64_t ip)
{
	long i = es->pmax ? find_symbol(es, ip) : -1;

	return i >= 0 ? &es->v[i] : NULL;
}
