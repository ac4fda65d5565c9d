// SPDX-License-Identifier: MIT
/* Code objects of file-backed code (see natives.h). */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../symbols/elf-defs.h"
#include "natives.h"

struct dso_info {
	char *path;
	uint16_t e_machine;
	bool cwasm;
	bool machine_read;	/* e_machine is the file's (not the host's, for a file that cannot be read) */
};

#if defined(__x86_64__)
#define HOST_E_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define HOST_E_MACHINE EM_AARCH64
#else
#define HOST_E_MACHINE EM_NONE
#endif

const char *native_source_name(enum native_source s)
{
	static const char *const names[] = {
#define NATIVE_SOURCE_NAME(suffix, name) name,
		NATIVE_SOURCES(NATIVE_SOURCE_NAME)
#undef NATIVE_SOURCE_NAME
	};

	return (unsigned)s < NATIVE_FROM__NR ? names[s] : "?";
}

void natives__init(struct natives *n)
{
	memset(n, 0, sizeof(*n));
}

void natives__release(struct natives *n)
{
	for (size_t i = 0; i < n->nr; i++) {
		free(n->objs[i].dso);
		free(n->objs[i].name);
		free(n->objs[i].code);
	}
	for (size_t i = 0; i < n->dsos_nr; i++)
		free(n->dsos[i].path);
	free(n->objs);
	idx_table_release(&n->index);
	free(n->dsos);
	memset(n, 0, sizeof(*n));
}

struct native_key {
	const char *dso, *name;
	uint64_t sym_start;
};

static uint64_t key_hash(const struct native_key *k)
{
	uint64_t h = hash_bytes(HASH_SEED, k->dso, strlen(k->dso));

	return hash_u64(hash_bytes(h, k->name, strlen(k->name)), k->sym_start);
}

static bool key_eq(uint32_t idx, const void *key, const void *objs)
{
	const struct native_obj *o = &((const struct native_obj *)objs)[idx];
	const struct native_key *k = key;

	return o->sym_start == k->sym_start && !strcmp(o->name, k->name) && !strcmp(o->dso, k->dso);
}

/* Read e_machine and OSABI from the file's ELF header; unreadable files get the host's machine. */
static const struct dso_info *dso_info(struct natives *n, const char *path)
{
	for (size_t i = 0; i < n->dsos_nr; i++)
		if (!strcmp(n->dsos[i].path, path))
			return &n->dsos[i];
	if (n->dsos_nr == n->dsos_alloc) {
		size_t alloc = n->dsos_alloc ? n->dsos_alloc * 2 : 16;
		struct dso_info *d = reallocarray(n->dsos, alloc, sizeof(*d));

		if (!d)
			return NULL;
		n->dsos = d;
		n->dsos_alloc = alloc;
	}
	struct dso_info *d = &n->dsos[n->dsos_nr];

	d->path = strdup(path);
	if (!d->path)
		return NULL;
	d->e_machine = HOST_E_MACHINE;
	d->cwasm = false;
	d->machine_read = false;

	unsigned char ehdr[20];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (pread(fd, ehdr, sizeof(ehdr), 0) == (ssize_t)sizeof(ehdr) &&
		    !memcmp(ehdr, ELFMAG, SELFMAG)) {
			bool be = ehdr[EI_DATA] == ELFDATA2MSB;

			d->e_machine = be ? (uint16_t)(ehdr[18] << 8 | ehdr[19])
					  : (uint16_t)(ehdr[19] << 8 | ehdr[18]);
			d->cwasm = ehdr[EI_OSABI] == ELFOSABI_WASMTIME;
			d->machine_read = d->e_machine != EM_NONE;
		}
		close(fd);
	}
	n->dsos_nr++;
	return d;
}

long natives__get(struct natives *n, const char *dso, const char *name, uint64_t sym_start,
		  bool *created)
{
	struct native_key key = { dso, name, sym_start };
	uint64_t h = key_hash(&key);
	long id = idx_table_find(&n->index, h, key_eq, &key, n->objs);

	*created = false;
	if (id >= 0)
		return id;

	const struct dso_info *info = dso_info(n, dso);

	/* ids are the index table's uint32_t */
	if (!info || n->nr >= UINT32_MAX - 1)
		return -ENOMEM;
	if (n->nr == n->alloc) {
		size_t alloc = n->alloc ? n->alloc * 2 : 64;
		struct native_obj *objs = reallocarray(n->objs, alloc, sizeof(*objs));

		if (!objs)
			return -ENOMEM;
		n->objs = objs;
		n->alloc = alloc;
	}
	struct native_obj *o = &n->objs[n->nr];

	memset(o, 0, sizeof(*o));
	o->dso = strdup(dso);
	o->name = strdup(name);
	if (!o->dso || !o->name || idx_table_add(&n->index, h, (uint32_t)n->nr) < 0) {
		free(o->dso);
		free(o->name);
		return -ENOMEM;
	}
	o->sym_start = sym_start;
	o->e_machine = info->e_machine;
	o->cwasm = info->cwasm;
	o->machine_read = info->machine_read;
	*created = true;
	return (long)n->nr++;
}

uint16_t natives__machine_of(const struct natives *n, uint32_t pid, const char **dso)
{
	for (size_t i = 0; i < n->nr; i++)
		if (n->objs[i].pid == pid && n->objs[i].machine_read) {
			if (dso)
				*dso = n->objs[i].dso;
			return n->objs[i].e_machine;
		}
	return EM_NONE;
}
