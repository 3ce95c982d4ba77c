// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "diag.h"
#include "options.h"
#include "outpath.h"

int outpath_has_ext(const char *path, const char *ext)
{
	size_t n = strlen(path), e = strlen(ext);

	return n > e && !strcmp(path + n - e, ext) && path[n - e - 1] != '/';
}

/* The directory @path would be created in: "." for a bare name. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	dir = strndup(path, (size_t)(slash - path));
	return dir;
}

int outpath_check(const char *opt, const char *path, const char *const *exts)
{
	struct stat st;
	char *dir;
	int ok;
	unsigned int i;

	if (strchr(path, '\n'))
		return fail("%s: a file name with a newline is not supported", opt);
	for (i = 0; exts[i] && !outpath_has_ext(path, exts[i]); i++)
		;
	if (!exts[i]) {
		char list[64] = "";

		for (i = 0; exts[i]; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? (exts[i + 1] ? ", " : " or ") : "", exts[i]);
		return fail("%s '%s': the file name must end in %s", opt, path, list);
	}
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			return fail("%s '%s' is a directory", opt, path);
		if (access(path, W_OK))
			return fail("%s '%s' cannot be written: %s", opt, path, strerror(errno));
		return 0;
	}
	dir = dir_of(path);
	if (!dir)
		return fail("out of memory");
	ok = !stat(dir, &st) && S_ISDIR(st.st_mode) && !access(dir, W_OK | X_OK);
	if (!ok)
		fail("%s '%s' cannot be written: directory %s %s", opt, path, dir,
		     stat(dir, &st) ? "does not exist" :
		     !S_ISDIR(st.st_mode) ? "is not a directory" : "is not writable");
	free(dir);
	return ok ? 0 : 2;
}

int write_outputs(const struct options *o, const struct records *rs)
{
	char err[160];

	if (o->json && report_json(o->json, rs, err, sizeof(err)))
		return fail("%s", err);
	if (o->csv && report_csv(o->csv, rs, err, sizeof(err)))
		return fail("%s", err);
	return 0;
}
