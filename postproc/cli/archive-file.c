/* SPDX-License-Identifier: MIT */
/* The archive a profile travels in, written and read with libarchive (archive-file.h). */
#define _GNU_SOURCE
#include <archive.h>
#include <archive_entry.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "annotate/archived.h"
#include "archive-file.h"
#include "lib/strbuf.h"

/*
 * libarchive, dlopen()ed at the first archive, not linked: loading it (and
 * libxml2, libcrypto and the rest it needs) moves the heap of every run, and
 * Graphviz routes a page's parallel edges by address, so that the pages of
 * reports that read no archive would change. As the plugin loads
 * libdebuginfod (plugin/symbols/elfsyms-extra.c).
 */
#define LA_FUNCS(X) \
	X(archive_entry_filetype) \
	X(archive_entry_free) \
	X(archive_entry_hardlink) \
	X(archive_entry_new) \
	X(archive_entry_pathname) \
	X(archive_entry_set_filetype) \
	X(archive_entry_set_mtime) \
	X(archive_entry_set_pathname) \
	X(archive_entry_set_perm) \
	X(archive_entry_set_size) \
	X(archive_entry_size) \
	X(archive_entry_size_is_set) \
	X(archive_entry_symlink) \
	X(archive_error_string) \
	X(archive_read_data) \
	X(archive_read_free) \
	X(archive_read_new) \
	X(archive_read_next_header) \
	X(archive_read_open_filename) \
	X(archive_read_support_filter_gzip) \
	X(archive_read_support_format_tar) \
	X(archive_write_add_filter_gzip) \
	X(archive_write_close) \
	X(archive_write_data) \
	X(archive_write_free) \
	X(archive_write_header) \
	X(archive_write_new) \
	X(archive_write_open_FILE) \
	X(archive_write_set_bytes_in_last_block) \
	X(archive_write_set_filter_option) \
	X(archive_write_set_format_pax_restricted) \

static struct {
#define X(f) __typeof__(f) *f;
	LA_FUNCS(X)
#undef X
	bool tried, ok;
} la;
#define LA(f) (la.f)

/* libarchive's functions, loaded once; false with the reason in err. */
static bool la_load(char *err, size_t errlen)
{
	static char why[256];
	void *lib;

	if (!la.tried) {
		la.tried = true;
		lib = dlopen("libarchive.so.13", RTLD_NOW | RTLD_LOCAL);
		if (!lib)
			lib = dlopen("libarchive.so", RTLD_NOW | RTLD_LOCAL);
		if (!lib)
			snprintf(why, sizeof(why), "%s", dlerror());
		la.ok = lib != NULL;
#define X(f) if (la.ok && !(la.f = (__typeof__(f) *)dlsym(lib, #f))) { \
		la.ok = false; snprintf(why, sizeof(why), "libarchive has no " #f); }
		LA_FUNCS(X)
#undef X
	}
	if (!la.ok)
		snprintf(err, errlen, "an archive needs libarchive (Debian: libarchive13): %s", why);
	return la.ok;
}

#define MANIFEST "hotblocks-archive"
#define ANSWERS "answers"
/* Bounds on what a reader takes in memory, whatever the archive claims. */
#define MEMBER_MAX (1ull << 30)
#define TOTAL_MAX (4ull << 30)
#define MEMBERS_MAX (ARCHIVE_FILE_MAX_STREAMS + 2)

bool archive_file__is(const char *path)
{
	unsigned char m[512];
	struct stat st;
	size_t n;
	FILE *f;

	/* a regular file only: a peek at a pipe (hotblocks <(perf script ...))
	 * would take its first bytes from the stream */
	if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode) || !(f = fopen(path, "rb")))
		return false;
	n = fread(m, 1, sizeof(m), f);
	fclose(f);
	return (n >= 2 && m[0] == 0x1f && m[1] == 0x8b) ||
	       (n >= 262 && !memcmp(m + 257, "ustar", 5));
}

