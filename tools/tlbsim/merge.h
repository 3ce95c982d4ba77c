/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * tlbsim merge RESULT.json...: the records of a sweep's runs, made
 * elsewhere (sweep --emit-jobs under GNU parallel or Slurm), read back and
 * shown as the sweep would have shown them.
 */
#ifndef TLBSIM_MERGE_H
#define TLBSIM_MERGE_H

struct options;

/* 0, or 2 after a one-line error naming the file and what is wrong. */
int merge_main(struct options *o);

#endif
