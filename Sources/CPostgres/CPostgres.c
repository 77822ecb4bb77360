#include "CPostgres.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

typedef struct { char *relname; int be_pid; char *extra; } pg_notify;

static struct {
    PGconn *(*connectdb)(const char *);
    int (*status)(const PGconn *);
    char *(*error_message)(const PGconn *);
    void (*finish)(PGconn *);
    int (*transaction_status)(const PGconn *);
    int (*socket)(const PGconn *);
    int (*consume_input)(PGconn *);
    pg_notify *(*notifies)(PGconn *);
    void (*freemem)(void *);
    PGresult *(*exec)(PGconn *, const char *);
    PGresult *(*prepare)(PGconn *, const char *, const char *, int, const unsigned int *);
    PGresult *(*exec_prepared)(PGconn *, const char *, int, const char *const *, const int *, const int *, int);
    int (*result_status)(const PGresult *);
    char *(*result_error_message)(const PGresult *);
    char *(*result_error_field)(const PGresult *, int);
    int (*ntuples)(const PGresult *);
    int (*nfields)(const PGresult *);
    char *(*fname)(const PGresult *, int);
    unsigned int (*ftype)(const PGresult *, int);
    int (*getisnull)(const PGresult *, int, int);
    char *(*getvalue)(const PGresult *, int, int);
    int (*getlength)(const PGresult *, int, int);
    char *(*cmd_tuples)(PGresult *);
    void (*clear)(PGresult *);
    unsigned char *(*unescape_bytea)(const unsigned char *, size_t *);
    // Pipeline mode (libpq 14): looked up apart, so an older libpq still serves the readers and says what it lacks.
    int (*enter_pipeline)(PGconn *);
    int (*exit_pipeline)(PGconn *);
    int (*pipeline_sync)(PGconn *);
    int (*send_prepare)(PGconn *, const char *, const char *, int, const unsigned int *);
    int (*send_query_prepared)(PGconn *, const char *, int, const char *const *, const int *, const int *, int);
    PGresult *(*get_result)(PGconn *);
    void *(*set_notice_processor)(PGconn *, void (*)(void *, const char *), void *);
} pq;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded = -1;

#define BIND(field, name) \
    if (!(*(void **)&pq.field = dlsym(handle, name))) { \
        snprintf(load_error, sizeof load_error, "libpq.so.5 has no %s", name); return; }

static void load(void) {
    // ARCADE_LIBPQ names another file (a libpq outside the linker's paths).
    const char *name = getenv("ARCADE_LIBPQ");
    if (!name || !*name) name = "libpq.so.5";
    void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why ? why : "libpq cannot be loaded");
        return;
    }
    BIND(connectdb, "PQconnectdb") BIND(status, "PQstatus") BIND(error_message, "PQerrorMessage")
    BIND(finish, "PQfinish") BIND(transaction_status, "PQtransactionStatus") BIND(socket, "PQsocket")
    BIND(consume_input, "PQconsumeInput") BIND(notifies, "PQnotifies") BIND(freemem, "PQfreemem")
    BIND(exec, "PQexec") BIND(prepare, "PQprepare") BIND(exec_prepared, "PQexecPrepared")
    BIND(result_status, "PQresultStatus") BIND(result_error_message, "PQresultErrorMessage")
    BIND(result_error_field, "PQresultErrorField") BIND(ntuples, "PQntuples") BIND(nfields, "PQnfields")
    BIND(fname, "PQfname") BIND(ftype, "PQftype") BIND(getisnull, "PQgetisnull") BIND(getvalue, "PQgetvalue")
    BIND(getlength, "PQgetlength") BIND(cmd_tuples, "PQcmdTuples") BIND(clear, "PQclear")
    BIND(unescape_bytea, "PQunescapeBytea")
    *(void **)&pq.set_notice_processor = dlsym(handle, "PQsetNoticeProcessor");
    *(void **)&pq.enter_pipeline = dlsym(handle, "PQenterPipelineMode");
    *(void **)&pq.exit_pipeline = dlsym(handle, "PQexitPipelineMode");
    *(void **)&pq.pipeline_sync = dlsym(handle, "PQpipelineSync");
    *(void **)&pq.send_prepare = dlsym(handle, "PQsendPrepare");
    *(void **)&pq.send_query_prepared = dlsym(handle, "PQsendQueryPrepared");
    *(void **)&pq.get_result = dlsym(handle, "PQgetResult");
    loaded = 0;
}

