// SPDX-License-Identifier: MIT
/* The set of jitdump files the plugin reads (see dumps.h). */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dumps.h"
#include "../perf/perfdata.h"

/* Re-read growing dumps on a miss at most this often (ns). */
#define REFRESH_INTERVAL_NS 1000000ULL

int dumps__init(struct dumps *d, struct warnings *warnings)
{
	memset(d, 0, sizeof(*d));
	d->warnings = warnings;
	d->map = codemap__new();
	return d->map ? 0 : -ENOMEM;
}

void dumps__release(struct dumps *d)
{
	for (size_t i = 0; i < d->nr; i++) {
		jitdump__close(d->files[i].jd);
		free(d->files[i].recorded);
	}
	for (size_t i = 0; i < d->dirs_nr; i++)
		free(d->dirs[i]);
	for (size_t i = 0; i < d->seen_nr; i++)
		free(d->seen[i]);
	free(d->files);
	idx_table_release(&d->tried);
	idx_table_release(&d->marked);
	codemap__free(d->map);
	memset(d, 0, sizeof(*d));
}

/* Whether directories a and b are one (the same name, or device and inode). */
static bool same_dir(const char *a, const char *b)
{
	struct stat sa, sb;

	return !strcmp(a, b) || (!stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
				 sa.st_ino == sb.st_ino);
}

void dumps__add_dir(struct dumps *d, const char *dir)
{
	if (d->dirs_nr == sizeof(d->dirs) / sizeof(d->dirs[0]))
		return;
	for (size_t i = 0; i < d->dirs_nr; i++)
		if (same_dir(d->dirs[i], dir))
			return;
	d->dirs[d->dirs_nr] = strdup(dir);
	if (d->dirs[d->dirs_nr])
		d->dirs_nr++;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* dir/name into buf (no doubled slash after "/"); false when it does not fit. */
static bool join(char *buf, size_t len, const char *dir, const char *name)
{
	size_t n = strlen(dir);

	return snprintf(buf, len, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name) < (int)len;
}

/* Whether paths a and b name one place: the same string, or the same file
 * name in one directory reached two ways. */
static bool same_place(const char *a, const char *b)
{
	const char *ba = base_name(a), *bb = base_name(b);
	char da[4096], db[4096];

	if (!strcmp(a, b))
		return true;
	if (strcmp(ba, bb) || (size_t)(ba - a) >= sizeof(da) || (size_t)(bb - b) >= sizeof(db))
		return false;
	snprintf(da, sizeof(da), "%.*s", (int)(ba - a), a);
	snprintf(db, sizeof(db), "%.*s", (int)(bb - b), b);
	return same_dir(*da ? da : ".", *db ? db : ".");
}

/* Whether path was searched already (listed in d->searched). */
static bool searched_before(const struct dumps *d, const char *path)
{
	for (size_t i = 0; i < d->seen_nr; i++)
		if (same_place(d->seen[i], path))
			return true;
	return false;
}

/* Remember that path is searched (once listed it is not searched again). */
static void seen(struct dumps *d, const char *path)
{
	if (d->seen_nr < sizeof(d->seen) / sizeof(d->seen[0]) && (d->seen[d->seen_nr] = strdup(path)))
		d->seen_nr++;
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

/* open_one's result for a path that is there but is no regular file. */
#define NOT_A_FILE (-EISDIR)
/* ... and for a dump whose header pid is not its name's. */
#define FOREIGN (-ESRCH)

/* What open_one's result says about a searched path, for the hint. */
static const char *outcome(int ret)
{
	static char buf[96];

	switch (ret) {
	case 0:
		return "";
	case -ENOENT:
		return " (not found)";
	case NOT_A_FILE:
		return " (not a regular file)";
	case FOREIGN:
		return " (another process's dump)";
	default:
		snprintf(buf, sizeof(buf), " (%s)", strerror(-ret));
		return buf;
	}
}

/* The pid in a jit-<pid>.dump basename, or 0. */
static uint32_t name_pid(const char *path)
{
	const char *b = strrchr(path, '/');
	uint64_t v = 0;
	size_t n, i;

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n < 10 || strncmp(b, "jit-", 4) || strcmp(b + n - 5, ".dump"))
		return 0;
	for (i = 4; i < n - 5; i++) {
		if (b[i] < '0' || b[i] > '9' || v > UINT32_MAX)
			return 0;
		v = v * 10 + (uint64_t)(b[i] - '0');
	}
	return v <= UINT32_MAX ? (uint32_t)v : 0;
}

/*
 * Open path as a dump of host pid (0: the header's). explicit: the user named
 * it, so a header pid other than the name's is only warned about.
 */
static int open_one(struct dumps *d, const char *path, uint32_t pid, bool explicit)
{
	struct stat st;
	char err[512];

	/* stat never blocks; opening a FIFO would wait for a writer forever. */
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode)) {
		warnings__add(d->warnings, "%s: not a regular file; not read as a jitdump", path);
		return NOT_A_FILE;
	}
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
		warnings__add(d->warnings, "%s", err);
		return ret;
	}
	/* A JIT names its dump after the pid it writes in the header (both in its
	 * own pid namespace): a mismatch is another process's dump renamed or
	 * copied here, whose code would take this process's samples. */
	uint32_t np = name_pid(path);

	if (np && jd->pid != np) {
		if (!explicit) {
			warnings__add(d->warnings, "%s: its header says pid %u, not %u: another process's dump; not used",
				path, jd->pid, np);
			jitdump__close(jd);
			return FOREIGN;
		}
		warnings__add(d->warnings, "%s: its header says pid %u, not %u as its name does (used as given)",
			path, jd->pid, np);
	}
	struct dump_file *f = &d->files[d->nr];

	*f = (struct dump_file){ .jd = jd, .pid = pid ? pid : jd->pid, .size_seen = (uint64_t)st.st_size,
				 .e_machine = jd->elf_mach <= UINT16_MAX ? (uint16_t)jd->elf_mach : 0 };
	if (jd->error) {
		warnings__add(d->warnings, "%s (the loads before it are used)", jd->error_msg);
		f->failed = true;
	}
	d->nr++;
	index_new_loads(d, f, d->nr - 1);
	return 0;
}

