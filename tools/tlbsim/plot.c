// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "diag.h"
#include "outpath.h"
#include "plot.h"

/* A gnuplot single-quoted string: nothing is special in it but the quote,
 * which is doubled. outpath_check() refused newlines. */
static void put_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

static bool same_series(const struct plot_spec *p, unsigned int a, unsigned int b)
{
	size_t n = p->nr_x * sizeof(double);

	return !memcmp(p->series[a].y, p->series[b].y, n) &&
	       !memcmp(p->series[a].lo, p->series[b].lo, n) &&
	       !memcmp(p->series[a].hi, p->series[b].hi, n);
}

/*
 * The whole gnuplot script, data inline (datablocks): no data file to
 * create, name or clean up. Each series has its own point type and dash
 * pattern, and one that coincides with an earlier series says so in the
 * key, since its line is drawn exactly over the other's.
 */
static void write_script(FILE *f, const struct plot_spec *p, const char *file)
{
	bool svg = outpath_has_ext(file, ".svg");
	double lo = p->x[0], hi = p->x[0];
	unsigned int i, j, k;

	for (j = 0; j < p->nr_series; j++) {
		fprintf(f, "$d%u << EOD\n", j);
		for (i = 0; i < p->nr_x; i++)
			fprintf(f, "%.10g %.10g %.10g %.10g\n", p->x[i], p->series[j].y[i],
				p->series[j].lo[i], p->series[j].hi[i]);
		fprintf(f, "EOD\n");
	}
	/* noenhanced: metric names have underscores, not subscripts. */
	fprintf(f, "set terminal %s size 800,500 noenhanced\nset output ",
		svg ? "svg" : "pngcairo");
	put_quoted(f, file);
	fprintf(f, "\nset title ");
	put_quoted(f, p->title);
	fprintf(f, "\nset xlabel ");
	put_quoted(f, p->xlabel);
	fprintf(f, "\nset ylabel ");
	put_quoted(f, p->ylabel);
	fprintf(f, "\n");
	for (i = 1; i < p->nr_x; i++) {
		lo = p->x[i] < lo ? p->x[i] : lo;
		hi = p->x[i] > hi ? p->x[i] : hi;
	}
	/* Values spanning more than a decade (CPU counts, threads) read
	 * better on a base-2 axis. */
	if (lo > 0 && hi >= 16 * lo)
		fprintf(f, "set logscale x 2\n");
	fprintf(f, "set key outside\nset grid\nplot ");
	for (j = 0; j < p->nr_series; j++) {
		char title[160];

		snprintf(title, sizeof(title), "%s", p->series[j].name);
		for (k = 0; k < j; k++) {
			if (same_series(p, j, k)) {
				snprintf(title, sizeof(title), "%s (same as %s)",
					 p->series[j].name, p->series[k].name);
				break;
			}
		}
		fprintf(f, "%s$d%u using 1:2%s with %s lw 2 pt %u ps 1.3 dt %u title ", j ? ", " : "",
			j, p->spread ? ":3:4" : "", p->spread ? "yerrorlines" : "linespoints",
			j % 12 + 1, j % 5 + 1);
		put_quoted(f, title);
	}
	fprintf(f, "\n");
}

/* A temporary file for gnuplot's errors, in $TMPDIR, already unlinked. */
static int error_file(const char **dir)
{
	char path[4096];
	int fd;

	*dir = getenv("TMPDIR");
	if (!*dir || !**dir)
		*dir = "/tmp";
	snprintf(path, sizeof(path), "%s/tlbsim-gnuplot-XXXXXX", *dir);
	fd = mkstemp(path);
	if (fd >= 0)
		unlink(path);
	return fd;
}

/*
 * gnuplot's error, into @buf: the message of its first "line N: message"
 * (it echoes the script line and a caret before it), else its last line.
 */
static void first_error(int fd, char *buf, size_t len)
{
	char text[4096], *line, *save = NULL, *msg;
	ssize_t n;

	snprintf(buf, len, "no message");
	if (lseek(fd, 0, SEEK_SET) < 0 || (n = read(fd, text, sizeof(text) - 1)) <= 0)
		return;
	text[n] = '\0';
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		line += strspn(line, " \t");
		msg = strstr(line, "line ");
		if (msg == line && (msg = strchr(msg, ':'))) {
			snprintf(buf, len, "%s", msg + 1 + strspn(msg + 1, " \t"));
			return;
		}
		if (*line)
			snprintf(buf, len, "%s", line);
	}
}

/* gnuplot reading @fds[0], its output to /dev/null, its errors to @err. */
static pid_t start_gnuplot(const int *fds, int err)
{
	pid_t pid = fork();
	int null, in = fds[0];

	if (pid)
		return pid;
	close(fds[1]); /* or gnuplot would hold its own input open */
	null = open("/dev/null", O_WRONLY);
	if (dup2(in, STDIN_FILENO) < 0 || null < 0 || dup2(null, STDOUT_FILENO) < 0 ||
	    dup2(err, STDERR_FILENO) < 0)
		_exit(126);
	execlp("gnuplot", "gnuplot", (char *)NULL);
	_exit(127);
}

int plot_write(const struct plot_spec *spec, const char *file)
{
	const char *tmpdir;
	int fds[2], err = error_file(&tmpdir), status = 0;
	void (*old)(int);
	char msg[512];
	pid_t pid;
	FILE *f;

	if (err < 0)
		return fail("cannot create a temporary file in %s for gnuplot's messages: %s",
			    tmpdir, strerror(errno));
	if (pipe(fds)) {
		close(err);
		return fail("cannot start gnuplot: %s", strerror(errno));
	}
	fflush(stdout);
	fflush(stderr);
	pid = start_gnuplot(fds, err);
	close(fds[0]);
	/* A gnuplot that exits early must not kill us with SIGPIPE. */
	old = signal(SIGPIPE, SIG_IGN);
	f = pid > 0 ? fdopen(fds[1], "w") : NULL;
	if (f) {
		write_script(f, spec, file);
		fclose(f);
	} else {
		close(fds[1]);
	}
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	signal(SIGPIPE, old);
	if (pid < 0 || (WIFEXITED(status) && WEXITSTATUS(status) >= 126)) {
		close(err);
		return fail("cannot run gnuplot for %s (install gnuplot-nox)", file);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		first_error(err, msg, sizeof(msg));
		close(err);
		return fail("gnuplot failed on %s: %s", file, msg);
	}
	/* gnuplot carries on after an output it cannot open (to stdout). */
	if (access(file, F_OK)) {
		first_error(err, msg, sizeof(msg));
		close(err);
		return fail("gnuplot did not write %s: %s", file, msg);
	}
	close(err);
	return 0;
}