int cpg_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (loaded != 0 && error && size) snprintf(error, size, "%s", load_error);
    return loaded;
}

// libpq's default prints a server's warnings to stderr, around the log; they go to the hook (the program's log).
static void (*notice_hook)(const char *) = 0;
void cpg_set_notice_hook(void (*hook)(const char *)) { notice_hook = hook; }
static void on_notice(void *arg, const char *message) {
    (void)arg;
    if (notice_hook) notice_hook(message);
}

PGconn *cpg_connectdb(const char *conninfo) {
    PGconn *conn = pq.connectdb(conninfo);
    if (conn && pq.set_notice_processor) pq.set_notice_processor(conn, on_notice, NULL);
    return conn;
}
int cpg_status(const PGconn *conn) { return pq.status(conn); }
const char *cpg_error_message(const PGconn *conn) { return pq.error_message(conn); }
void cpg_finish(PGconn *conn) { pq.finish(conn); }
int cpg_transaction_status(const PGconn *conn) { return pq.transaction_status(conn); }
int cpg_socket(const PGconn *conn) { return pq.socket(conn); }
int cpg_consume_input(PGconn *conn) { return pq.consume_input(conn); }

int cpg_next_notification(PGconn *conn, char *payload, size_t size) {
    pg_notify *notify = pq.notifies(conn);
    if (!notify) return 0;
    snprintf(payload, size, "%s", notify->extra ? notify->extra : "");
    pq.freemem(notify);
    return 1;
}

PGresult *cpg_exec(PGconn *conn, const char *sql) { return pq.exec(conn, sql); }
PGresult *cpg_prepare(PGconn *conn, const char *name, const char *sql, int count, const unsigned int *types) {
    return pq.prepare(conn, name, sql, count, types);
}
PGresult *cpg_exec_prepared(PGconn *conn, const char *name, int count, const char *const *values,
                            const int *lengths, const int *formats) {
    return pq.exec_prepared(conn, name, count, values, lengths, formats, 0);
}
int cpg_result_status(const PGresult *result) { return pq.result_status(result); }
const char *cpg_result_error(const PGresult *result) { return pq.result_error_message(result); }
const char *cpg_sqlstate(const PGresult *result) {
    const char *state = pq.result_error_field(result, 'C');
    return state ? state : "";
}
int cpg_ntuples(const PGresult *result) { return pq.ntuples(result); }
int cpg_nfields(const PGresult *result) { return pq.nfields(result); }
const char *cpg_fname(const PGresult *result, int column) { return pq.fname(result, column); }
unsigned int cpg_ftype(const PGresult *result, int column) { return pq.ftype(result, column); }
int cpg_getisnull(const PGresult *result, int row, int column) { return pq.getisnull(result, row, column); }
const char *cpg_getvalue(const PGresult *result, int row, int column) { return pq.getvalue(result, row, column); }
int cpg_getlength(const PGresult *result, int row, int column) { return pq.getlength(result, row, column); }
const char *cpg_cmd_tuples(PGresult *result) { return pq.cmd_tuples(result); }
void cpg_clear(PGresult *result) { if (result) pq.clear(result); }
unsigned char *cpg_unescape_bytea(const char *text, size_t *length) {
    return pq.unescape_bytea((const unsigned char *)text, length);
}
void cpg_free(void *pointer) { if (pointer) pq.freemem(pointer); }

int cpg_has_pipeline(void) {
    return pq.enter_pipeline && pq.exit_pipeline && pq.pipeline_sync && pq.send_prepare && pq.send_query_prepared
        && pq.get_result;
}
int cpg_enter_pipeline(PGconn *conn) { return pq.enter_pipeline(conn); }
int cpg_exit_pipeline(PGconn *conn) { return pq.exit_pipeline(conn); }
int cpg_pipeline_sync(PGconn *conn) { return pq.pipeline_sync(conn); }
int cpg_send_prepare(PGconn *conn, const char *name, const char *sql, int count, const unsigned int *types) {
    return pq.send_prepare(conn, name, sql, count, types);
}
int cpg_send_query_prepared(PGconn *conn, const char *name, int count, const char *const *values,
                            const int *lengths, const int *formats) {
    return pq.send_query_prepared(conn, name, count, values, lengths, formats, 0);
}
PGresult *cpg_get_result(PGconn *conn) { return pq.get_result(conn); }
