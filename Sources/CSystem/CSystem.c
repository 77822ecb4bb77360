#define _GNU_SOURCE
#include "CSystem.h"
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <fcntl.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <sys/un.h>
#include <stddef.h>
#include <malloc.h>

const int CSYS_EPOLL_CTL_ADD = EPOLL_CTL_ADD, CSYS_EPOLL_CTL_MOD = EPOLL_CTL_MOD,
          CSYS_EPOLL_CTL_DEL = EPOLL_CTL_DEL;
const uint32_t CSYS_EPOLLIN = EPOLLIN, CSYS_EPOLLOUT = EPOLLOUT, CSYS_EPOLLRDHUP = EPOLLRDHUP,
               CSYS_EPOLLHUP = EPOLLHUP, CSYS_EPOLLERR = EPOLLERR, CSYS_EPOLLET = EPOLLET,
               CSYS_EPOLLEXCLUSIVE = EPOLLEXCLUSIVE;

int csys_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int csys_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}

int csys_epoll_wait(int epfd, uint32_t *events, uint64_t *data, int max, int timeout_ms) {
    struct epoll_event evs[256];
    if (max > 256) max = 256;
    int n = epoll_wait(epfd, evs, max, timeout_ms);
    for (int i = 0; i < n; i++) {
        events[i] = evs[i].events;
        data[i] = evs[i].data.u64;
    }
    return n;
}

int csys_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
int csys_eventfd_blocking(void) { return eventfd(0, EFD_CLOEXEC); }
int csys_eventfd_signal(int fd) { uint64_t one = 1; return (int)write(fd, &one, sizeof one); }
int csys_eventfd_drain(int fd) { uint64_t v; return (int)read(fd, &v, sizeof v); }

static __thread int wake_batch_depth, wake_batch_count;
static __thread int wake_batch_fds[16];
void csys_wake_batch_begin(void) { wake_batch_depth++; }
void csys_wake_batch_end(void) {
    if (--wake_batch_depth > 0) return;
    for (int i = 0; i < wake_batch_count; i++) csys_eventfd_signal(wake_batch_fds[i]);
    wake_batch_count = 0;
}
int csys_eventfd_signal_batched(int fd) {
    if (wake_batch_depth == 0) return csys_eventfd_signal(fd);
    for (int i = 0; i < wake_batch_count; i++) if (wake_batch_fds[i] == fd) return 0;
    if (wake_batch_count == 16) return csys_eventfd_signal(fd);  // more loops than room: at once
    wake_batch_fds[wake_batch_count++] = fd;
    return 0;
}

int csys_accept(int fd) { return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }

int csys_peer_address(int fd, char *out, int out_len) {
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (getpeername(fd, (struct sockaddr *)&ss, &len) < 0) return -1;
    const void *addr = ss.ss_family == AF_INET ? (const void *)&((struct sockaddr_in *)&ss)->sin_addr
                                               : (const void *)&((struct sockaddr_in6 *)&ss)->sin6_addr;
    return inet_ntop(ss.ss_family, addr, out, (socklen_t)out_len) ? 0 : -1;
}

static int fill_addr(const char *host, int port, struct sockaddr_storage *ss, socklen_t *len) {
    memset(ss, 0, sizeof *ss);
    struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
        *len = sizeof *v4;
        return AF_INET;
    }
    if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)port);
        *len = sizeof *v6;
        return AF_INET6;
    }
    errno = EINVAL;
    return -1;
}

int csys_listen_tcp(const char *host, int port, int backlog, int reuse_port, int *bound_port) {
    struct sockaddr_storage ss;
    socklen_t len;
    int family = fill_addr(host, port, &ss, &len);
    if (family < 0) return -1;
    int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (reuse_port && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) < 0) goto fail;
    if (bind(fd, (struct sockaddr *)&ss, len) < 0) goto fail;
    if (listen(fd, backlog) < 0) goto fail;
    if (bound_port) {
        struct sockaddr_storage got;
        socklen_t got_len = sizeof got;
        if (getsockname(fd, (struct sockaddr *)&got, &got_len) < 0) goto fail;
        *bound_port = family == AF_INET ? ntohs(((struct sockaddr_in *)&got)->sin_port)
                                        : ntohs(((struct sockaddr_in6 *)&got)->sin6_port);
    }
    return fd;
fail:;
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
}

int csys_probe_port(const char *host, int port, int *bound_port) {
    struct sockaddr_storage ss;
    socklen_t len;
    int family = fill_addr(host, port, &ss, &len);
    if (family < 0) return -1;
    int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    int rc = bind(fd, (struct sockaddr *)&ss, len);
    if (rc == 0) {
        struct sockaddr_storage got;
        socklen_t got_len = sizeof got;
        rc = getsockname(fd, (struct sockaddr *)&got, &got_len);
        if (rc == 0)
            *bound_port = family == AF_INET ? ntohs(((struct sockaddr_in *)&got)->sin_port)
                                            : ntohs(((struct sockaddr_in6 *)&got)->sin6_port);
    }
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

int csys_connect_tcp(const char *host, int port, int recv_buffer) {
    struct sockaddr_storage ss;
    socklen_t len;
    int family = fill_addr(host, port, &ss, &len);
    if (family < 0) return -1;
    int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (recv_buffer > 0) setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &recv_buffer, sizeof recv_buffer);
    if (connect(fd, (struct sockaddr *)&ss, len) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

ssize_t csys_sendfile(int out_fd, int in_fd, int64_t *offset, size_t count) {
    off_t off = (off_t)*offset;
    ssize_t n = sendfile(out_fd, in_fd, &off, count);
    *offset = (int64_t)off;
    return n;
}

ssize_t csys_writev(int fd, const struct iovec *iov, int count) { return writev(fd, iov, count); }

ssize_t csys_writev_more(int fd, const struct iovec *iov, int count) {
    struct msghdr msg = {0};
    msg.msg_iov = (struct iovec *)iov;
    msg.msg_iovlen = (size_t)count;
    return sendmsg(fd, &msg, MSG_MORE | MSG_NOSIGNAL);
}
ssize_t csys_send(int fd, const void *buf, size_t len) { return send(fd, buf, len, MSG_NOSIGNAL); }

int csys_set_nodelay(int fd) {
    int one = 1;
    return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}
int csys_shutdown_write(int fd) { return shutdown(fd, SHUT_WR); }
int csys_set_recv_buffer(int fd, int bytes) { return setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes); }
int csys_set_send_buffer(int fd, int bytes) { return setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes); }

