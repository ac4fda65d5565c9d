// SPDX-License-Identifier: MIT
/* The recording's memory maps, as perf script holds them (see mmaps.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <linux/perf_event.h>

#include "../lib/bsearch.h"
#include "../lib/vec.h"
#include "mmaps.h"

#define NO_SPACE UINT32_MAX
/* A chain of forks deeper than this is not followed (perf's copies go as deep as forks do). */
#define MAX_FORK_DEPTH 256

void mmaps__init(struct mmaps *m)
{
	memset(m, 0, sizeof(*m));
}

void mmaps__release(struct mmaps *m)
{
	for (size_t i = 0; i < m->files_nr; i++)
		free(m->files[i].path);
	free(m->files);
	idx_table_release(&m->file_index);
	free(m->maps);
	free(m->forks);
	free(m->spaces);
	codemap__free(m->index);
	memset(m, 0, sizeof(*m));
}

static bool file_eq(uint32_t idx, const void *path, const void *m)
{
	return !strcmp(((const struct mmaps *)m)->files[idx].path, path);
}

long mmaps__file(struct mmaps *m, const char *path)
{
	uint64_t h = hash_bytes(HASH_SEED, path, strlen(path));
	long i = idx_table_find(&m->file_index, h, file_eq, path, m);

	if (i >= 0)
		return i;
	if (m->files_nr >= UINT32_MAX - 1 ||
	    VEC_GROW(m->files, m->files_nr + 1, m->files_alloc) < 0)
		return -1;
	struct mmaps_file *f = &m->files[m->files_nr];

	memset(f, 0, sizeof(*f));
	if (!(f->path = strdup(path)))
		return -1;
	if (idx_table_add(&m->file_index, h, (uint32_t)m->files_nr) < 0) {
		free(f->path);
		return -1;
	}
	return (long)m->files_nr++;
}

/* perf's map__new: which names are anonymous memory, which name no file. */
static enum mmaps_kind kind_of(const struct perfdata_mmap *mm)
{
	const char *f = mm->filename;
	bool anon = !strcmp(f, "//anon") || !strncmp(f, "/dev/zero", 9) || !strncmp(f, "/anon_hugepage", 14) ||
		    (mm->flags & MAP_HUGETLB);
	bool no_dso = !strncmp(f, "[stack", 6) || !strncmp(f, "/SYSV", 5) || !strcmp(f, "[heap]");

	if ((anon || no_dso) && (mm->prot & PROT_EXEC))
		return MMAPS_PERFMAP;
	if (anon || no_dso)
		return MMAPS_ANON;
	if (!strcmp(f, "[vdso]"))
		return MMAPS_VDSO;
	return MMAPS_FILE;
}

int mmaps__on_mmap(void *arg, const struct perfdata_mmap *mm)
{
	struct mmaps *m = arg;
	uint16_t mode = mm->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	long file;

	/* the kernel's and guests' maps: perf keeps them elsewhere; kernel samples never get here */
	if (mode != PERF_RECORD_MISC_USER || mm->pid == UINT32_MAX)
		return 0;
	if ((file = mmaps__file(m, mm->filename)) < 0 ||
	    VEC_GROW(m->maps, m->maps_nr + 1, m->maps_alloc) < 0) {
		m->oom = true;
		return 0;
	}
	if (mm->build_id_size && !m->files[file].build_id_size) {
		memcpy(m->files[file].build_id, mm->build_id, mm->build_id_size);
		m->files[file].build_id_size = mm->build_id_size;
	}
	m->maps[m->maps_nr++] = (struct mmaps_map){
		.start = mm->start, .len = mm->len, .pgoff = mm->pgoff, .time = mm->time,
		.pid = mm->pid, .file = (uint32_t)file, .kind = kind_of(mm),
	};
	return 0;
}

int mmaps__on_task(void *arg, const struct perfdata_task *t)
{
	struct mmaps *m = arg;

	/* a new thread shares its process's maps; only a new process gets its own */
	if (t->exit || t->pid == t->ppid)
		return 0;
	if (VEC_GROW(m->forks, m->forks_nr + 1, m->forks_alloc) < 0) {
		m->oom = true;
		return 0;
	}
	m->forks[m->forks_nr++] = *t;
	return 0;
}

