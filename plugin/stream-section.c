// SPDX-License-Identifier: MIT
/* A run's stream section (see stream-section.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stream-section.h"

/* The object a count id names: a native symbol, or a jitdump load. false
 * when the id names no load (the code map only holds ids of loads read). */
static bool describe(struct stream_writer_object *so, const struct session *session, uint32_t id)
{
	if (id & NATIVE_ID_BIT) {
		const struct native_obj *o = &session->natives.objs[id & ~NATIVE_ID_BIT];

		*so = (struct stream_writer_object){
			.kind = o->cwasm ? HB_KIND_CWASM : HB_KIND_NATIVE, .id = id, .pid = o->pid,
			.e_machine = o->e_machine, .addr = o->addr, .size = o->size, .name = o->name,
			.code = o->code, .code_len = o->code_len, .dso = o->dso, .sym_start = o->sym_start,
			.source = native_source_name(o->source),
		};
	} else {
		const struct dump_file *df;
		const struct jitdump_load *l = dumps__load(&session->dumps, id, &df);

		if (!l)
			return false;
		*so = (struct stream_writer_object){
			.kind = HB_KIND_JIT, .id = id, .pid = df->pid, .e_machine = (uint16_t)df->jd->elf_mach,
			.addr = l->code_addr, .size = l->code_size, .name = l->name, .code = l->code,
			.code_len = l->code_size, .code_index = l->code_index, .load_time = l->timestamp,
			.dump = df->jd->path, .debug = l->debug, .debug_nr = l->debug_nr,
		};
	}
	return true;
}

int stream_section__assemble(struct stream_section *s, const struct session *session)
{
	size_t objs_alloc = 0;

	memset(s, 0, sizeof(*s));
	s->counts = tally__sorted(&session->counts, &s->counts_nr);
	s->jitdumps = calloc(session->dumps.nr + 1, sizeof(*s->jitdumps));
	if ((!s->counts && s->counts_nr) || !s->jitdumps)
		return -ENOMEM;
	/* One object per distinct id in the (sorted) counts. */
	for (size_t i = 0; i < s->counts_nr; i++)
		if (i == 0 || s->counts[i].obj != s->counts[i - 1].obj)
			objs_alloc++;
	s->objs = calloc(objs_alloc + 1, sizeof(*s->objs));
	if (!s->objs)
		return -ENOMEM;
	for (size_t i = 0; i < s->counts_nr; i++) {
		if (i && s->counts[i].obj == s->counts[i - 1].obj)
			continue;
		/* The writer drops the samples of an id that has no object. */
		if (describe(&s->objs[s->objs_nr], session, s->counts[i].obj))
			s->objs_nr++;
	}
	for (size_t i = 0; i < session->dumps.nr; i++) {
		const struct dump_file *df = &session->dumps.files[i];

		s->jitdumps[i] = (struct stream_writer_jitdump){
			.path = df->jd->path, .pid = df->pid, .loads = df->jd->nr, .status = dumps__status(df),
		};
	}
	for (size_t e = 0; e < session->events_nr; e++)
		s->events[e] = session->events[e].name;
	s->header = (struct stream_writer_header){
		.producer = HB_PRODUCER, .input = session->perf_data, .time_aware = session__time_aware(session),
		.events = s->events, .events_nr = session->events_nr,
		.totals = (const uint64_t(*)[HB_CLASS__NR][2])session->totals,
		.jitdumps = s->jitdumps, .jitdumps_nr = session->dumps.nr,
		.warnings = (const char *const *)session->warnings, .warnings_nr = session->warnings_nr,
	};
	return 0;
}

void stream_section__release(struct stream_section *s)
{
	free(s->counts);
	free(s->objs);
	free(s->jitdumps);
	memset(s, 0, sizeof(*s));
}
