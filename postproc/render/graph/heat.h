/* SPDX-License-Identifier: MIT */
/*
 * One colour scale for a whole report: a share of all samples -> a fill
 * colour, and a text colour that reads on it. The same share gets the same
 * colour in every function of the report, so blocks compare across functions.
 * Shares of sampled code span decades (a hot loop 20%, most blocks 0.01%):
 * the scale is logarithmic, from the hottest share down DECADES decades;
 * anything sampled below that gets the faintest colour, and a share of 0 (a
 * block no sample fell in) its own neutral grey, so "cold" and "barely warm"
 * never look alike.
 */
#ifndef POSTPROC_HEAT_H
#define POSTPROC_HEAT_H

#include <stddef.h>
#include <stdint.h>

#define HEAT_DECADES 3

struct heat_scale {
	double hi;		/* the share that gets the hottest colour */
	double lo;		/* hi / 10^HEAT_DECADES: the faintest one */
};

struct heat_colour {
	uint32_t fill;		/* 0xRRGGBB */
	uint32_t ink;		/* black or white, whichever contrasts more with fill */
};

/* The colour of a share of 0: no sample. */
#define HEAT_NONE_FILL 0xf2f2f2u
#define HEAT_NONE_INK 0x000000u

/*
 * The scale for a report whose hottest shown share is max_share (0..1]: that
 * share gets the hottest colour. A max_share that is not > 0 (nothing sampled)
 * or above 1 is taken as 1.
 */
void heat_scale__init(struct heat_scale *s, double max_share);

/* Where share lies on the scale: 0 (at or below lo) .. 1 (at or above hi);
 * -1 for a share that is not > 0 (NaN included). */
double heat_scale__position(const struct heat_scale *s, double share);

/* The colours for share (0..1 of all samples). */
struct heat_colour heat_scale__colour(const struct heat_scale *s, double share);

/* The colour at position t (0..1) of the ramp: for a legend. */
struct heat_colour heat__ramp(double t);

/* The colour at t (0..1) along colours[0 .. n) (n >= 2), with the ink
 * that reads on it: a ramp of this scale or another (change-scale.h). */
struct heat_colour heat__along(const uint32_t *colours, size_t n, double t);

/* WCAG 2 contrast ratio of two sRGB colours (1..21). */
double heat__contrast(uint32_t a, uint32_t b);

/* "#rrggbb" into buf (8 bytes). Returns buf. */
const char *heat__css(char buf[8], uint32_t rgb);

#endif
