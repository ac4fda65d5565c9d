// SPDX-License-Identifier: MIT
/* FDE bounds from .eh_frame (see ehframe.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/bsearch.h"
#include "../lib/byteorder.h"
#include "ehframe.h"

/* DW_EH_PE_*: a pointer's format (low nibble) and what it is relative to. */
#define PE_OMIT		0xff
#define PE_ABSPTR	0x00
#define PE_ULEB128	0x01
#define PE_UDATA2	0x02
#define PE_UDATA4	0x03
#define PE_UDATA8	0x04
#define PE_SLEB128	0x09
#define PE_SDATA2	0x0a
#define PE_SDATA4	0x0b
#define PE_SDATA8	0x0c
#define PE_PCREL	0x10
#define PE_DATAREL	0x30
#define PE_INDIRECT	0x80

/* CIEs remembered by offset: FDEs name theirs, usually one or a few per file. */
#define CIE_CACHE 16

struct reader {
	const uint8_t *p, *end;
	bool swapped, is64;
	bool bad;
};

struct cie {
	size_t off;
	uint8_t fde_enc;
};

static uint64_t get(struct reader *r, size_t n)
{
	uint64_t v = 0;

	if ((size_t)(r->end - r->p) < n) {
		r->bad = true;
		r->p = r->end;
		return 0;
	}
	if (n == 1)
		v = r->p[0];
	else if (n == 2)
		v = hb_load16(r->p, r->swapped);
	else if (n == 4)
		v = hb_load32(r->p, r->swapped);
	else
		v = hb_load64(r->p, r->swapped);
	r->p += n;
	return v;
}

static uint64_t uleb(struct reader *r)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (r->p < r->end) {
		uint8_t b = *r->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	r->bad = true;
	return v;
}

static int64_t sleb(struct reader *r)
{
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t b = 0;

	while (r->p < r->end) {
		b = *r->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				v |= ~0ULL << shift;
			return (int64_t)v;
		}
	}
	r->bad = true;
	return (int64_t)v;
}

/* A pointer of encoding enc at the reader (at virtual address here); its
 * application (pc-relative) only when apply. */
static uint64_t pointer(struct reader *r, uint8_t enc, uint64_t here, bool apply)
{
	uint64_t v;

	switch (enc & 0x0f) {
	case PE_ABSPTR:
		v = get(r, r->is64 ? 8 : 4);
		break;
	case PE_ULEB128:
		v = uleb(r);
		break;
	case PE_UDATA2:
		v = get(r, 2);
		break;
	case PE_UDATA4:
		v = get(r, 4);
		break;
	case PE_UDATA8:
		v = get(r, 8);
		break;
	case PE_SLEB128:
		v = (uint64_t)sleb(r);
		break;
	case PE_SDATA2:
		v = (uint64_t)(int64_t)(int16_t)get(r, 2);
		break;
	case PE_SDATA4:
		v = (uint64_t)(int64_t)(int32_t)get(r, 4);
		break;
	case PE_SDATA8:
		v = get(r, 8);
		break;
	default:
		r->bad = true;
		return 0;
	}
	/* Only pc-relative locations occur in the FDEs of executables and libraries;
	 * the others need a base (text, data, function) this reader does not know. */
	if (apply && (enc & 0x70) == PE_PCREL)
		v += here;
	else if (apply && (enc & 0x70))
		r->bad = true;
	return v;
}

