/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of postproc/annotate/dwarf/srcmap.c on wasm modules: their DWARF
 * found in the Code section only, and a real module truncated anywhere, its
 * debug sections damaged, its container wrong (ELF files, the short form,
 * jitdump entries and the lookup CLI: test-srcmap.c). Run from the top of the
 * tree: they read test-data/.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "annotate/dwarf/srcmap.h"
#include "lib/read-file.h"

/* clang --target=wasm32 -g -O2 of test-data/srcline/inl.c (test-data/srcline/README.md). */
#define INL_WASM "test-data/srcline/inl.wasm"
/* The same workload built without -g (test-data/v8-wasm/README.md). */
#define HOT_WASM "test-data/v8-wasm/hot.wasm"

static char err[512];

/* ---- a minimal wasm re-writer, to damage one section of a real module ---- */

struct section {
	uint8_t id;
	const uint8_t *payload;	/* into the module */
	size_t size;
	const char *custom;	/* custom section name (copied, NUL-terminated) or NULL */
	char name[64];
};

static size_t uleb(const uint8_t *p, const uint8_t *end, uint32_t *v)
{
	uint32_t r = 0;
	size_t n = 0;

	for (unsigned shift = 0; p + n < end && shift < 35; shift += 7) {
		uint8_t b = p[n++];

		r |= (uint32_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = r;
			return n;
		}
	}
	fail_msg("bad LEB128 in the test module");
	return 0;
}

static size_t sections_of(const uint8_t *w, size_t len, struct section *s, size_t max)
{
	const uint8_t *p = w + 8, *end = w + len;
	size_t n = 0;

	while (p < end) {
		uint32_t size = 0, nlen = 0;

		assert_true(n < max);
		s[n] = (struct section){ .id = *p++ };
		p += uleb(p, end, &size);
		s[n].payload = p;
		s[n].size = size;
		if (!s[n].id) {
			size_t k = uleb(p, end, &nlen);

			assert_true(nlen < sizeof(s[n].name));
			memcpy(s[n].name, p + k, nlen);
			s[n].custom = s[n].name;
		}
		p += size;
		n++;
	}
	return n;
}

static size_t put_uleb(uint8_t *out, uint32_t v)
{
	size_t n = 0;

	do {
		out[n] = v & 0x7f;
		v >>= 7;
		if (v)
			out[n] |= 0x80;
		n++;
	} while (v);
	return n;
}

/* Emit the module with section k's payload replaced by body[0..size) (k < 0: none). */
static uint8_t *rebuild(const struct section *s, size_t n, long k, const uint8_t *body,
			size_t size, size_t *len)
{
	size_t cap = 8, at = 8;
	uint8_t *out;

	for (size_t i = 0; i < n; i++)
		cap += 1 + 5 + (i == (size_t)k ? size : s[i].size);
	out = malloc(cap);
	assert_non_null(out);
	memcpy(out, "\0asm\1\0\0\0", 8);
	for (size_t i = 0; i < n; i++) {
		const uint8_t *p = i == (size_t)k ? body : s[i].payload;
		size_t sz = i == (size_t)k ? size : s[i].size;

		out[at++] = s[i].id;
		at += put_uleb(out + at, (uint32_t)sz);
		memcpy(out + at, p, sz);
		at += sz;
	}
	*len = at;
	return out;
}

/* Open (whatever comes back must be a documented code) and, if it opened, look up every offset. */
static void open_and_probe(const uint8_t *w, size_t len, uint64_t step)
{
	struct srcmap *m = NULL;
	int ret = srcmap__open_wasm(&m, w, len, "damaged", err, sizeof(err));

	if (ret) {
		assert_null(m);
		assert_true(ret == -EINVAL || ret == -ENODATA || ret == -ENOTSUP);
		assert_true(err[0] != 0);
		return;
	}
	for (uint64_t off = 0; off < len + 4; off += step) {
		const struct srcmap_frame *fr;
		size_t nr = srcmap__lookup(m, off, &fr);

		for (size_t i = 0; i < nr; i++)
			assert_true(fr[i].line < 1000000);
	}
	srcmap__close(m);
}

