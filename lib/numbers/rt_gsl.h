/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * GSL, opened with dlopen when a confidence interval is first computed (at
 * the end of a run, or at a --records window), never at start-up: a run
 * that only measures maps none of GSL's 2.5 MB, and --mlockall locks none
 * of it. The library is opened by the soname configure found a link
 * against it records (RT_LIBGSL_SONAME), after its CBLAS (RT_LIBGSLCBLAS_SONAME,
 * when the link named one), whose symbols it uses.
 *
 * The C math library comes the same way: GSL needs it anyway, and nothing
 * else in librttest does, so no tool maps (and, locking its memory, faults
 * in) libm's 900 kB at start-up for a computation it makes at the end.
 */
#ifndef RT_GSL_H
#define RT_GSL_H

#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>

/* Pointers of the headers' own types: a changed prototype fails to compile. */
struct rt_gsl {
	__typeof__(gsl_cdf_ugaussian_P) *cdf_ugaussian_P;
	__typeof__(gsl_sf_beta_inc_e) *sf_beta_inc_e;
	__typeof__(gsl_set_error_handler_off) *set_error_handler_off;
	__typeof__(gsl_set_error_handler) *set_error_handler;
	/* libm */
	__typeof__(sqrt) *sqrt;
	__typeof__(floor) *floor;
	__typeof__(ceil) *ceil;
	__typeof__(log) *log;
	__typeof__(log1p) *log1p;
	__typeof__(nextafter) *nextafter;
};

/*
 * The functions, loaded once per process; NULL when GSL or libm cannot be loaded,
 * with *why (if why is not NULL) saying so: "needs libgsl.so.27: ...".
 */
const struct rt_gsl *rt_gsl_load(const char **why);

#endif
