// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The data-integrity storm: every page of four regions carries a sequence
 * number and a pattern derived from (page, generation), and threads keep
 * rewriting and verifying them while the kernel moves them around:
 *
 *   private  order-0 anonymous memory (MADV_NOHUGEPAGE)
 *   thp      2 MiB THPs (MADV_HUGEPAGE, 2 MiB aligned), split again and
 *            again through debugfs split_huge_pages
 *   mthp     64 KiB mTHPs: 1 MiB VMAs split by PROT_NONE gaps, so no
 *            2 MiB folio fits and the 64 KiB size is the largest one
 *   shared   MAP_SHARED anonymous memory, half of it written by a second
 *            process and read by this one, and the other way round
 *
 * Workers switch node every switch_ms, so NUMA balancing marks and
 * migrates their pages; a mover thread also migrates random batches of 1 to
 * 64 pages with move_pages(2), so single-folio batches (skip-single's case)
 * and larger ones both happen. The run lasts until min_migrations pages
 * have migrated (pgmigrate_success) and at least seconds_min have passed,
 * or until seconds_max.
 *
 * What a stale translation would do, and how it is caught:
 * - A write through a stale TLB entry lands in the old copy of a migrated
 *   page and is lost: the owner finds an older sequence or pattern at its
 *   next verification ("lost-write").
 * - A read through a stale entry sees an old copy: readers keep the last
 *   sequence they saw per page and report one that goes backwards
 *   ("backwards"), or a stable sequence whose pattern does not match
 *   ("corrupt").
 *
 * Output (parsed by scripts/testbed-selftests-report.py): "@@integrity-*"
 * lines, the first mismatches in full. Exit 0 if no mismatch, 1 if any,
 * 2 if the workload could not set itself up.
 *
 * Usage: integrity [key=value ...], keys listed in `params` below.
 */
#include "tb_common.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define THP_SIZE (2UL << 20)
#define MTHP_VMA (1UL << 20)
#define MTHP_GAP (64UL << 10)
#define WORDS (TB_PAGE_SIZE / sizeof(uint64_t))
#define MAX_WORKERS 32
#define MAX_REPORTED 20
#define MOVE_BATCH_MAX 64
#define MPOL_MF_MOVE_ALL (1 << 2)

enum region_id { R_PRIVATE, R_THP, R_MTHP, R_SHARED, NR_REGIONS };

static const char *const region_names[NR_REGIONS] = {
	"private", "thp", "mthp", "shared",
};

struct params {
	unsigned long seconds_min, seconds_max, min_migrations;
	unsigned long private_mb, thp_mb, mthp_mb, shared_mb;
	unsigned long threads, shared_threads, switch_ms, split_ms, move_ms;
};

static const struct param_def {
	const char *key;
	size_t off;
	unsigned long def, min, max;
} params[] = {
#define P(k, d, lo, hi) { #k, offsetof(struct params, k), d, lo, hi }
	P(seconds_min, 20, 1, 3600),
	P(seconds_max, 300, 1, 7200),
	P(min_migrations, 100000, 0, 100000000),
	P(private_mb, 48, 1, 512),
	P(thp_mb, 48, 2, 512),
	P(mthp_mb, 24, 1, 512),
	P(shared_mb, 24, 1, 512),
	P(threads, 6, 1, MAX_WORKERS),
	P(shared_threads, 2, 1, MAX_WORKERS),
	P(switch_ms, 1000, 10, 60000),
	P(split_ms, 250, 10, 60000),
	P(move_ms, 5, 1, 60000),
#undef P
};

/* One 4 KiB page: word 0 is the sequence (even when stable), the rest the
 * pattern of generation sequence / 2. */
struct page_ref {
	uint64_t *addr;
	uint32_t region, index; /* index within its region */
	bool owned;             /* written by this process */
};

/* In a MAP_SHARED page: both processes see it. */
struct control {
	volatile int stop;
	unsigned long verified[2], written[2], mismatches[2];
};

struct worker {
	unsigned int id, nr;    /* nr: workers in this process */
	unsigned int proc;      /* 0 parent, 1 the shared region's second process */
	uint64_t rng;
	unsigned long verified, written, mismatches, switches;
	uint64_t *last_seen;    /* per page, for the backwards check */
};

static struct params P;
static struct tb_nodes nodes;
static struct control *ctl;
static struct page_ref *pages;
static uint64_t *expected;      /* owner's expected sequence, per page */
static size_t nr_pages;
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned int reported;
static const char *policy_tag = "";

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Keyed by (region, index), which both processes agree on; not by the
 * position in pages[], which they do not. */
static uint64_t pattern(size_t page, uint64_t gen, size_t word)
{
	uint64_t key = (uint64_t)pages[page].region << 32 | pages[page].index;

	return mix(mix(key) ^ (gen << 12) ^ word);
}

static uint64_t rng_next(uint64_t *s)
{
	*s = mix(*s);
	return *s;
}

static void report(const char *kind, size_t page, size_t word, uint64_t want,
		   uint64_t found, uint64_t seq)
{
	const struct page_ref *p = &pages[page];

	pthread_mutex_lock(&report_lock);
	if (reported++ < MAX_REPORTED)
		printf("@@integrity-mismatch kind=%s region=%s page=%u vaddr=%p word=%zu "
		       "want=0x%016llx found=0x%016llx seq=%llu pid=%d%s\n",
		       kind, region_names[p->region], p->index, (void *)p->addr, word,
		       (unsigned long long)want, (unsigned long long)found,
		       (unsigned long long)seq, getpid(), policy_tag);
	pthread_mutex_unlock(&report_lock);
}

static void write_page(size_t i)
{
	uint64_t *w = pages[i].addr, seq = expected[i] + 2;

	__atomic_store_n(&w[0], seq - 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	for (size_t k = 1; k < WORDS; k++)
		__atomic_store_n(&w[k], pattern(i, seq / 2, k), __ATOMIC_RELAXED);
	__atomic_store_n(&w[0], seq, __ATOMIC_RELEASE);
	expected[i] = seq;
}

/* The owner: nobody else writes the page, so it must hold exactly what the
 * owner last wrote. Returns the number of bad words (0 or more). */
static unsigned int verify_owned(size_t i)
{
	const uint64_t *w = pages[i].addr;
	uint64_t seq = __atomic_load_n(&w[0], __ATOMIC_RELAXED);

	if (seq != expected[i]) {
		report("lost-write", i, 0, expected[i], seq, seq);
		return 1;
	}
	for (size_t k = 1; k < WORDS; k++) {
		uint64_t v = __atomic_load_n(&w[k], __ATOMIC_RELAXED);

		if (v != pattern(i, seq / 2, k)) {
			report("lost-write", i, k, pattern(i, seq / 2, k), v, seq);
			return 1;
		}
	}
	return 0;
}

/* A reader, racing with the owner: a seqlock read. Returns -1 when the
 * owner was writing (nothing to conclude), else the number of bad words. */
static int verify_read(struct worker *wk, size_t i)
{
	const uint64_t *w = pages[i].addr;
	uint64_t s1 = __atomic_load_n(&w[0], __ATOMIC_ACQUIRE), s2;
	size_t bad = 0;
	uint64_t bad_val = 0;

	if (s1 == 0 || (s1 & 1))
		return -1;
	for (size_t k = 1; k < WORDS && !bad; k++) {
		uint64_t v = __atomic_load_n(&w[k], __ATOMIC_RELAXED);

		if (v != pattern(i, s1 / 2, k))
			bad = k, bad_val = v;
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	s2 = __atomic_load_n(&w[0], __ATOMIC_RELAXED);
	if (s1 != s2)
		return -1;
	if (s1 < wk->last_seen[i]) {
		report("backwards", i, 0, wk->last_seen[i], s1, s1);
		return 1;
	}
	wk->last_seen[i] = s1;
	if (bad) {
		report("corrupt", i, bad, pattern(i, s1 / 2, bad), bad_val, s1);
		return 1;
	}
	return 0;
}

static bool owns(const struct worker *wk, size_t i)
{
	return pages[i].owned && i % wk->nr == wk->id;
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	int node = (int)(wk->id % 2);
	double next_switch = tb_now() + P.switch_ms / 1000.0;
	unsigned long ops = 0;

	tb_pin_to_node(&nodes, node);
	while (!ctl->stop) {
		size_t i = rng_next(&wk->rng) % nr_pages;

		if (owns(wk, i)) {
			wk->mismatches += verify_owned(i);
			write_page(i);
			wk->verified++;
			wk->written++;
		} else {
			int bad = verify_read(wk, i);

			if (bad >= 0) {
				wk->mismatches += (unsigned int)bad;
				wk->verified++;
			}
		}
		if ((++ops & 255) == 0 && tb_now() >= next_switch) {
			node ^= 1;
			tb_pin_to_node(&nodes, node);
			wk->switches++;
			next_switch = tb_now() + P.switch_ms / 1000.0;
		}
	}
	/* The last word: every owned page once more, after the storm. */
	for (size_t i = 0; i < nr_pages; i++)
		if (owns(wk, i)) {
			wk->mismatches += verify_owned(i);
			wk->verified++;
		}
	return NULL;
}

static void *splitter_main(void *arg)
{
	const size_t first = *(const size_t *)arg;
	unsigned long *splits = (unsigned long *)arg + 1;
	size_t cursor = first;
	char buf[96];

	while (!ctl->stop) {
		size_t len = pages[cursor].region == R_THP ? THP_SIZE : MTHP_VMA;
		uintptr_t start = (uintptr_t)pages[cursor].addr;

		snprintf(buf, sizeof(buf), "%d,0x%lx,0x%lx", getpid(),
			 (unsigned long)start, (unsigned long)(start + len));
		if (tb_write_file("/sys/kernel/debug/split_huge_pages", buf) == 0)
			(*splits)++;
		/* Next THP or mTHP VMA, wrapping over the two regions. */
		cursor += len / TB_PAGE_SIZE;
		if (cursor >= nr_pages || pages[cursor].region > R_MTHP)
			cursor = first;
		tb_sleep_ms((unsigned int)P.split_ms);
	}
	return NULL;
}

static void *mover_main(void *arg)
{
	unsigned long *moved = arg;
	uint64_t rng = 0x5eed;
	void *addrs[MOVE_BATCH_MAX];
	int where[MOVE_BATCH_MAX], to[MOVE_BATCH_MAX], status[MOVE_BATCH_MAX];

	while (!ctl->stop) {
		unsigned long n = 1 + rng_next(&rng) % MOVE_BATCH_MAX;

		for (unsigned long k = 0; k < n; k++)
			addrs[k] = pages[rng_next(&rng) % nr_pages].addr;
		if (syscall(SYS_move_pages, 0, n, addrs, NULL, where, 0) == 0) {
			for (unsigned long k = 0; k < n; k++)
				to[k] = where[k] >= 0 ? !where[k] : 0;
			if (syscall(SYS_move_pages, 0, n, addrs, to, status,
				    MPOL_MF_MOVE_ALL) >= 0)
				for (unsigned long k = 0; k < n; k++)
					*moved += status[k] == to[k];
		}
		tb_sleep_ms((unsigned int)P.move_ms);
	}
	return NULL;
}

static unsigned long vmstat(const char *key)
{
	char line[128];
	size_t klen = strlen(key);
	unsigned long v = 0;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ' ')
			v = strtoul(line + klen + 1, NULL, 10);
	fclose(f);
	return v;
}

static void *map_aligned(size_t len, size_t align, int prot, int flags)
{
	char *raw = mmap(NULL, len + align, prot, flags, -1, 0);
	uintptr_t a;

	if (raw == MAP_FAILED)
		return NULL;
	a = ((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1);
	if (a > (uintptr_t)raw)
		munmap(raw, a - (uintptr_t)raw);
	munmap((char *)a + len, (uintptr_t)raw + align - a);
	return (void *)a;
}

static void add_pages(char *base, size_t len, enum region_id r, unsigned int *index)
{
	for (size_t off = 0; off < len; off += TB_PAGE_SIZE) {
		pages[nr_pages] = (struct page_ref){
			.addr = (uint64_t *)(base + off), .region = r,
			.index = (*index)++, .owned = true,
		};
		nr_pages++;
	}
}

/* Lay out the four regions; returns the index of the first THP page. */
static int map_regions(size_t *first_thp)
{
	size_t total = (P.private_mb + P.thp_mb + P.mthp_mb + P.shared_mb) << 8;
	size_t thp_len = (P.thp_mb << 20) & ~(THP_SIZE - 1);
	unsigned int index[NR_REGIONS] = { 0 };
	char *priv, *thp, *mthp, *shared;

	pages = calloc(total, sizeof(*pages));
	expected = calloc(total, sizeof(*expected));
	priv = mmap(NULL, P.private_mb << 20, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	thp = map_aligned(thp_len, THP_SIZE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS);
	mthp = map_aligned(P.mthp_mb * (MTHP_VMA + MTHP_GAP), MTHP_GAP, PROT_NONE,
			   MAP_PRIVATE | MAP_ANONYMOUS);
	shared = mmap(NULL, P.shared_mb << 20, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!pages || !expected || priv == MAP_FAILED || !thp || !mthp || shared == MAP_FAILED) {
		fprintf(stderr, "integrity: cannot map %zu pages: %s\n", total, strerror(errno));
		return -1;
	}
	/* MADV_DONTFORK: the shared region's second process must not hold
	 * copy-on-write references to the private pages. */
	if (madvise(priv, P.private_mb << 20, MADV_NOHUGEPAGE) ||
	    madvise(priv, P.private_mb << 20, MADV_DONTFORK) ||
	    madvise(thp, thp_len, MADV_HUGEPAGE) ||
	    madvise(thp, thp_len, MADV_DONTFORK))
		printf("@@integrity-note madvise failed (%s): folio sizes are the defaults\n",
		       strerror(errno));
	add_pages(priv, P.private_mb << 20, R_PRIVATE, &index[R_PRIVATE]);
	*first_thp = nr_pages;
	add_pages(thp, thp_len, R_THP, &index[R_THP]);
	for (unsigned long c = 0; c < P.mthp_mb; c++) {
		char *vma = mthp + c * (MTHP_VMA + MTHP_GAP);

		/* Separate VMAs: the PROT_NONE gap between two keeps them from
		 * merging, so no 2 MiB range is ever inside one. */
		if (mprotect(vma, MTHP_VMA, PROT_READ | PROT_WRITE)) {
			fprintf(stderr, "integrity: mprotect: %s\n", strerror(errno));
			return -1;
		}
		madvise(vma, MTHP_VMA, MADV_HUGEPAGE);
		madvise(vma, MTHP_VMA, MADV_DONTFORK);
		add_pages(vma, MTHP_VMA, R_MTHP, &index[R_MTHP]);
	}
	add_pages(shared, P.shared_mb << 20, R_SHARED, &index[R_SHARED]);
	return 0;
}

static int parse(int argc, char **argv)
{
	for (size_t k = 0; k < sizeof(params) / sizeof(params[0]); k++)
		*(unsigned long *)((char *)&P + params[k].off) = params[k].def;
	for (int a = 1; a < argc; a++) {
		const char *eq = strchr(argv[a], '=');
		size_t k;

		if (eq && !strncmp(argv[a], "policy=", 7)) {
			static char tag[64];

			snprintf(tag, sizeof(tag), " policy=%s", eq + 1);
			policy_tag = tag;
			continue;
		}
		for (k = 0; eq && k < sizeof(params) / sizeof(params[0]); k++)
			if (strlen(params[k].key) == (size_t)(eq - argv[a]) &&
			    !strncmp(argv[a], params[k].key, (size_t)(eq - argv[a])))
				break;
		if (!eq || k == sizeof(params) / sizeof(params[0])) {
			fprintf(stderr, "integrity: unknown argument '%s'\n", argv[a]);
			return -1;
		}
		char *end;
		unsigned long v = strtoul(eq + 1, &end, 10);

		if (*end || end == eq + 1 || v < params[k].min || v > params[k].max) {
			fprintf(stderr, "integrity: %s must be %lu..%lu\n", params[k].key,
				params[k].min, params[k].max);
			return -1;
		}
		*(unsigned long *)((char *)&P + params[k].off) = v;
	}
	return 0;
}

/* Start nr workers of one process; the shared pages of the other process
 * are read-only to them. */
static void run_workers(struct worker *wk, pthread_t *tid, unsigned int nr,
			unsigned int proc)
{
	for (unsigned int t = 0; t < nr; t++) {
		wk[t] = (struct worker){ .id = t, .nr = nr, .proc = proc,
					 .rng = mix(proc * 1000 + t + 1) };
		wk[t].last_seen = calloc(nr_pages, sizeof(uint64_t));
		pthread_create(&tid[t], NULL, worker_main, &wk[t]);
	}
}

static void join_workers(struct worker *wk, pthread_t *tid, unsigned int nr,
			 unsigned int proc)
{
	for (unsigned int t = 0; t < nr; t++) {
		pthread_join(tid[t], NULL);
		ctl->verified[proc] += wk[t].verified;
		ctl->written[proc] += wk[t].written;
		ctl->mismatches[proc] += wk[t].mismatches;
	}
}

/* The shared region's second process: owns the odd shared pages. */
static void second_process(size_t first_shared)
{
	struct worker wk[MAX_WORKERS];
	pthread_t tid[MAX_WORKERS];

	/* Only the shared region is this process's to look at. */
	memmove(pages, pages + first_shared, (nr_pages - first_shared) * sizeof(*pages));
	memmove(expected, expected + first_shared, (nr_pages - first_shared) * sizeof(*expected));
	nr_pages -= first_shared;
	for (size_t i = 0; i < nr_pages; i++)
		pages[i].owned = pages[i].index % 2;
	for (size_t i = 0; i < nr_pages; i++)
		if (pages[i].owned)
			write_page(i);
	run_workers(wk, tid, (unsigned int)P.shared_threads, 1);
	join_workers(wk, tid, (unsigned int)P.shared_threads, 1);
	fflush(stdout);
	_exit(0);
}

int main(int argc, char **argv)
{
	struct worker wk[MAX_WORKERS];
	pthread_t tid[MAX_WORKERS], splitter, mover;
	unsigned long split_arg[2], moved = 0, mig0, numa0, split0;
	size_t first_thp, first_shared;
	double t0;
	pid_t child;
	int status;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (parse(argc, argv))
		return 2;
	if (tb_nodes_read(&nodes)) {
		fprintf(stderr, "integrity: needs two NUMA nodes\n");
		return 2;
	}
	ctl = mmap(NULL, TB_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ctl == MAP_FAILED || map_regions(&first_thp))
		return 2;
	for (first_shared = 0; pages[first_shared].region != R_SHARED; first_shared++)
		;
	/* The even shared pages are this process's, the odd ones the other's. */
	for (size_t i = first_shared; i < nr_pages; i++)
		pages[i].owned = pages[i].index % 2 == 0;
	for (size_t i = 0; i < nr_pages; i++)
		if (pages[i].owned)
			write_page(i);
	child = fork();
	if (child == 0)
		second_process(first_shared);
	if (child < 0) {
		fprintf(stderr, "integrity: fork: %s\n", strerror(errno));
		return 2;
	}
	printf("@@integrity-start pages=%zu private=%lu thp=%lu mthp=%lu shared=%lu "
	       "threads=%lu+%lu%s\n", nr_pages, P.private_mb, P.thp_mb, P.mthp_mb,
	       P.shared_mb, P.threads, P.shared_threads, policy_tag);
	mig0 = vmstat("pgmigrate_success");
	numa0 = vmstat("numa_pages_migrated");
	split0 = vmstat("thp_split_page");
	t0 = tb_now();
	run_workers(wk, tid, (unsigned int)P.threads, 0);
	split_arg[0] = first_thp;
	split_arg[1] = 0;
	pthread_create(&splitter, NULL, splitter_main, split_arg);
	pthread_create(&mover, NULL, mover_main, &moved);
	for (unsigned long s = 1;; s++) {
		unsigned long migrated;

		tb_sleep_ms(1000);
		migrated = vmstat("pgmigrate_success") - mig0;
		if (s % 10 == 0)
			printf("@@integrity-progress t=%lu migrated=%lu\n", s, migrated);
		if ((s >= P.seconds_min && migrated >= P.min_migrations) || s >= P.seconds_max)
			break;
	}
	ctl->stop = 1;
	pthread_join(splitter, NULL);
	pthread_join(mover, NULL);
	join_workers(wk, tid, (unsigned int)P.threads, 0);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	printf("@@integrity-summary seconds=%.1f pages=%zu verified=%lu written=%lu "
	       "mismatches=%lu pgmigrate_success=%lu numa_pages_migrated=%lu moved=%lu "
	       "splits_requested=%lu thp_split_page=%lu child_ok=%d%s\n",
	       tb_now() - t0, nr_pages, ctl->verified[0] + ctl->verified[1],
	       ctl->written[0] + ctl->written[1], ctl->mismatches[0] + ctl->mismatches[1],
	       vmstat("pgmigrate_success") - mig0, vmstat("numa_pages_migrated") - numa0,
	       moved, split_arg[1], vmstat("thp_split_page") - split0,
	       WIFEXITED(status) && WEXITSTATUS(status) == 0, policy_tag);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return 2;
	return ctl->mismatches[0] + ctl->mismatches[1] ? 1 : 0;
}
