/* SPDX-License-Identifier: MIT */
/* cwasm-run: runs a .cwasm fixture the way `wasmtime run --allow-precompiled` does, with its profiling agents. */

/*
 * For test recordings only (test-data/wasmtime/README.md).  What wasmtime
 * does and this program repeats (read from wasmtime's profiling agents,
 * crates/wasmtime/src/profiling_agent/, and its module loading; the jitdump
 * side is described in plugin/JITDUMP.md):
 *   1. the profiling agent starts with the engine: --profile=jitdump opens
 *      ./jit-<pid>.dump (append, no truncation), maps its first 1024 bytes
 *      PROT_READ|PROT_EXEC MAP_PRIVATE as perf's marker, then writes the
 *      40-byte header if the file was empty;
 *   2. Module::deserialize_file: the whole .cwasm is mapped MAP_PRIVATE,
 *      read-only, at offset 0, and .text is mprotect()ed to R+X in place, so
 *      the code is file-backed and perf attributes it to the .cwasm;
 *   3. register_profiling: one jitdump LOAD (or one perf-map line) per
 *      STT_FUNC symbol with a size, in symtab order, named with the bare
 *      name-section name for named wasm functions (the ::name suffix of
 *      wasm[M]::function[F]::name) and the ELF symbol name otherwise;
 *   4. the module runs: here the export's array-to-wasm trampoline is called
 *      through a C function pointer, over and over, for SECONDS seconds.
 * The VMContext is a stub holding only what the fixture's code reads: the
 * VMStoreContext pointer at +8, whose +0x18 is the stack limit.
 */

#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "../../plugin/jit/jitdump-format.h"
#include "../../plugin/symbols/elf-defs.h"

static const char *prog = "cwasm-run";

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* ---- the loaded image ---- */

struct image {
	const char *path;
	unsigned char *base;	/* the whole file, MAP_PRIVATE */
	size_t size;
	const Elf64_Shdr *text, *symtab, *strtab;
	const char *engine;	/* version string of .wasmtime.engine, NUL-terminated copy */
};

static const void *at(const struct image *im, uint64_t off, uint64_t len, const char *what)
{
	if (off > im->size || len > im->size - off)
		die("%s: %s lies outside the file", im->path, what);
	return im->base + off;
}

static void load_image(struct image *im, const char *path)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh, *shstr;
	struct stat st;
	int fd;

	memset(im, 0, sizeof(*im));
	im->path = path;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0)
		die("%s: %s", path, strerror(errno));
	if (st.st_size < (off_t)sizeof(Elf64_Ehdr))
		die("%s: too small for an ELF file", path);
	im->size = st.st_size;
	/* Like wasmtime's Mmap::from_file: private, read-only, whole file. */
	im->base = mmap(NULL, im->size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (im->base == MAP_FAILED)
		die("%s: mmap: %s", path, strerror(errno));
	close(fd);

	eh = (const Elf64_Ehdr *)im->base;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB)
		die("%s: not a little-endian ELF64 file", path);
	if (eh->e_ident[EI_OSABI] != ELFOSABI_WASMTIME || !(eh->e_flags & EF_WASMTIME_MODULE))
		die("%s: not a precompiled wasmtime module (EI_OSABI %u, e_flags 0x%x)", path,
		    eh->e_ident[EI_OSABI], eh->e_flags);
	if (eh->e_type != ET_REL || eh->e_machine != EM_X86_64)
		die("%s: expected ET_REL for x86-64", path);
	if (eh->e_shentsize != sizeof(Elf64_Shdr) || !eh->e_shnum || eh->e_shstrndx >= eh->e_shnum)
		die("%s: bad section header table", path);
	sh = at(im, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(*sh), "section headers");
	shstr = &sh[eh->e_shstrndx];
	at(im, shstr->sh_offset, shstr->sh_size, ".shstrtab");
	for (unsigned i = 1; i < eh->e_shnum; i++) {
		const char *name;

		if (sh[i].sh_name >= shstr->sh_size)
			die("%s: section %u: bad name", path, i);
		name = (const char *)im->base + shstr->sh_offset + sh[i].sh_name;
		if (sh[i].sh_type != SHT_NOBITS)
			at(im, sh[i].sh_offset, sh[i].sh_size, name);
		if (!strcmp(name, ".text"))
			im->text = &sh[i];
		else if (sh[i].sh_type == SHT_SYMTAB)
			im->symtab = &sh[i];
		else if (!strcmp(name, ".wasmtime.engine") && sh[i].sh_size >= 2) {
			const unsigned char *e = im->base + sh[i].sh_offset;
			size_t len = e[1] <= sh[i].sh_size - 2 ? e[1] : sh[i].sh_size - 2;

			im->engine = strndup((const char *)e + 2, len);
		}
	}
	if (!im->text || !im->symtab)
		die("%s: no .text or no .symtab (compiled with -D symbols=n?)", path);
	if (im->symtab->sh_link >= eh->e_shnum || im->symtab->sh_entsize != sizeof(Elf64_Sym))
		die("%s: bad .symtab", path);
	im->strtab = &sh[im->symtab->sh_link];
}

