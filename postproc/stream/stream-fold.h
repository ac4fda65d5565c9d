/* SPDX-License-Identifier: MIT */
/*
 * Merging that aggregates: the same code under the same name, from several
 * runs (sections), is one object, and each object keeps what each run gave it.
 *
 * The reader merges objects of one STREAM.md identity; but a JIT's code has
 * another identity in every run (its jitdump, load time and address change),
 * and so has a library at another path. stream__finish folds, over the whole
 * input, every object into the first one of the same kind, name, ELF machine
 * and code bytes (all of them known): its samples are summed into that one,
 * which is ranked and shown alone, and its runs become that one's. Code that
 * differs under one name (another build, a recompilation) stays apart.
 */
#ifndef POSTPROC_STREAM_FOLD_H
#define POSTPROC_STREAM_FOLD_H

#include <stddef.h>
#include <stdint.h>

#include "stream.h"

/*
 * Add samples of (run, ev) to the tally *v (*nr entries, *alloc allocated):
 * to its last entry when that is (run, ev), as the lines of one section
 * come, else as a new entry. Sums stick at UINT64_MAX. Returns 0 or -ENOMEM.
 */
int stream_fold__tally(struct stream_tally **v, size_t *nr, size_t *alloc, uint32_t run,
		       uint32_t ev, uint64_t samples);

/*
 * For stream__finish, after CODE_MOVE copies are folded (moved_into) and
 * before the samples are sorted: set folded_into and folds, send the samples
 * of folded objects to the objects they are folded into, and leave every
 * object's tally sorted by (ev, run) with one entry each, the tallies of its
 * CODE_MOVE copies and of the objects folded into it included (theirs are
 * then empty). Linear in the objects, their code and their tallies, but for
 * sorting each tally. Returns 0 or -ENOMEM.
 */
int stream_fold__same_code(struct stream *s);

#endif
