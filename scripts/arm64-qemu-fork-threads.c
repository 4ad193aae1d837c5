/*
 * The qemu-user fault venue_load met under scripts/test-arm64.sh, without tableref: a process with one more
 * thread than its main one forks, and the child starts a thread. qemu-aarch64 7.2 (Debian 12) aborts the child
 * ("cpu_exec: assertion failed: (cpu == current_cpu)", with more threads also "qemu_plugin_vcpu_init_hook:
 * assertion failed: (success)"); natively, and under qemu with no thread alive at the fork, the child runs.
 * tableref's arm64 process has two threads before `bench venue` forks its table workers: liblttng-ust, which
 * libcamera links, starts its listener threads when it is loaded (seen with `qemu-aarch64 -strace`). The workers
 * now exec tableref at once after the fork (cli/bench_venue_tables.h), as POSIX wants of a threaded process's
 * child anyway, and venue_load runs under qemu.
 *
 *   aarch64-linux-gnu-gcc -O2 -pthread scripts/arm64-qemu-fork-threads.c -o /tmp/fork-threads
 *   qemu-aarch64 -L build-arm64/sysroot /tmp/fork-threads 0 4   # child: 4 threads after a fork from 0
 *   qemu-aarch64 -L build-arm64/sysroot /tmp/fork-threads 1 1   # qemu aborts the child: exit 127
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void *hold(void *arg)
{
    usleep((useconds_t)(long)arg);
    return NULL;
}

int main(int argc, char **argv)
{
    int before = argc > 1 ? atoi(argv[1]) : 1, after = argc > 2 ? atoi(argv[2]) : 1;
    pthread_t t[64], c[64];
    before = before < 0 ? 0 : before > 64 ? 64 : before;
    after = after < 0 ? 0 : after > 64 ? 64 : after;
    for (int i = 0; i < before; i++) /* alive across the fork */
        pthread_create(&t[i], NULL, hold, (void *)2000000L);
    pid_t p = fork();
    if (p == 0) {
        for (int i = 0; i < after; i++)
            pthread_create(&c[i], NULL, hold, (void *)1000L);
        for (int i = 0; i < after; i++)
            pthread_join(c[i], NULL);
        printf("child: %d threads after a fork from %d\n", after, before);
        fflush(stdout);
        _exit(0);
    }
    int st = 0;
    waitpid(p, &st, 0);
    printf("parent: child exit %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    for (int i = 0; i < before; i++)
        pthread_join(t[i], NULL);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}
