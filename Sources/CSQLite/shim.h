#ifndef TODO_CSQLITE_SHIM_H
#define TODO_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast macro that Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) {
  return SQLITE_TRANSIENT;
}

/// Turns off SQLite's memory statistics, which take a global mutex around every allocation it
/// makes (a list of 10k tasks made ~40k of them). sqlite3_config is variadic, which Swift cannot
/// call, and only works before SQLite is initialised (the first open): later it returns
/// SQLITE_MISUSE and changes nothing.
static inline int csqlite_disable_memory_statistics(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