/* A set of pids: hash_u64 is a bijection, so a pid's hash is the key (no
 * array behind the table, no comparison: eq NULL). */
static uint64_t pid_key(uint32_t pid)
{
	return hash_u64(HASH_SEED, pid);
}

/* Insert pid; true if it was not there (false also when out of memory). */
static bool pidset_insert(struct idx_table *s, uint32_t pid)
{
	return idx_table_find(s, pid_key(pid), NULL, NULL, NULL) < 0 && !idx_table_add(s, pid_key(pid), 0);
}

static bool pidset_has(const struct idx_table *s, uint32_t pid)
{
	return idx_table_find(s, pid_key(pid), NULL, NULL, NULL) >= 0;
}

int dumps__add(struct dumps *d, const char *path, uint32_t pid)
{
	int ret = open_one(d, path, pid, false), first = ret;

	if (pid)
		pidset_insert(&d->marked, pid);
	if (!searched_before(d, path))
		note_searched(d, "  %s%s\n", path, outcome(ret));
	seen(d, path);
	if (!ret || ret == -ENOMEM)
		return ret;
	/* The recording may have moved since: look for the same file name elsewhere. */
	for (size_t i = 0; i < d->dirs_nr; i++) {
		char alt[4096];

		if (!join(alt, sizeof(alt), d->dirs[i], base_name(path)) || searched_before(d, alt))
			continue;
		ret = open_one(d, alt, pid, false);
		note_searched(d, "  %s%s\n", alt, outcome(ret));
		seen(d, alt);
		/* Found where the recording is now (beside perf.data, --jitdir):
		 * the usual way a recording moves (--keep, another machine), not
		 * a fault. The stream's jitdump line names the file read; beside
		 * perf.data, where a moved recording's dump is, nothing else
		 * does; elsewhere (--jitdir, search=DIR) a note names it. */
		if (!ret) {
			if (d->beside != i + 1)
				warnings__note(d->warnings, "jitdump %s: not at its recorded path; read from %s", path,
					       alt);
			/* its objects keep the recorded name: the same code wherever it is read */
			for (size_t k = 0; k < d->nr; k++)
				if (!strcmp(d->files[k].jd->path, alt) && !d->files[k].recorded)
					d->files[k].recorded = strdup(path);
			return 0;
		}
		if (ret == -ENOMEM)
			return ret;
	}
	warnings__add(d->warnings, "jitdump %s named in perf.data%s (also looked in the fallback directories)",
		path, first == -ENOENT ? " not found" : outcome(first));
	return first;
}

int dumps__add_explicit(struct dumps *d, const char *path)
{
	int ret = open_one(d, path, 0, true);

	if (!searched_before(d, path))
		note_searched(d, "  %s%s\n", path, outcome(ret));
	seen(d, path);
	return ret;
}

void dumps__markers_known(struct dumps *d)
{
	d->markers_known = true;
}

