/* SPDX-License-Identifier: MIT */
/* The parts of diff__build, one file each (diff.h is the contract). */
#ifndef POSTPROC_DIFF_BUILD_H
#define POSTPROC_DIFF_BUILD_H

#include "diff.h"

/*
 * diff-match.c: pair the sampled objects of the two sides (those with
 * obj_samples) into d->funcs: by identity, then by name without the
 * location, hottest with hottest among equals (the same tier first). Fills
 * obj, name (the stream's names), samples and match. Returns 0 or -ENOMEM.
 */
int diff_match__funcs(struct diff *d);

/*
 * diff-match.c: pair the blocks of d->funcs[fi] (compared; its f[] set where
 * the side has it) by the first key both blocks have, and append a pair for
 * every block with samples on either side to d->pairs. Returns 0 or -ENOMEM.
 */
int diff_match__blocks(struct diff *d, size_t fi);

#endif