struct module {
	uint8_t *buf;
	size_t len;
	struct section s[32];
	size_t n;
};

static int module_setup(void **state)
{
	struct module *mod = calloc(1, sizeof(*mod));

	if (!mod)
		return -1;
	if (read_file(INL_WASM, (size_t)1 << 30, "1 GiB", 0, &mod->buf, &mod->len, NULL, 0)) {
		fprintf(stderr, "%s: %s (run from the top of the tree)\n", INL_WASM, strerror(errno));
		free(mod);
		return -1;
	}
	*state = mod;
	return 0;
}

static int module_teardown(void **state)
{
	struct module *mod = *state;

	free(mod->buf);
	free(mod);
	return 0;
}

/* ---- tests: wasm ---- */

static void wasm_without_dwarf_is_enodata(void **state)
{
	struct srcmap *m = (void *)1;
	size_t len;
	uint8_t *w = NULL;

	assert_int_equal(read_file(HOT_WASM, (size_t)1 << 30, "1 GiB", 0, &w, &len, NULL, 0), 0);
	assert_int_equal(srcmap__open_wasm(&m, w, len, "hot.wasm", err, sizeof(err)), -ENODATA);
	assert_null(m);
	assert_non_null(strstr(err, "no DWARF"));
	free(w);
}

static void wasm_with_dwarf_opens_and_finds_frames_in_code_only(void **state)
{
	struct module *mod = *state;
	struct srcmap *m;
	uint64_t code_start, with = 0, outside = 0;

	mod->n = sections_of(mod->buf, mod->len, mod->s, ARRAY_SIZE(mod->s));
	assert_int_equal(srcmap__open_wasm(&m, mod->buf, mod->len, "inl.wasm", err, sizeof(err)), 0);
	code_start = srcmap__wasm_code_start(m);
	for (size_t i = 0; i < mod->n; i++)
		if (mod->s[i].id == 10)
			assert_int_equal(code_start, mod->s[i].payload - mod->buf);
	for (uint64_t off = 0; off < mod->len + 16; off++) {
		const struct srcmap_frame *fr, *again;
		size_t nr = srcmap__lookup(m, off, &fr);

		if (off < code_start)
			outside += nr;
		else
			with += nr > 0;
		/* Cached: the same array comes back. */
		assert_int_equal(srcmap__lookup(m, off, &again), nr);
		assert_ptr_equal(again, fr);
		for (size_t i = 0; i < nr; i++) {
			assert_non_null(fr[i].file);
			assert_non_null(fr[i].function);
		}
	}
	assert_int_equal(outside, 0);
	assert_true(with > 50);
	srcmap__close(m);
}

static void wasm_truncated_anywhere_is_an_error_not_a_crash(void **state)
{
	struct module *mod = *state;

	for (size_t len = 0; len < mod->len; len++)
		open_and_probe(mod->buf, len, 13);
}

static void wasm_damaged_debug_sections_do_not_crash(void **state)
{
	struct module *mod = *state;
	size_t done = 0;

	mod->n = sections_of(mod->buf, mod->len, mod->s, ARRAY_SIZE(mod->s));
	for (size_t k = 0; k < mod->n; k++) {
		const struct section *s = &mod->s[k];
		size_t hdr, size = s->size;
		uint8_t *body;

		if (!s->custom || strncmp(s->custom, ".debug_", 7))
			continue;
		hdr = 1 + strlen(s->custom);	/* name LEB (one byte here) + name */
		body = malloc(size);
		assert_non_null(body);
		/* Section payload cut short at several points, name kept. */
		for (size_t cut = hdr; cut < size; cut += (size - hdr) / 7 + 1) {
			size_t len;
			uint8_t *w = rebuild(mod->s, mod->n, (long)k, s->payload, cut, &len);

			open_and_probe(w, len, 3);
			free(w);
		}
		/* Every byte of the DWARF flipped in turn. */
		for (size_t at = hdr; at < size; at++) {
			size_t len;
			uint8_t *w;

			memcpy(body, s->payload, size);
			body[at] ^= 0xff;
			w = rebuild(mod->s, mod->n, (long)k, body, size, &len);
			open_and_probe(w, len, 7);
			free(w);
		}
		free(body);
		done++;
	}
	assert_true(done >= 4);
}