void dumps__try_pid(struct dumps *d, uint32_t pid)
{
	/* pid 0 (the idle task, or unknown) never writes a jitdump. */
	if (!pid || !pidset_insert(&d->tried, pid))
		return;
	for (size_t i = 0; i < d->nr; i++)
		if (d->files[i].pid == pid)
			return;
	size_t searched = 0;

	for (size_t i = 0; i < d->dirs_nr; i++) {
		char path[4096], name[32];
		struct stat st;

		snprintf(name, sizeof(name), "jit-%u.dump", pid);
		/* Listed already (perf.data's marker named the same file): not again. */
		if (!join(path, sizeof(path), d->dirs[i], name) || searched_before(d, path))
			continue;
		if (d->markers_known && !pidset_has(&d->marked, pid)) {
			/* Said only when such a file is there to be mistaken for this pid's. */
			if (!stat(path, &st)) {
				note_searched(d, "  %s (not used: perf.data records no jitdump of pid %u)\n",
					      path, pid);
				warnings__add(d->warnings, "%s not used: perf.data records no jitdump mapping of "
					"pid %u, so the file is another process's (--dlarg jitdump=FILE uses it anyway)",
					path, pid);
			}
			continue;
		}
		int ret = open_one(d, path, pid, false);

		if (ret != -ENOENT) {
			note_searched(d, "  %s%s\n", path, outcome(ret));
			seen(d, path);
		} else {
			searched++;
		}
		if (!ret) {
			warnings__add(d->warnings, "pid %u: using %s, found by its name%s", pid, path,
				d->markers_known ? "" : " (the jitdump paths perf.data records are not known)");
			return;
		}
		if (ret == -ENOMEM)
			return;
	}
	if (searched && (!d->markers_known || pidset_has(&d->marked, pid)))
		note_searched(d, "  jit-%u.dump in %zu fallback director%s (not found)\n", pid,
			      searched, searched == 1 ? "y" : "ies");
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
			warnings__add(d->warnings, "%s (the loads before it are used)", err);
			f->failed = true;
		}
		added += index_new_loads(d, f, i);
	}
	return added;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void dumps__find(struct dumps *d, uint32_t pid, uint64_t ip, uint64_t time, bool time_aware, bool look_further,
		 struct dumps_hit *hit)
{
	enum codemap_result r;
	size_t id = 0;

	if (look_further)
		dumps__try_pid(d, pid);
	r = codemap__lookup(d->map, pid, ip, time, time_aware, &id);
	if (r != CODEMAP_HIT && look_further && d->nr) {
		uint64_t now = now_ns();

		if (now - d->last_refresh_ns >= REFRESH_INTERVAL_NS) {
			d->last_refresh_ns = now;
			if (dumps__refresh(d))
				r = codemap__lookup(d->map, pid, ip, time, time_aware, &id);
		}
	}
	*hit = (struct dumps_hit){ .result = r };
	if (r == CODEMAP_HIT) {
		hit->id = id;
		hit->off = ip - codemap__entry(d->map, id)->start;
	} else if (r == CODEMAP_AMBIGUOUS) {
		hit->covering_nr = codemap__covering(d->map, pid, ip, hit->covering, AMBIGUOUS_NAMED);
	}
}

static int on_marker(void *arg, uint32_t pid, const char *path)
{
	dumps__add(arg, path, pid);
	return 0;
}

void dumps__visitor(struct dumps *d, struct perfdata_visitor *v)
{
	*v = (struct perfdata_visitor){ .jitdump = on_marker, .arg = d };
}

void dumps__add_fallback_dirs(struct dumps *d, const char *jitdir, const char *perf_data)
{
	char cwd[PATH_MAX];

	if (jitdir)
		dumps__add_dir(d, jitdir);
	if (perf_data && strcmp(perf_data, "-")) {
		char *copy = strdup(perf_data);

		if (copy) {
			const char *dir = dirname(copy);

			dumps__add_dir(d, dir);
			for (size_t i = 0; i < d->dirs_nr; i++)
				if (same_dir(d->dirs[i], dir))
					d->beside = i + 1;
			free(copy);
		}
	}
	if (getcwd(cwd, sizeof(cwd)))
		dumps__add_dir(d, cwd);
}

void dumps__walked(struct dumps *d, const char *perf_data, int ret, const struct perfdata_scan_stats *st,
		   const char *err)
{
	if (st->arch[0])
		snprintf(d->arch, sizeof(d->arch), "%s", st->arch);
	if (st->osrelease[0])
		snprintf(d->osrelease, sizeof(d->osrelease), "%s", st->osrelease);
	if (ret < 0)
		warnings__add(d->warnings, "%s (jitdump paths recorded in it are unknown; using fallbacks)", err);
	else if (st->compressed_failed)
		warnings__add(d->warnings, "%s: %" PRIu64 " compressed records could not be read; "
			      "jitdump markers in them were missed", perf_data, st->compressed_failed);
	else
		/* Every dump of the recording is known: another pid's file is not one. */
		dumps__markers_known(d);
}

/* The dumps one way of settling a machine gave it to (or none could), for its one warning. */
struct machine_group {
	const struct dump_file *first;
	const char *file;	/* the process's file the first one's machine came from */
	size_t nr;
};

