// SPDX-License-Identifier: MIT
/* The set of jitdump files the plugin reads (see dumps.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dumps.h"

int dumps__init(struct dumps *d, dumps_warn_fn warn, void *warn_arg)
{
	memset(d, 0, sizeof(*d));
	d->warn = warn;
	d->warn_arg = warn_arg;
	d->map = codemap__new();
	return d->map ? 0 : -ENOMEM;
}

void dumps__release(struct dumps *d)
{
	for (size_t i = 0; i < d->nr; i++)
		jitdump__close(d->files[i].jd);
	for (size_t i = 0; i < d->dirs_nr; i++)
		free(d->dirs[i]);
	free(d->files);
	free(d->tried);
	codemap__free(d->map);
	memset(d, 0, sizeof(*d));
}

void dumps__add_dir(struct dumps *d, const char *dir)
{
	if (d->dirs_nr == sizeof(d->dirs) / sizeof(d->dirs[0]))
		return;
	for (size_t i = 0; i < d->dirs_nr; i++)
		if (!strcmp(d->dirs[i], dir))
			return;
	d->dirs[d->dirs_nr] = strdup(dir);
	if (d->dirs[d->dirs_nr])
		d->dirs_nr++;
}

__attribute__((format(printf, 2, 3)))
static void note_searched(struct dumps *d, const char *fmt, ...)
{
	va_list ap;
	size_t room = sizeof(d->searched) - d->searched_len;

	if (room <= 1)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(d->searched + d->searched_len, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		d->searched_len += (size_t)n < room ? (size_t)n : room - 1;
}

static size_t index_new_loads(struct dumps *d, struct dump_file *f, size_t file_idx)
{
	size_t added = 0;

	for (; f->indexed < f->jd->nr; f->indexed++) {
		const struct jitdump_load *l = &f->jd->loads[f->indexed];

		if (codemap__add(d->map, f->pid, l->code_addr, l->code_size, l->timestamp,
				 (uint32_t)file_idx, f->indexed) < 0)
			break;
		added++;
	}
	return added;
}

static bool already_open(const struct dumps *d, const struct stat *st)
{
	for (size_t i = 0; i < d->nr; i++) {
		struct stat o;

		if (!fstat(d->files[i].jd->fd, &o) && o.st_dev == st->st_dev && o.st_ino == st->st_ino)
			return true;
	}
	return false;
}

static int open_one(struct dumps *d, const char *path, uint32_t pid)
{
	struct stat st;
	char err[512];

	if (stat(path, &st) < 0)
		return -errno;
	if (already_open(d, &st))
		return 0;
	if (d->nr == d->alloc) {
		size_t alloc = d->alloc ? d->alloc * 2 : 8;
		struct dump_file *files = reallocarray(d->files, alloc, sizeof(*files));

		if (!files)
			return -ENOMEM;
		d->files = files;
		d->alloc = alloc;
	}

	struct jitdump *jd;
	int ret = jitdump__open(&jd, path, err, sizeof(err));

	if (ret < 0) {
		d->warn(d->warn_arg, "%s", err);
		return ret;
	}
	struct dump_file *f = &d->files[d->nr];

	*f = (struct dump_file){ .jd = jd, .pid = pid ? pid : jd->pid, .size_seen = (uint64_t)st.st_size };
	if (jd->error) {
		d->warn(d->warn_arg, "%s (the loads before it are used)", jd->error_msg);
		f->failed = true;
	}
	d->nr++;
	index_new_loads(d, f, d->nr - 1);
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int dumps__add(struct dumps *d, const char *path, uint32_t pid)
{
	int ret = open_one(d, path, pid);

	note_searched(d, "  %s%s\n", path, ret == -ENOENT ? " (not found)" : "");
	if (ret != -ENOENT)
		return ret;
	/* The recording may have moved since: look for the same file name elsewhere. */
	for (size_t i = 0; i < d->dirs_nr; i++) {
		char alt[4096];

		if (snprintf(alt, sizeof(alt), "%s/%s", d->dirs[i], base_name(path)) >= (int)sizeof(alt))
			continue;
		ret = open_one(d, alt, pid);
		note_searched(d, "  %s%s\n", alt, ret == -ENOENT ? " (not found)" : "");
		if (ret != -ENOENT)
			return ret;
	}
	d->warn(d->warn_arg, "jitdump %s named in perf.data not found (also looked in the fallback directories)", path);
	return -ENOENT;
}

static bool tried_insert(struct dumps *d, uint32_t pid)
{
	if ((d->tried_nr + 1) * 2 > d->tried_mask + 1) {
		size_t cap = d->tried ? (d->tried_mask + 1) * 2 : 64;
		uint32_t *t = calloc(cap, sizeof(*t));

		if (!t)
			return false;
		for (size_t i = 0; d->tried && i <= d->tried_mask; i++) {
			size_t h = d->tried[i] & (cap - 1);

			if (!d->tried[i])
				continue;
			while (t[h])
				h = (h + 1) & (cap - 1);
			t[h] = d->tried[i];
		}
		free(d->tried);
		d->tried = t;
		d->tried_mask = cap - 1;
	}
	size_t h = pid & d->tried_mask;

	for (; d->tried[h]; h = (h + 1) & d->tried_mask)
		if (d->tried[h] == pid)
			return false;
	d->tried[h] = pid;
	d->tried_nr++;
	return true;
}

void dumps__try_pid(struct dumps *d, uint32_t pid)
{
	/* pid 0 (the idle task, or unknown) never writes a jitdump. */
	if (!pid || !tried_insert(d, pid))
		return;
	for (size_t i = 0; i < d->nr; i++)
		if (d->files[i].pid == pid)
			return;
	for (size_t i = 0; i < d->dirs_nr; i++) {
		char path[4096];

		if (snprintf(path, sizeof(path), "%s/jit-%u.dump", d->dirs[i], pid) >= (int)sizeof(path))
			continue;
		int ret = open_one(d, path, pid);

		if (ret != -ENOENT) {
			note_searched(d, "  %s\n", path);
			return;
		}
	}
	if (d->dirs_nr)
		note_searched(d, "  jit-%u.dump in %zu fallback director%s (not found)\n", pid,
			      d->dirs_nr, d->dirs_nr == 1 ? "y" : "ies");
}

size_t dumps__refresh(struct dumps *d)
{
	size_t added = 0;

	for (size_t i = 0; i < d->nr; i++) {
		struct dump_file *f = &d->files[i];
		struct stat st;
		char err[512];

		if (f->failed || fstat(f->jd->fd, &st) < 0 || (uint64_t)st.st_size == f->size_seen)
			continue;
		f->size_seen = (uint64_t)st.st_size;
		int ret = jitdump__update(f->jd, err, sizeof(err));

		if (ret == -EINVAL) {
			d->warn(d->warn_arg, "%s (the loads before it are used)", err);
			f->failed = true;
		}
		added += index_new_loads(d, f, i);
	}
	return added;
}

const struct jitdump_load *dumps__load(const struct dumps *d, size_t map_id, const struct dump_file **file)
{
	const struct codemap_entry *e = codemap__entry(d->map, map_id);

	if (!e || e->owner >= d->nr)
		return NULL;
	const struct dump_file *f = &d->files[e->owner];

	if (file)
		*file = f;
	return e->owner_idx < f->jd->nr ? &f->jd->loads[e->owner_idx] : NULL;
}
