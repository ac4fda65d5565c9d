// SPDX-License-Identifier: MIT
/* The stream's words, one table for the writer and the reader (stream-format.h, stream-records.def). */
#include <string.h>

#include "stream-format.h"

const struct hb_record_info hb_records[HB_REC__NR] = {
#define HB_RECORD(ID, word, FIELDS) [HB_REC_##ID] = { word, FIELDS },
#include "stream-records.def"
};

const struct hb_field_info hb_fields[HB_FIELD__NR] = {
#define HB_FIELD(RECORD, ID, key, TYPE, KINDS, NEED) \
	[HB_FIELD_##RECORD##_##ID] = { HB_REC_##RECORD, key, HB_TYPE_##TYPE, HB_KINDS_##KINDS, HB_NEED_##NEED },
#define HB_NEED_REQUIRED true
#define HB_NEED_OPTIONAL false
#include "stream-records.def"
};

enum hb_record hb_record_find(const char *word)
{
	unsigned r;

	for (r = 0; r < HB_REC__NR; r++)
		if (!strcmp(word, hb_records[r].word))
			break;
	return (enum hb_record)r;
}