static void group_add(struct machine_group *g, const struct dump_file *f, const char *file)
{
	if (!g->nr++)
		g->first = f, g->file = file;
}

/* "jitdump P" or "jitdump P (and N more)" */
static const char *group_name(const struct machine_group *g, char *buf, size_t len)
{
	if (g->nr == 1)
		snprintf(buf, len, "jitdump %s", g->first->jd->path);
	else
		snprintf(buf, len, "jitdump %s (and %zu more)", g->first->jd->path, g->nr - 1);
	return buf;
}

void dumps__settle_machines(struct dumps *d, uint16_t (*machine_of)(void *arg, uint32_t pid, const char **file),
			    void *arg)
{
	uint16_t recording = d->arch[0] ? perfdata__arch_machine(d->arch) : 0;
	struct machine_group by_arch = { 0 }, by_file = { 0 }, unknown = { 0 };
	char name[4200];

	for (size_t i = 0; i < d->nr; i++) {
		struct dump_file *f = &d->files[i];
		const char *file = NULL;

		if (f->e_machine)
			continue;
		if (recording) {
			f->e_machine = recording;
			group_add(&by_arch, f, NULL);
		} else if (machine_of && (f->e_machine = machine_of(arg, f->pid, &file))) {
			group_add(&by_file, f, file);
		} else {
			group_add(&unknown, f, NULL);
		}
	}
	if (by_arch.nr)
		warnings__add(d->warnings, "%s: its header names no machine (e_machine %" PRIu32 "); its code "
			      "is read as perf.data's arch, %s (e_machine %u)",
			      group_name(&by_arch, name, sizeof(name)), by_arch.first->jd->elf_mach, d->arch,
			      recording);
	if (by_file.nr)
		warnings__add(d->warnings, "%s: its header names no machine (e_machine %" PRIu32 "); its code "
			      "is read as its process's, e_machine %u (of %s)",
			      group_name(&by_file, name, sizeof(name)), by_file.first->jd->elf_mach,
			      by_file.first->e_machine, by_file.file ? by_file.file : "?");
	if (unknown.nr)
		warnings__add(d->warnings, "%s: its header names no machine (e_machine %" PRIu32 ") and neither "
			      "perf.data (%s%s) nor a file of its process says one: its code cannot be disassembled",
			      group_name(&unknown, name, sizeof(name)), unknown.first->jd->elf_mach,
			      d->arch[0] ? "arch " : "no arch", d->arch[0] ? d->arch : "");
}

void dumps__add_named(struct dumps *d, const char *const *named, size_t named_nr)
{
	for (size_t i = 0; i < named_nr; i++) {
		int ret = dumps__add_explicit(d, named[i]);

		if (ret == -ENOENT)
			warnings__add(d->warnings, "--dlarg jitdump=%s: no such file", named[i]);
	}
}

void dumps__warn_unfinished(struct dumps *d)
{
	for (size_t i = 0; i < d->nr; i++) {
		const struct dump_file *f = &d->files[i];
		uint64_t tail = jitdump__tail_bytes(f->jd);

		/* A header whose total_size runs past the file's end is no truncated record. */
		if (f->jd->parsed_off < f->jd->header_size && !f->failed)
			warnings__add(d->warnings, "%s+0x8: header total_size %" PRIu64 " runs past the end of the file (%"
				PRIu64 " bytes): no record was read", f->jd->path, f->jd->header_size,
				f->jd->file_size);
		/* A corrupt record was already reported; what follows it is not a truncation. */
		else if (tail && !f->failed)
			warnings__add(d->warnings, "%s+0x%" PRIx64 ": last record is incomplete (%" PRIu64
				" bytes); the dump was truncated", f->jd->path, f->jd->parsed_off, tail);
		if (f->jd->unknown_records)
			warnings__add(d->warnings, "%s: skipped %zu records of unknown type", f->jd->path,
				f->jd->unknown_records);
		if (f->jd->orphan_moves)
			warnings__add(d->warnings, "%s: skipped %zu CODE_MOVE records naming a code_index never loaded",
				f->jd->path, f->jd->orphan_moves);
		if (f->jd->wrapping)
			warnings__add(d->warnings, "%s+0x%" PRIx64 ": skipped %zu CODE_LOAD/CODE_MOVE records whose"
				" code_addr + code_size passes 2^64 (the first here)", f->jd->path,
				f->jd->first_wrapping_off, f->jd->wrapping);
	}
}

const char *dumps__name(const struct dump_file *f)
{
	return f->recorded ? f->recorded : f->jd->path;
}

const char *dumps__status(const struct dump_file *f)
{
	if (f->failed)
		return "corrupt";
	if (f->jd->parsed_off < f->jd->header_size)
		return "header-past-end";
	return jitdump__tail_bytes(f->jd) ? "truncated" : "ok";
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
