/* SPDX-License-Identifier: MIT */
/*
 * The jitdump file layout (jit-<pid>.dump), declared once for everything in
 * the project that reads or writes one: the plugin's reader, the tests'
 * writer and the test-data tools. plugin/JITDUMP.md explains the format and
 * how perf finds and uses the file; the primary source is the Linux kernel's
 * tools/perf/Documentation/jitdump-specification.txt.
 *
 * Two views of the same bytes:
 *   - byte offsets (JITDUMP_*), for code that reads or writes either byte
 *     order field by field (the reader, the tests' writer);
 *   - packed structs (struct jitdump_file_header, struct jitdump_rec_*), for
 *     a writer that writes its own host's byte order, as a JIT does.
 * The static assertions below keep the two views in step.
 * Offsets count from the start of the header or of the record, the record
 * prefix included. Nothing is padded or aligned.
 */
#ifndef PLUGIN_JITDUMP_FORMAT_H
#define PLUGIN_JITDUMP_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* "JiTD" as a u32 in the writer's byte order; read back swapped, the file
 * was written in the other order and every field must be swapped. */
#define JITDUMP_MAGIC		0x4A695444U
#define JITDUMP_MAGIC_SWAPPED	0x4454694AU
/* The header's version field. The specification's document revision (2)
 * is not this number; perf refuses anything above 1. */
#define JITDUMP_VERSION		1

/* Header flag bit 0: timestamps are raw arch cycles (TSC), not CLOCK_MONOTONIC.
 * The other 63 bits are reserved and must be 0. */
#define JITDUMP_FLAGS_ARCH_TIMESTAMP 1ULL

/* Record ids. An id not listed is skipped by its total_size. */
enum jitdump_record_id {
	JITDUMP_CODE_LOAD = 0,
	JITDUMP_CODE_MOVE = 1,
	JITDUMP_CODE_DEBUG_INFO = 2,
	JITDUMP_CODE_CLOSE = 3,
	JITDUMP_CODE_UNWINDING_INFO = 4,
};

/* File header. Records start at total_size, which may exceed 40. */
enum {
	JITDUMP_HDR_MAGIC = 0,		/* u32 */
	JITDUMP_HDR_VERSION = 4,	/* u32 */
	JITDUMP_HDR_TOTAL_SIZE = 8,	/* u32, >= JITDUMP_HDR_SIZE */
	JITDUMP_HDR_ELF_MACH = 12,	/* u32, ELF e_machine of the code */
	JITDUMP_HDR_PAD1 = 16,		/* u32, reserved (V8 writes 0xdeadbeef) */
	JITDUMP_HDR_PID = 20,		/* u32 */
	JITDUMP_HDR_TIMESTAMP = 24,	/* u64, creation time (V8: wall-clock µs) */
	JITDUMP_HDR_FLAGS = 32,		/* u64 */
	JITDUMP_HDR_SIZE = 40,
};

/* Every record starts with this prefix. */
enum {
	JITDUMP_REC_ID = 0,		/* u32, enum jitdump_record_id */
	JITDUMP_REC_TOTAL_SIZE = 4,	/* u32, the whole record, prefix included */
	JITDUMP_REC_TIMESTAMP = 8,	/* u64 */
	JITDUMP_REC_PREFIX_SIZE = 16,
};

/* JIT_CODE_LOAD: the fixed part, then the NUL-terminated name, then code_size
 * bytes of code, which are the LAST code_size bytes of the record. */
enum {
	JITDUMP_LOAD_PID = 16,		/* u32 */
	JITDUMP_LOAD_TID = 20,		/* u32 */
	JITDUMP_LOAD_VMA = 24,		/* u64 */
	JITDUMP_LOAD_CODE_ADDR = 32,	/* u64, where the code runs */
	JITDUMP_LOAD_CODE_SIZE = 40,	/* u64, may be 0 */
	JITDUMP_LOAD_CODE_INDEX = 48,	/* u64, the key CODE_MOVE refers to */
	JITDUMP_LOAD_NAME = 56,		/* char[], NUL-terminated */
};

/* JIT_CODE_MOVE: fixed size. */
enum {
	JITDUMP_MOVE_PID = 16,		/* u32 */
	JITDUMP_MOVE_TID = 20,		/* u32 */
	JITDUMP_MOVE_VMA = 24,		/* u64 */
	JITDUMP_MOVE_OLD_CODE_ADDR = 32, /* u64 */
	JITDUMP_MOVE_NEW_CODE_ADDR = 40, /* u64 */
	JITDUMP_MOVE_CODE_SIZE = 48,	/* u64 */
	JITDUMP_MOVE_CODE_INDEX = 56,	/* u64, of the LOAD whose code moved */
	JITDUMP_MOVE_SIZE = 64,
};

