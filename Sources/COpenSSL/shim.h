// The low-level SHA256_CTX lets a pre-keyed HMAC state be copied by value;
// OpenSSL 3 marks it deprecated, though it remains supported and exported.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>

// Macros over SSL_ctrl, which Swift cannot call directly.
static inline long arcade_ssl_set_sni(SSL *ssl, const char *name) { return SSL_set_tlsext_host_name(ssl, name); }
static inline long arcade_ctx_min_tls12(SSL_CTX *ctx) { return SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION); }

// The server side of TLS (HTTPServer): Mozilla's "intermediate" profile in one place.
#include <stdio.h>
#include <string.h>

static int arcade_alpn_select(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                              const unsigned char *in, unsigned int inlen, void *arg) {
    static const unsigned char http11[] = "\x08http/1.1";
    (void)ssl; (void)arg;
    unsigned char *chosen = NULL;
    if (SSL_select_next_proto(&chosen, outlen, http11, sizeof http11 - 1, in, inlen) != OPENSSL_NPN_NEGOTIATED)
        return SSL_TLSEXT_ERR_ALERT_FATAL;  // RFC 7301: no_application_protocol
    *out = chosen;
    return SSL_TLSEXT_ERR_OK;
}

static inline void arcade_tls_error(const char *what, const char *file, char *error, size_t size) {
    unsigned long code = ERR_peek_error();  // the first error names the cause
    char reason[256] = "unknown error";
    if (code) ERR_error_string_n(code, reason, sizeof reason);
    ERR_clear_error();
    snprintf(error, size, "%s %s: %s", what, file, reason);
}

#include <pthread.h>
#include <openssl/core_names.h>

// Session ticket keys, rotated in memory: new tickets are sealed with the current key, and a ticket sealed with the
// previous one is still accepted (and replaced), so no ticket outlives two rotation periods and a stolen key opens
// little. One ring per server, kept across certificate reloads.
typedef struct { unsigned char name[16], aes[32], hmac[32]; } arcade_ticket_key;
typedef struct { pthread_mutex_t lock; arcade_ticket_key current, previous; } arcade_ticket_ring;

static pthread_once_t arcade_ticket_once = PTHREAD_ONCE_INIT;
static int arcade_ticket_index = -1;
static void arcade_ticket_index_make(void) { arcade_ticket_index = SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, NULL); }

static inline int arcade_ticket_key_make(arcade_ticket_key *key) {
    return RAND_bytes(key->name, 16) == 1 && RAND_bytes(key->aes, 32) == 1 && RAND_bytes(key->hmac, 32) == 1;
}

/// The current key becomes the previous one, and a new one is made.
static inline int arcade_ticket_ring_rotate(arcade_ticket_ring *ring) {
    arcade_ticket_key fresh;
    if (!arcade_ticket_key_make(&fresh)) return 0;
    pthread_mutex_lock(&ring->lock);
    ring->previous = ring->current;
    ring->current = fresh;
    pthread_mutex_unlock(&ring->lock);
    OPENSSL_cleanse(&fresh, sizeof fresh);
    return 1;
}

static inline arcade_ticket_ring *arcade_ticket_ring_new(void) {
    arcade_ticket_ring *ring = OPENSSL_zalloc(sizeof *ring);
    if (!ring) return NULL;
    pthread_mutex_init(&ring->lock, NULL);
    if (!arcade_ticket_ring_rotate(ring) || !arcade_ticket_ring_rotate(ring)) { OPENSSL_free(ring); return NULL; }
    return ring;
}

static inline void arcade_ticket_ring_free(arcade_ticket_ring *ring) {
    pthread_mutex_destroy(&ring->lock);
    OPENSSL_clear_free(ring, sizeof *ring);
}

