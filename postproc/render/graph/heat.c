/* SPDX-License-Identifier: MIT */
/* The report's heat colours: a logarithmic share scale on a yellow-red ramp. */
#include <math.h>
#include <stdio.h>

#include "heat.h"
#include "lib/util.h"

/*
 * ColorBrewer's sequential YlOrRd, 9 classes (Cynthia Brewer, colorbrewer2.org):
 * lightness falls steadily from the faintest to the hottest, so the order of
 * two shares reads from their colours alone, also in grey print.
 */
static const uint32_t ramp[] = {
	0xffffcc, 0xffeda0, 0xfed976, 0xfeb24c, 0xfd8d3c,
	0xfc4e2a, 0xe31a1c, 0xbd0026, 0x800026,
};

void heat_scale__init(struct heat_scale *s, double max_share)
{
	if (!(max_share > 0) || max_share > 1)
		max_share = 1;
	s->hi = max_share;
	s->lo = max_share / pow(10, HEAT_DECADES);
}

double heat_scale__position(const struct heat_scale *s, double share)
{
	if (!(share > 0))
		return -1;
	if (share <= s->lo)
		return 0;
	if (share >= s->hi)
		return 1;
	return log(share / s->lo) / log(s->hi / s->lo);
}

static uint32_t mix(uint32_t a, uint32_t b, double f)
{
	uint32_t out = 0;

	for (int sh = 16; sh >= 0; sh -= 8) {
		double ca = (a >> sh) & 0xff, cb = (b >> sh) & 0xff;

		out |= (uint32_t)lround(ca + (cb - ca) * f) << sh;
	}
	return out;
}

static double channel(uint32_t c)
{
	double v = c / 255.0;

	return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

static double luminance(uint32_t rgb)
{
	return 0.2126 * channel((rgb >> 16) & 0xff) + 0.7152 * channel((rgb >> 8) & 0xff) +
	       0.0722 * channel(rgb & 0xff);
}

double heat__contrast(uint32_t a, uint32_t b)
{
	double la = luminance(a), lb = luminance(b);

	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

struct heat_colour heat__along(const uint32_t *colours, size_t n, double t)
{
	struct heat_colour c;
	double pos;
	size_t i;

	if (!(t > 0))
		t = 0;
	if (t > 1)
		t = 1;
	pos = t * (n - 1);
	i = (size_t)pos;
	if (i >= n - 1)
		i = n - 2;
	c.fill = mix(colours[i], colours[i + 1], pos - i);
	c.ink = heat__contrast(c.fill, 0x000000) >= heat__contrast(c.fill, 0xffffff) ? 0x000000
										      : 0xffffff;
	return c;
}

struct heat_colour heat__ramp(double t)
{
	return heat__along(ramp, ARRAY_SIZE(ramp), t);
}

struct heat_colour heat_scale__colour(const struct heat_scale *s, double share)
{
	double t = heat_scale__position(s, share);

	if (t < 0)
		return (struct heat_colour){ HEAT_NONE_FILL, HEAT_NONE_INK };
	return heat__ramp(t);
}

const char *heat__css(char buf[8], uint32_t rgb)
{
	snprintf(buf, 8, "#%06x", (unsigned)(rgb & 0xffffff));
	return buf;
}
