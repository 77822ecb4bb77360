#ifndef CPOSTGRES_H
#define CPOSTGRES_H
// libpq, loaded at run time (dlopen "libpq.so.5", or the file ARCADE_LIBPQ names) only when a PostgreSQL URL is
// given, so the package builds and runs with SQLite on a machine without libpq. The few functions Arcade uses, with libpq's own signatures.
#include <stddef.h>

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

enum { CPG_CONNECTION_OK = 0 };
enum { CPG_COMMAND_OK = 1, CPG_TUPLES_OK = 2, CPG_FATAL_ERROR = 7, CPG_PIPELINE_SYNC = 10, CPG_PIPELINE_ABORTED = 11 };
enum { CPG_TRANS_IDLE = 0, CPG_TRANS_ACTIVE = 1, CPG_TRANS_INTRANS = 2, CPG_TRANS_INERROR = 3 };

/// Loads libpq once; 0 on success, else -1 with dlerror's text in `error`.
int cpg_load(char *error, size_t size);

/// Where a connection's notices and warnings go (else nowhere); set before connecting.
void cpg_set_notice_hook(void (*hook)(const char *));
PGconn *cpg_connectdb(const char *conninfo);
int cpg_status(const PGconn *conn);
const char *cpg_error_message(const PGconn *conn);
void cpg_finish(PGconn *conn);
int cpg_transaction_status(const PGconn *conn);
int cpg_socket(const PGconn *conn);
int cpg_consume_input(PGconn *conn);
/// The payload of the next notification received, copied into `payload`; 1 if there was one, else 0.
int cpg_next_notification(PGconn *conn, char *payload, size_t size);

PGresult *cpg_exec(PGconn *conn, const char *sql);
PGresult *cpg_prepare(PGconn *conn, const char *name, const char *sql, int count, const unsigned int *types);
PGresult *cpg_exec_prepared(PGconn *conn, const char *name, int count, const char *const *values,
                            const int *lengths, const int *formats);
int cpg_result_status(const PGresult *result);
const char *cpg_result_error(const PGresult *result);
/// The SQLSTATE of a failed result ("" when none).
const char *cpg_sqlstate(const PGresult *result);
int cpg_ntuples(const PGresult *result);
int cpg_nfields(const PGresult *result);
const char *cpg_fname(const PGresult *result, int column);
unsigned int cpg_ftype(const PGresult *result, int column);
int cpg_getisnull(const PGresult *result, int row, int column);
const char *cpg_getvalue(const PGresult *result, int row, int column);
int cpg_getlength(const PGresult *result, int row, int column);
const char *cpg_cmd_tuples(PGresult *result);
void cpg_clear(PGresult *result);
/// A bytea value in text form ("\\x…") as bytes, copied into a buffer the caller frees with cpg_free; NULL if malformed.
unsigned char *cpg_unescape_bytea(const char *text, size_t *length);
void cpg_free(void *pointer);

/// Pipeline mode (libpq 14 or newer): 1 when the loaded libpq has it.
int cpg_has_pipeline(void);
int cpg_enter_pipeline(PGconn *conn);
int cpg_exit_pipeline(PGconn *conn);
int cpg_pipeline_sync(PGconn *conn);
int cpg_send_prepare(PGconn *conn, const char *name, const char *sql, int count, const unsigned int *types);
int cpg_send_query_prepared(PGconn *conn, const char *name, int count, const char *const *values,
                            const int *lengths, const int *formats);
PGresult *cpg_get_result(PGconn *conn);

#endif
