/* SPDX-License-Identifier: MIT */
/* The DWARF of a wasm module (srcmap__open_wasm): its .debug_* custom sections in an ELF image. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <elfutils/libdw.h>
#include <gelf.h>

#include "lib/leb128.h"
#include "lib/util.h"
#include "dwarf-image.h"
#include "srcmap-defs.h"

/* Wasm spec 5.5.2 section ids used here. */
#define WASM_SEC_CUSTOM 0
#define WASM_SEC_CODE 10

struct cursor {
	const uint8_t *p, *end;
};

/* A u32 LEB128 (5 bytes at most, unused bits zero): 0, or -EINVAL. */
static int cursor_uleb32(struct cursor *c, uint32_t *v)
{
	uint64_t x;

	if (leb128_read_u(&c->p, c->end, 32, &x))
		return -EINVAL;
	*v = (uint32_t)x;
	return 0;
}

struct debug_sec {
	const uint8_t *name;	/* into the module, not NUL-terminated */
	uint32_t name_len;
	const uint8_t *data;
	uint32_t size;
};

struct wasm_scan {
	struct debug_sec *secs;
	size_t nr, alloc;
	bool has_code, has_linking, has_info;
	uint64_t code_start, code_end;
	const uint8_t *external;	/* external_debug_info URL, if any */
	uint32_t external_len;
};

static bool name_is(const uint8_t *name, uint32_t len, const char *s)
{
	return len == strlen(s) && !memcmp(name, s, len);
}

/* Wasm spec 5.5: magic, version 1, then id / size / payload sections. */
static int scan_wasm(struct wasm_scan *w, const uint8_t *wasm, size_t len, char *err,
		     size_t errlen)
{
	static const uint8_t head[8] = { 0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00 };
	struct cursor c;

	if (len < 8 || memcmp(wasm, "\0asm", 4))
		return errf(err, errlen, -EINVAL, "not a wasm module");
	if (memcmp(wasm, head, 8))
		return errf(err, errlen, -EINVAL, "not a core wasm module of version 1");
	c = (struct cursor){ wasm + 8, wasm + len };
	while (c.p < c.end) {
		uint64_t at = (uint64_t)(c.p - wasm);
		uint8_t id = *c.p++;
		struct cursor s;
		uint32_t size;

		if (cursor_uleb32(&c, &size) || size > (size_t)(c.end - c.p))
			return errf(err, errlen, -EINVAL, "+0x%" PRIx64 ": section %u truncated", at, id);
		s = (struct cursor){ c.p, c.p + size };
		c.p += size;
		if (id == WASM_SEC_CODE) {
			if (w->has_code)
				return errf(err, errlen, -EINVAL, "+0x%" PRIx64 ": second code section", at);
			w->has_code = true;
			w->code_start = (uint64_t)(s.p - wasm);
			w->code_end = (uint64_t)(s.end - wasm);
		} else if (id == WASM_SEC_CUSTOM) {
			uint32_t nlen;
			const uint8_t *name;

			if (cursor_uleb32(&s, &nlen) || nlen > (size_t)(s.end - s.p))
				return errf(err, errlen, -EINVAL,
					    "+0x%" PRIx64 ": custom section name truncated", at);
			name = s.p;
			s.p += nlen;
			if (name_is(name, nlen, "linking")) {
				w->has_linking = true;
			} else if (name_is(name, nlen, "external_debug_info")) {
				uint32_t ulen;

				if (!cursor_uleb32(&s, &ulen) && ulen <= (size_t)(s.end - s.p)) {
					w->external = s.p;
					w->external_len = ulen;
				}
			} else if (nlen > 7 && !memcmp(name, ".debug_", 7)) {
				if (memchr(name, 0, nlen))
					return errf(err, errlen, -EINVAL,
						    "+0x%" PRIx64 ": NUL in a section name", at);
				for (size_t i = 0; i < w->nr; i++)
					if (w->secs[i].name_len == nlen &&
					    !memcmp(w->secs[i].name, name, nlen))
						return errf(err, errlen, -EINVAL,
							    "+0x%" PRIx64 ": second %.*s section", at,
							    (int)nlen, name);
				if (VEC_GROW(w->secs, w->nr + 1, w->alloc))
					return -ENOMEM;
				w->secs[w->nr++] = (struct debug_sec){
					.name = name, .name_len = nlen, .data = s.p,
					.size = (uint32_t)(s.end - s.p),
				};
				if (name_is(name, nlen, ".debug_info"))
					w->has_info = true;
			}
		}
	}
	return 0;
}

