/* SPDX-License-Identifier: MIT */
/* fakejit: runs hand-written x86-64 code from JIT memory and writes its jitdump, for test recordings. */

/*
 * What it does, in order (see test-data/fakejit/README.md):
 *   1. creates ./jit-<pid>.dump, writes the header, maps the file
 *      PROT_READ|PROT_EXEC as perf's marker;
 *   2. DEBUG_INFO + LOAD "alpha" (code_index 0) at A, runs it ~0.4 s CPU;
 *   3. LOAD "beta" (code_index 1) at the SAME address A (written before the
 *      bytes are replaced), runs it ~0.4 s;
 *   4. LOAD "gamma" (code_index 2) at G1, runs it ~0.2 s, copies it to G2,
 *      MOVE G1 -> G2, runs it at G2 ~0.2 s;
 *   5. CLOSE.  The dump file is kept.
 * --beta-name-bytes=N names beta "beta" and then U+6F22 (a CJK character, 3
 * bytes) up to N bytes: a JIT name longer than any line of the stream.
 * Timestamps are CLOCK_MONOTONIC ns, the clock of `perf record -k mono`.
 * Every record is written before the code it describes is installed, so no
 * sample of a function can be older than the record that announced it.
 *
 * The record layout is plugin/jit/jitdump-format.h's, the one the plugin reads,
 * written in this host's byte order.
 */

#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../../plugin/jit/jitdump-format.h"

/*
 * The jitted code, hand-written.  It lives in .rodata (not executable in this
 * binary) so it can only ever run from the JIT region, where it is copied.
 * The labels are deliberately local (no .globl): gas then resolves the branches
 * itself, so the bytes are position independent and copy as they are.
 * Each function is a System V leaf: n in %edi, result in %eax, clobbers only
 * %ecx/%edx/%edi (all caller-saved), no stack use.
 * Sizes and offsets are taken from the labels, never hard-coded: gas picks
 * rel8 branches here, clang's integrated assembler keeps rel32 in .rodata, and
 * both stay consistent with the dump (the committed recording used gcc + gas).
 */
__asm__(
	"	.pushsection .rodata\n"
	/* uint32_t alpha(uint32_t n): FNV-1-like mix of a counter, n rounds.
	 * The loop header fj_alpha_loop follows two plain setup instructions,
	 * so it is a branch target in the middle of a straight run. */
	"	.balign 16\n"
	"fj_alpha_start:\n"
	"	movl	$0x811c9dc5, %eax\n"
	"	testl	%edi, %edi\n"
	"	jz	fj_alpha_ret\n"
	"fj_alpha_setup:\n"
	"	xorl	%ecx, %ecx\n"
	"	movl	$0x01000193, %edx\n"
	"fj_alpha_loop:\n"
	"	xorl	%ecx, %eax\n"
	"	imull	%edx, %eax\n"
	"	incl	%ecx\n"
	"fj_alpha_latch:\n"
	"	decl	%edi\n"
	"	jne	fj_alpha_loop\n"
	"fj_alpha_ret:\n"
	"	ret\n"
	"fj_alpha_end:\n"

	/* uint32_t beta(uint32_t n): different code, longer than alpha, with an
	 * if/else diamond on the parity of the counter inside the loop. */
	"	.balign 16\n"
	"fj_beta_start:\n"
	"	xorl	%eax, %eax\n"
	"	movl	%edi, %ecx\n"
	"	testl	%ecx, %ecx\n"
	"	jz	fj_beta_ret\n"
	"fj_beta_loop:\n"
	"	testb	$1, %cl\n"
	"	jz	fj_beta_even\n"
	"	addl	%ecx, %eax\n"
	"	roll	$7, %eax\n"
	"	jmp	fj_beta_next\n"
	"fj_beta_even:\n"
	"	xorl	%ecx, %eax\n"
	"	leal	(%rax,%rax,8), %eax\n"
	"fj_beta_next:\n"
	"	decl	%ecx\n"
	"	jnz	fj_beta_loop\n"
	"fj_beta_ret:\n"
	"	ret\n"
	"fj_beta_end:\n"

	/* uint32_t gamma(uint32_t n): loop nest, n outer rounds of a 4-step
	 * inner loop whose header follows the outer header's movl. */
	"	.balign 16\n"
	"fj_gamma_start:\n"
	"	movl	$1, %eax\n"
	"	testl	%edi, %edi\n"
	"	jz	fj_gamma_ret\n"
	"fj_gamma_outer:\n"
	"	movl	$4, %ecx\n"
	"fj_gamma_inner:\n"
	"	leal	1(%rax,%rax,2), %eax\n"
	"	xorl	%edi, %eax\n"
	"	decl	%ecx\n"
	"	jnz	fj_gamma_inner\n"
	"	decl	%edi\n"
	"	jnz	fj_gamma_outer\n"
	"fj_gamma_ret:\n"
	"	ret\n"
	"fj_gamma_end:\n"
	"	.popsection\n");