/* CodeMemory::publish: make .text executable in place. */
static void publish(struct image *im)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (im->text->sh_size + page - 1) / page * page;

	if (im->text->sh_offset % page)
		die("%s: .text at file offset 0x%" PRIx64 " is not page aligned", im->path,
		    (uint64_t)im->text->sh_offset);
	if (mprotect(im->base + im->text->sh_offset, len, PROT_READ | PROT_EXEC) < 0)
		die("%s: mprotect .text: %s", im->path, strerror(errno));
}

static size_t nsyms(const struct image *im)
{
	return im->symtab->sh_size / sizeof(Elf64_Sym);
}

static const Elf64_Sym *sym(const struct image *im, size_t i)
{
	return (const Elf64_Sym *)(im->base + im->symtab->sh_offset) + i;
}

static const char *sym_name(const struct image *im, const Elf64_Sym *s)
{
	const char *str = (const char *)im->base + im->strtab->sh_offset;

	if (s->st_name >= im->strtab->sh_size ||
	    !memchr(str + s->st_name, 0, im->strtab->sh_size - s->st_name))
		die("%s: bad symbol name offset", im->path);
	return str + s->st_name;
}

/* What profiling_agent.rs::register_module registers: defined text
 * symbols with a size, inside .text. */
static bool is_code(const struct image *im, const Elf64_Sym *s)
{
	size_t text_ndx = im->text - (const Elf64_Shdr *)(im->base +
							   ((const Elf64_Ehdr *)im->base)->e_shoff);

	return ELF64_ST_TYPE(s->st_info) == STT_FUNC && s->st_shndx == text_ndx && s->st_size &&
	       s->st_value + s->st_size <= im->text->sh_size;
}

/*
 * The name wasmtime's agents give a function: custom_name() returns the
 * demangled name-section name of a named defined wasm function, which is
 * what follows "wasm[M]::function[F]::" in its symbol; otherwise the ELF
 * symbol name is used.  Rust/C++ demangling is not done: this fixture's
 * names are plain.  (clean() can have changed a name in the symbol; it
 * cannot for names of ASCII-graphic characters up to 96 bytes.)
 */
static const char *agent_name(const char *symbol)
{
	const char *p;

	if (strncmp(symbol, "wasm[", 5))
		return symbol;
	p = strstr(symbol, "]::function[");
	if (!p)
		return symbol;
	p = strstr(p + 12, "]::");
	return p ? p + 3 : symbol;
}

/* ---- profiling agents ---- */

enum profile { PROFILE_NONE, PROFILE_JITDUMP, PROFILE_PERFMAP };

static struct {
	int fd;
	uint64_t code_index;
} jd = { .fd = -1 };

static void write_all(int fd, const void *p, size_t n, const char *what)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			die("%s: write: %s", what, strerror(errno));
		p = (const char *)p + w;
		n -= w;
	}
}

/* perf_jitdump.rs: open, marker mmap, header only into an empty file. */
static void jitdump_open(void)
{
	char path[64];
	struct stat st;
	void *marker;

	snprintf(path, sizeof(path), "./jit-%d.dump", getpid());
	jd.fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	if (jd.fd < 0)
		die("%s: %s", path, strerror(errno));
	if (fstat(jd.fd, &st) < 0)
		die("%s: %s", path, strerror(errno));
	/* perf record logs this executable mapping; perf inject --jit finds the
	 * dump through it.  Never touched, so mapping past EOF is harmless. */
	marker = mmap(NULL, 1024, PROT_READ | PROT_EXEC, MAP_PRIVATE, jd.fd, 0);
	if (marker == MAP_FAILED)
		die("%s: marker mmap: %s", path, strerror(errno));
	if (st.st_size == 0) {
		struct jitdump_file_header h = {
			.magic = JITDUMP_MAGIC,
			.version = JITDUMP_VERSION,
			.total_size = sizeof(h),
			.elf_mach = EM_X86_64,
			.pid = (uint32_t)getpid(),
			.timestamp = now_ns(CLOCK_MONOTONIC),
		};

		write_all(jd.fd, &h, sizeof(h), path);
	}
}

