// SPDX-License-Identifier: MIT
/* perf.data's zstd-compressed records, one stream per file (see perfdata-zstd.h). */
#include <stdlib.h>
#include <string.h>

#include "perfdata-zstd.h"

/* Hand the complete records in dbuf to record(), keep a cut-off tail for the next payload. */
static int walk_dbuf(struct scan *s, scan_record_fn record)
{
	size_t off = 0, size;
	int ret = 0;

	while (s->dlen - off >= PERF_EV_HDR_SIZE) {
		size = get16(s, s->dbuf + off + 6);
		if (size < PERF_EV_HDR_SIZE) {
			s->dcorrupt = true;
			s->dlen = 0;
			return 0;
		}
		if (size > s->dlen - off)
			break;
		ret = record(s, s->dbuf + off, size, true);
		off += size;
		if (ret)
			break;
	}
	memmove(s->dbuf, s->dbuf + off, s->dlen - off);
	s->dlen -= off;
	return ret;
}

static bool inflate_setup(struct scan *s)
{
	if (s->dctx)
		return true;
	s->dctx = ZSTD_createDCtx();
	s->dbuf = malloc(DBUF_CARRY + DBUF_CHUNK);
	if (!s->dctx || !s->dbuf ||
	    ZSTD_isError(ZSTD_DCtx_setParameter(s->dctx, ZSTD_d_windowLogMax,
						INFLATE_WINDOW_LOG_MAX))) {
		ZSTD_freeDCtx(s->dctx);
		free(s->dbuf);
		s->dctx = NULL;
		s->dbuf = NULL;
		return false;
	}
	return true;
}

void scan__inflate_reset(struct scan *s)
{
	ZSTD_DCtx_reset(s->dctx, ZSTD_reset_session_only);
	s->dlen = 0;
}

int scan__inflate(struct scan *s, const uint8_t *src, size_t len, scan_record_fn record)
{
	ZSTD_inBuffer in = { src, len, 0 };
	uint64_t produced = 0;
	size_t r, in_before;
	int ret;

	if (s->inflate_off || !inflate_setup(s)) {
		s->inflate_off = true;
		s->st->compressed_failed++;
		return 0;
	}
	for (;;) {
		/* walk_dbuf leaves < DBUF_CARRY bytes, so there is room for a full chunk. */
		ZSTD_outBuffer out = { s->dbuf + s->dlen, DBUF_CHUNK, 0 };

		in_before = in.pos;
		r = ZSTD_decompressStream(s->dctx, &out, &in);
		if (ZSTD_isError(r))
			goto bad;
		s->dlen += out.pos;
		produced += out.pos;
		s->st->decompressed_bytes += out.pos;
		if (produced > INFLATE_RECORD_MAX)
			goto bad;
		if (s->st->decompressed_bytes > s->dtotal_max) {
			s->inflate_off = true;
			goto bad;
		}
		ret = walk_dbuf(s, record);
		if (ret) {
			s->dlen = 0;	/* the caller stopped us: nothing is cut off */
			return ret;
		}
		if (s->dcorrupt) {
			s->dcorrupt = false;
			goto bad;
		}
		/* Output space left over means zstd holds nothing more for this input. */
		if (in.pos == in.size && out.pos < out.size) {
			if (s->dlen)
				s->st->split_records++;
			return 0;
		}
		if (!out.pos && in.pos == in_before)
			goto bad;
	}
bad:
	s->st->compressed_failed++;
	scan__inflate_reset(s);
	return 0;
}
