// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "diag.h"
#include "timeline.h"
#include "timeline_svg.h"

#define W 1000
#define LEFT 90
#define RIGHT 30
#define PLOT_W (W - LEFT - RIGHT)

struct panel {
	int top, height;
	double ymax;
};

static void put_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

/* 1, 2 or 5 times a power of ten, at least @v: a readable axis top. */
static double nice_ceiling(double v)
{
	double p = pow(10, floor(log10(v)));

	if (v <= 0)
		return 1;
	return v <= p ? p : v <= 2 * p ? 2 * p : v <= 5 * p ? 5 * p : 10 * p;
}

static double x_of(const struct timeline *tl, uint64_t at_ns)
{
	double end = (double)tl->v[tl->len - 1].at_ns;

	return LEFT + PLOT_W * (double)at_ns / end;
}

static double y_of(const struct panel *p, double v)
{
	return p->top + p->height - p->height * v / p->ymax;
}

static void axes(FILE *f, const struct panel *p, const char *label)
{
	int i;

	fprintf(f, "<rect x='%d' y='%d' width='%d' height='%d' fill='none' stroke='#888'/>\n",
		LEFT, p->top, PLOT_W, p->height);
	for (i = 0; i <= 2; i++) {
		double v = p->ymax * i / 2;

		fprintf(f, "<text x='%d' y='%.1f' text-anchor='end' font-size='11'>%g</text>\n",
			LEFT - 6, y_of(p, v) + 4, v);
	}
	fprintf(f, "<text x='%d' y='%d' font-size='13'>", LEFT + 6, p->top + 16);
	put_text(f, label);
	fprintf(f, "</text>\n");
}

/* A rate per second of one counter of the samples, as a polyline. */
static void rate_line(FILE *f, const struct timeline *tl, const struct panel *p,
		      size_t field, const char *color)
{
	double secs = (double)tl->every_ns / 1e9;
	size_t k;

	fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='1' points='", color);
	for (k = 0; k < tl->len; k++) {
		uint64_t v;

		memcpy(&v, (const char *)&tl->v[k] + field, sizeof(v));
		fprintf(f, "%.1f,%.1f ", x_of(tl, tl->v[k].at_ns), y_of(p, (double)v / secs));
	}
	fprintf(f, "'/>\n");
}

static double max_rate(const struct timeline *tl, size_t field)
{
	uint64_t m = 0, v;
	size_t k;

	for (k = 0; k < tl->len; k++) {
		memcpy(&v, (const char *)&tl->v[k] + field, sizeof(v));
		m = v > m ? v : m;
	}
	return nice_ceiling((double)m / ((double)tl->every_ns / 1e9));
}

/* Rectangles over the intervals whose flag (at @field) is set. */
static void band(FILE *f, const struct timeline *tl, int top, int height, size_t field,
		 const char *color)
{
	size_t k, start = 0;
	bool on = false, v;

	for (k = 0; k <= tl->len; k++) {
		v = false;
		if (k < tl->len)
			memcpy(&v, (const char *)&tl->v[k] + field, sizeof(v));
		if (v && !on)
			start = k;
		if (!v && on) {
			double x0 = start ? x_of(tl, tl->v[start - 1].at_ns) : LEFT;
			double x1 = x_of(tl, tl->v[k - 1].at_ns);

			fprintf(f, "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='%s'/>\n",
				x0, top, x1 - x0 > 0.5 ? x1 - x0 : 0.5, height, color);
		}
		on = v;
	}
}

/* Each scan pass at its own start and length (a band alone would only
 * show the intervals it touched). */
static void passes(FILE *f, const struct timeline *tl, int top, int height)
{
	size_t k;

	for (k = 0; k < tl->len; k++) {
		const struct timeline_sample *x = &tl->v[k];
		double x1, x0;

		if (!x->pass_ns)
			continue;
		x1 = x_of(tl, x->at_ns);
		x0 = x_of(tl, x->at_ns > x->pass_ns ? x->at_ns - x->pass_ns : 0);
		fprintf(f, "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='#34495e'>"
			"<title>scan pass of %.1f ms</title></rect>\n", x0, top,
			x1 - x0 > 1 ? x1 - x0 : 1, height, (double)x->pass_ns / 1e6);
	}
}

static void time_axis(FILE *f, const struct timeline *tl, int y)
{
	double end = (double)tl->v[tl->len - 1].at_ns / 1e9, step = nice_ceiling(end / 10);
	unsigned int i, ticks = (unsigned int)(end / step + 1e-9);

	for (i = 0; i <= ticks; i++) {
		double t = step * i;

		fprintf(f, "<text x='%.1f' y='%d' text-anchor='middle' font-size='11'>%g</text>\n",
			LEFT + PLOT_W * t / end, y, t);
	}
	fprintf(f, "<text x='%d' y='%d' text-anchor='middle' font-size='12'>virtual time (s)</text>\n",
		LEFT + PLOT_W / 2, y + 18);
}

int timeline_write_svg(const char *path, const struct timeline *tl, const char *title,
		       const char *subtitle)
{
	struct panel irq = { 70, 170, 0 }, mig = { 270, 170, 0 };
	FILE *f;

	if (!tl->len || !tl->v[tl->len - 1].at_ns)
		return fail("--timeline: the run took no virtual time, there is nothing to draw");
	f = fopen(path, "w");
	if (!f)
		return fail("cannot write %s: %s", path, strerror(errno));
	irq.ymax = max_rate(tl, offsetof(struct timeline_sample, tlb_irqs));
	mig.ymax = max_rate(tl, offsetof(struct timeline_sample, migrations));
	fprintf(f, "<?xml version='1.0' encoding='utf-8'?>\n"
		"<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='600' "
		"font-family='sans-serif'>\n<rect width='100%%' height='100%%' fill='white'/>\n"
		"<text x='%d' y='24' font-size='16'>", W, LEFT);
	put_text(f, title);
	fprintf(f, "</text>\n<text x='%d' y='44' font-size='12' fill='#444'>", LEFT);
	put_text(f, subtitle);
	fprintf(f, "</text>\n");
	axes(f, &irq, "TLB interrupts received per second");
	rate_line(f, tl, &irq, offsetof(struct timeline_sample, tlb_irqs), "#c0392b");
	axes(f, &mig, "pages migrated per second (blue); migrations that found "
		      "tlb_flush_pending raised (orange)");
	rate_line(f, tl, &mig, offsetof(struct timeline_sample, migrations), "#2471a3");
	rate_line(f, tl, &mig, offsetof(struct timeline_sample, pending_migrations), "#e67e22");
	fprintf(f, "<text x='%d' y='485' text-anchor='end' font-size='11'>scan pass</text>\n"
		"<text x='%d' y='515' text-anchor='end' font-size='11'>flush pending</text>\n",
		LEFT - 6, LEFT - 6);
	band(f, tl, 472, 20, offsetof(struct timeline_sample, in_pass), "#bdc3c7");
	passes(f, tl, 472, 20);
	band(f, tl, 502, 20, offsetof(struct timeline_sample, flush_pending), "#e67e22");
	fprintf(f, "<rect x='%d' y='470' width='%d' height='54' fill='none' stroke='#888'/>\n",
		LEFT, PLOT_W);
	time_axis(f, tl, 545);
	fprintf(f, "</svg>\n");
	if (fclose(f))
		return fail("cannot write %s: %s", path, strerror(errno));
	return 0;
}
