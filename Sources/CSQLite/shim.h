#ifndef GITBAY_CSQLITE_SHIM_H
#define GITBAY_CSQLITE_SHIM_H

#include <sqlite3.h>

/*
 * SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import. Binding
 * text with it makes SQLite copy the bytes before the call returns, so Swift's buffer may go.
 */
static inline int csqlite_bind_text_copy(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

#endif
