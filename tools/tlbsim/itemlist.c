// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <string.h>
#include "diag.h"
#include "itemlist.h"

unsigned int itemlist_split(const char *opt, char *list, const char **items,
			    unsigned int max)
{
	unsigned int n = 0, k;
	char *item = list, *comma;

	for (;;) {
		comma = strchr(item, ',');
		if (comma)
			*comma = '\0';
		if (!*item) {
			fail("%s: empty item in the list (two commas, or one at an end)", opt);
			return 0;
		}
		for (k = 0; k < n; k++) {
			if (!strcmp(items[k], item)) {
				fail("%s: '%s' is given twice", opt, item);
				return 0;
			}
		}
		if (n == max) {
			fail("%s takes at most %u items", opt, max);
			return 0;
		}
		items[n++] = item;
		if (!comma)
			return n;
		item = comma + 1;
	}
}