int mmaps__on_build_id(void *arg, const struct perfdata_build_id *b)
{
	struct mmaps *m = arg;
	long file;

	/* perf gives a header build-id to the host's user-space file of that name */
	if ((b->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER || b->pid != -1 || !b->size)
		return 0;
	if ((file = mmaps__file(m, b->filename)) < 0) {
		m->oom = true;
		return 0;
	}
	memcpy(m->files[file].build_id, b->id, b->size);
	m->files[file].build_id_size = b->size;
	return 0;
}

static int space_cmp(const void *a, const void *b)
{
	const struct mmaps_space *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->created < y->created ? -1 : x->created > y->created;
}

static int fork_cmp(const void *a, const void *b)
{
	const struct perfdata_task *x = a, *y = b;

	return x->time < y->time ? -1 : x->time > y->time;
}

/* The space pid had at time (the last created at or before it), or NO_SPACE. */
static uint32_t space_at(const struct mmaps *m, uint32_t pid, uint64_t time)
{
	const struct mmaps_space *s = m->spaces;
	/* the first space past (pid, time) */
	size_t lo = LOWER_BOUND(m->spaces_nr, i, s[i].pid < pid || (s[i].pid == pid && s[i].created <= time));

	if (lo && m->spaces[lo - 1].pid == pid)
		return (uint32_t)(lo - 1);
	/* a sample before the first fork perf saw of the pid: its first space */
	if (lo < m->spaces_nr && m->spaces[lo].pid == pid)
		return (uint32_t)lo;
	return NO_SPACE;
}

static bool add_space(struct mmaps *m, uint32_t pid, uint64_t created)
{
	if (VEC_GROW(m->spaces, m->spaces_nr + 1, m->spaces_alloc) < 0)
		return false;
	m->spaces[m->spaces_nr++] = (struct mmaps_space){ pid, NO_SPACE, created };
	return true;
}

int mmaps__finish(struct mmaps *m, bool timed)
{
	m->timed = timed;
	m->finished = true;
	if (!(m->index = codemap__new()))
		return -ENOMEM;
	/* every process has a space from the start; each fork of it makes a new one */
	if (m->forks_nr)
		qsort(m->forks, m->forks_nr, sizeof(*m->forks), fork_cmp);
	for (size_t i = 0; i < m->maps_nr; i++)
		if (!add_space(m, m->maps[i].pid, 0))
			return -ENOMEM;
	for (size_t i = 0; i < m->forks_nr; i++)
		if (!add_space(m, m->forks[i].pid, m->forks[i].time) || !add_space(m, m->forks[i].ppid, 0))
			return -ENOMEM;
	if (m->spaces_nr)
		qsort(m->spaces, m->spaces_nr, sizeof(*m->spaces), space_cmp);
	/* one space per (pid, created) */
	size_t out = 0;

	for (size_t i = 0; i < m->spaces_nr; i++)
		if (!out || space_cmp(&m->spaces[out - 1], &m->spaces[i]))
			m->spaces[out++] = m->spaces[i];
	m->spaces_nr = out;
	/* A forked process starts with a copy of its parent's maps at the fork
	 * (perf's maps__clone), unless perf made the fork up for a process that
	 * was already running (PERF_RECORD_MISC_FORK_EXEC: its maps follow). */
	for (size_t i = 0; i < m->forks_nr; i++) {
		const struct perfdata_task *f = &m->forks[i];
		uint32_t child = space_at(m, f->pid, f->time);

		if (child != NO_SPACE && m->spaces[child].created == f->time &&
		    !(f->misc & PERF_RECORD_MISC_FORK_EXEC))
			m->spaces[child].parent = space_at(m, f->ppid, f->time);
	}
	for (size_t i = 0; i < m->maps_nr; i++) {
		struct mmaps_map *mp = &m->maps[i];

		mp->space = space_at(m, mp->pid, mp->time);
		if (codemap__add(m->index, mp->space, mp->start, mp->len, mp->time, 0, i) < 0)
			return -ENOMEM;
	}
	return 0;
}

const struct mmaps_map *mmaps__find(struct mmaps *m, uint32_t pid, uint64_t ip, uint64_t time)
{
	uint32_t space = space_at(m, pid, time);

	for (int depth = 0; space != NO_SPACE && depth < MAX_FORK_DEPTH; depth++) {
		size_t id;
		enum codemap_result r = codemap__lookup(m->index, space, ip, time, m->timed, &id);

		/* untimed: several maps over ip are not ambiguous to perf, which
		 * takes the one it read last (the newest) */
		if (r == CODEMAP_HIT || r == CODEMAP_AMBIGUOUS)
			return &m->maps[codemap__entry(m->index, id)->owner_idx];
		/* the parent's maps as they were at the fork */
		if (m->spaces[space].created < time || !m->timed)
			time = m->spaces[space].created;
		space = m->spaces[space].parent;
	}
	return NULL;
}
