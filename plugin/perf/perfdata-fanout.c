// SPDX-License-Identifier: MIT
/* One walk of perf.data for several readers (see perfdata-fanout.h). */
#include "perfdata-fanout.h"

bool perfdata_fanout__add(struct perfdata_fanout *f, const struct perfdata_visitor *v)
{
	if (f->nr == PERFDATA_FANOUT_MAX)
		return false;
	f->readers[f->nr++] = *v;
	return true;
}

static int on_jitdump(void *arg, uint32_t pid, const char *path)
{
	struct perfdata_fanout *f = arg;
	int ret = 0;

	for (size_t i = 0; i < f->nr && !ret; i++)
		if (f->readers[i].jitdump)
			ret = f->readers[i].jitdump(f->readers[i].arg, pid, path);
	return ret;
}

static int on_mmap(void *arg, const struct perfdata_mmap *m)
{
	struct perfdata_fanout *f = arg;
	int ret = 0;

	for (size_t i = 0; i < f->nr && !ret; i++)
		if (f->readers[i].mmap)
			ret = f->readers[i].mmap(f->readers[i].arg, m);
	return ret;
}

static int on_task(void *arg, const struct perfdata_task *t)
{
	struct perfdata_fanout *f = arg;
	int ret = 0;

	for (size_t i = 0; i < f->nr && !ret; i++)
		if (f->readers[i].task)
			ret = f->readers[i].task(f->readers[i].arg, t);
	return ret;
}

static int on_build_id(void *arg, const struct perfdata_build_id *b)
{
	struct perfdata_fanout *f = arg;
	int ret = 0;

	for (size_t i = 0; i < f->nr && !ret; i++)
		if (f->readers[i].build_id)
			ret = f->readers[i].build_id(f->readers[i].arg, b);
	return ret;
}

struct perfdata_visitor perfdata_fanout__visitor(struct perfdata_fanout *f)
{
	return (struct perfdata_visitor){
		.jitdump = on_jitdump, .mmap = on_mmap, .task = on_task, .build_id = on_build_id, .arg = f,
	};
}