/* JIT_CODE_DEBUG_INFO: the fixed part, then nr_entry entries of variable
 * size (the fixed entry part, then a NUL-terminated file name, "\xff" meaning
 * the previous entry's file). Writers may pad the record to 8 bytes. */
enum {
	JITDUMP_DEBUG_CODE_ADDR = 16,	/* u64 */
	JITDUMP_DEBUG_NR_ENTRY = 24,	/* u64 */
	JITDUMP_DEBUG_ENTRIES = 32,
	/* within one entry */
	JITDUMP_ENTRY_ADDR = 0,		/* u64, absolute code address */
	JITDUMP_ENTRY_LINE = 8,		/* u32, from 1 */
	JITDUMP_ENTRY_DISCRIM = 12,	/* u32, column or discriminator, 0 = none */
	JITDUMP_ENTRY_NAME = 16,	/* char[], NUL-terminated */
	JITDUMP_ENTRY_MIN_SIZE = JITDUMP_ENTRY_NAME + 1, /* an empty name is still one NUL */
};

/* JIT_CODE_UNWINDING_INFO: the fixed part, then unwind_data_size bytes
 * (an .eh_frame_hdr followed by .eh_frame). */
enum {
	JITDUMP_UNWIND_DATA_SIZE = 16,		/* u64 */
	JITDUMP_UNWIND_EH_FRAME_HDR_SIZE = 24,	/* u64 */
	JITDUMP_UNWIND_MAPPED_SIZE = 32,	/* u64 */
	JITDUMP_UNWIND_FIXED_SIZE = 40,
};

/* The same layout as host-order structs, for writers. */
struct __attribute__((packed)) jitdump_file_header {
	uint32_t magic;		/* JITDUMP_MAGIC */
	uint32_t version;	/* JITDUMP_VERSION */
	uint32_t total_size;	/* sizeof(struct jitdump_file_header) */
	uint32_t elf_mach;
	uint32_t pad1;
	uint32_t pid;
	uint64_t timestamp;
	uint64_t flags;		/* 0: timestamps are CLOCK_MONOTONIC */
};

struct __attribute__((packed)) jitdump_rec_prefix {
	uint32_t id;
	uint32_t total_size;
	uint64_t timestamp;
};

struct __attribute__((packed)) jitdump_rec_load {
	struct jitdump_rec_prefix p;
	uint32_t pid, tid;
	uint64_t vma, code_addr, code_size, code_index;
	/* then the name and its NUL, then code_size bytes of code */
};

struct __attribute__((packed)) jitdump_rec_move {
	struct jitdump_rec_prefix p;
	uint32_t pid, tid;
	uint64_t vma, old_code_addr, new_code_addr, code_size, code_index;
};

struct __attribute__((packed)) jitdump_rec_debug_info {
	struct jitdump_rec_prefix p;
	uint64_t code_addr, nr_entry;
	/* then nr_entry entries */
};

struct __attribute__((packed)) jitdump_rec_debug_entry {
	uint64_t addr;
	uint32_t line, discrim;
	/* then the file name and its NUL */
};

struct __attribute__((packed)) jitdump_rec_unwinding_info {
	struct jitdump_rec_prefix p;
	uint64_t unwind_data_size, eh_frame_hdr_size, mapped_size;
	/* then unwind_data_size bytes */
};