int64_t csys_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
int64_t csys_realtime_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void shutdown_set(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGHUP);  // reloads the certificate (HTTPServer.runUntilSignalled)
}

int csys_block_shutdown_signals(void) {
    signal(SIGPIPE, SIG_IGN);
    sigset_t set;
    shutdown_set(&set);
    return pthread_sigmask(SIG_BLOCK, &set, NULL);
}

int csys_wait_shutdown_signal(void) {
    sigset_t set;
    shutdown_set(&set);
    int sig = 0;
    if (sigwait(&set, &sig) != 0) return -1;
    return sig;
}

int csys_wait_signal(int milliseconds) {
    sigset_t set;
    shutdown_set(&set);
    if (milliseconds < 0) return csys_wait_shutdown_signal();
    struct timespec timeout = { milliseconds / 1000, (long)(milliseconds % 1000) * 1000000L };
    int sig;
    while ((sig = sigtimedwait(&set, NULL, &timeout)) < 0 && errno == EINTR) {}
    return sig < 0 ? 0 : sig;
}

int csys_send_signal(pid_t pid, int sig) { return kill(pid, sig); }

int csys_available_cpus(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0) return n;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

struct thread_start { csys_thread_body body; void *context; };

static void *thread_trampoline(void *arg) {
    struct thread_start start = *(struct thread_start *)arg;
    free(arg);
    start.body(start.context);
    return NULL;
}

int csys_thread_start(csys_thread_body body, void *context, uint64_t *handle) {
    struct thread_start *start = malloc(sizeof *start);
    if (!start) return ENOMEM;
    start->body = body;
    start->context = context;
    pthread_t thread;
    int rc = pthread_create(&thread, NULL, thread_trampoline, start);
    if (rc != 0) { free(start); return rc; }
    *handle = (uint64_t)thread;
    return 0;
}

int csys_thread_join(uint64_t handle) { return pthread_join((pthread_t)handle, NULL); }

static __thread int thread_role;
void csys_set_thread_role(int role) { thread_role = role; }
int csys_thread_role(void) { return thread_role; }

pid_t csys_spawn(const char *path, char *const argv[], char *const envp[], int stdin_fd, int stdout_fd, int stderr_fd) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (stdin_fd >= 0) posix_spawn_file_actions_adddup2(&actions, stdin_fd, 0);
    if (stdout_fd >= 0) posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1);
    if (stderr_fd >= 0) posix_spawn_file_actions_adddup2(&actions, stderr_fd, 2);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    // The child starts with default signal handling and no blocked signals.
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid;
    int rc = posix_spawn(&pid, path, &actions, &attr, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) { errno = rc; return -1; }
    return pid;
}

int csys_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int csys_wait_exit(pid_t pid, int *status, int timeout_ms) {
    int64_t deadline = csys_monotonic_ns() + (int64_t)timeout_ms * 1000000;
    for (;;) {
        int st = 0;
        pid_t got = waitpid(pid, &st, WNOHANG);
        if (got == pid) {
            *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            return 0;
        }
        if (got < 0) return -1;
        if (csys_monotonic_ns() >= deadline) return 1;
        struct timespec nap = {0, 10 * 1000000};
        nanosleep(&nap, NULL);
    }
}

// The release's version: scripts/package names the package after it.
#ifndef ARCADE_VERSION
#define ARCADE_VERSION "1.1.0"
#endif
#ifndef ARCADE_COMMIT
#define ARCADE_COMMIT "unknown"
#endif
const char *csys_build_version(void) { return ARCADE_VERSION; }
const char *csys_build_commit(void) { return ARCADE_COMMIT; }

int csys_sd_notify(const char *state) {
    const char *path = getenv("NOTIFY_SOCKET");
    if (path == NULL || path[0] == 0) return 0;
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    size_t length = strlen(path);
    if (length >= sizeof address.sun_path) return -1;
    memcpy(address.sun_path, path, length);
    if (address.sun_path[0] == '@') address.sun_path[0] = 0;  // an abstract socket
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    ssize_t sent = sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&address,
                          (socklen_t)(offsetof(struct sockaddr_un, sun_path) + length));
    close(fd);
    return sent < 0 ? -1 : 1;
}

void csys_malloc_thresholds(int trim, int mmap) {
    mallopt(M_TRIM_THRESHOLD, trim);
    mallopt(M_MMAP_THRESHOLD, mmap);
}