static void wasm_container_errors_have_their_codes(void **state)
{
	struct module *mod = *state;
	struct srcmap *m;
	uint8_t *w, body[64];
	size_t len, n;
	long info = -1;

	mod->n = sections_of(mod->buf, mod->len, mod->s, ARRAY_SIZE(mod->s));
	n = mod->n;
	for (size_t k = 0; k < n; k++)
		if (mod->s[k].custom && !strcmp(mod->s[k].custom, ".debug_info"))
			info = (long)k;
	assert_true(info >= 0);

	assert_int_equal(srcmap__open_wasm(&m, (const uint8_t *)"\0elf\1\0\0\0", 8, "x", err,
					   sizeof(err)), -EINVAL);
	assert_int_equal(srcmap__open_wasm(&m, (const uint8_t *)"\0asm\2\0\0\0", 8, "x", err,
					   sizeof(err)), -EINVAL);
	assert_int_equal(srcmap__open_wasm(&m, (const uint8_t *)"\0asm\1\0\0\0", 8, "x", err,
					   sizeof(err)), -ENODATA);
	/* A section size LEB128 running over 5 bytes. */
	assert_int_equal(srcmap__open_wasm(&m, (const uint8_t *)"\0asm\1\0\0\0\0\xff\xff\xff\xff\x7f",
					   14, "x", err, sizeof(err)), -EINVAL);
	/* A custom name longer than its section. */
	assert_int_equal(srcmap__open_wasm(&m, (const uint8_t *)"\0asm\1\0\0\0\0\2\5a", 12, "x",
					   err, sizeof(err)), -EINVAL);

	/* .debug_info twice. */
	{
		struct section two[33];

		memcpy(two, mod->s, n * sizeof(*two));
		two[n] = mod->s[info];
		w = rebuild(two, n + 1, -1, NULL, 0, &len);
		assert_int_equal(srcmap__open_wasm(&m, w, len, "x", err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "second .debug_info"));
		free(w);
	}
	/* Renamed .debug_info (same length): no DWARF, and the external file is named. */
	{
		static const char ext[] = "\x13" "external_debug_info" "\x0a" "inl.debug!";
		struct section s2[33];

		memcpy(s2, mod->s, n * sizeof(*s2));
		memcpy(body, "\x0b.debug_infX", 12);
		s2[info].payload = body;
		s2[info].size = 12;
		s2[n] = (struct section){ .id = 0, .payload = (const uint8_t *)ext,
					  .size = sizeof(ext) - 1 };
		w = rebuild(s2, n + 1, -1, NULL, 0, &len);
		assert_int_equal(srcmap__open_wasm(&m, w, len, "x", err, sizeof(err)), -ENODATA);
		assert_non_null(strstr(err, "inl.debug!"));
		free(w);
	}
	/* A relocatable object (`linking` section): addresses not final. */
	{
		static const char linking[] = "\x07" "linking" "\x02";
		struct section s3[33];

		memcpy(s3, mod->s, n * sizeof(*s3));
		s3[n] = (struct section){ .id = 0, .payload = (const uint8_t *)linking,
					  .size = sizeof(linking) - 1 };
		w = rebuild(s3, n + 1, -1, NULL, 0, &len);
		assert_int_equal(srcmap__open_wasm(&m, w, len, "x", err, sizeof(err)), -ENOTSUP);
		free(w);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(wasm_with_dwarf_opens_and_finds_frames_in_code_only,
						module_setup, module_teardown),
		cmocka_unit_test(wasm_without_dwarf_is_enodata),
		cmocka_unit_test_setup_teardown(wasm_truncated_anywhere_is_an_error_not_a_crash,
						module_setup, module_teardown),
		cmocka_unit_test_setup_teardown(wasm_damaged_debug_sections_do_not_crash,
						module_setup, module_teardown),
		cmocka_unit_test_setup_teardown(wasm_container_errors_have_their_codes,
						module_setup, module_teardown),
	};

	return cmocka_run_group_tests_name("srcmap-wasm", tests, NULL, NULL);
}
