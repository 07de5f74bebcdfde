# Runs a command under a seccomp filter built as systemd builds SystemCallFilter='s allow-list: every
# system call not named in the file (one name a line) kills the process with SIGSYS
# (SCMP_ACT_KILL_PROCESS, systemd's action since v243), other architectures' calls too
# (SystemCallArchitectures=native). Names this architecture lacks are skipped, as systemd does.
# Needs libseccomp's Python binding (Debian: python3-seccomp).
#   python3 seccomp-exec.py allowed.txt node dist/main.js
import os
import sys

import seccomp

names = [line.strip() for line in open(sys.argv[1]) if line.strip() and not line.startswith('#')]
f = seccomp.SyscallFilter(seccomp.KILL_PROCESS)
for name in names:
    try:
        f.add_rule(seccomp.ALLOW, name)
    except (RuntimeError, ValueError):
        pass  # not a system call of this architecture (cacheflush, riscv_flush_icache…)
f.load()
os.execvp(sys.argv[2], sys.argv[2:])
