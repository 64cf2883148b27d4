/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the page's SVG images share: their size, colours and log scale. */
#ifndef RLR_HTML_SVG_H
#define RLR_HTML_SVG_H

#include <stdbool.h>
#include <stdio.h>

#define W 960.0
#define H 400.0
#define LEFT 70.0
#define RIGHT 40.0
#define TOP 24.0
#define BOTTOM 46.0
#define PW (W - LEFT - RIGHT)
#define PH (H - TOP - BOTTOM)
#define CHAR_PX 7.0

#define RLR_SVG_NCOLORS 8
extern const char *const rlr_svg_palette[RLR_SVG_NCOLORS];

/* A log scale of counts or latencies: lo..hi over PH pixels, bottom up. */
struct rlr_svg_ylog {
	double lo, hi;
};

double rlr_svg_y(const struct rlr_svg_ylog *s, double v);
/* Grid lines and labels at 1, 2, 5 x 10^k (decades only over more than 4). */
void rlr_svg_y_ticks(FILE *f, const struct rlr_svg_ylog *s, bool latency, bool ns);
/* The plot's border and the axes' names (constant text). */
void rlr_svg_frame(FILE *f, const char *xlabel, const char *ylabel);

#endif
