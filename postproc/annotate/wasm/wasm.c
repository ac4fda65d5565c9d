/* SPDX-License-Identifier: MIT */
/*
 * WebAssembly binary decoder (wasm.h): the structure of modules and
 * components, the sections the Wasm column needs, and the lookups. What the
 * decoder's other files do is listed in wasm-read.h.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/lib/bsearch.h"
#include "wasm-read.h"
#include "wasm.h"

/* ---- imports ---- */

static int rd_limits(struct ps *ps, struct cursor *c, unsigned flagmask, bool page_size)
{
	const uint8_t *at = c->p;
	uint64_t v;
	uint32_t u;
	uint8_t flags = 0;
	int rc;

	if ((rc = wasm_read__u8(ps, c, &flags, "limits")))
		return rc;
	if (flags & ~flagmask)
		return wasm_read__fail(ps, at, -EINVAL, "invalid limits flags 0x%02x", flags);
	if ((rc = wasm_read__u64(ps, c, &v, "limits minimum")))
		return rc;
	if ((flags & 1) && (rc = wasm_read__u64(ps, c, &v, "limits maximum")))
		return rc;
	if (page_size && (flags & 8) && (rc = wasm_read__u32(ps, c, &u, "page size")))
		return rc;
	return 0;
}

/* An import's type (wasmparser TypeRef); counts what the module imports. */
static int rd_typeref(struct modctx *x, struct cursor *c, uint32_t times)
{
	struct ps *ps = x->ps;
	const uint8_t *at = c->p;
	struct valtype vt;
	uint32_t idx;
	uint8_t kind = 0, b = 0;
	int rc;

	if ((rc = wasm_read__u8(ps, c, &kind, "import kind")))
		return rc;
	switch (kind) {
	case 0x00:
	case 0x20:	/* exact function import (custom descriptors) */
		rc = wasm_read__u32(ps, c, &idx, "type index");
		kind = 0;
		break;
	case 0x01:
		if (!(rc = wasm_types__read_reftype(ps, c, &vt)))
			rc = rd_limits(ps, c, 0x07, false);
		break;
	case 0x02:
		rc = rd_limits(ps, c, 0x0f, true);
		break;
	case 0x03:
		if (!(rc = wasm_types__read_valtype(ps, c, &vt)))
			rc = wasm_read__u8(ps, c, &b, "global mutability");
		break;
	case 0x04:
		if (!(rc = wasm_read__u8(ps, c, &b, "tag attribute")))
			rc = wasm_read__u32(ps, c, &idx, "tag type");
		break;
	default:
		return wasm_read__fail(ps, at, -EINVAL, "invalid leading byte (0x%x) for external kind", kind);
	}
	if (!rc && x->imported[kind] > UINT32_MAX - times)
		return wasm_read__fail(ps, at, -ERANGE, "too many imports");
	if (!rc)
		x->imported[kind] += times;
	return rc;
}

/* Import section, including the compact encodings (0x7f, 0x7e after an empty name). */
static int parse_imports(struct modctx *x, struct cursor *c)
{
	struct ps *ps = x->ps;
	const uint8_t *s;
	uint32_t n, m, len;
	int rc;

	if ((rc = wasm_read__u32(ps, c, &n, "import count")))
		return rc;
	for (uint32_t i = 0; i < n; i++) {
		if ((rc = wasm_read__name(ps, c, &s, &len, "import module")) ||
		    (rc = wasm_read__name(ps, c, &s, &len, "import name")))
			return rc;
		if (len == 0 && c->p < c->end && *c->p == 0x7f) {
			c->p++;
			if ((rc = wasm_read__u32(ps, c, &m, "import count")))
				return rc;
			for (uint32_t j = 0; j < m; j++)
				if ((rc = wasm_read__name(ps, c, &s, &len, "import name")) ||
				    (rc = rd_typeref(x, c, 1)))
					return rc;
		} else if (len == 0 && c->p < c->end && *c->p == 0x7e) {
			const uint8_t *ty;
			struct cursor again;

			c->p++;
			ty = c->p;
			if ((rc = rd_typeref(x, c, 0)) || (rc = wasm_read__u32(ps, c, &m, "import count")))
				return rc;
			for (uint32_t j = 0; j < m; j++)
				if ((rc = wasm_read__name(ps, c, &s, &len, "import name")))
					return rc;
			again = (struct cursor){ ty, c->end };
			if ((rc = rd_typeref(x, &again, m)))
				return rc;
		} else if ((rc = rd_typeref(x, c, 1))) {
			return rc;
		}
	}
	return 0;
}

/* ---- modules and components ---- */

static const uint8_t wasm_magic[4] = { 0x00, 'a', 's', 'm' };

