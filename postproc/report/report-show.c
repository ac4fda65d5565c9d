/* SPDX-License-Identifier: MIT */
/* What every output shows of a report, decided once (report-show.h). */
#include <string.h>

#include "report-show.h"

/*
 * The ditto rule, per column, down the rows of one block (or of the
 * trailing data): a cell with the same text and key as the one above is a
 * continuation; an absent one breaks the run.
 */
void report_show__ditto(struct report_row *rows, size_t nr)
{
	const struct report_cell *above[REPORT_COL__NR];
	int32_t cur = -2;

	for (size_t i = 0; i < nr; i++) {
		struct report_row *row = &rows[i];

		if (row->block != cur) {
			cur = row->block;
			memset(above, 0, sizeof(above));
		}
		for (int c = 0; c < REPORT_COL__NR; c++) {
			struct report_cell *cell = &row->cells[c];

			if (!cell->text) {
				above[c] = NULL;
				continue;
			}
			cell->ditto = above[c] && above[c]->key == cell->key &&
				      !strcmp(above[c]->text, cell->text);
			if (!cell->ditto)
				above[c] = cell;
		}
	}
}

/*
 * The columns: [CLIF] and [Wasm] come with wasmtime code (the reference
 * always shows both); [Source] only where some row has one. A block's
 * table (the text report) looks at its own rows, a function's listing at
 * all of them, trailing data included.
 */
void report_show__columns(struct report_func *f, const struct report_row *rows, size_t nr,
			  bool first)
{
	if (first) {
		for (int c = 0; c < REPORT_COL__NR; c++)
			f->show[c] = c != REPORT_COL_SOURCE && f->has[c];
		for (size_t b = 0; b < f->blocks_nr; b++)
			for (int c = 0; c < REPORT_COL__NR; c++)
				f->blocks[b].show[c] = c != REPORT_COL_SOURCE && f->has[c];
	}
	for (size_t i = 0; i < nr; i++) {
		const struct report_row *row = &rows[i];

		if (!row->cells[REPORT_COL_SOURCE].text)
			continue;
		f->show[REPORT_COL_SOURCE] = true;
		if (row->block >= 0 && (size_t)row->block < f->blocks_nr)
			f->blocks[row->block].show[REPORT_COL_SOURCE] = true;
	}
}

void report_show__func(struct report_func *f)
{
	report_show__ditto(f->rows, f->rows_nr);
	report_show__columns(f, f->rows, f->rows_nr, true);
	/* a whole function's: every row's, known before it is built */
	if (f->whole)
		return;
	f->row_max = 0;
	for (size_t r = 0; r < f->rows_nr; r++)
		if (f->rows[r].samples > f->row_max)
			f->row_max = f->rows[r].samples;
}

void report_show__decide(struct report *rep)
{
	uint64_t hottest = 0;

	for (size_t i = 0; i < rep->funcs_nr; i++) {
		const struct report_func *f = &rep->funcs[i];

		rep->shown_funcs_nr += f->shown_blocks_nr != 0;
		if (f->block_max > hottest)
			hottest = f->block_max;
		if (f->row_max > rep->row_max)
			rep->row_max = f->row_max;
	}
	rep->heat_max = rep->total ? (double)hottest / (double)rep->total : 0;
}