/* One member: name, len bytes of data; 0 or -EIO. */
static int put(struct archive *a, const char *name, const void *data, size_t len, char *err,
	       size_t errlen)
{
	struct archive_entry *e = LA(archive_entry_new)();
	int ret = 0;

	if (!e) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* the same contents make the same bytes: no time, owner or host in it */
	LA(archive_entry_set_pathname)(e, name);
	LA(archive_entry_set_filetype)(e, AE_IFREG);
	LA(archive_entry_set_perm)(e, 0644);
	LA(archive_entry_set_size)(e, (la_int64_t)len);
	LA(archive_entry_set_mtime)(e, 0, 0);
	if (LA(archive_write_header)(a, e) != ARCHIVE_OK ||
	    (len && LA(archive_write_data)(a, data, len) != (la_ssize_t)len)) {
		snprintf(err, errlen, "writing the member %s: %s", name, LA(archive_error_string)(a));
		ret = -EIO;
	}
	LA(archive_entry_free)(e);
	return ret;
}

int archive_file__write(FILE *f, const struct archive_contents *c, char *err, size_t errlen)
{
	struct archive *a;
	struct strbuf m = { 0 };
	int ret = 0;

	if (!la_load(err, errlen))
		return -ENOSYS;
	if (!(a = LA(archive_write_new)())) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	strbuf_addf(&m, MANIFEST " %d\ncommand", ARCHIVE_FILE_VERSION);
	archived__str(&m, c->command, strlen(c->command));
	strbuf_addch(&m, '\n');
	for (size_t i = 0; i < c->streams_nr; i++) {
		struct strbuf l = { 0 };

		strbuf_addf(&l, "stream stream-%zu.hbs", i);
		archived__str(&l, c->streams[i].name, strlen(c->streams[i].name));
		strbuf_add(&m, l.buf, l.len);
		strbuf_addch(&m, '\n');
		m.oom |= l.oom;
		strbuf_release(&l);
	}
	if (m.oom) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
	} else if (LA(archive_write_set_format_pax_restricted)(a) != ARCHIVE_OK ||
		   LA(archive_write_add_filter_gzip)(a) != ARCHIVE_OK ||
		   /* no name or time of the file in gzip's header either */
		   LA(archive_write_set_filter_option)(a, "gzip", "timestamp", NULL) != ARCHIVE_OK ||
		   /* no padding of the last block to 10 KiB: gzip's end is the file's */
		   LA(archive_write_set_bytes_in_last_block)(a, 1) != ARCHIVE_OK ||
		   LA(archive_write_open_FILE)(a, f) != ARCHIVE_OK) {
		snprintf(err, errlen, "%s", LA(archive_error_string)(a));
		ret = -EIO;
	} else {
		ret = put(a, MANIFEST, m.buf, m.len, err, errlen);
		for (size_t i = 0; !ret && i < c->streams_nr; i++) {
			char name[32];

			snprintf(name, sizeof(name), "stream-%zu.hbs", i);
			ret = put(a, name, c->streams[i].buf, c->streams[i].len, err, errlen);
		}
		if (!ret)
			ret = put(a, ANSWERS, c->answers, c->answers_len, err, errlen);
		if (!ret && LA(archive_write_close)(a) != ARCHIVE_OK) {
			snprintf(err, errlen, "%s", LA(archive_error_string)(a));
			ret = -EIO;
		}
	}
	LA(archive_write_free)(a);
	strbuf_release(&m);
	return ret;
}

/* Why name cannot be a member of this format's, or NULL: it may. The reader
 * extracts nothing, but a name that would leave a directory is refused all
 * the same, as any tool might extract it. */
