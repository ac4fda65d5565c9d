/* SPDX-License-Identifier: MIT */
/*
 * The index of one mapped file (struct elfsyms, see elfsyms.h), and its
 * symbol tables read into it as perf's dso__load_sym reads them: perf's
 * filters, address adjustment and end fix-ups, PLT entries named name@plt.
 * elfsyms.c's own.
 */
#ifndef PLUGIN_SYMBOLS_ELFSYMS_TABLES_H
#define PLUGIN_SYMBOLS_ELFSYMS_TABLES_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ehframe.h"
#include "elfsyms-files.h"
#include "elfsyms.h"
#include "symset.h"

struct elfsyms {
	char *path;
	enum elfsyms_status status;
	enum elfsyms_origin origin;
	struct symsrc *syms, *runtime;	/* both point into src[] (maybe the same one) */
	struct symsrc src[3];		/* perf's two slots, plus MiniDebugInfo or debuginfod */
	size_t src_nr;
	struct symset set;		/* names borrowed from the files' string tables and plt_names */
	char *plt_names;		/* "name@plt\0" strings */
	size_t plt_len, plt_alloc;
	GElf_Phdr *phdrs;		/* the runtime file's PT_LOADs */
	size_t phdrs_nr;
	struct ehframe fdes;		/* .eh_frame of the runtime file, read on first use */
	bool fdes_read;
	uint16_t e_machine;
	bool cwasm;
	char *elsewhere;		/* found in a search directory (elfsyms__found_elsewhere) */
	const char *read_from;		/* elfsyms__read_from (borrowed: elsewhere, or a src path) */
	char *refused;			/* ... or refused there for its build-id */
};

/* The runtime file's PT_LOAD headers, read once. */
void elfsyms__read_segments(struct elfsyms *es);

/*
 * perf's dso__load_sym_internal for one table (sec of syms; runtime gives
 * program headers and the section headers of NOBITS sections): returns the
 * symbols added, or -1 where perf gives up on the whole file (a symbol in a
 * section that does not exist).
 */
int elfsyms__load_table(struct elfsyms *es, struct symsrc *syms, Elf_Scn *sec, const GElf_Shdr *tshdr,
			struct symsrc *runtime, enum elfsyms_table table);

/* perf's dso__synthesize_plt_symbols: one name@plt per .rela.plt (.rel.plt) entry. */
void elfsyms__plt_symbols(struct elfsyms *es, struct symsrc *rt);

#endif
