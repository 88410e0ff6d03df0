#ifndef GITBAY_CCRYPTO_SHIM_H
#define GITBAY_CCRYPTO_SHIM_H

#include <limits.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

/*
 * One-shot SHA-256, HMAC-SHA256 and CRYPTO_memcmp from libcrypto, the library libcurl already
 * loads into the bot (libcurl4-openssl depends on libssl3). Each function takes plain pointers
 * and counts, so Swift calls no macro and no OpenSSL type leaks past this header.
 *
 * OpenSSL 3 reads a NULL key as "keep the previous key", and some of its paths refuse a NULL
 * data pointer even with a zero count: an empty key or message is passed as a pointer to a byte
 * that is never read, so the empty key and the empty message stay valid inputs.
 */

static const unsigned char ccrypto_nothing = 0;

/* The SHA-256 digest of `count` bytes at `data` into the 32 bytes at `digest`; 1 on success. */
static inline int ccrypto_sha256(const void *data, size_t count, unsigned char *digest) {
    unsigned int length = 0;
    int ok = EVP_Digest(count ? data : &ccrypto_nothing, count, digest, &length, EVP_sha256(), NULL);
    return ok == 1 && length == 32;
}

/* The HMAC-SHA256 code of `count` bytes at `data` under the key, into the 32 bytes at `code`;
 * 1 on success, 0 for a key longer than OpenSSL takes (INT_MAX bytes) or a failure. */
static inline int ccrypto_hmac_sha256(const void *key, size_t key_count, const void *data, size_t count,
                                      unsigned char *code) {
    if (key_count > INT_MAX) return 0;
    unsigned int length = 0;
    const unsigned char *made = HMAC(EVP_sha256(), key_count ? key : &ccrypto_nothing, (int)key_count,
                                     count ? data : &ccrypto_nothing, count, code, &length);
    return made != NULL && length == 32;
}

/* Whether the `count` bytes at `left` and `right` are equal, read in a time that depends on
 * `count` alone: 1 if they are. */
static inline int ccrypto_equal(const void *left, const void *right, size_t count) {
    if (count == 0) return 1;
    return CRYPTO_memcmp(left, right, count) == 0;
}

#endif