#define JITDUMP_ASSERT_AT(type, field, off) \
	_Static_assert(offsetof(struct type, field) == (off), #type "." #field " is at " #off)

JITDUMP_ASSERT_AT(jitdump_file_header, magic, JITDUMP_HDR_MAGIC);
JITDUMP_ASSERT_AT(jitdump_file_header, version, JITDUMP_HDR_VERSION);
JITDUMP_ASSERT_AT(jitdump_file_header, total_size, JITDUMP_HDR_TOTAL_SIZE);
JITDUMP_ASSERT_AT(jitdump_file_header, elf_mach, JITDUMP_HDR_ELF_MACH);
JITDUMP_ASSERT_AT(jitdump_file_header, pad1, JITDUMP_HDR_PAD1);
JITDUMP_ASSERT_AT(jitdump_file_header, pid, JITDUMP_HDR_PID);
JITDUMP_ASSERT_AT(jitdump_file_header, timestamp, JITDUMP_HDR_TIMESTAMP);
JITDUMP_ASSERT_AT(jitdump_file_header, flags, JITDUMP_HDR_FLAGS);
_Static_assert(sizeof(struct jitdump_file_header) == JITDUMP_HDR_SIZE, "header size");

JITDUMP_ASSERT_AT(jitdump_rec_prefix, id, JITDUMP_REC_ID);
JITDUMP_ASSERT_AT(jitdump_rec_prefix, total_size, JITDUMP_REC_TOTAL_SIZE);
JITDUMP_ASSERT_AT(jitdump_rec_prefix, timestamp, JITDUMP_REC_TIMESTAMP);
_Static_assert(sizeof(struct jitdump_rec_prefix) == JITDUMP_REC_PREFIX_SIZE, "prefix size");

JITDUMP_ASSERT_AT(jitdump_rec_load, pid, JITDUMP_LOAD_PID);
JITDUMP_ASSERT_AT(jitdump_rec_load, tid, JITDUMP_LOAD_TID);
JITDUMP_ASSERT_AT(jitdump_rec_load, vma, JITDUMP_LOAD_VMA);
JITDUMP_ASSERT_AT(jitdump_rec_load, code_addr, JITDUMP_LOAD_CODE_ADDR);
JITDUMP_ASSERT_AT(jitdump_rec_load, code_size, JITDUMP_LOAD_CODE_SIZE);
JITDUMP_ASSERT_AT(jitdump_rec_load, code_index, JITDUMP_LOAD_CODE_INDEX);
_Static_assert(sizeof(struct jitdump_rec_load) == JITDUMP_LOAD_NAME, "load fixed part");

JITDUMP_ASSERT_AT(jitdump_rec_move, pid, JITDUMP_MOVE_PID);
JITDUMP_ASSERT_AT(jitdump_rec_move, tid, JITDUMP_MOVE_TID);
JITDUMP_ASSERT_AT(jitdump_rec_move, vma, JITDUMP_MOVE_VMA);
JITDUMP_ASSERT_AT(jitdump_rec_move, old_code_addr, JITDUMP_MOVE_OLD_CODE_ADDR);
JITDUMP_ASSERT_AT(jitdump_rec_move, new_code_addr, JITDUMP_MOVE_NEW_CODE_ADDR);
JITDUMP_ASSERT_AT(jitdump_rec_move, code_size, JITDUMP_MOVE_CODE_SIZE);
JITDUMP_ASSERT_AT(jitdump_rec_move, code_index, JITDUMP_MOVE_CODE_INDEX);
_Static_assert(sizeof(struct jitdump_rec_move) == JITDUMP_MOVE_SIZE, "move size");

JITDUMP_ASSERT_AT(jitdump_rec_debug_info, code_addr, JITDUMP_DEBUG_CODE_ADDR);
JITDUMP_ASSERT_AT(jitdump_rec_debug_info, nr_entry, JITDUMP_DEBUG_NR_ENTRY);
_Static_assert(sizeof(struct jitdump_rec_debug_info) == JITDUMP_DEBUG_ENTRIES, "debug info fixed part");

JITDUMP_ASSERT_AT(jitdump_rec_debug_entry, addr, JITDUMP_ENTRY_ADDR);
JITDUMP_ASSERT_AT(jitdump_rec_debug_entry, line, JITDUMP_ENTRY_LINE);
JITDUMP_ASSERT_AT(jitdump_rec_debug_entry, discrim, JITDUMP_ENTRY_DISCRIM);
_Static_assert(sizeof(struct jitdump_rec_debug_entry) == JITDUMP_ENTRY_NAME, "debug entry fixed part");

JITDUMP_ASSERT_AT(jitdump_rec_unwinding_info, unwind_data_size, JITDUMP_UNWIND_DATA_SIZE);
JITDUMP_ASSERT_AT(jitdump_rec_unwinding_info, eh_frame_hdr_size, JITDUMP_UNWIND_EH_FRAME_HDR_SIZE);
JITDUMP_ASSERT_AT(jitdump_rec_unwinding_info, mapped_size, JITDUMP_UNWIND_MAPPED_SIZE);
_Static_assert(sizeof(struct jitdump_rec_unwinding_info) == JITDUMP_UNWIND_FIXED_SIZE,
	       "unwinding info fixed part");

#undef JITDUMP_ASSERT_AT

#endif