extern const unsigned char fj_alpha_start[], fj_alpha_setup[], fj_alpha_loop[],
	fj_alpha_latch[], fj_alpha_ret[], fj_alpha_end[];
extern const unsigned char fj_beta_start[], fj_beta_end[];
extern const unsigned char fj_gamma_start[], fj_gamma_end[];

typedef uint32_t (*jit_fn)(uint32_t n);

/* Calls per timing check: ~50-100 us per call keeps the overshoot negligible. */
#define ROUNDS 50000u
/* Where we ask for the code region, so re-recordings usually get the same
 * addresses (a hint only: the kernel may place it elsewhere). */
#define CODE_HINT ((void *)0x7f0000000000ull)

static int dump_fd = -1;
static uint32_t my_pid, my_tid;

static void die(const char *what)
{
	fprintf(stderr, "fakejit: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		die("clock_gettime");
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CPU time of this thread: the run lengths are CPU time so that a loaded
 * machine still yields the intended number of samples per phase. */
static double cpu_seconds(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		die("clock_gettime");
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Each record goes out with one call, so the file never holds a torn record
 * that a reader racing with us could see as anything but a short tail. */
static void write_all(const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(dump_fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("write jitdump");
		p += n;
		len -= (size_t)n;
	}
}

static void jd_open(void)
{
	char path[64];
	struct jitdump_file_header h;
	long page = sysconf(_SC_PAGESIZE);

	snprintf(path, sizeof(path), "./jit-%u.dump", my_pid);
	/* O_RDWR, not O_WRONLY: the marker mmap below needs a readable fd. */
	dump_fd = open(path, O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0644);
	if (dump_fd < 0)
		die(path);

	memset(&h, 0, sizeof(h));
	h.magic = JITDUMP_MAGIC;
	h.version = JITDUMP_VERSION;
	h.total_size = sizeof(h);
	h.elf_mach = EM_X86_64;
	h.pid = my_pid;
	h.timestamp = mono_ns();
	h.flags = 0;
	write_all(&h, sizeof(h));

	/* The marker: perf record logs executable mappings only, and perf inject
	 * --jit finds the dump through this MMAP event (its path and pid).  The
	 * mapping is never touched and stays until exit. */
	if (mmap(NULL, page > 0 ? (size_t)page : 4096, PROT_READ | PROT_EXEC,
		 MAP_PRIVATE, dump_fd, 0) == MAP_FAILED)
		die("mmap jitdump marker");
}

static void jd_code_load(uint64_t ts, const char *name, uint64_t addr,
			 const void *code, size_t size, uint64_t index)
{
	size_t nlen = strlen(name) + 1;
	size_t total = sizeof(struct jitdump_rec_load) + nlen + size;
	unsigned char *buf = malloc(total);
	struct jitdump_rec_load r;

	if (!buf)
		die("malloc");
	memset(&r, 0, sizeof(r));
	r.p.id = JITDUMP_CODE_LOAD;
	r.p.total_size = (uint32_t)total;
	r.p.timestamp = ts;
	r.pid = my_pid;
	r.tid = my_tid;
	r.vma = addr;
	r.code_addr = addr;
	r.code_size = size;
	r.code_index = index;
	memcpy(buf, &r, sizeof(r));
	memcpy(buf + sizeof(r), name, nlen);
	memcpy(buf + sizeof(r) + nlen, code, size);
	write_all(buf, total);
	free(buf);
}

static void jd_code_move(uint64_t ts, uint64_t old_addr, uint64_t new_addr,
			 uint64_t size, uint64_t index)
{
	struct jitdump_rec_move r;

	memset(&r, 0, sizeof(r));
	r.p.id = JITDUMP_CODE_MOVE;
	r.p.total_size = sizeof(r);
	r.p.timestamp = ts;
	r.pid = my_pid;
	r.tid = my_tid;
	r.vma = new_addr;
	r.old_code_addr = old_addr;
	r.new_code_addr = new_addr;
	r.code_size = size;
	r.code_index = index;
	write_all(&r, sizeof(r));
}

struct debug_line {
	uint64_t addr;
	uint32_t line, discrim;
	const char *file;
};

/* DEBUG_INFO, unpadded (the specification defines no padding): total_size is
 * exactly 32 + sum(16 + strlen(file) + 1). */
static void jd_debug_info(uint64_t ts, uint64_t code_addr,
			  const struct debug_line *lines, size_t n)
{
	size_t total = sizeof(struct jitdump_rec_debug_info), off;
	unsigned char *buf;
	struct jitdump_rec_debug_info r;

	for (size_t i = 0; i < n; i++)
		total += sizeof(struct jitdump_rec_debug_entry) + strlen(lines[i].file) + 1;
	buf = malloc(total);
	if (!buf)
		die("malloc");
	memset(&r, 0, sizeof(r));
	r.p.id = JITDUMP_CODE_DEBUG_INFO;
	r.p.total_size = (uint32_t)total;
	r.p.timestamp = ts;
	r.code_addr = code_addr;
	r.nr_entry = n;
	memcpy(buf, &r, sizeof(r));
	off = sizeof(r);
	for (size_t i = 0; i < n; i++) {
		struct jitdump_rec_debug_entry e = {
			.addr = lines[i].addr,
			.line = lines[i].line,
			.discrim = lines[i].discrim,
		};
		size_t flen = strlen(lines[i].file) + 1;

		memcpy(buf + off, &e, sizeof(e));
		off += sizeof(e);
		memcpy(buf + off, lines[i].file, flen);
		off += flen;
	}
	write_all(buf, total);
	free(buf);
}

static void jd_close(void)
{
	struct jitdump_rec_prefix r = {
		.id = JITDUMP_CODE_CLOSE,
		.total_size = sizeof(r),
		.timestamp = mono_ns(),
	};

	write_all(&r, sizeof(r));
	/* Leave the marker mapping alone: it goes away at exit like a real JIT's. */
	if (close(dump_fd))
		die("close jitdump");
	dump_fd = -1;
}

/* Put code at addr.  x86 keeps instruction fetch coherent with stores made by
 * the same thread; the builtin documents the intent and is free here. */
static void install(unsigned char *addr, const unsigned char *code, size_t size)
{
	memcpy(addr, code, size);
	__builtin___clear_cache((char *)addr, (char *)addr + size);
}

/* Call fn until this thread has spent `seconds` of CPU time in the phase. */
static uint32_t run_for(unsigned char *addr, double seconds, unsigned long *calls)
{
	jit_fn fn;
	double end = cpu_seconds() + seconds;
	uint32_t acc = 0;

	/* Object pointer to function pointer: fine on POSIX, which dlsym relies on. */
	memcpy(&fn, &addr, sizeof(fn));
	*calls = 0;
	do {
		acc += fn(ROUNDS);
		(*calls)++;
	} while (cpu_seconds() < end);
	return acc;
}

/* beta's name: "beta", or --beta-name-bytes=N long; a usage error exits 2. */
static const char *parse_args(int argc, char **argv)
{
	unsigned long name_bytes;
	char *end, *name;

	if (argc == 2 && !strncmp(argv[1], "--beta-name-bytes=", 18)) {
		name_bytes = strtoul(argv[1] + 18, &end, 10);
		if (*end || name_bytes < 4 || name_bytes > (1ul << 30) || !(name = malloc(name_bytes + 1)))
			die("--beta-name-bytes");
		memcpy(name, "beta", 5);
		for (size_t i = 4; i + 3 <= name_bytes; i += 3)
			memcpy(name + i, "\xe6\xbc\xa2", 4);
		return name;
	}
	if (argc != 1) {
		fprintf(stderr, "usage: %s [--beta-name-bytes=N]   (writes ./jit-<pid>.dump; run under perf record -k mono)\n",
			argv[0]);
		exit(2);
	}
	return "beta";
}

/* alpha's DEBUG_INFO, for its code at a. Lines are made up: a pretend source
 * file fakejit.S. */
static void alpha_debug_info(unsigned char *a)
{
	uint64_t base = (uint64_t)(uintptr_t)a;
	const struct debug_line lines[] = {
		{ base, 10, 0, "fakejit.S" },
		{ base + (uint64_t)(fj_alpha_setup - fj_alpha_start), 13, 0, "\xff" },
		{ base + (uint64_t)(fj_alpha_loop - fj_alpha_start), 15, 0, "fakejit.S" },
		{ base + (uint64_t)(fj_alpha_latch - fj_alpha_start), 18, 2, "\xff" },
		{ base + (uint64_t)(fj_alpha_ret - fj_alpha_start), 20, 0, "fakejit.S" },
	};

	jd_debug_info(mono_ns(), base, lines, sizeof(lines) / sizeof(lines[0]));
}

int main(int argc, char **argv)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t alpha_size = (size_t)(fj_alpha_end - fj_alpha_start);
	size_t beta_size = (size_t)(fj_beta_end - fj_beta_start);
	size_t gamma_size = (size_t)(fj_gamma_end - fj_gamma_start);
	unsigned char *region, *a, *g1, *g2;
	unsigned long alpha_calls, beta_calls, gamma1_calls, gamma2_calls;
	uint64_t t_alpha, t_beta, t_gamma, t_move;
	uint32_t acc = 0;
	const char *beta_name = parse_args(argc, argv);

	my_pid = (uint32_t)getpid();
	my_tid = (uint32_t)gettid();

	/* Three pages: [0] alpha then beta, [1] gamma, [2] gamma after the move
	 * (at +0x40, so the moved copy is not page aligned).  RWX for the whole
	 * run, like V8 under --perf-prof, so re-JITting needs no mprotect. */
	region = mmap(CODE_HINT, 3 * page, PROT_READ | PROT_WRITE | PROT_EXEC,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED)
		die("mmap code region");
	/* int3 everywhere, so a jump to a stale or unused byte traps at once. */
	memset(region, 0xcc, 3 * page);
	a = region;
	g1 = region + page;
	g2 = region + 2 * page + 0x40;

	jd_open();

	/* alpha: DEBUG_INFO first (it belongs to the next LOAD), then LOAD, then
	 * the bytes. */
	alpha_debug_info(a);
	t_alpha = mono_ns();
	jd_code_load(t_alpha, "alpha", (uint64_t)(uintptr_t)a, fj_alpha_start, alpha_size, 0);
	install(a, fj_alpha_start, alpha_size);
	acc += run_for(a, 0.4, &alpha_calls);

	/* beta at alpha's address: announce it, then overwrite, then run.  Any
	 * sample at a after t_beta is beta's; any before is alpha's. */
	t_beta = mono_ns();
	jd_code_load(t_beta, beta_name, (uint64_t)(uintptr_t)a, fj_beta_start, beta_size, 1);
	memset(a, 0xcc, page);
	install(a, fj_beta_start, beta_size);
	acc += run_for(a, 0.4, &beta_calls);

	/* gamma at g1, then moved to g2 (same bytes, same code_index). */
	t_gamma = mono_ns();
	jd_code_load(t_gamma, "gamma", (uint64_t)(uintptr_t)g1, fj_gamma_start, gamma_size, 2);
	install(g1, fj_gamma_start, gamma_size);
	acc += run_for(g1, 0.2, &gamma1_calls);

	t_move = mono_ns();
	jd_code_move(t_move, (uint64_t)(uintptr_t)g1, (uint64_t)(uintptr_t)g2, gamma_size, 2);
	install(g2, fj_gamma_start, gamma_size);
	/* The old copy is dead: trap if anything still jumped there. */
	memset(g1, 0xcc, gamma_size);
	acc += run_for(g2, 0.2, &gamma2_calls);

	jd_close();

	printf("fakejit: pid %u dump ./jit-%u.dump acc 0x%08x\n", my_pid, my_pid, acc);
	printf("  alpha code_index 0 addr %p size %zu load %llu calls %lu\n",
	       (void *)a, alpha_size, (unsigned long long)t_alpha, alpha_calls);
	printf("  beta  code_index 1 addr %p size %zu load %llu calls %lu\n",
	       (void *)a, beta_size, (unsigned long long)t_beta, beta_calls);
	printf("  gamma code_index 2 addr %p size %zu load %llu calls %lu\n",
	       (void *)g1, gamma_size, (unsigned long long)t_gamma, gamma1_calls);
	printf("  gamma moved to     addr %p           move %llu calls %lu\n",
	       (void *)g2, (unsigned long long)t_move, gamma2_calls);
	return 0;
}
