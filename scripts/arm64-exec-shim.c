/* An LD_PRELOAD library for the arm64 test programs run under qemu-user (scripts/test-arm64.sh).
 *
 * Why: qemu-user runs one arm64 program; when that program execs another arm64 program (Criterion
 * re-executes its own test binary for every test, a test starts tableref or a driver with execv), the
 * machine's kernel gets an arm64 file it cannot run (ENOEXEC): it would need binfmt_misc, which changes
 * the machine. This library takes execve, execv and execl: when the file is an arm64 ELF it execs
 * `qemu-aarch64 -L SYSROOT -E LD_PRELOAD=THIS -0 ARGV0 FILE ARGS...` instead, so the child runs under the
 * same qemu with the same library. Any other file (a shell, ffprobe, mosquitto) is exec'd as it is and
 * runs natively.
 *
 * Criterion's own per-test timeouts (`.timeout = 120`) are wall-clock seconds meant for the machine's
 * speed; under qemu the same test takes 5-20x as long. As meson test's --timeout-multiplier does for a
 * whole program, this library multiplies every suite's and test's timeout by SHIM_TIMEOUT_SCALE before
 * Criterion runs them (it takes criterion_run_all_tests, which Criterion's main calls through the PLT).
 *
 * It removes LD_PRELOAD from its own environment as it loads, so that no program of the machine that
 * an arm64 program starts (system()'s /bin/sh, say) is told to preload an arm64 library.
 *
 * Built by scripts/test-arm64.sh with the cross compiler:
 *   aarch64-linux-gnu-gcc -shared -fPIC -O2 -DSHIM_SYSROOT='"..."' -DSHIM_SELF='"..."' -DSHIM_QEMU='"..."' \
 *     -DSHIM_TIMEOUT_SCALE=10
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/internal/ordered-set.h>

#ifndef EM_AARCH64
#define EM_AARCH64 183
#endif

extern char **environ;

__attribute__((constructor)) static void shim_forget_preload(void)
{
    unsetenv("LD_PRELOAD");
}

static int shim_is_arm64_elf(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    Elf64_Ehdr h;
    ssize_t n = read(fd, &h, sizeof h);
    close(fd);
    return n == (ssize_t)sizeof h && memcmp(h.e_ident, ELFMAG, SELFMAG) == 0 && h.e_machine == EM_AARCH64;
}

static int shim_raw_execve(const char *path, char *const argv[], char *const envp[])
{
    return (int)syscall(SYS_execve, path, argv, envp);
}

int execve(const char *path, char *const argv[], char *const envp[])
{
    if (!shim_is_arm64_elf(path))
        return shim_raw_execve(path, argv, envp);
    size_t argc = 0;
    while (argv[argc])
        argc++;
    const char *head[] = {SHIM_QEMU, "-L", SHIM_SYSROOT, "-E", "LD_PRELOAD=" SHIM_SELF, "-0",
                          argc ? argv[0] : path, path};
    size_t nhead = sizeof head / sizeof head[0];
    char **full = calloc(nhead + argc + 1, sizeof *full);
    if (!full) {
        errno = ENOMEM;
        return -1;
    }
    for (size_t i = 0; i < nhead; i++)
        full[i] = (char *)head[i];
    for (size_t i = 1; i < argc; i++)
        full[nhead + i - 1] = argv[i];
    int rc = shim_raw_execve(SHIM_QEMU, full, envp);
    int saved = errno;
    free(full);
    errno = saved;
    return rc;
}

int execv(const char *path, char *const argv[])
{
    return execve(path, argv, environ);
}

int execl(const char *path, const char *arg, ...)
{
    size_t argc = 1;
    va_list ap;
    va_start(ap, arg);
    while (va_arg(ap, const char *))
        argc++;
    va_end(ap);
    char **argv = calloc(argc + 1, sizeof *argv);
    if (!argv) {
        errno = ENOMEM;
        return -1;
    }
    argv[0] = (char *)arg;
    va_start(ap, arg);
    for (size_t i = 1; i < argc; i++)
        argv[i] = va_arg(ap, char *);
    va_end(ap);
    int rc = execve(path, argv, environ);
    int saved = errno;
    free(argv);
    errno = saved;
    return rc;
}

int execvp(const char *file, char *const argv[])
{
    if (strchr(file, '/'))
        return execve(file, argv, environ);
    int (*next)(const char *, char *const[]) = (int (*)(const char *, char *const[]))dlsym(RTLD_NEXT, "execvp");
    if (!next) {
        errno = ENOSYS;
        return -1;
    }
    return next(file, argv);
}

int criterion_run_all_tests(struct criterion_test_set *set)
{
    FOREACH_SET(struct criterion_suite_set *suite, set->suites)
    {
        if (suite->suite.data && suite->suite.data->timeout > 0)
            suite->suite.data->timeout *= SHIM_TIMEOUT_SCALE;
        FOREACH_SET(struct criterion_test *test, suite->tests)
        {
            if (test->data && test->data->timeout > 0)
                test->data->timeout *= SHIM_TIMEOUT_SCALE;
        }
    }
    int (*next)(struct criterion_test_set *) =
        (int (*)(struct criterion_test_set *))dlsym(RTLD_NEXT, "criterion_run_all_tests");
    if (!next)
        abort();
    return next(set);
}
