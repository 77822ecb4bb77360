// Thin wrappers for the Linux calls the Glibc overlay does not expose to
// Swift (or exposes awkwardly: variadic, macro constants, packed structs).
#ifndef ARCADE_CSYSTEM_H
#define ARCADE_CSYSTEM_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <signal.h>

// epoll_event is packed on x86_64, which Swift imports poorly: pass fields.
int csys_epoll_create(void);
int csys_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data);
// Fills parallel arrays; returns the count, or -1 with errno.
int csys_epoll_wait(int epfd, uint32_t *events, uint64_t *data, int max, int timeout_ms);

extern const int CSYS_EPOLL_CTL_ADD, CSYS_EPOLL_CTL_MOD, CSYS_EPOLL_CTL_DEL;
extern const uint32_t CSYS_EPOLLIN, CSYS_EPOLLOUT, CSYS_EPOLLRDHUP, CSYS_EPOLLHUP,
    CSYS_EPOLLERR, CSYS_EPOLLET, CSYS_EPOLLEXCLUSIVE;

int csys_eventfd(void);
// An eventfd whose read blocks until a signal (a thread's own wake-up).
int csys_eventfd_blocking(void);
int csys_eventfd_signal(int fd);
int csys_eventfd_drain(int fd);
// Inside a batch (begin/end nest on the calling thread) a signal is held back, once per eventfd, until the
// outermost end: a thread that answers many requests at once wakes each event loop once.
/// glibc's thresholds for giving freed memory back (trim) and for mapping a block of its own (mmap), in bytes.
void csys_malloc_thresholds(int trim, int mmap);
void csys_wake_batch_begin(void);
void csys_wake_batch_end(void);
int csys_eventfd_signal_batched(int fd);

// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC.
int csys_accept(int fd);
// The peer's address as text ("127.0.0.1", "::1"); 0 on success.
int csys_peer_address(int fd, char *out, int out_len);
// A non-blocking, close-on-exec TCP listener with SO_REUSEADDR (and
// SO_REUSEPORT when asked); host is an IPv4 or IPv6 literal. Returns the
// fd or -1 with errno; *bound_port receives the port actually bound.
int csys_listen_tcp(const char *host, int port, int backlog, int reuse_port, int *bound_port);
// Binds (without SO_REUSEPORT) and closes at once: fails with EADDRINUSE if
// anyone, even a SO_REUSEPORT group, holds the port. Port 0 picks a free one,
// returned in *bound_port.
int csys_probe_port(const char *host, int port, int *bound_port);
// A blocking client socket; recv_buffer > 0 shrinks SO_RCVBUF before connecting.
int csys_connect_tcp(const char *host, int port, int recv_buffer);

ssize_t csys_sendfile(int out_fd, int in_fd, int64_t *offset, size_t count);
ssize_t csys_writev(int fd, const struct iovec *iov, int count);
/// Like writev on a socket, telling the kernel more data follows at once (a file sent next), so the two
/// leave in the same segments.
ssize_t csys_writev_more(int fd, const struct iovec *iov, int count);
ssize_t csys_send(int fd, const void *buf, size_t len);
int csys_set_nodelay(int fd);
int csys_shutdown_write(int fd);
int csys_set_recv_buffer(int fd, int bytes);
int csys_set_send_buffer(int fd, int bytes);

// Monotonic and wall clocks in nanoseconds.
int64_t csys_monotonic_ns(void);
int64_t csys_realtime_ns(void);

// Signals: block SIGINT/SIGTERM (so threads inherit the mask), ignore
// SIGPIPE, and wait for one of the blocked signals; returns its number.
int csys_block_shutdown_signals(void);
int csys_wait_shutdown_signal(void);
// SIGHUP is blocked with them: waits up to `milliseconds` (-1: forever) for one; 0 when none came.
int csys_wait_signal(int milliseconds);
int csys_send_signal(pid_t pid, int sig);

// CPUs this process may run on (respects taskset).
int csys_available_cpus(void);

// Threads without Foundation: start a detached-or-joinable pthread.
typedef void (*csys_thread_body)(void *);
int csys_thread_start(csys_thread_body body, void *context, uint64_t *handle);
int csys_thread_join(uint64_t handle);
// A per-thread role (0 = ordinary, 1 = event loop), so code can refuse to block on a loop.
void csys_set_thread_role(int role);
int csys_thread_role(void);

// A process for tests and scripts: posix_spawn with argv/envp, and wait.
pid_t csys_spawn(const char *path, char *const argv[], char *const envp[], int stdin_fd, int stdout_fd, int stderr_fd);
// A pipe whose ends close on exec (atomically: a process spawned meanwhile by another thread does not hold them).
int csys_pipe(int fds[2]);
int csys_wait_exit(pid_t pid, int *status, int timeout_ms);

// The build's version and the git commit it was made from (scripts/package defines ARCADE_COMMIT with -Xcc -D).
const char *csys_build_version(void);
const char *csys_build_commit(void);
// systemd's readiness protocol: STATE to $NOTIFY_SOCKET when set (0: not under systemd, 1: sent, -1: failed).
int csys_sd_notify(const char *state);

#endif
