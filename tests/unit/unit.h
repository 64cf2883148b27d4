/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Each unit test program defines unit_suite(); unit.c (built once, as
 * tests/unit/libunit.la) runs it and prints TAP, one line per test.
 */
#ifndef UNIT_H
#define UNIT_H

#include <check.h>

Suite *unit_suite(void);

/*
 * The tag of the cases that need root or real-time scheduling: make check
 * leaves them out, make check-rt runs only them (unit.c).
 */
#define UNIT_TAG_RT "rt"

#define UNIT_LOOP(tc, fn, table) tcase_add_loop_test(tc, fn, 0, sizeof(table) / sizeof((table)[0]))

/*
 * End the test as skipped, with the reason (what the machine lacks): the
 * harness counts it as SKIP, never as PASS. Format and arguments as printf.
 */
#define UNIT_SKIP_PREFIX "SKIP: "
#define unit_skip(...) ck_abort_msg(UNIT_SKIP_PREFIX __VA_ARGS__)

#endif
