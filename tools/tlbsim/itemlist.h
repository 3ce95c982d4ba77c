/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Comma-separated option values (--policies a,b, --plot x.png,x.svg). */
#ifndef TLBSIM_ITEMLIST_H
#define TLBSIM_ITEMLIST_H

/*
 * Splits @list in place at its commas into at most @max items. An empty
 * item (",," or a trailing comma) and an item given twice are refused: each
 * is a typo that would otherwise silently run less, or the same twice.
 * Returns the number of items, or 0 after a one-line error naming @opt.
 */
unsigned int itemlist_split(const char *opt, char *list, const char **items,
			    unsigned int max);

#endif
