/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text of a result as HTML text: every byte of an input is shown, none is
 * markup. &, <, >, " and ' become references; control characters their
 * Control Pictures (U+2400...), bytes that are not UTF-8 U+FFFD, and the
 * characters that reorder text (bidi controls) their code point, so that
 * what is shown is what the file holds.
 */
#ifndef RLR_HTML_TEXT_H
#define RLR_HTML_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct json_object;

/* len bytes of s as text. */
void rlr_html_textn(FILE *f, const char *s, size_t len);
/* s as text; NULL as "-" (not known). */
void rlr_html_text(FILE *f, const char *s);
/* A JSON value as text: a string's bytes, a number as written, null "-", others as JSON. */
void rlr_html_value(FILE *f, struct json_object *v);
/* Member key of o as text ("-" when absent or null). */
void rlr_html_member(FILE *f, struct json_object *o, const char *key);
/* "<td>" v "</td>" with an integer member (or "-"). */
void rlr_html_td_member(FILE *f, struct json_object *o, const char *key);
/* A latency in the run's unit ("1315 us"), or "-". */
void rlr_html_latency(FILE *f, struct json_object *v, const char *unit);

#endif
