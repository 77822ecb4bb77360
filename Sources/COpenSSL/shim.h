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