static const char *bad_name(const char *name)
{
	if (!name || !*name)
		return "has no name";
	if (*name == '/')
		return "is an absolute path (it would escape the archive's directory)";
	for (const char *p = name; *p; p = strchr(p, '/') ? strchr(p, '/') + 1 : p + strlen(p))
		if (p[0] == '.' && p[1] == '.' && (!p[2] || p[2] == '/'))
			return "has a '..' part (it would escape the archive's directory)";
	return NULL;
}

/* Which stream member name is (stream-N.hbs), or -1. */
static long stream_member(const char *name)
{
	char *end;
	long n;

	if (strncmp(name, "stream-", 7) || name[7] < '0' || name[7] > '9')
		return -1;
	n = strtol(name + 7, &end, 10);
	return strcmp(end, ".hbs") || n >= ARCHIVE_FILE_MAX_STREAMS ? -1 : n;
}

/* The manifest: its version, the command, the streams' names. */
static int read_manifest(const char *path, char *buf, struct archive_contents *c, bool *listed,
			 char *err, size_t errlen)
{
	unsigned line = 0;
	size_t len;
	char *save, *l;

	for (l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		line++;
		if (line == 1) {
			unsigned long v;
			char *end;

			if (strncmp(l, MANIFEST " ", sizeof(MANIFEST)) ||
			    (v = strtoul(l + sizeof(MANIFEST), &end, 10), *end)) {
				snprintf(err, errlen, "%s: " MANIFEST ":1: not a hotblocks archive's first line", path);
				return -EINVAL;
			}
			if (v != ARCHIVE_FILE_VERSION) {
				snprintf(err, errlen, "%s: an archive of version %lu; this hotblocks reads version %d",
					 path, v, ARCHIVE_FILE_VERSION);
				return -EINVAL;
			}
		} else if (!strncmp(l, "command ", 8)) {
			free(c->command);
			if (!archived__get_str(l + 8, 0, &c->command, &len) || !c->command)
				goto bad;
		} else if (!strncmp(l, "stream ", 7)) {
			char *sp = strchr(l + 7, ' ');
			long n;

			if (!sp)
				goto bad;
			*sp = 0;
			n = stream_member(l + 7);
			if (n < 0 || listed[n])
				goto bad;
			if (!archived__get_str(sp + 1, 0, &c->streams[n].name, &len) || !c->streams[n].name)
				goto bad;
			listed[n] = true;
		}
		/* other lines: from a newer writer of version 1, skipped */
	}
	if (!line) {
		snprintf(err, errlen, "%s: " MANIFEST " is empty", path);
		return -EINVAL;
	}
	return 0;
bad:
	snprintf(err, errlen, "%s: " MANIFEST ":%u: not a line of the archive's format", path, line);
	return -EINVAL;
}

