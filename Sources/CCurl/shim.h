#ifndef GITBAY_CCURL_SHIM_H
#define GITBAY_CCURL_SHIM_H

#include <curl/curl.h>

#endif
