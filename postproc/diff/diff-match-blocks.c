/* SPDX-License-Identifier: MIT */
/*
 * Matching two compilations, the blocks of a function paired (diff.h). Two
 * compilations of one function differ in their addresses, their register
 * allocation and the shape of their code, so no key is exact; each gives a
 * similarity, and the most alike pairs are taken first, each block at most
 * once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/lib/bsearch.h"
#include "diff-match.h"
#include "lib/util.h"

/* What a block is compared by. */
struct bfeat {
	uint32_t start, end, insns;	/* its report_block's */
	uint64_t samples;
	/* branch stacks: its executions, and the conditional branch it ends in */
	uint64_t executions, taken, not_taken;
	bool branch;
	uint64_t *set[2];		/* sorted distinct keys: wasm offsets, source lines */
	size_t set_nr[2];
	uint32_t *mn;			/* its mnemonics, in order */
	uint32_t *mn_sorted;
	size_t mn_nr;
	uint64_t exact;			/* its text with addresses masked */
	uint32_t term;			/* the last mnemonic */
	int32_t match;			/* the block paired with on the other side, -1 */
	enum diff_key key;
	double score;
};

/* The features of one function of one side: all that matching reads of it,
 * so that its rows can go before the other side's are made. */
struct fside {
	struct bfeat *b;
	size_t nr;
	uint64_t *store;		/* behind every set */
	uint32_t *mstore;		/* behind every mn and mn_sorted */
};

/* Hash of a row's mnemonic (data rows are all alike). */
static uint32_t mnemonic(const struct report_row *row)
{
	const char *t = row->text;
	size_t n = strcspn(t, " ");

	if (row->flags & INSN_DATA)
		return 1;
	return (uint32_t)hash_bytes(HASH_SEED, t, n) | 2;
}

/*
 * The row's text with what moves between compilations masked: the target of
 * a branch or call (another layout, another place), and hex numbers of more
 * than four digits (addresses the code embeds).
 */
static uint64_t row_hash(uint64_t h, const struct report_row *row)
{
	const char *t = row->text;

	if (row->flags & (INSN_HAS_TARGET | INSN_DATA))
		return hash_u64(h, mnemonic(row));
	while (*t) {
		if (t[0] == '0' && t[1] == 'x') {
			size_t n = strspn(t + 2, "0123456789abcdef");

			if (n > 4) {
				h = hash_bytes(h, "#", 1);
				t += 2 + n;
				continue;
			}
		}
		h = hash_bytes(h, t, 1);
		t++;
	}
	return hash_u64(h, 0x0a);
}

/* A source line, by the file's base name: the two builds may come from
 * checkouts at different paths (or V8 scripts run from another directory). */
