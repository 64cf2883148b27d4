// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>

#include "unit.h"

int main(void)
{
	SRunner *sr = srunner_create(unit_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
