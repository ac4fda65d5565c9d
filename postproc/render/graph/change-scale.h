/* SPDX-License-Identifier: MIT */
/*
 * The colours of a change between two profiles (hotblocks diff's page):
 * reds for more share, greens for less, on the heat scale's positions
 * (heat.h).
 */
#ifndef POSTPROC_RENDER_GRAPH_CHANGE_SCALE_H
#define POSTPROC_RENDER_GRAPH_CHANGE_SCALE_H

#include "heat.h"

/*
 * A change between two profiles on a diverging scale: sign > 0 (more share
 * in the new one: slower) in reds, sign < 0 (less: faster) in greens, 0 (no
 * change) CHANGE_SAME_FILL. Its magnitude, a share of all samples, is placed
 * on s as heat_scale__position places a share: darker the larger.
 */
#define CHANGE_SAME_FILL 0xffffffu
/* The ink of a change within noise, on CHANGE_SAME_FILL: it is not told
 * apart from none (the comparison's test), so it is painted as none and its
 * number dimmed. */
#define CHANGE_WITHIN_NOISE_INK 0x767676u
struct heat_colour change_scale__colour(const struct heat_scale *s, int sign, double magnitude);

/* The colour at position t (0..1) of the reds (sign > 0) or the greens (< 0). */
struct heat_colour change_scale__ramp(int sign, double t);

#endif
