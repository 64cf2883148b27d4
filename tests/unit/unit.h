/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Each unit test program defines unit_suite(); unit.c runs it. */
#ifndef UNIT_H
#define UNIT_H

#include <check.h>

Suite *unit_suite(void);

#define UNIT_LOOP(tc, fn, table) tcase_add_loop_test(tc, fn, 0, sizeof(table) / sizeof((table)[0]))

#endif
