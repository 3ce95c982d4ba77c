// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "diag.h"
#include "progress.h"
#include "workers.h"

/* The shared page in front of the results: the next task to take. */
struct shared_head {
	atomic_size_t next;
};

static size_t mapping_size(size_t n)
{
	return sizeof(struct shared_head) + n * sizeof(struct run_result);
}

static void *shared_results(size_t n)
{
	void *m = mmap(NULL, mapping_size(n), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return m == MAP_FAILED ? NULL : m;
}

void workers_free(struct run_result *res, size_t n)
{
	if (res)
		munmap((char *)res - sizeof(struct shared_head), mapping_size(n));
}

static void worker(struct shared_head *head, struct run_result *res, size_t n, int fd,
		   void (*compute)(void *, size_t, struct run_result *), void *arg)
{
	size_t k;

	while ((k = atomic_fetch_add(&head->next, 1)) < n) {
		compute(arg, k, &res[k]);
		res[k].done = true;
		/* An 8-byte write to a pipe is atomic: the parent reads whole indices. */
		if (write(fd, &k, sizeof(k)) != (ssize_t)sizeof(k))
			_exit(1);
	}
	_exit(0);
}

/* Waits for every worker; 0 when all exited cleanly, else 1 after an error. */
static int reap(const pid_t *pids, unsigned int nr)
{
	unsigned int i;
	int status, ret = 0;

	for (i = 0; i < nr; i++) {
		while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR)
			;
		if (ret)
			continue;
		if (WIFSIGNALED(status)) {
			fail("a worker process died of signal %d", WTERMSIG(status));
			ret = 1;
		} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fail("a worker process failed");
			ret = 1;
		}
	}
	return ret;
}

struct run_result *workers_run(unsigned int jobs, size_t n,
			       void (*compute)(void *arg, size_t k, struct run_result *res),
			       void (*done)(void *arg, size_t k, struct progress *pg),
			       void *arg)
{
	struct shared_head *head = shared_results(n);
	struct run_result *res;
	struct progress pg;
	pid_t *pids = calloc(jobs, sizeof(*pids));
	unsigned int started = 0;
	int fds[2] = { -1, -1 }, failed = 0;
	size_t k;

	if (!head || !pids || pipe(fds)) {
		fail("cannot start worker processes: %s", strerror(errno));
		goto fail;
	}
	res = (struct run_result *)(head + 1);
	atomic_init(&head->next, 0);
	/* Buffered output would be written once per process. */
	fflush(stdout);
	fflush(stderr);
	for (started = 0; started < jobs; started++) {
		pids[started] = fork();
		if (pids[started] < 0) {
			fail("cannot fork a worker process: %s", strerror(errno));
			atomic_store(&head->next, n); /* the started ones stop */
			failed = 1;
			break;
		}
		if (!pids[started]) {
			close(fds[0]);
			worker(head, res, n, fds[1], compute, arg);
		}
	}
	close(fds[1]);
	progress_start(&pg, (unsigned int)n);
	while (read(fds[0], &k, sizeof(k)) == (ssize_t)sizeof(k))
		if (k < n)
			done(arg, k, &pg);
	progress_end(&pg);
	close(fds[0]);
	failed |= reap(pids, started);
	for (k = 0; k < n && !failed; k++) {
		if (!res[k].done) {
			fail("a worker process stopped before its last run");
			failed = 1;
		}
	}
	free(pids);
	if (!failed)
		return res;
	workers_free(res, n);
	return NULL;
fail:
	if (fds[0] >= 0) {
		close(fds[0]);
		close(fds[1]);
	}
	if (head)
		munmap(head, mapping_size(n));
	free(pids);
	return NULL;
}
