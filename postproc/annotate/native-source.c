/* SPDX-License-Identifier: MIT */
/* The [Source] column of native code from its file's DWARF (native-source.h). */
#include "native-source.h"

bool native_source__claim(const struct stream_object *obj, struct annot_func *af)
{
	if (obj->kind != HB_KIND_NATIVE || !obj->path)
		return false;
	af->source = ANNOT_SOURCE_NATIVE;
	af->elf_lazy = true;
	af->has[ANNOT_SOURCE] = true;
	return true;
}

void native_source__cell(struct srcmap_cache *files, const struct stream_object *obj,
			 struct annot_func *af, uint32_t off, struct annot_cell *cell,
			 struct annot_texts *t)
{
	const struct srcmap_frame *fr;
	char buf[400];
	uint64_t addr;
	size_t n;

	if (af->elf_lazy) {
		af->elf_src = srcmap_cache__elf(files, obj->path);
		af->elf_lazy = false;
		af->has[ANNOT_SOURCE] = af->elf_src != NULL;
	}
	/* sym_start is a file offset (STREAM.md); DWARF speaks of addresses. */
	if (!af->elf_src || !srcmap__file_address(af->elf_src, obj->sym_start + off, &addr))
		return;
	n = srcmap__lookup(af->elf_src, addr, &fr);
	if (n)
		*cell = (struct annot_cell){ annot_texts__intern(t, srcmap__short(buf, sizeof(buf), fr, n)),
					     0, fr[0].file, fr[0].line };
}
