// `make build-info` writes include/todo-build-commit.h (ignored by git) with
//   #define TODO_BUILD_COMMIT "3f2a1c9"
// and touches this file whenever it changes, so that only this file is compiled again and the
// programs linked again. A plain `swift build` has no such header: the commit is empty.
#include "CBuildInfo.h"

#if defined(__has_include)
#if __has_include("todo-build-commit.h")
#include "todo-build-commit.h"
#endif
#endif

#ifndef TODO_BUILD_COMMIT
#define TODO_BUILD_COMMIT ""
#endif

const char *todo_build_commit(void) { return TODO_BUILD_COMMIT; }
