/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * GSL, opened with dlopen when a confidence interval is first computed (at
 * the end of a run, or at a --records window), never at start-up: a run
 * that only measures maps none of GSL's 2.5 MB, and --mlockall locks none
 * of it. The library is opened by the soname configure found a link
 * against it records (RT_LIBGSL_SONAME), after its CBLAS (RT_LIBGSLCBLAS_SONAME,
 * when the link named one), whose symbols it uses.
 */
#ifndef RT_GSL_H
#define RT_GSL_H

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>

/* Pointers of the headers' own types: a changed prototype fails to compile. */
struct rt_gsl {
	__typeof__(gsl_cdf_ugaussian_P) *cdf_ugaussian_P;
	__typeof__(gsl_sf_beta_inc_e) *sf_beta_inc_e;
	__typeof__(gsl_set_error_handler_off) *set_error_handler_off;
	__typeof__(gsl_set_error_handler) *set_error_handler;
};

/*
 * The functions, loaded once per process; NULL when GSL cannot be loaded,
 * with *why (if why is not NULL) saying so: "needs libgsl.so.27: ...".
 */
const struct rt_gsl *rt_gsl_load(const char **why);

#endif