static int arcade_ticket_callback(SSL *ssl, unsigned char name[16], unsigned char *iv, EVP_CIPHER_CTX *cipher,
                                  EVP_MAC_CTX *mac, int encrypt) {
    arcade_ticket_ring *ring = SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), arcade_ticket_index);
    if (!ring) return -1;
    arcade_ticket_key key;
    int result = 1;
    pthread_mutex_lock(&ring->lock);
    if (encrypt || memcmp(name, ring->current.name, 16) == 0) {
        key = ring->current;
        // TLS 1.3 clients use a ticket once (RFC 8446 C.4; OpenSSL's own do): a resumption must bring a new one, or
        // every other connection of theirs is a full handshake. OpenSSL's built-in keys renew them the same way.
        if (!encrypt && SSL_version(ssl) >= TLS1_3_VERSION) result = 2;
    } else if (memcmp(name, ring->previous.name, 16) == 0) {
        key = ring->previous;
        result = 2;  // accepted, and a new ticket under the current key is sent
    } else {
        result = 0;  // unknown or expired: a full handshake
    }
    pthread_mutex_unlock(&ring->lock);
    if (result == 0) return 0;
    OSSL_PARAM params[2] = { OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0),
                             OSSL_PARAM_construct_end() };
    int ok;
    if (encrypt) {
        memcpy(name, key.name, 16);
        ok = RAND_bytes(iv, 16) == 1 && EVP_EncryptInit_ex(cipher, EVP_aes_256_cbc(), NULL, key.aes, iv) == 1;
    } else {
        ok = EVP_DecryptInit_ex(cipher, EVP_aes_256_cbc(), NULL, key.aes, iv) == 1;
    }
    ok = ok && EVP_MAC_CTX_set_params(mac, params) == 1 && EVP_MAC_init(mac, key.hmac, 32, NULL) == 1;
    OPENSSL_cleanse(&key, sizeof key);
    return ok ? result : -1;
}

/// A server context from a PEM chain and key; NULL with `error` filled when they do not load or do not match.
static inline SSL_CTX *arcade_tls_server_context(const char *chain, const char *key, int ktls,
                                                  arcade_ticket_ring *tickets, char *error, size_t size) {
    ERR_clear_error();
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (!ctx) { arcade_tls_error("cannot create a context for", chain, error, size); return NULL; }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION | SSL_OP_IGNORE_UNEXPECTED_EOF
                        | (ktls ? SSL_OP_ENABLE_KTLS : 0));
    // TLS 1.2: ECDHE and AEAD only (TLS 1.3's defaults are all forward-secret AEAD suites).
    SSL_CTX_set_cipher_list(ctx, "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
                            "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
                            "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305");
    SSL_CTX_set1_groups_list(ctx, "X25519:prime256v1:secp384r1");
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER
                     | SSL_MODE_RELEASE_BUFFERS);
    SSL_CTX_set_read_ahead(ctx, 1);
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_SERVER);
    SSL_CTX_set_session_id_context(ctx, (const unsigned char *)"arcade", 6);
    SSL_CTX_set_alpn_select_cb(ctx, arcade_alpn_select, NULL);
    // Sessions last a day (Mozilla's figure), in the cache and in tickets sealed by the ring's keys.
    SSL_CTX_set_timeout(ctx, 86400);
    pthread_once(&arcade_ticket_once, arcade_ticket_index_make);
    SSL_CTX_set_ex_data(ctx, arcade_ticket_index, tickets);
    SSL_CTX_set_tlsext_ticket_key_evp_cb(ctx, arcade_ticket_callback);
    if (SSL_CTX_use_certificate_chain_file(ctx, chain) != 1) {
        arcade_tls_error("cannot load the certificate", chain, error, size);
    } else if (SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1) {
        arcade_tls_error("cannot load the key", key, error, size);
    } else if (SSL_CTX_check_private_key(ctx) != 1) {
        arcade_tls_error("the key does not match the certificate", chain, error, size);
    } else {
        return ctx;
    }
    SSL_CTX_free(ctx);
    return NULL;
}

/// "subject, serial HEX, expires DATE" of the context's certificate, for the log.
static inline void arcade_tls_describe(SSL_CTX *ctx, char *text, size_t size) {
    X509 *cert = SSL_CTX_get0_certificate(ctx);
    text[0] = 0;
    if (!cert) return;
    char subject[256];
    X509_NAME_oneline(X509_get_subject_name(cert), subject, sizeof subject);
    BIGNUM *bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(cert), NULL);
    char *serial = bn ? BN_bn2hex(bn) : NULL;
    char expires[64] = "";
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio && ASN1_TIME_print(bio, X509_get0_notAfter(cert))) {
        int n = BIO_read(bio, expires, sizeof expires - 1);
        expires[n > 0 ? n : 0] = 0;
    }
    snprintf(text, size, "%s, serial %s, expires %s", subject, serial ? serial : "?", expires);
    BIO_free(bio);
    OPENSSL_free(serial);
    BN_free(bn);
}

static inline int arcade_ssl_ktls_send(SSL *ssl) { return (int)BIO_get_ktls_send(SSL_get_wbio(ssl)); }