/*
 * The module's .debug_* sections in an ELF image (dwarf-image.h): ELFCLASS32
 * because wasm32 DWARF has 4-byte addresses, little-endian like wasm,
 * EM_NONE.
 */
static int build_image(struct srcmap *m, const struct wasm_scan *w, size_t *size, char *err,
		       size_t errlen)
{
	static const struct dwarf_image_kind wasm32 = { ELFCLASS32, ELFDATA2LSB, EM_NONE };
	struct dwarf_image_sec *secs = calloc(w->nr ? w->nr : 1, sizeof(*secs));
	int ret;

	if (!secs)
		return errf(err, errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; i < w->nr; i++)
		secs[i] = (struct dwarf_image_sec){ .name = (const char *)w->secs[i].name,
						    .name_len = w->secs[i].name_len,
						    .data = w->secs[i].data, .size = w->secs[i].size,
						    .out_size = w->secs[i].size };
	ret = dwarf_image__build(&m->image, size, &wasm32, secs, w->nr, err, errlen);
	free(secs);
	return ret;
}

int srcmap__open_wasm(struct srcmap **out, const uint8_t *wasm, size_t len, const char *name,
		      char *err, size_t errlen)
{
	struct wasm_scan w = { 0 };
	struct srcmap *m = NULL;
	size_t size = 0;
	int ret;

	*out = NULL;
	if (!name)
		name = "wasm";
	ret = srcmap__lib_init(err, errlen);
	if (ret)
		return ret;
	ret = scan_wasm(&w, wasm, len, err, errlen);
	if (ret) {
		if (ret == -ENOMEM)
			errf(err, errlen, ret, "out of memory");
		goto out;
	}
	if (w.has_linking) {
		ret = errf(err, errlen, -ENOTSUP,
			   "%s: a relocatable wasm object, DWARF addresses unresolved", name);
		goto out;
	}
	if (!w.has_info && w.external) {
		ret = errf(err, errlen, -ENODATA, "%s: DWARF is in a separate file: %.*s", name,
			   (int)w.external_len, w.external);
		goto out;
	}
	if (!w.has_info) {
		ret = errf(err, errlen, -ENODATA, "%s: no DWARF (.debug_info) in the module", name);
		goto out;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		ret = errf(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	m->wasm = true;
	/* No Code section: every lookup finds nothing, but the DWARF is valid. */
	m->code_start = w.code_start;
	m->code_end = w.has_code ? w.code_end : w.code_start;
	ret = build_image(m, &w, &size, err, errlen);
	if (ret)
		goto out;
	m->elf = elf_memory((char *)m->image, size);
	if (!m->elf) {
		ret = errf(err, errlen, -EINVAL, "%s: libelf: %s", name, elf_errmsg(-1));
		goto out;
	}
	m->dw = dwarf_begin_elf(m->elf, DWARF_C_READ, NULL);
	m->dw_owned = true;
	if (!m->dw) {
		ret = errf(err, errlen, -EINVAL, "%s: libdw: %s", name, dwarf_errmsg(-1));
		goto out;
	}
	ret = srcmap__index_units(m);
	if (ret) {
		errf(err, errlen, ret, "out of memory");
		goto out;
	}
	*out = m;
	m = NULL;
out:
	srcmap__close(m);
	free(w.secs);
	return ret;
}
