dnl RT_WARN_ADD(FLAG): append FLAG to WARN_CFLAGS when the compiler accepts it.
dnl The check runs with -Werror so that unknown flags are not merely warned about.
AC_DEFUN([RT_WARN_ADD], [
	AS_VAR_PUSHDEF([rt_cache], [rt_cv_warn_$1])
	AC_CACHE_CHECK([whether $CC accepts $1], [rt_cache], [
		rt_save_cflags="$CFLAGS"
		CFLAGS="$CFLAGS -Werror $1"
		AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
			[AS_VAR_SET([rt_cache], [yes])],
			[AS_VAR_SET([rt_cache], [no])])
		CFLAGS="$rt_save_cflags"
	])
	AS_VAR_IF([rt_cache], [yes], [WARN_CFLAGS="$WARN_CFLAGS $1"])
	AS_VAR_POPDEF([rt_cache])
])