/* The FDE pointer encoding of the CIE at data + off (its augmentation's R). */
static bool read_cie(const uint8_t *data, size_t len, size_t off, bool is64, bool swapped, uint8_t *enc)
{
	struct reader r = { data + off, data + len, swapped, is64, false };
	uint64_t length = get(&r, 4);
	const char *aug;
	uint8_t version;

	*enc = PE_ABSPTR;
	if (length == 0xffffffff)
		length = get(&r, 8);
	if (r.bad || length > (uint64_t)(r.end - r.p))
		return false;
	r.end = r.p + length;
	if (get(&r, 4) != 0)	/* an .eh_frame CIE's id is 0 */
		return false;
	version = (uint8_t)get(&r, 1);
	aug = (const char *)r.p;
	if (!memchr(aug, '\0', (size_t)(r.end - r.p)))
		return false;
	r.p += strlen(aug) + 1;
	if (!strcmp(aug, "eh")) 	/* an old GCC's: a pointer follows */
		get(&r, is64 ? 8 : 4);
	uleb(&r);	/* code alignment */
	sleb(&r);	/* data alignment */
	if (version == 1)
		get(&r, 1);
	else
		uleb(&r);	/* return address register */
	if (aug[0] != 'z')
		return !r.bad;
	uleb(&r);	/* augmentation data length */
	for (const char *a = aug + 1; *a && !r.bad; a++) {
		switch (*a) {
		case 'R':
			*enc = (uint8_t)get(&r, 1);
			break;
		case 'L':
			get(&r, 1);
			break;
		case 'P': {
			uint8_t penc = (uint8_t)get(&r, 1);

			pointer(&r, penc & 0x7f, 0, false);
			break;
		}
		case 'S':
		case 'B':
			break;
		default:
			/* an augmentation this reader does not know: its data cannot be skipped
			 * by letter, but R, if any, came before it in every producer */
			return !r.bad;
		}
	}
	return !r.bad;
}

static int by_start(const void *a, const void *b)
{
	const struct ehframe_fde *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

int ehframe__read(struct ehframe *f, const uint8_t *data, size_t len, uint64_t addr, bool is64, bool swapped)
{
	struct cie cache[CIE_CACHE];
	size_t cached = 0, off = 0, alloc = 0;

	memset(f, 0, sizeof(*f));
	while (len - off >= 4) {
		struct reader r = { data + off, data + len, swapped, is64, false };
		uint64_t length = get(&r, 4), id, start, range;
		size_t body, next, cie_off;
		uint8_t enc = PE_ABSPTR;
		bool found = false;

		if (length == 0)	/* the terminator */
			break;
		if (length == 0xffffffff)
			length = get(&r, 8);
		body = (size_t)(r.p - data);
		if (r.bad || length > len - body)
			break;
		next = body + (size_t)length;
		r.end = data + next;
		id = get(&r, 4);
		if (r.bad)
			break;
		off = next;
		if (id == 0)	/* a CIE */
			continue;
		/* an FDE: its CIE is id bytes back from the id field */
		if (id > body)
			goto bad;
		cie_off = body - (size_t)id;
		for (size_t i = 0; i < cached && !found; i++)
			if (cache[i].off == cie_off)
				enc = cache[i].fde_enc, found = true;
		if (!found) {
			if (!read_cie(data, len, cie_off, is64, swapped, &enc))
				goto bad;
			cache[cached < CIE_CACHE ? cached++ : CIE_CACHE - 1] = (struct cie){ cie_off, enc };
		}
		if (enc == PE_OMIT || (enc & PE_INDIRECT))
			goto bad;
		start = pointer(&r, enc, addr + (uint64_t)(r.p - data), true);
		range = pointer(&r, enc & 0x0f, 0, false);
		if (r.bad)
			goto bad;
		if (!range)
			continue;
		/* a range past the top of the address space holds no code (and no lookup finds it) */
		if (start + range < start)
			goto bad;
		if (f->nr == alloc) {
			size_t n = alloc ? alloc * 2 : 256;
			struct ehframe_fde *v = reallocarray(f->v, n, sizeof(*v));

			if (!v) {
				ehframe__release(f);
				return -ENOMEM;
			}
			f->v = v;
			alloc = n;
		}
		f->v[f->nr++] = (struct ehframe_fde){ start, start + range };
		continue;
bad:
		f->bad++;
	}
	if (f->nr)
		qsort(f->v, f->nr, sizeof(*f->v), by_start);
	return 0;
}

const struct ehframe_fde *ehframe__find(const struct ehframe *f, uint64_t vaddr)
{
	/* the last FDE starting at or before vaddr; a few before it when FDEs overlap */
	size_t lo = LOWER_BOUND(f->nr, i, f->v[i].start <= vaddr);

	for (size_t i = lo, tries = 0; i > 0 && tries < 8; i--, tries++)
		if (vaddr < f->v[i - 1].end)
			return &f->v[i - 1];
	return NULL;
}

void ehframe__release(struct ehframe *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}
