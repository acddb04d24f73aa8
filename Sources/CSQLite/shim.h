#ifndef PODCASTS_CSQLITE_SHIM_H
#define PODCASTS_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
