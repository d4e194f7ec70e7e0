// What the build knows about itself that Swift cannot: the git commit it was built from.
// `make` writes todo-build-commit.h beside this header (ignored by git) with
//   #define TODO_BUILD_COMMIT "3f2a1c9"
// before it builds; a plain `swift build` has no such file, and the commit is empty.
#ifndef TODO_CBUILDINFO_H
#define TODO_CBUILDINFO_H

#if defined(__has_include)
#if __has_include("todo-build-commit.h")
#include "todo-build-commit.h"
#endif
#endif

#ifndef TODO_BUILD_COMMIT
#define TODO_BUILD_COMMIT ""
#endif

/// The abbreviated commit the program was built from ("" when unknown).
static inline const char *todo_build_commit(void) { return TODO_BUILD_COMMIT; }

#endif