static uint64_t source_key(const char *file, uint32_t line)
{
	const char *base = strrchr(file, '/');

	base = base ? base + 1 : file;
	return hash_u64(hash_bytes(HASH_SEED, base, strlen(base)), line);
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static size_t sort_unique(uint64_t *v, size_t n)
{
	size_t k = 0;

	if (n > 1)
		qsort(v, n, sizeof(*v), u64_cmp);
	for (size_t i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

static void fside_release(struct fside *fs)
{
	free(fs->b);
	free(fs->store);
	free(fs->mstore);
}

/* What branch stacks measured of block i of f (m: its report_measured, or NULL). */
static void measured_block(struct bfeat *b, const struct report_func *f, size_t i,
			   const struct report_measured *m)
{
	const struct report_block *blk = &f->blocks[i];
	size_t last = blk->first_row + blk->insns - 1;

	if (!m)
		return;
	b->executions = m->executions[i];
	if (blk->listed && blk->insns && f->rows && (f->rows[last].flags & INSN_COND) &&
	    m->rows[last].measured) {
		b->branch = true;
		b->taken = m->rows[last].taken;
		b->not_taken = m->rows[last].not_taken;
	}
}

static int fside_build(struct fside *fs, const struct report_func *f, const struct report_measured *m)
{
	uint64_t *at;
	uint32_t *mat;

	memset(fs, 0, sizeof(*fs));
	fs->nr = f ? f->blocks_nr : 0;
	if (!fs->nr)
		return 0;
	fs->b = calloc(fs->nr, sizeof(*fs->b));
	fs->store = malloc(2 * (f->rows_nr ? f->rows_nr : 1) * sizeof(*fs->store));
	fs->mstore = malloc(2 * (f->rows_nr ? f->rows_nr : 1) * sizeof(*fs->mstore));
	if (!fs->b || !fs->store || !fs->mstore)
		return -ENOMEM;
	at = fs->store;
	mat = fs->mstore;
	for (size_t i = 0; i < fs->nr; i++) {
		const struct report_block *blk = &f->blocks[i];
		/* (a function without code has a block and no rows) */
		const struct report_row *rows = f->rows ? f->rows + blk->first_row : NULL;
		struct bfeat *b = &fs->b[i];
		size_t n = blk->listed ? blk->insns : 0;

		b->start = blk->start;
		b->end = blk->end;
		b->insns = blk->insns;
		b->samples = blk->samples;
		measured_block(b, f, i, m);
		b->match = -1;
		b->exact = HASH_SEED;
		b->mn = mat;
		b->mn_nr = n;
		mat += n;
		b->mn_sorted = mat;
		mat += n;
		for (int k = 0; k < 2; k++) {
			b->set[k] = at;
			for (size_t r = 0; r < n; r++) {
				if (k == 0 && rows[r].has_wasm_offset)
					*at++ = rows[r].wasm_offset;
				else if (k == 1 && rows[r].source_file && rows[r].source_line)
					*at++ = source_key(rows[r].source_file, rows[r].source_line);
			}
			b->set_nr[k] = sort_unique(b->set[k], (size_t)(at - b->set[k]));
			at = b->set[k] + b->set_nr[k];
		}
		for (size_t r = 0; r < n; r++) {
			b->mn[r] = b->mn_sorted[r] = mnemonic(&rows[r]);
			b->exact = row_hash(b->exact, &rows[r]);
		}
		if (n > 1)
			qsort(b->mn_sorted, n, sizeof(*b->mn_sorted), u32_cmp);
		b->term = n ? b->mn[n - 1] : 0;
	}
	return 0;
}

/* How many elements two sorted multisets share. */
static size_t common32(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	size_t i = 0, j = 0, c = 0;

	while (i < na && j < nb) {
		if (a[i] < b[j])
			i++;
		else if (a[i] > b[j])
			j++;
		else
			c++, i++, j++;
	}
	return c;
}

/* Above this many cells, sequences are compared as multisets (linear). */
#define LCS_CELLS (1u << 16)

/*
 * How alike two mnemonic sequences are, 0..1: twice their longest common
 * subsequence over their lengths; for long blocks, the same with the
 * multisets' intersection instead.
 */
static double seq_similarity(const struct bfeat *a, const struct bfeat *b, uint32_t *row)
{
	size_t la = a->mn_nr, lb = b->mn_nr, best;

	if (!la || !lb)
		return la == lb ? 1.0 : 0.0;
	if ((uint64_t)la * lb > LCS_CELLS) {
		best = common32(a->mn_sorted, la, b->mn_sorted, lb);
	} else {
		/* one row of the LCS table, row[0..lb] */
		memset(row, 0, (lb + 1) * sizeof(*row));
		for (size_t i = 1; i <= la; i++) {
			uint32_t diag = 0;

			for (size_t j = 1; j <= lb; j++) {
				uint32_t up = row[j];

				row[j] = a->mn[i - 1] == b->mn[j - 1] ? diag + 1 :
					 up > row[j - 1] ? up : row[j - 1];
				diag = up;
			}
		}
		best = row[lb];
	}
	return 2.0 * (double)best / (double)(la + lb);
}

struct cand {
	uint32_t a, b;
	double score;			/* the key's similarity */
	double order;			/* with the tie-breakers: what the greedy pass sorts by */
	uint64_t samples;
};

static int cand_cmp(const void *x, const void *y)
{
	const struct cand *p = x, *q = y;

	if (p->order != q->order)
		return p->order > q->order ? -1 : 1;
	if (p->samples != q->samples)
		return p->samples > q->samples ? -1 : 1;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return p->b < q->b ? -1 : p->b > q->b;
}

/* The least similarity a key must show to pair two blocks. */
static const double min_score[DIFF_KEY__NR] = {
	[DIFF_KEY_WASM] = 0.2, [DIFF_KEY_SOURCE] = 0.2, [DIFF_KEY_ASM] = 0.5,
};

/* Blocks the asm key looks at around the expected place of a block. */
#define WINDOW 16
/* Candidates kept per block, the most alike: memory stays linear in the
 * blocks however many of them look alike. */
#define KEEP 8

struct matcher {
	struct fside side[DIFF__SIDES];
	struct cand *c;
	size_t c_nr, c_alloc;
	uint32_t *lcs_row;
	uint32_t *cnt;			/* per block of the other side: shared keys */
	uint32_t *touched;
	struct inv {			/* the other side's set keys, sorted */
		uint64_t key;
		uint32_t blk;
	} *inv;
	size_t inv_nr;
};

static int add_cand(struct matcher *m, uint32_t a, uint32_t b, enum diff_key key, double score,
		    double order)
{
	const struct bfeat *x = &m->side[DIFF_BASE].b[a], *y = &m->side[DIFF_NEW].b[b];

	if (score < min_score[key])
		return 0;
	if (VEC_GROW(m->c, m->c_nr + 1, m->c_alloc))
		return -ENOMEM;
	m->c[m->c_nr++] = (struct cand){ a, b, score, order, sat_add(x->samples, y->samples) };
	return 0;
}

/* Keep only the KEEP best of the candidates from index from on. */
static void keep_best(struct matcher *m, size_t from)
{
	if (m->c_nr - from <= KEEP)
		return;
	qsort(m->c + from, m->c_nr - from, sizeof(*m->c), cand_cmp);
	m->c_nr = from + KEEP;
}

/* Relative place of block i of n, 0..1. */
static double place(size_t i, size_t n)
{
	return n > 1 ? (double)i / (double)(n - 1) : 0.0;
}

/* Tie-breakers of a set key: the same last instruction, a similar place. */
static double tie(const struct matcher *m, uint32_t a, uint32_t b)
{
	const struct fside *x = &m->side[DIFF_BASE], *y = &m->side[DIFF_NEW];
	double d = place(a, x->nr) - place(b, y->nr);

	return 0.05 * (x->b[a].term == y->b[b].term) + 0.05 * (1.0 - (d < 0 ? -d : d));
}

/*
 * Set keys (k 0: wasm offsets, 1: source lines): every unpaired block with
 * samples on one side against every unpaired block of the other side that
 * shares a key with it, found through an index of the other side's keys;
 * their similarity is Jaccard's, |A and B| / |A or B|.
 */
static int set_cands(struct matcher *m, int k, enum diff_key key)
{
	for (int s = 0; s < DIFF__SIDES; s++) {
		struct fside *me = &m->side[s], *other = &m->side[!s];
		size_t n = 0;

		for (size_t j = 0; j < other->nr; j++)
			n += other->b[j].match < 0 ? other->b[j].set_nr[k] : 0;
		free(m->inv);
		m->inv = malloc((n ? n : 1) * sizeof(*m->inv));
		if (!m->inv)
			return -ENOMEM;
		m->inv_nr = 0;
		for (size_t j = 0; j < other->nr; j++)
			for (size_t e = 0; other->b[j].match < 0 && e < other->b[j].set_nr[k]; e++)
				m->inv[m->inv_nr++] = (struct inv){ other->b[j].set[k][e], (uint32_t)j };
		/* by key (the first member) */
		qsort(m->inv, m->inv_nr, sizeof(*m->inv), u64_cmp);
		for (size_t i = 0; i < me->nr; i++) {
			const struct bfeat *b = &me->b[i];
			size_t touched = 0;

			/* (a pair sampled on both sides is a candidate twice: harmless) */
			if (b->match >= 0 || !b->samples || !b->set_nr[k])
				continue;
			for (size_t e = 0; e < b->set_nr[k]; e++) {
				size_t lo = LOWER_BOUND(m->inv_nr, x, m->inv[x].key < b->set[k][e]);

				for (; lo < m->inv_nr && m->inv[lo].key == b->set[k][e]; lo++) {
					uint32_t j = m->inv[lo].blk;

					if (!m->cnt[j]++)
						m->touched[touched++] = j;
				}
			}
			size_t c0 = m->c_nr;

			for (size_t t = 0; t < touched; t++) {
				uint32_t j = m->touched[t];
				size_t inter = m->cnt[j];
				double jac = (double)inter /
					     (double)(b->set_nr[k] + other->b[j].set_nr[k] - inter);
				uint32_t a = s == DIFF_BASE ? (uint32_t)i : j;
				uint32_t bb = s == DIFF_BASE ? j : (uint32_t)i;

				m->cnt[j] = 0;
				if (add_cand(m, a, bb, key, jac, jac + tie(m, a, bb)))
					return -ENOMEM;
			}
			keep_best(m, c0);
		}
	}
	return 0;
}

/* Blocks whose masked text is found once on each side, unpaired: paired (score 1). */
static int exact_pairs(struct matcher *m)
{
	struct fside *x = &m->side[DIFF_BASE], *y = &m->side[DIFF_NEW];
	struct hent { uint64_t h; uint32_t side, idx; } *v;
	size_t n = x->nr + y->nr, k = 0, i, j;

	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (int s = 0; s < DIFF__SIDES; s++)
		for (i = 0; i < m->side[s].nr; i++)
			if (m->side[s].b[i].match < 0)
				v[k++] = (struct hent){ m->side[s].b[i].exact, (uint32_t)s, (uint32_t)i };
	/* by hash only: a group's order does not matter, only its size per side */
	qsort(v, k, sizeof(*v), u64_cmp);
	for (i = 0; i < k; i = j) {
		size_t na = 0, nb = 0;
		uint32_t ia = 0, ib = 0;

		for (j = i; j < k && v[j].h == v[i].h; j++) {
			if (v[j].side)
				nb++, ib = v[j].idx;
			else
				na++, ia = v[j].idx;
		}
		if (na == 1 && nb == 1) {
			x->b[ia].match = (int32_t)ib;
			y->b[ib].match = (int32_t)ia;
			x->b[ia].key = y->b[ib].key = DIFF_KEY_ASM;
			x->b[ia].score = y->b[ib].score = 1.0;
		}
	}
	free(v);
	return 0;
}

/*
 * The asm key for what is left: every unpaired block with samples against
 * the unpaired blocks of the other side around the place it is expected at:
 * between the blocks the paired blocks before and after it are paired with,
 * in proportion. Similarity: 0.7 of the mnemonic sequences', 0.15 for the
 * same last instruction (the kind of branch), 0.15 for being where expected.
 */
static int asm_cands(struct matcher *m)
{
	for (int s = 0; s < DIFF__SIDES; s++) {
		struct fside *me = &m->side[s], *other = &m->side[!s];
		size_t prev = SIZE_MAX, next = 0;

		for (size_t i = 0; i < me->nr; i++) {
			size_t lo, hi, from, to, c0;
			double expect;

			if (me->b[i].match >= 0) {
				prev = i;
				continue;
			}
			if (!me->b[i].samples)
				continue;
			/* the next paired block: found once per gap */
			if (next <= i)
				for (next = i + 1; next < me->nr && me->b[next].match < 0; next++)
					;
			lo = prev == SIZE_MAX ? 0 : (size_t)me->b[prev].match + 1;
			hi = next == me->nr ? other->nr : (size_t)me->b[next].match;
			if (hi <= lo) {
				/* crossed pairs: the whole function */
				lo = 0;
				hi = other->nr;
			}
			{
				size_t first = prev == SIZE_MAX ? 0 : prev + 1, span = next - first;

				expect = (double)lo + (span > 1 ? (double)(i - first) / (double)(span - 1) : 0.0) *
						(double)(hi - lo - 1);
			}
			from = expect > WINDOW ? (size_t)(expect - WINDOW) : 0;
			to = (size_t)(expect + WINDOW) + 1;
			if (from < lo)
				from = lo;
			if (to > hi)
				to = hi;
			c0 = m->c_nr;
			for (size_t j = from; j < to; j++) {
				uint32_t a = s == DIFF_BASE ? (uint32_t)i : (uint32_t)j;
				uint32_t b = s == DIFF_BASE ? (uint32_t)j : (uint32_t)i;
				const struct bfeat *x = &m->side[DIFF_BASE].b[a], *y = &m->side[DIFF_NEW].b[b];
				double d = expect - (double)j, score;

				if (other->b[j].match >= 0)
					continue;
				d = d < 0 ? -d : d;
				score = 0.7 * seq_similarity(x, y, m->lcs_row) + 0.15 * (x->term == y->term) +
					0.15 * (1.0 - (d > WINDOW ? 1.0 : d / WINDOW));
				if (add_cand(m, a, b, DIFF_KEY_ASM, score, score))
					return -ENOMEM;
			}
			keep_best(m, c0);
		}
	}
	return 0;
}

/*
 * The code key: the same bytes on both sides (diff_func.same_code), so
 * blocks of the same [start, end) are the same code. (The blocks may still
 * differ where the sampled offsets did: decoding starts at each.)
 */
static void code_pairs(struct matcher *m)
{
	struct fside *x = &m->side[DIFF_BASE], *y = &m->side[DIFF_NEW];
	size_t i = 0, j = 0;

	while (i < x->nr && j < y->nr) {
		const struct bfeat *p = &x->b[i], *q = &y->b[j];

		if (p->start < q->start) {
			i++;
		} else if (p->start > q->start) {
			j++;
		} else {
			if (p->end == q->end) {
				x->b[i].match = (int32_t)j;
				y->b[j].match = (int32_t)i;
				x->b[i].key = y->b[j].key = DIFF_KEY_CODE;
				x->b[i].score = y->b[j].score = 1.0;
			}
			i++;
			j++;
		}
	}
}

/* Take the candidates, most alike first, each block once. */
static void take(struct matcher *m, enum diff_key key)
{
	struct fside *x = &m->side[DIFF_BASE], *y = &m->side[DIFF_NEW];

	if (m->c_nr > 1)
		qsort(m->c, m->c_nr, sizeof(*m->c), cand_cmp);
	for (size_t i = 0; i < m->c_nr; i++) {
		struct cand *c = &m->c[i];

		if (x->b[c->a].match >= 0 || y->b[c->b].match >= 0)
			continue;
		x->b[c->a].match = (int32_t)c->b;
		y->b[c->b].match = (int32_t)c->a;
		x->b[c->a].key = y->b[c->b].key = key;
		x->b[c->a].score = y->b[c->b].score = c->score > 1.0 ? 1.0 : c->score;
	}
	m->c_nr = 0;
}

static int add_pair(struct diff *d, size_t *alloc, uint32_t fi, int32_t a, int32_t b,
		    const struct matcher *m)
{
	const struct bfeat *fa = a >= 0 ? &m->side[DIFF_BASE].b[a] : NULL;
	const struct bfeat *fb = b >= 0 ? &m->side[DIFF_NEW].b[b] : NULL;
	struct diff_pair *p;

	if (!(fa && fa->samples) && !(fb && fb->samples))
		return 0;
	if (VEC_GROW(d->pairs, d->pairs_nr + 1, *alloc))
		return -ENOMEM;
	p = &d->pairs[d->pairs_nr++];
	*p = (struct diff_pair){
		.func = fi, .b = { a, b }, .key = fa && fb ? fa->key : DIFF_KEY_NONE,
		.score = fa && fb ? fa->score : 0.0,
		.samples = { fa ? fa->samples : 0, fb ? fb->samples : 0 },
	};
	for (int s = 0; s < DIFF__SIDES; s++) {
		const struct bfeat *blk;

		if (p->b[s] < 0)
			continue;
		blk = &m->side[s].b[p->b[s]];
		p->start[s] = blk->start;
		p->end[s] = blk->end;
		p->insns[s] = blk->insns;
	}
	if (p->key != DIFF_KEY_NONE)
		d->keys[p->key]++;
	if (d->has_measured) {
		struct diff_measured *me;

		if (VEC_GROW(d->measured, d->pairs_nr, d->measured_alloc))
			return -ENOMEM;
		me = &d->measured[d->pairs_nr - 1];
		*me = (struct diff_measured){ 0 };
		for (int s = 0; s < DIFF__SIDES; s++) {
			const struct bfeat *blk = s == DIFF_BASE ? fa : fb;

			if (!blk)
				continue;
			me->executions[s] = blk->executions;
			me->branch[s] = blk->branch;
			me->taken[s] = blk->taken;
			me->not_taken[s] = blk->not_taken;
		}
	}
	return 0;
}

static uint32_t uf_find(uint32_t *up, uint32_t x)
{
	while (up[x] != x)
		x = up[x] = up[up[x]];
	return x;
}

struct gmember {
	uint32_t root, side, idx;
};

static int gmember_cmp(const void *a, const void *b)
{
	const struct gmember *x = a, *y = b;

	if (x->root != y->root)
		return x->root < y->root ? -1 : 1;
	if (x->side != y->side)
		return x->side < y->side ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * The groups of d->funcs[fi]'s blocks (diff_group): a union-find over the
 * blocks of both sides (BASE's first), joined through each wasm offset
 * (blocks sharing one join); the groups with blocks on both sides and two
 * or more on a side, and samples, are appended to d->groups, unless each of
 * their blocks with samples is paired with another of them (its pairs say
 * it all: the others have none).
 */
static int add_groups(struct diff *d, uint32_t fi, const struct matcher *m)
{
	const struct fside *x = &m->side[DIFF_BASE], *y = &m->side[DIFF_NEW];
	size_t n = x->nr + y->nr, keys = 0, k = 0;
	struct inv *v;
	uint32_t *up;
	struct gmember *g;
	int ret = -ENOMEM;

	for (int s = 0; s < DIFF__SIDES; s++)
		for (size_t i = 0; i < m->side[s].nr; i++)
			keys += m->side[s].b[i].set_nr[0];
	if (!x->nr || !y->nr || !keys)
		return 0;
	v = malloc(keys * sizeof(*v));
	up = malloc(n * sizeof(*up));
	g = malloc(n * sizeof(*g));
	if (!v || !up || !g)
		goto out;
	for (size_t i = 0; i < n; i++)
		up[i] = (uint32_t)i;
	for (int s = 0; s < DIFF__SIDES; s++)
		for (size_t i = 0; i < m->side[s].nr; i++)
			for (size_t e = 0; e < m->side[s].b[i].set_nr[0]; e++)
				v[k++] = (struct inv){ m->side[s].b[i].set[0][e],
						       (uint32_t)(s ? x->nr + i : i) };
	qsort(v, keys, sizeof(*v), u64_cmp);
	for (size_t i = 1; i < keys; i++)
		if (v[i].key == v[i - 1].key) {
			uint32_t a = uf_find(up, v[i].blk), b = uf_find(up, v[i - 1].blk);

			if (a != b)
				up[a < b ? b : a] = a < b ? a : b;
		}
	for (size_t i = 0; i < n; i++)
		g[i] = (struct gmember){ uf_find(up, (uint32_t)i), i >= x->nr, (uint32_t)(i >= x->nr ? i - x->nr : i) };
	qsort(g, n, sizeof(*g), gmember_cmp);
	for (size_t i = 0, j; i < n; i = j) {
		size_t per[DIFF__SIDES] = { 0, 0 };
		uint64_t samples = 0;
		struct diff_group *dg;

		/* a block of it with samples is unpaired, or paired outside it */
		bool apart = false;

		for (j = i; j < n && g[j].root == g[i].root; j++) {
			const struct bfeat *b = &m->side[g[j].side].b[g[j].idx];

			per[g[j].side]++;
			samples += b->samples;
			apart |= b->samples &&
				 (b->match < 0 || uf_find(up, (uint32_t)(g[j].side ? b->match :
									 (int32_t)x->nr + b->match)) != g[i].root);
		}
		/* Its sampled blocks paired one to one within it: its pairs say it all. */
		if (!per[0] || !per[1] || (per[0] < 2 && per[1] < 2) || !samples || !apart)
			continue;
		if (VEC_GROW(d->groups, d->groups_nr + 1, d->groups_alloc) ||
		    VEC_GROW(d->group_blocks, d->group_blocks_nr + (j - i), d->group_blocks_alloc))
			goto out;
		dg = &d->groups[d->groups_nr++];
		*dg = (struct diff_group){ .func = fi, .first_block = d->group_blocks_nr,
					   .blocks_nr = { per[0], per[1] } };
		for (size_t e = i; e < j; e++) {
			const struct bfeat *b = &m->side[g[e].side].b[g[e].idx];

			dg->samples[g[e].side] += b->samples;
			d->group_blocks[d->group_blocks_nr++] =
				(struct diff_group_block){ (int32_t)g[e].idx, b->start, b->end, b->samples };
		}
	}
	ret = 0;
out:
	free(v);
	free(up);
	free(g);
	return ret;
}

int diff_match__blocks(struct diff *d, size_t fi)
{
	struct diff_func *df = &d->funcs[fi];
	struct matcher m = { 0 };
	size_t most = 1;
	int ret = -ENOMEM;

	/* one function open at a time: its features taken, its rows go */
	for (int s = 0; s < DIFF__SIDES; s++) {
		const struct report_func *f = df->f[s] >= 0 ? &d->side[s].report.funcs[df->f[s]] : NULL;
		const struct report_func_branches *fb;

		if (f && (ret = report__func_open(&d->side[s].report, (size_t)df->f[s])))
			goto out;
		fb = f ? report__func_branches(&d->side[s].report, (size_t)df->f[s]) : NULL;
		ret = fside_build(&m.side[s], f, fb ? fb->measured : NULL) ? -ENOMEM : 0;
		if (f)
			report__func_close(&d->side[s].report, (size_t)df->f[s]);
		if (ret)
			goto out;
		ret = -ENOMEM;
		for (size_t i = 0; i < m.side[s].nr; i++)
			if (m.side[s].b[i].mn_nr + 1 > most)
				most = m.side[s].b[i].mn_nr + 1;
	}
	m.lcs_row = malloc(most * sizeof(*m.lcs_row));
	m.cnt = calloc(m.side[DIFF_BASE].nr + m.side[DIFF_NEW].nr + 1, sizeof(*m.cnt));
	m.touched = malloc((m.side[DIFF_BASE].nr + m.side[DIFF_NEW].nr + 1) * sizeof(*m.touched));
	if (!m.lcs_row || !m.cnt || !m.touched)
		goto out;
	if (m.side[DIFF_BASE].nr && m.side[DIFF_NEW].nr) {
		if (df->same_code)
			code_pairs(&m);
		if (set_cands(&m, 0, DIFF_KEY_WASM))
			goto out;
		take(&m, DIFF_KEY_WASM);
		if (set_cands(&m, 1, DIFF_KEY_SOURCE))
			goto out;
		take(&m, DIFF_KEY_SOURCE);
		if (exact_pairs(&m) || asm_cands(&m))
			goto out;
		take(&m, DIFF_KEY_ASM);
	}
	df->first_pair = d->pairs_nr;
	for (size_t i = 0; i < m.side[DIFF_BASE].nr; i++)
		if (add_pair(d, &d->pairs_alloc, (uint32_t)fi, (int32_t)i, m.side[DIFF_BASE].b[i].match, &m))
			goto out;
	for (size_t j = 0; j < m.side[DIFF_NEW].nr; j++)
		if (m.side[DIFF_NEW].b[j].match < 0 &&
		    add_pair(d, &d->pairs_alloc, (uint32_t)fi, -1, (int32_t)j, &m))
			goto out;
	df->pairs_nr = d->pairs_nr - df->first_pair;
	ret = add_groups(d, (uint32_t)fi, &m);
out:
	for (int s = 0; s < DIFF__SIDES; s++)
		fside_release(&m.side[s]);
	free(m.c);
	free(m.lcs_row);
	free(m.cnt);
	free(m.touched);
	free(m.inv);
	return ret;
}
