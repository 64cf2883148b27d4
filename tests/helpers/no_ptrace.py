#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Run a command under a seccomp filter that makes ptrace(2) fail with EPERM.

usage: no_ptrace.py COMMAND [ARG]...

What a container or service profile that forbids ptrace does, without root
(PR_SET_NO_NEW_PRIVS). Exits 77 when the filter cannot be installed.
"""
import ctypes
import os
import sys

# (AUDIT_ARCH_*, __NR_ptrace): x86_64, i386, aarch64
ARCHES = [(0xC000003E, 101), (0x40000003, 26), (0xC00000B7, 117)]
LD_ABS_W, JEQ_K, RET_K = 0x20, 0x15, 0x06
RET_ALLOW, RET_EPERM = 0x7FFF0000, 0x00050000 | 1


class SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8),
                ("k", ctypes.c_uint32)]


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_uint16), ("filter", ctypes.POINTER(SockFilter))]


def program():
    prog = [[LD_ABS_W, 0, 0, 4]]   # A = seccomp_data.arch
    nr_jumps = []
    for arch, nr in ARCHES:
        prog.append([JEQ_K, 0, 2, arch])
        prog.append([LD_ABS_W, 0, 0, 0])  # A = seccomp_data.nr
        nr_jumps.append(len(prog))
        prog.append([JEQ_K, 0, 0, nr])
    allow = len(prog)
    prog.append([RET_K, 0, 0, RET_ALLOW])
    prog.append([RET_K, 0, 0, RET_EPERM])
    for i in nr_jumps:
        prog[i][1] = allow + 1 - (i + 1)
        prog[i][2] = allow - (i + 1)
    return prog


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    prog = program()
    arr = (SockFilter * len(prog))(*[SockFilter(*p) for p in prog])
    fprog = SockFprog(len(prog), arr)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong,
                           ctypes.c_ulong]
    if libc.prctl(38, 1, None, 0, 0) or libc.prctl(22, 2, ctypes.byref(fprog), 0, 0):
        print("cannot install a seccomp filter: %s" % os.strerror(ctypes.get_errno()))
        sys.exit(77)
    os.execv(sys.argv[1], sys.argv[1:])


if __name__ == "__main__":
    main()
