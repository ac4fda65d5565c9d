/* SPDX-License-Identifier: MIT */
/*
 * ELF values that the system's <elf.h> does not name, defined once for every
 * program of the project that reads or writes such files.
 */
#ifndef PLUGIN_SYMBOLS_ELF_DEFS_H
#define PLUGIN_SYMBOLS_ELF_DEFS_H

/* e_ident[EI_OSABI] of every wasmtime artifact (a compiled module, .cwasm):
 * wasmtime's own mark, in no ELF registry. */
#define ELFOSABI_WASMTIME 200

/* e_flags bits of a wasmtime artifact (wasmtime's crates/environ/src/obj.rs). */
#define EF_WASMTIME_MODULE	0x1	/* a core module */
#define EF_WASMTIME_COMPONENT	0x2	/* a component */
#define EF_WASMTIME_PULLEY32	0x4	/* .text is Pulley bytecode, not machine code */
#define EF_WASMTIME_PULLEY64	0x8

#endif
