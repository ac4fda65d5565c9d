/* SPDX-License-Identifier: MIT */
/* The WebAssembly decoder's errors and the reads that are not inline (see wasm-read.h). */
#include <inttypes.h>
#include <stdarg.h>

#include "../plugin/lib/utf8.h"
#include "wasm-read.h"

int wasm_read__fail(struct ps *ps, const uint8_t *at, int rc, const char *fmt, ...)
{
	va_list ap;

	if (ps->failed)
		return rc;
	ps->failed = true;
	va_start(ap, fmt);
	verrf_at(ps->err, ps->errlen, ps->name, (uint64_t)(at - ps->base), fmt, ap);
	va_end(ap);
	return rc;
}

/* A size-prefixed region (section, subsection): a sub-cursor over it. */
int wasm_read__region(struct ps *ps, struct cursor *c, struct cursor *sub, const char *what)
{
	const uint8_t *at = c->p, *p;
	uint32_t n;
	int rc;

	if ((rc = wasm_read__u32(ps, c, &n, what)))
		return rc;
	if ((size_t)(c->end - c->p) < n)
		return wasm_read__fail(ps, at, -EINVAL, "%s size %" PRIu32 " runs past the end (%zu bytes left)",
				 what, n, (size_t)(c->end - c->p));
	wasm_read__bytes(ps, c, n, &p, what);
	sub->p = p;
	sub->end = p + n;
	return 0;
}

int wasm_read__name(struct ps *ps, struct cursor *c, const uint8_t **s, uint32_t *len, const char *what)
{
	const uint8_t *at = c->p;
	int rc;

	if ((rc = wasm_read__u32(ps, c, len, what)) || (rc = wasm_read__bytes(ps, c, *len, s, what)))
		return rc;
	if (!utf8_valid(*s, *len))
		return wasm_read__fail(ps, at, -EINVAL, "malformed UTF-8 encoding in %s", what);
	return 0;
}
