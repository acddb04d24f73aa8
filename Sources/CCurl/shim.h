#ifndef PODCASTS_CCURL_SHIM_H
#define PODCASTS_CCURL_SHIM_H

// libcurl's types and constants only: the library itself is opened with dlopen when the
// first transfer starts, so that commands which fetch nothing never load it and the ~30
// libraries it needs (TLS, Kerberos, LDAP, SSH...). There is deliberately no `link` in
// the module map.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <dlfcn.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call through a
// function pointer; these make the call from C, one per argument type used.
typedef CURLcode (*podcasts_curl_setopt_function)(CURL *, CURLoption, ...);
typedef CURLcode (*podcasts_curl_getinfo_function)(CURL *, CURLINFO, ...);

static inline CURLcode podcasts_curl_setopt_long(
    void *setopt, CURL *handle, CURLoption option, long value) {
  return ((podcasts_curl_setopt_function)setopt)(handle, option, value);
}

static inline CURLcode podcasts_curl_setopt_offset(
    void *setopt, CURL *handle, CURLoption option, curl_off_t value) {
  return ((podcasts_curl_setopt_function)setopt)(handle, option, value);
}

static inline CURLcode podcasts_curl_setopt_pointer(
    void *setopt, CURL *handle, CURLoption option, const void *value) {
  return ((podcasts_curl_setopt_function)setopt)(handle, option, value);
}

static inline CURLcode podcasts_curl_setopt_write_callback(
    void *setopt, CURL *handle, CURLoption option, curl_write_callback value) {
  return ((podcasts_curl_setopt_function)setopt)(handle, option, value);
}

static inline CURLcode podcasts_curl_setopt_xferinfo_callback(
    void *setopt, CURL *handle, CURLoption option, curl_xferinfo_callback value) {
  return ((podcasts_curl_setopt_function)setopt)(handle, option, value);
}

static inline CURLcode podcasts_curl_getinfo_long(
    void *getinfo, CURL *handle, CURLINFO info, long *value) {
  return ((podcasts_curl_getinfo_function)getinfo)(handle, info, value);
}

#endif