/* One JIT_CODE_LOAD, built in memory and written with one write(). */
static void jitdump_load(const char *name, const void *code, uint64_t size)
{
	size_t nlen = strlen(name) + 1, total = sizeof(struct jitdump_rec_load) + nlen + size;
	unsigned char *r = malloc(total);
	struct jitdump_rec_load l = {
		.p = { .id = JITDUMP_CODE_LOAD, .total_size = (uint32_t)total,
		       .timestamp = now_ns(CLOCK_MONOTONIC) },
		.pid = (uint32_t)getpid(),
		.tid = (uint32_t)syscall(SYS_gettid),
		.vma = (uintptr_t)code,
		.code_addr = (uintptr_t)code,
		.code_size = size,
		.code_index = jd.code_index++,
	};

	if (!r)
		die("out of memory");
	memcpy(r, &l, sizeof(l));
	memcpy(r + sizeof(l), name, nlen);
	memcpy(r + sizeof(l) + nlen, code, size);
	write_all(jd.fd, r, total, "jitdump");
	free(r);
}

/* perfmap.rs: "{addr:p} {len:x} {name}\n", appended, one write per line. */
static void perfmap_line(const char *name, const void *code, uint64_t size)
{
	static int fd = -1;
	char line[1024];
	int n;

	if (fd < 0) {
		char path[64];

		snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
		fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
		if (fd < 0)
			die("%s: %s", path, strerror(errno));
	}
	n = snprintf(line, sizeof(line), "0x%" PRIxPTR " %" PRIx64 " %s\n", (uintptr_t)code, size,
		     name);
	if (n < 0 || (size_t)n >= sizeof(line))
		die("perf map line too long for %s", name);
	for (char *p = line; *p && p < line + n - 1; p++)
		if (*p == '\n' || *p == '\r')
			*p = '_';
	write_all(fd, line, n, "perf map");
}

static void register_module(const struct image *im, enum profile prof)
{
	const unsigned char *text = im->base + im->text->sh_offset;

	for (size_t i = 0; i < nsyms(im); i++) {
		const Elf64_Sym *s = sym(im, i);
		const char *name;

		if (!is_code(im, s))
			continue;
		name = agent_name(sym_name(im, s));
		if (prof == PROFILE_JITDUMP)
			jitdump_load(name, text + s->st_value, s->st_size);
		else if (prof == PROFILE_PERFMAP)
			perfmap_line(name, text + s->st_value, s->st_size);
	}
}

/* ---- running ---- */

/* wasmtime's ValRaw: 16 bytes per value, args in, results out. */
union valraw {
	int32_t i32;
	int64_t i64;
	unsigned char bytes[16];
};

typedef bool (*array_call_fn)(void *vmctx, void *caller_vmctx, union valraw *vals, size_t n);

static struct image *trap_image;

/* A ud2 (wasm trap) or a stray fault: say where, in .text terms. */
static void on_fault(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	uintptr_t pc = uc->uc_mcontext.gregs[REG_RIP];
	uintptr_t text = (uintptr_t)trap_image->base + trap_image->text->sh_offset;
	char msg[160];
	int n;

	if (pc >= text && pc < text + trap_image->text->sh_size)
		n = snprintf(msg, sizeof(msg), "%s: %s at .text+0x%" PRIxPTR " (a wasm trap?)\n",
			     prog, strsignal(sig), pc - text);
	else
		n = snprintf(msg, sizeof(msg), "%s: %s at %#" PRIxPTR ", outside .text\n", prog,
			     strsignal(sig), pc);
	if (n > 0 && write(2, msg, n < (int)sizeof(msg) ? n : (int)sizeof(msg) - 1) < 0)
		_exit(128 + sig);
	_exit(128 + sig);
}

static void __attribute__((noreturn)) usage(void)
{
	fprintf(stderr,
		"usage: %s [run] [--allow-precompiled] [--profile=jitdump|perfmap|none]\n"
		"                 [--func F] [-W.../-O.../-D...] MODULE.cwasm [SECONDS [N]]\n"
		"Calls wasm[0]::array_to_wasm_trampoline[F] (default: the only one) with the\n"
		"i32 argument N (default 200) until SECONDS (default 1) have passed.\n",
		prog);
	exit(2);
}

/* The command line. */
struct args {
	enum profile prof;
	const char *module, *func;
	double seconds;
	int32_t n;
};

