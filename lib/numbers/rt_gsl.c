// SPDX-License-Identifier: GPL-2.0-or-later
#include <dlfcn.h>
#include <gnu/lib-names.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "rt_gsl.h"

#ifndef RT_LIBGSL_SONAME
#define RT_LIBGSL_SONAME "libgsl.so.27"
#endif

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static struct rt_gsl gsl;
static const struct rt_gsl *loaded;
static char load_why[256];

static void load_failed(const char *soname)
{
	const char *msg = dlerror();
	size_t n = strlen(soname);

	/* dlerror() starts with the soname it could not open: say it once. */
	if (msg && strncmp(msg, soname, n) == 0 && strncmp(msg + n, ": ", 2) == 0)
		msg += n + 2;
	snprintf(load_why, sizeof(load_why), "needs %s: %s", soname,
		 msg ? msg : "cannot be loaded");
}

/* Handles stay open for the life of the process, as a linked library's would. */
#define RT_DLSYM(field, name, soname)                                                             \
	if (!(gsl.field = (__typeof__(gsl.field))dlsym(h, #name))) {                              \
		load_failed(soname);                                                              \
		return;                                                                           \
	}
#define RT_GSL_SYM(field, name) RT_DLSYM(field, name, RT_LIBGSL_SONAME)
#define RT_LIBM_SYM(name) RT_DLSYM(name, name, LIBM_SO)

static void load(void)
{
	void *h;

#ifdef RT_LIBGSLCBLAS_SONAME
	/* Global: libgsl's own undefined cblas_* symbols resolve against it. */
	if (!dlopen(RT_LIBGSLCBLAS_SONAME, RTLD_NOW | RTLD_GLOBAL)) {
		load_failed(RT_LIBGSLCBLAS_SONAME);
		return;
	}
#endif
	if (!(h = dlopen(RT_LIBGSL_SONAME, RTLD_NOW | RTLD_LOCAL))) {
		load_failed(RT_LIBGSL_SONAME);
		return;
	}
	RT_GSL_SYM(cdf_ugaussian_P, gsl_cdf_ugaussian_P)
	RT_GSL_SYM(sf_beta_inc_e, gsl_sf_beta_inc_e)
	RT_GSL_SYM(set_error_handler_off, gsl_set_error_handler_off)
	RT_GSL_SYM(set_error_handler, gsl_set_error_handler)
	/*
	 * libm is GSL's dependency, and dlsym on a handle searches the
	 * library's dependencies too: no second dlopen (and no second set of
	 * loader records) for it.
	 */
	RT_LIBM_SYM(sqrt)
	RT_LIBM_SYM(floor)
	RT_LIBM_SYM(ceil)
	RT_LIBM_SYM(log)
	RT_LIBM_SYM(log1p)
	RT_LIBM_SYM(nextafter)
	loaded = &gsl;
}

#undef RT_GSL_SYM
#undef RT_LIBM_SYM
#undef RT_DLSYM

const struct rt_gsl *rt_gsl_load(const char **why)
{
	pthread_once(&load_once, load);
	if (!loaded && why)
		*why = load_why;
	return loaded;
}