static void modctx__release(struct modctx *x)
{
	if (!x)
		return;
	free(x->types);
	free(x->vts);
	for (int k = 0; k < NK__NR; k++)
		free(x->names[k].v);
	free(x->labels);
	wasm_labels__release(x);
	strbuf_release(&x->out);
}

static int check_header(struct ps *ps, struct cursor *c, const uint8_t version[4])
{
	const uint8_t *at = c->p, *h = NULL;

	if (wasm_read__bytes(ps, c, 8, &h, "header"))
		return -EINVAL;
	if (memcmp(h, wasm_magic, 4))
		return wasm_read__fail(ps, at, -EINVAL, "not a WebAssembly binary (bad magic number)");
	if (memcmp(h + 4, version, 4))
		return wasm_read__fail(ps, at + 4, -ENOTSUP, "unsupported binary version %02x %02x %02x %02x",
				 h[4], h[5], h[6], h[7]);
	return 0;
}

static const uint8_t module_version[4] = { 0x01, 0x00, 0x00, 0x00 };
static const uint8_t component_version[4] = { 0x0d, 0x00, 0x01, 0x00 };

/*
 * The first pass over a core module's sections at s (after the header): the
 * names, types, imports and function count, where the code is, whether it
 * has DWARF (*dwarf).
 */