static void parse_args(int argc, char **argv, struct args *o)
{
	int i = 1;
	char *end;

	*o = (struct args){ .prof = PROFILE_NONE, .seconds = 1.0, .n = 200 };
	if (i < argc && !strcmp(argv[i], "run"))
		i++;
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--allow-precompiled"))
			continue;
		if (!strcmp(a, "--profile=jitdump"))
			o->prof = PROFILE_JITDUMP;
		else if (!strcmp(a, "--profile=perfmap"))
			o->prof = PROFILE_PERFMAP;
		else if (!strcmp(a, "--profile=none"))
			o->prof = PROFILE_NONE;
		else if (!strcmp(a, "--func") && i + 1 < argc)
			o->func = argv[++i];
		else if (!strncmp(a, "-W", 2) || !strncmp(a, "-O", 2) || !strncmp(a, "-D", 2) ||
			 !strncmp(a, "-C", 2) || !strncmp(a, "-S", 2)) {
			/* wasmtime option groups: accepted for the stand-in, no effect */
			if (!a[2] && i + 1 < argc)
				i++;
		} else
			usage();
	}
	if (i >= argc)
		usage();
	o->module = argv[i++];
	if (i < argc) {
		o->seconds = strtod(argv[i], &end);
		if (*end || !(o->seconds >= 0))
			die("SECONDS must be a number >= 0, not '%s'", argv[i]);
		i++;
	}
	if (i < argc) {
		long v = strtol(argv[i], &end, 0);

		if (*end || v < INT32_MIN || v > UINT32_MAX)
			die("N must be a 32-bit integer, not '%s'", argv[i]);
		o->n = (int32_t)v;
		i++;
	}
	if (i < argc)
		usage();
}

/* The export's array-to-wasm trampoline: func's, or the only one. */
static const Elf64_Sym *find_entry(const struct image *im, const char *module, const char *func,
				   const char **entry_name)
{
	const Elf64_Sym *entry = NULL;

	for (size_t k = 0; k < nsyms(im); k++) {
		const Elf64_Sym *s = sym(im, k);
		const char *name = sym_name(im, s);
		const char *t = "wasm[0]::array_to_wasm_trampoline[";

		if (!is_code(im, s) || strncmp(name, t, strlen(t)))
			continue;
		if (func && (strncmp(name + strlen(t), func, strlen(func)) ||
			     strcmp(name + strlen(t) + strlen(func), "]")))
			continue;
		if (entry)
			die("%s: several array-to-wasm trampolines; choose one with --func F", module);
		entry = s;
		*entry_name = name;
	}
	if (!entry)
		die("%s: no array-to-wasm trampoline%s%s (no exported function?)", module,
		    func ? " for function " : "", func ? func : "");
	return entry;
}

int main(int argc, char **argv)
{
	struct args o;
	struct image im;
	const Elf64_Sym *entry;
	const char *entry_name = NULL;
	static uint64_t store_ctx[64], vmctx[64];
	union valraw vals[1];
	struct sigaction sa;
	uint64_t t0, t1, calls = 0;
	int32_t result = 0;

	parse_args(argc, argv, &o);
	/* The engine (and its profiling agent) exists before any module. */
	if (o.prof == PROFILE_JITDUMP)
		jitdump_open();
	load_image(&im, o.module);
	publish(&im);
	register_module(&im, o.prof);
	entry = find_entry(&im, o.module, o.func, &entry_name);

	/* Stub VMContext: +0 magic "core", +8 the VMStoreContext; there +0x18
	 * is the stack limit the wasm prologues compare rsp against. */
	vmctx[0] = 0x65726f63;
	vmctx[1] = (uintptr_t)store_ctx;
	store_ctx[3] = (uintptr_t)__builtin_frame_address(0) - (512 << 10);
	trap_image = &im;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGILL, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);

	t0 = now_ns(CLOCK_MONOTONIC);
	do {
		array_call_fn fn = (array_call_fn)(void *)(im.base + im.text->sh_offset +
							   entry->st_value);

		vals[0].i64 = 0;
		vals[0].i32 = o.n;
		if (!fn(vmctx, vmctx, vals, 1))
			die("%s returned false: the callee raised an exception (VMStoreContext+0x88 = %" PRIu64 ")",
			    entry_name, store_ctx[0x88 / 8]);
		if (calls && vals[0].i32 != result)
			die("%s: result changed between calls (%d, then %d)", entry_name, result,
			    vals[0].i32);
		result = vals[0].i32;
		calls++;
		t1 = now_ns(CLOCK_MONOTONIC);
	} while (t1 - t0 < o.seconds * 1e9);

	printf("%s(%d) = %d (0x%08x); %" PRIu64 " calls in %.3f s; engine \"%s\"\n", entry_name,
	       o.n, result, (uint32_t)result, calls, (t1 - t0) / 1e9, im.engine ? im.engine : "?");
	return 0;
}