int archive_file__read(const char *path, struct archive_contents *c, char *err, size_t errlen)
{
	struct archive *a;
	struct archive_entry *e;
	bool listed[ARCHIVE_FILE_MAX_STREAMS] = { 0 }, seen_manifest = false;
	uint64_t total = 0;
	unsigned members = 0;
	int r, ret = 0;

	memset(c, 0, sizeof(*c));
	if (!la_load(err, errlen))
		return -ENOSYS;
	if (!(a = LA(archive_read_new)())) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	LA(archive_read_support_filter_gzip)(a);
	LA(archive_read_support_format_tar)(a);
	if (LA(archive_read_open_filename)(a, path, 1 << 16) != ARCHIVE_OK) {
		snprintf(err, errlen, "%s: %s", path, LA(archive_error_string)(a));
		LA(archive_read_free)(a);
		return -EINVAL;
	}
	while (!ret && (r = LA(archive_read_next_header)(a, &e)) == ARCHIVE_OK) {
		const char *name = LA(archive_entry_pathname)(e), *why = bad_name(name);
		la_int64_t size = LA(archive_entry_size)(e);
		char *buf, **dst = NULL;
		size_t *dst_len = NULL;
		long n = -1;

		if (!why && (LA(archive_entry_hardlink)(e) || LA(archive_entry_symlink)(e) ||
			     LA(archive_entry_filetype)(e) != AE_IFREG))
			why = "is not a regular file (a link, directory or device: refused)";
		if (!why && ++members > MEMBERS_MAX)
			why = "is one member too many";
		if (!why && (!LA(archive_entry_size_is_set)(e) || size < 0 || (uint64_t)size > MEMBER_MAX ||
			     (total += (uint64_t)size) > TOTAL_MAX))
			why = "is larger than a reader takes (1 GiB a member, 4 GiB in all)";
		if (!why && !seen_manifest && strcmp(name, MANIFEST))
			why = "comes before " MANIFEST ", which an archive starts with";
		if (!why) {
			if (!strcmp(name, MANIFEST) && !seen_manifest)
				seen_manifest = true;
			else if (!strcmp(name, ANSWERS) && !c->answers)
				dst = &c->answers, dst_len = &c->answers_len;
			else if ((n = stream_member(name)) >= 0 && listed[n] && !c->streams[n].buf)
				dst = &c->streams[n].buf, dst_len = &c->streams[n].len;
			else
				why = "is not a member of a hotblocks archive (or is one twice, or a stream"
				      " the manifest does not list)";
		}
		if (why) {
			snprintf(err, errlen, "%s: the member '%.200s' %s", path, name ? name : "", why);
			ret = -EINVAL;
			break;
		}
		if (!(buf = malloc((size_t)size + 1))) {
			snprintf(err, errlen, "%s: out of memory", path);
			ret = -ENOMEM;
			break;
		}
		if (LA(archive_read_data)(a, buf, (size_t)size) != size) {
			snprintf(err, errlen, "%s: the member '%s' is cut short or damaged: %s", path, name,
				 LA(archive_error_string)(a) ? LA(archive_error_string)(a) : "fewer bytes than its size");
			free(buf);
			ret = -EINVAL;
			break;
		}
		buf[size] = 0;
		if (!dst) {
			if (memchr(buf, 0, (size_t)size)) {
				snprintf(err, errlen, "%s: " MANIFEST " has a NUL byte", path);
				ret = -EINVAL;
			} else {
				ret = read_manifest(path, buf, c, listed, err, errlen);
			}
			free(buf);
			continue;
		}
		*dst = buf;
		*dst_len = (size_t)size;
	}
	if (!ret && r != ARCHIVE_EOF) {
		snprintf(err, errlen, "%s: %s", path, LA(archive_error_string)(a));
		ret = -EINVAL;
	}
	LA(archive_read_free)(a);
	for (size_t i = 0; !ret && i < ARCHIVE_FILE_MAX_STREAMS; i++) {
		if (listed[i] && !c->streams[i].buf) {
			snprintf(err, errlen, "%s: the manifest lists stream-%zu.hbs, which is missing", path, i);
			ret = -EINVAL;
		}
		if (listed[i])
			c->streams_nr = i + 1;
	}
	for (size_t i = 0; !ret && i < c->streams_nr; i++)
		if (!listed[i]) {
			snprintf(err, errlen, "%s: the manifest lists no stream-%zu.hbs", path, i);
			ret = -EINVAL;
		}
	if (!ret && (!seen_manifest || !c->streams_nr || !c->answers || !c->command)) {
		snprintf(err, errlen, "%s: not a whole hotblocks archive (it needs " MANIFEST
			 " with a command, a stream and " ANSWERS ")", path);
		ret = -EINVAL;
	}
	if (ret)
		archive_file__release(c);
	return ret;
}

void archive_file__release(struct archive_contents *c)
{
	for (size_t i = 0; i < ARCHIVE_FILE_MAX_STREAMS; i++) {
		free(c->streams[i].name);
		free(c->streams[i].buf);
	}
	free(c->command);
	free(c->answers);
	memset(c, 0, sizeof(*c));
}