static int read_sections(struct modctx *x, struct cursor *s, bool *dwarf)
{
	struct ps *ps = x->ps;
	int rc = 0;

	while (s->p < s->end) {
		struct cursor sec;
		const uint8_t *name;
		const uint8_t *at = s->p;
		uint32_t len;
		uint8_t id;

		if ((rc = wasm_read__u8(ps, s, &id, "section id")))
			return rc;
		/*
		 * Spec 5.5.2 and the tag section of the exception handling proposal:
		 * ids 0..13. Anything else is a module no engine loads (wabt, wasmparser).
		 */
		if (id > 13)
			return wasm_read__fail(ps, at, -EINVAL, "unknown section id %u", id);
		if ((rc = wasm_read__region(ps, s, &sec, "section")))
			return rc;
		switch (id) {
		case 0:		/* custom */
			if ((rc = wasm_read__name(ps, &sec, &name, &len, "custom section name")))
				return rc;
			if (len == 4 && !memcmp(name, "name", 4))
				rc = wasm_names__parse(x, &sec);
			else if (len == 11 && !memcmp(name, ".debug_info", 11))
				*dwarf = true;
			break;
		case 1:
			rc = wasm_types__parse(x, &sec);
			break;
		case 2:
			rc = parse_imports(x, &sec);
			break;
		case 3:
			x->defined_funcs_at = sec.p;
			rc = wasm_read__u32(ps, &sec, &x->defined_funcs, "function count");
			break;
		case 10:
			x->code[0] = sec;
			x->has_code = true;
			break;
		default:	/* nothing we need */
			break;
		}
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * A core module in c (header included). Sections are read in two passes
 * because instruction text needs the names, and the name section follows the
 * code section. What decoding a body needs (types, names, import counts) is
 * kept with the module for the bodies decoded later.
 */
static int parse_module(struct ps *ps, struct wasm_module *m, struct cursor *c)
{
	struct modctx *x = calloc(1, sizeof(*x));
	struct core_module *cm;
	struct cursor s = *c;
	bool dwarf = false;
	int rc;

	if (!x)
		return wasm_read__fail(ps, c->p, -ENOMEM, "out of memory");
	*x = (struct modctx){ .ps = ps, .m = m, .index = (uint32_t)m->nr_mods };
	if ((rc = check_header(ps, &s, module_version)))
		goto out;
	if ((rc = read_sections(x, &s, &dwarf)))
		goto out;
	for (int k = 0; k < NK__NR; k++)
		name_map__finish(&x->names[k]);
	if (x->has_code && (rc = wasm_insn__decode(x, &x->code[0])))
		goto out;
	if (!x->has_code && x->defined_funcs) {
		rc = wasm_read__fail(ps, x->defined_funcs_at, -EINVAL, "function and code section have "
			       "inconsistent lengths (function section %" PRIu32 ", no code section)",
			       x->defined_funcs);
		goto out;
	}
	if (VEC_GROW(m->mods, m->nr_mods + 1, m->alloc_mods)) {
		rc = wasm_read__fail(ps, c->p, -ENOMEM, "out of memory");
		goto out;
	}
	cm = &m->mods[m->nr_mods++];
	*cm = (struct core_module){
		.off = (uint32_t)(c->p - ps->base),
		.len = (uint32_t)(c->end - c->p),
		.imported_funcs = x->imported[0],
		.x = x,
	};
	m->dwarf_mods += dwarf;
	cm->nfuncs = x->imported[0] + x->defined_funcs < x->imported[0] ? UINT32_MAX :
		     x->imported[0] + x->defined_funcs;
	x->ps = NULL;	/* the caller's: each later decoding brings its own */
	return 0;
out:
	modctx__release(x);
	free(x);
	return rc;
}

/* A component (layer 1): its core modules, nested components included, in file order. */
static int parse_component(struct ps *ps, struct wasm_module *m, struct cursor *c, int depth)
{
	struct cursor s = *c;
	int rc;

	if (depth > MAX_COMPONENT_DEPTH)
		return wasm_read__fail(ps, c->p, -ENOTSUP, "components nested more than %d deep",
				 MAX_COMPONENT_DEPTH);
	if ((rc = check_header(ps, &s, component_version)))
		return rc;
	while (s.p < s.end) {
		struct cursor sec;
		uint8_t id;

		if ((rc = wasm_read__u8(ps, &s, &id, "section id")) ||
		    (rc = wasm_read__region(ps, &s, &sec, "section")))
			return rc;
		if (id == 1)		/* core module */
			rc = parse_module(ps, m, &sec);
		else if (id == 4)	/* nested component */
			rc = parse_component(ps, m, &sec, depth + 1);
		if (rc)
			return rc;
	}
	return 0;
}

void wasm_module__free(struct wasm_module *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr_mods; i++) {
		struct core_module *cm = &m->mods[i];

		if (cm->fnames)
			for (size_t k = 0; k < cm->x->names[NK_FUNC].nr; k++)
				free(cm->fnames[k]);
		free(cm->fnames);
		modctx__release(cm->x);
		free(cm->x);
	}
	free(m->mods);
	for (size_t i = 0; i < m->nr_bodies; i++) {
		free(m->bodies[i].insns);
		free(m->bodies[i].text);
	}
	free(m->bodies);
	free(m->all);
	free(m->name);
	pthread_mutex_destroy(&m->lock);
	free(m);
}

int wasm_module__parse(struct wasm_module **out, const uint8_t *buf, size_t len,
		       const char *name, char *err, size_t errlen)
{
	struct ps ps = { .base = buf, .name = name ? name : "wasm", .err = err, .errlen = errlen };
	struct cursor c = { buf, buf + len };
	struct wasm_module *m;
	int rc;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	if (len > UINT32_MAX)
		return wasm_read__fail(&ps, buf, -ERANGE, "file larger than 4 GiB: offsets do not fit");
	m = calloc(1, sizeof(*m));
	if (!m)
		return wasm_read__fail(&ps, buf, -ENOMEM, "out of memory");
	pthread_mutex_init(&m->lock, NULL);
	m->buf = buf;
	m->len = len;
	if (!(m->name = strdup(ps.name))) {
		free(m);
		return wasm_read__fail(&ps, buf, -ENOMEM, "out of memory");
	}
	/*
	 * Text grows with the input, except that one long name can be repeated by
	 * every call: wasmprinter would print it all; we stop at a generous bound.
	 * The first pass counts all of it, so a module is refused as a whole
	 * whichever of its functions are later shown.
	 */
	m->text_limit = ((size_t)64 << 20) + 32 * len;
	m->component = len >= 8 && !memcmp(buf + 4, component_version, 4);
	if (m->component)
		rc = parse_component(&ps, m, &c, 0);
	else
		rc = parse_module(&ps, m, &c);
	if (rc) {
		wasm_module__free(m);
		return rc;
	}
	*out = m;
	return 0;
}

/* Body b decoded, its texts kept (want_full: whole instructions in *full too). Locked. */
static int decode_body(struct wasm_module *m, struct wasm_body *b, struct wasm_insn **full)
{
	struct modctx *x = m->mods[b->module].x;
	struct ps ps = { .base = m->buf, .name = m->name };
	struct insn_sink k = { .want_full = full != NULL };
	int rc;

	if (!m->lazy_errors) {
		ps.err = m->lazy_error;
		ps.errlen = sizeof(m->lazy_error);
	}
	x->ps = &ps;
	rc = wasm_insn__decode_body(x, b, &k);
	x->ps = NULL;
	if (!rc && k.nr > UINT32_MAX)
		rc = -E2BIG;
	if (rc) {
		/* Only memory can fail here: the first pass decoded this body. */
		m->lazy_errors++;
		free(k.v);
		free(k.full);
		strbuf_release(&k.text);
		return rc;
	}
	if (b->insns) {
		/* decoded before: keep the texts already handed out (the same) */
		free(k.v);
		strbuf_release(&k.text);
	} else {
		b->insns = k.v;
		b->nr = (uint32_t)k.nr;
		b->text = k.text.buf;
	}
	b->decoded = true;
	if (full)
		*full = k.full;
	return 0;
}

/* The body holding file offset off, or NULL. */
static struct wasm_body *find_body(const struct wasm_module *m, uint32_t off)
{
	/* bodies in file order, not overlapping */
	size_t i = LOWER_BOUND(m->nr_bodies, k, m->bodies[k].end <= off);

	return i < m->nr_bodies && m->bodies[i].expr <= off ? &m->bodies[i] : NULL;
}

const char *wasm_module__insn_text(struct wasm_module *m, uint32_t off)
{
	struct wasm_body *b = m ? find_body(m, off) : NULL;
	const char *text = NULL;

	if (!b)
		return NULL;
	pthread_mutex_lock(&m->lock);
	if (!b->decoded && decode_body(m, b, NULL))
		b->decoded = true;	/* counted in lazy_errors; not tried again */
	/* offsets are distinct: instructions in file order */
	size_t i = LOWER_BOUND(b->nr, k, b->insns[k].off < off);

	if (i < b->nr && b->insns[i].off == off && b->insns[i].text != UINT32_MAX)
		text = b->text + b->insns[i].text;
	pthread_mutex_unlock(&m->lock);
	return text;
}

size_t wasm_module__insns(struct wasm_module *m, const struct wasm_insn **insns)
{
	size_t n = 0, alloc = 0;
	struct wasm_insn *all = NULL;

	pthread_mutex_lock(&m->lock);
	if (m->all || !m->nr_bodies)
		goto out;
	for (size_t i = 0; i < m->nr_bodies; i++) {
		struct wasm_body *b = &m->bodies[i];
		struct wasm_insn *full = NULL;

		if (decode_body(m, b, &full) || VEC_GROW(all, n + b->nr, alloc)) {
			free(full);
			free(all);
			all = NULL;
			n = 0;
			break;
		}
		for (uint32_t j = 0; j < b->nr; j++) {
			all[n] = full[j];
			all[n++].text = b->insns[j].text == UINT32_MAX ? NULL : b->text + b->insns[j].text;
		}
		free(full);
	}
	m->all = all;
	m->nr_all = n;
out:
	*insns = m->all;
	pthread_mutex_unlock(&m->lock);
	return m->nr_all;
}

const char *wasm_module__module_func_name(struct wasm_module *m, uint32_t mod, uint32_t func_index)
{
	struct core_module *cm;
	const struct name_map *fm;
	const struct naming *n;
	char *s = NULL;

	if (!m || mod >= m->nr_mods)
		return NULL;
	cm = &m->mods[mod];
	fm = &cm->x->names[NK_FUNC];
	/* as wasmtime keeps them: raw, the last one of an index, below the function count */
	if (func_index >= cm->nfuncs || !(n = name_map__find(fm, func_index, 0)))
		return NULL;
	pthread_mutex_lock(&m->lock);
	if (!cm->fnames)
		cm->fnames = calloc(fm->nr, sizeof(*cm->fnames));
	if (cm->fnames) {
		size_t i = (size_t)(n - fm->v);

		if (!cm->fnames[i] && (cm->fnames[i] = malloc((size_t)n->len + 1))) {
			memcpy(cm->fnames[i], n->s, n->len);
			cm->fnames[i][n->len] = '\0';
		}
		s = cm->fnames[i];
	}
	pthread_mutex_unlock(&m->lock);
	return s;
}

const char *wasm_module__func_name(struct wasm_module *m, uint32_t func_index)
{
	return wasm_module__module_func_name(m, 0, func_index);
}

unsigned wasm_module__lazy_errors(const struct wasm_module *m)
{
	return m ? m->lazy_errors : 0;
}

const char *wasm_module__lazy_error(const struct wasm_module *m)
{
	return m && m->lazy_errors ? m->lazy_error : NULL;
}

uint32_t wasm_module__module_imported_funcs(const struct wasm_module *m, uint32_t mod)
{
	return m && mod < m->nr_mods ? m->mods[mod].imported_funcs : 0;
}

uint32_t wasm_module__imported_funcs(const struct wasm_module *m)
{
	return wasm_module__module_imported_funcs(m, 0);
}

int wasm_module__module_range(const struct wasm_module *m, uint32_t mod, uint32_t *off,
			      uint32_t *len)
{
	if (!m || mod >= m->nr_mods)
		return -ENOENT;
	*off = m->mods[mod].off;
	*len = m->mods[mod].len;
	return 0;
}

uint32_t wasm_module__core_modules(const struct wasm_module *m)
{
	return m ? (uint32_t)m->nr_mods : 0;
}

bool wasm_module__is_component(const struct wasm_module *m)
{
	return m && m->component;
}

uint32_t wasm_module__dwarf_modules(const struct wasm_module *m)
{
	return m ? m->dwarf_mods : 0;
}

unsigned wasm_module__name_errors(const struct wasm_module *m)
{
	return m ? m->name_errors : 0;
}

const char *wasm_module__name_error(const struct wasm_module *m)
{
	return m && m->name_errors ? m->name_error : NULL;
}
