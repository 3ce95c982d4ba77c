/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Test shim: the two bit helpers the library uses. */
#ifndef TLBP_KSHIM_BITOPS_H
#define TLBP_KSHIM_BITOPS_H
static inline unsigned long __ffs(unsigned long w)
{
	return (unsigned long)__builtin_ctzl(w);
}
static inline unsigned int hweight_long(unsigned long w)
{
	unsigned int n = 0;

	for (; w; w &= w - 1)
		n++;
	return n;
}
#endif
