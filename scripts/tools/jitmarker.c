/* SPDX-License-Identifier: MIT */
/* Test workload that behaves like a JIT starting up: it creates ./jit-<pid>.dump
 * and maps it executable, which is how perf learns the dump's path. */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../../plugin/jit/jitdump-format.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int main(void)
{
	/* A valid header and no records, in this host's byte order. */
	struct jitdump_file_header h = {
		.magic = JITDUMP_MAGIC,
		.version = JITDUMP_VERSION,
		.total_size = sizeof(h),
		.elf_mach = EM_X86_64,
		.pid = (uint32_t)getpid(),
	};
	char name[64];
	volatile uint64_t spin = 0;
	uint64_t end;
	void *marker;
	long page;
	int fd;

	snprintf(name, sizeof(name), "jit-%d.dump", (int)getpid());
	/* O_RDWR: perf's JIT agents open it so too, and the mapping needs read access. */
	fd = open(name, O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0666);
	if (fd < 0) {
		perror(name);
		return 1;
	}
	h.timestamp = now_ns();
	if (write(fd, &h, sizeof(h)) != (ssize_t)sizeof(h)) {
		perror(name);
		close(fd);
		return 1;
	}
	/* The marker: perf records an MMAP2 with the file's absolute path only
	 * for executable mappings (without perf record --data). */
	page = sysconf(_SC_PAGESIZE);
	marker = mmap(NULL, page > 0 ? (size_t)page : 4096, PROT_READ | PROT_EXEC,
		      MAP_PRIVATE, fd, 0);
	if (marker == MAP_FAILED) {
		perror("mmap");
		close(fd);
		return 1;
	}
	/* Burn CPU so a cpu-clock recording gets some samples after the marker. */
	end = now_ns() + 50 * 1000000ULL;
	while (now_ns() < end)
		spin++;
	munmap(marker, page > 0 ? (size_t)page : 4096);
	close(fd);
	printf("%s\n", name);
	return 0;
}
