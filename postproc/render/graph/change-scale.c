/* SPDX-License-Identifier: MIT */
/* The colours of a change between two profiles (change-scale.h). */
#include "change-scale.h"
#include "lib/util.h"

/*
 * ColorBrewer's sequential Reds and Greens, 9 classes each, without their
 * near-white first class, so the faintest change still differs from "no
 * change". Red is slower, as in the text output's colours and perf diff's.
 */
static const uint32_t reds[] = {
	0xfee0d2, 0xfcbba1, 0xfc9272, 0xfb6a4a, 0xef3b2c, 0xcb181d, 0xa50f15, 0x67000d,
};
static const uint32_t greens[] = {
	0xe5f5e0, 0xc7e9c0, 0xa1d99b, 0x74c476, 0x41ab5d, 0x238b45, 0x006d2c, 0x00441b,
};

struct heat_colour change_scale__ramp(int sign, double t)
{
	return sign > 0 ? heat__along(reds, ARRAY_SIZE(reds), t) : heat__along(greens, ARRAY_SIZE(greens), t);
}

struct heat_colour change_scale__colour(const struct heat_scale *s, int sign, double magnitude)
{
	double t = heat_scale__position(s, magnitude);

	if (!sign)
		return (struct heat_colour){ CHANGE_SAME_FILL, 0x000000 };
	return change_scale__ramp(sign, t < 0 ? 0 : t);
}
